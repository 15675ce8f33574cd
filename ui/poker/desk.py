"""What the poker presenter's collaborators share: the screen's own state and the double-tap
guard (the commands in flight are the kit's :class:`~ui.kit.outbox.Outbox`). Qt-free.

:class:`Console` is the narrow face the presenter shows its collaborators (the seat changes
between hands, the amount keys, the card keypad): the screen, the step, whether a command is in
flight, the guard, and the ways out (redraw, say a line, send a command). Each collaborator
owns its own state and is tested alone with any object of that shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ui.kit.commands import Command
from ui.poker.snapshot import PokerSnapshot
from ui.poker.views import Message

DOUBLE_TAP_S = 0.4
"""A second tap of the same button within this many seconds does nothing."""


@dataclass
class Screen:
    """The state only the screen cares about, shared by the presenter's collaborators.

    ``snap`` is the service's latest snapshot; ``message`` the line for the dealer;
    ``selected`` the seat selected between hands; ``void_armed``: the next tap on Void confirms
    it.
    """

    snap: PokerSnapshot = field(default_factory=PokerSnapshot)
    message: Message | None = None
    selected: int | None = None
    void_armed: bool = False

    def disarm(self) -> None:
        """Any tap but Void's disarms it (and drops its confirmation line)."""
        if self.void_armed:
            self.void_armed = False
            if self.message is not None and self.message.code == "confirm_void":
                self.message = None


class TapGuard:
    """A double tap acts once: a tap within :data:`DOUBLE_TAP_S` of the last tap on any button,
    or of the table moving on (another seat to act, another street, another page), is ignored:
    the second tap of a double tap lands on whatever button is under the finger by then (New
    hand -> Void hand, Call -> the next street's Check, Next -> New hand).

    Args:
        clock: monotonic seconds.
    """

    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.last: tuple[str, float] | None = None  # the last tap: (its key, when)
        self.moved_at: float | None = None  # when the table last moved on

    def moved(self) -> None:
        """The table moved on: the buttons now mean something else."""
        self.moved_at = self.clock()

    def double(self, key: str) -> bool:
        """True (ignore it) for a tap of ``key`` that is the second of a double tap."""
        now = self.clock()
        last = self.last
        self.last = (key, now)
        if last is not None and 0 <= now - last[1] < DOUBLE_TAP_S:
            return True
        return self.moved_at is not None and 0 <= now - self.moved_at < DOUBLE_TAP_S


class Console(Protocol):
    """What a collaborator asks of the presenter holding it."""

    @property
    def screen(self) -> Screen: ...

    @property
    def busy(self) -> bool: ...

    def step(self) -> str: ...

    def double(self, key: str) -> bool: ...

    def changed(self) -> None: ...

    def say(self, message: Message) -> None: ...

    def command(self, make: Callable[[int], Command]) -> None: ...
