"""What the banked presenter's collaborators share: the screen's own state (the commands in
flight are the kit's :class:`~ui.kit.outbox.Outbox`, the pit boss's badge and PIN its
:class:`~ui.kit.pin_entry.PitBossEntry`). Qt-free.

:class:`Console` is the narrow face the presenter shows its collaborators (the payout walk, the
card taps, the pit boss's forms): the screen, the step, whether a command is in flight, and the
two ways out (redraw, send a command). Each collaborator owns its own state and is tested alone
with any object of that shape.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from ui.console.snapshot import TableSnapshot
from ui.console.view import Message, Step
from ui.kit.commands import Command


@dataclass
class Screen:
    """The state only the screen cares about, shared by the presenter's collaborators.

    ``snap`` is the service's latest snapshot; ``message`` the line under the table;
    ``selected``/``box`` where the keypad's chips go; ``last_bets`` what *Repeat last bets* puts
    back (seat -> box -> minor units); ``dismissed``/``storage_dismissed`` the numbers of the
    source-switch and storage notices already read; ``acts`` maps a seat to the number of its
    decision sent (in flight while the outbox waits for it).
    """

    snap: TableSnapshot = field(default_factory=TableSnapshot)
    message: Message | None = None
    void_armed: bool = False
    selected: int | None = None
    box: str = ""
    last_bets: dict[int, dict[str, int]] = field(default_factory=dict)
    dismissed: int = 0
    storage_dismissed: int = 0
    acts: dict[int, int] = field(default_factory=dict)

    def disarm(self) -> None:
        """Any tap other than *Void hand* disarms it (and drops its confirmation line)."""
        if self.void_armed:
            self.void_armed = False
            if self.message is not None and self.message.code == "confirm_void":
                self.message = None


class Console(Protocol):
    """What a collaborator asks of the presenter holding it."""

    @property
    def screen(self) -> Screen: ...

    @property
    def busy(self) -> bool: ...

    def step(self) -> Step: ...

    def changed(self) -> None: ...

    def command(self, make: Callable[[int], Command]) -> int: ...
