"""The commands a console's presenter has sent and the service has not answered yet, the same at
both consoles: :class:`Outbox` numbers each command (:class:`~ui.kit.commands.Command`'s
``seq``) and forgets those a snapshot answers. Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable

from ui.kit.commands import Command


class Outbox:
    """Numbers the commands and remembers those the service has not answered yet.

    A command is answered once a snapshot with its ``seq`` or a later one arrives
    (:meth:`answered`). ``waiting`` maps each unanswered number to its command's class (never
    the command: a confirmation's PIN is not kept here).

    Args:
        free: command classes that do not hold the dealer's buttons while in flight (the banked
            console's seat decisions: each holds only its own seat, :meth:`waits`).
    """

    def __init__(self, free: tuple[type[Command], ...] = ()) -> None:
        self.seq = 0
        self.waiting: dict[int, type[Command]] = {}
        self.free = free

    def number(self, make: Callable[[int], Command]) -> Command:
        """The command ``make(seq)`` builds with the next number, noted as waiting."""
        self.seq += 1
        cmd = make(self.seq)
        self.waiting[self.seq] = type(cmd)
        return cmd

    def answered(self, seq: int) -> None:
        """Forget the commands numbered ``seq`` or less (the snapshot of ``seq`` answers them)."""
        self.waiting = {s: k for s, k in self.waiting.items() if s > seq}

    def has(self, kind: type[Command]) -> bool:
        """A command of class ``kind`` waits for its answer."""
        return kind in self.waiting.values()

    def waits(self, seq: int | None) -> bool:
        """The command numbered ``seq`` waits for its answer (None: no command)."""
        return seq is not None and seq in self.waiting

    @property
    def busy(self) -> bool:
        """A command not of a ``free`` class is in flight (the dealer's buttons wait)."""
        return any(k not in self.free for k in self.waiting.values())
