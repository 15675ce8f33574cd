"""The presenter's commands run on the table service (what the worker thread does with each):
one handler per command class, looked up by the command's type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ui.console.commands import (
    Act,
    CloseHistory,
    Correct,
    Deal,
    DealerStep,
    MarkPaid,
    NewHand,
    OpenHistory,
    RecordExposed,
    SignOff,
    Undo,
    VoidHand,
)
from ui.console.service import TableService
from ui.console.snapshot import TableSnapshot
from ui.kit.commands import (
    AcknowledgeVoid,
    ChangeDealer,
    Command,
    Confirm,
    Identify,
    OpenTable,
    RetryStorage,
    Tick,
)

# each handler takes the command of its key's class (Any: a dict cannot say so per key)
Handler = Callable[[TableService, Any], TableSnapshot]

HANDLERS: dict[type[Command], Handler] = {
    OpenTable: lambda s, c: s.open(c.seq),
    NewHand: lambda s, c: s.new_hand(c.seq),
    Deal: lambda s, c: s.deal(c.bets, c.seq),
    Act: lambda s, c: s.act(c.seat, c.action, c.seq),
    DealerStep: lambda s, c: s.dealer_step(c.seq),
    VoidHand: lambda s, c: s.void(c.reason, c.seq),
    AcknowledgeVoid: lambda s, c: s.acknowledge_void(c.seq),
    Identify: lambda s, c: s.identify(c.card, c.seq),
    Confirm: lambda s, c: s.confirm(c.card, c.badge, c.pin, c.seq),
    RecordExposed: lambda s, c: s.record_exposed(c.position, c.card, c.seq),
    MarkPaid: lambda s, c: s.mark_paid(c.seat, c.seq),
    SignOff: lambda s, c: s.sign_off(c.seat, c.badge, c.pin, c.seq),
    Undo: lambda s, c: s.undo(c.seat, c.seq),
    Correct: lambda s, c: s.correct_decision(c.seat, c.action, c.badge, c.pin, c.seq),
    OpenHistory: lambda s, c: s.open_history(c.seq, c.badge, c.pin),
    CloseHistory: lambda s, c: s.close_history(c.seq),
    ChangeDealer: lambda s, c: s.change_dealer(c.badge, c.seq),
    RetryStorage: lambda s, c: s.retry(c.seq),
    Tick: lambda s, c: s.tick(),
}
"""The handler of each command class (every concrete class of :mod:`ui.console.commands`
and :mod:`ui.kit.commands`)."""


def execute(service: TableService, cmd: Command) -> TableSnapshot:
    """Run ``cmd`` on ``service`` by its class; its snapshot (a command of no known class just
    reports the table: a tick)."""
    return HANDLERS.get(type(cmd), HANDLERS[Tick])(service, cmd)
