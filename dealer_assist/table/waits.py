"""What the event-driven runner waits for, with finite deadlines and no blocking.

A wait is a condition checked after every device event the runner handles, and a continuation:
``then(True)`` once the condition holds, ``then(False)`` when its monotonic deadline passes
(:meth:`Waits.check` from the runner's ``tick``). Nothing here sleeps or reads a device.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass


@dataclass
class Wait:
    """One wait: ``what`` (for logs), ``done``, the monotonic ``deadline``, ``then``."""

    what: str
    done: Callable[[], bool]
    deadline: float
    then: Callable[[bool], None]


class Waits:
    """The runner's open waits."""

    def __init__(self) -> None:
        self._open: list[Wait] = []

    def __bool__(self) -> bool:
        return bool(self._open)

    def add(
        self, what: str, done: Callable[[], bool], seconds: float, then: Callable[[bool], None]
    ) -> None:
        """Wait ``seconds`` at most for ``done``; ``then`` runs at once when it already holds."""
        if done():
            then(True)
        else:
            self._open.append(Wait(what, done, time.monotonic() + seconds, then))

    def check(self, now: float) -> None:
        """Run the continuation of every wait that is done or whose deadline passed (a
        continuation may open new waits or clear them)."""
        for wait in list(self._open):
            if wait not in self._open:
                continue  # an earlier continuation cleared it
            ok = wait.done()
            if ok or now >= wait.deadline:
                self._open.remove(wait)
                wait.then(ok)

    def clear(self) -> None:
        """Forget every wait (the hand they were for is over)."""
        self._open.clear()
