"""What the banked presenter's collaborators share: the screen's own state and the commands in
flight (the pit boss's badge and PIN are the kit's :class:`~ui.kit.pin_entry.PitBossEntry`).
Qt-free.

:class:`Console` is the narrow face the presenter shows its collaborators (the payout walk, the
card taps, the pit boss's forms): the screen, the step, whether a command is in flight, and the
two ways out (redraw, send a command). Each collaborator owns its own state and is tested alone
with any object of that shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ui.console.commands import Act
from ui.console.snapshot import TableSnapshot
from ui.console.view import Message, Step
from ui.kit.commands import Command


@dataclass
class Screen:
    """The state only the screen cares about, shared by the presenter's collaborators.

    ``snap`` is the service's latest snapshot; ``message`` the line under the table;
    ``selected``/``box`` where the keypad's chips go; ``last_bets`` what *Repeat last bets* puts
    back (seat -> box -> minor units); ``dismissed``/``storage_dismissed`` the numbers of the
    source-switch and storage notices already read.
    """

    snap: TableSnapshot = field(default_factory=TableSnapshot)
    message: Message | None = None
    void_armed: bool = False
    selected: int | None = None
    box: str = ""
    last_bets: dict[int, dict[str, int]] = field(default_factory=dict)
    dismissed: int = 0
    storage_dismissed: int = 0

    def disarm(self) -> None:
        """Any tap other than *Void hand* disarms it (and drops its confirmation line)."""
        if self.void_armed:
            self.void_armed = False
            if self.message is not None and self.message.code == "confirm_void":
                self.message = None


class Outbox:
    """Numbers the commands and remembers those the service has not answered yet.

    A command is answered once a snapshot with its ``seq`` or a later one arrives
    (:meth:`answered`). ``acts`` maps a seat to the number of its decision in flight (noted by
    the presenter once the decision is sent).
    """

    def __init__(self) -> None:
        self.seq = 0
        self.waiting: dict[int, type[Command]] = {}
        self.acts: dict[int, int] = {}

    def number(self, make: Callable[[int], Command]) -> Command:
        """The command ``make(seq)`` builds with the next number, noted as waiting."""
        self.seq += 1
        cmd = make(self.seq)
        self.waiting[self.seq] = type(cmd)
        return cmd

    def answered(self, seq: int) -> None:
        """Forget the commands numbered ``seq`` or less (the snapshot of ``seq`` answers them)."""
        self.waiting = {s: k for s, k in self.waiting.items() if s > seq}
        self.acts = {seat: s for seat, s in self.acts.items() if s > seq}

    def has(self, kind: type[Command]) -> bool:
        """A command of class ``kind`` waits for its answer."""
        return kind in self.waiting.values()

    @property
    def busy(self) -> bool:
        """A command other than a decision is in flight (the dealer's buttons wait)."""
        return any(k is not Act for k in self.waiting.values())


class Console(Protocol):
    """What a collaborator asks of the presenter holding it."""

    @property
    def screen(self) -> Screen: ...

    @property
    def busy(self) -> bool: ...

    def step(self) -> Step: ...

    def changed(self) -> None: ...

    def command(self, make: Callable[[int], Command]) -> int: ...
