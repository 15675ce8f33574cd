"""Presenter commands run on the table service (what the worker thread does with each)."""

from __future__ import annotations

from ui.console.presenter import Command
from ui.console.service import TableService
from ui.console.snapshot import TableSnapshot


def execute(service: TableService, cmd: Command) -> TableSnapshot:
    """Run a presenter :class:`~ui.console.presenter.Command` on ``service``; an unknown or
    incomplete command just reports the table (a tick)."""
    s = service
    if cmd.kind == "sign_off":
        return s.sign_off(cmd.seat, cmd.badge, cmd.pin, cmd.seq)
    if cmd.kind == "retry":
        return s.retry(cmd.seq)
    if cmd.kind == "open":
        return s.open(cmd.seq)
    if cmd.kind == "new_hand":
        return s.new_hand(cmd.seq)
    if cmd.kind == "deal":
        return s.deal(cmd.bets, cmd.seq)
    if cmd.kind == "act" and cmd.action is not None:
        return s.act(cmd.seat, cmd.action, cmd.seq)
    if cmd.kind == "dealer_step":
        return s.dealer_step(cmd.seq)
    if cmd.kind == "void" and cmd.reason is not None:
        return s.void(cmd.reason, cmd.seq)
    if cmd.kind == "ack":
        return s.acknowledge_void(cmd.seq)
    if cmd.kind == "identify" and cmd.card is not None:
        return s.identify(cmd.card, cmd.seq)
    if cmd.kind == "confirm" and cmd.card is not None:
        return s.confirm(cmd.card, cmd.badge, cmd.pin, cmd.seq)
    if cmd.kind == "exposed":
        return s.record_exposed(cmd.position, cmd.card, cmd.seq)
    if cmd.kind == "paid":
        return s.mark_paid(cmd.seat, cmd.seq)
    if cmd.kind == "undo":
        return s.undo(cmd.seat, cmd.seq)
    if cmd.kind == "correct" and cmd.action is not None:
        return s.correct_decision(cmd.seat, cmd.action, cmd.badge, cmd.pin, cmd.seq)
    if cmd.kind == "history":
        return s.open_history(cmd.seq, cmd.badge, cmd.pin)
    if cmd.kind == "dealer":
        return s.change_dealer(cmd.badge, cmd.seq)
    if cmd.kind == "close_history":
        return s.close_history(cmd.seq)
    return s.tick()
