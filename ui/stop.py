"""An ordinary stop (SIGTERM from systemd or a supervisor, SIGINT from Ctrl-C) of a long-running
command, as a request: the command finishes the step it is in (a hand is settled or voided and
journaled), says so in one sentence and exits 0, so the next start has nothing to resume.

::

    with StopRequest() as stop:
        for _ in range(hands):
            if stop.requested:
                break
            play_one()
    if stop.requested:
        print(stop.sentence("after hand 12: ..."))

A second signal while stopping raises :class:`KeyboardInterrupt` (the operator insists), unless
an ``on_stop`` callback is given (a Qt window: each signal calls it, e.g. ``app.quit``, and the
event loop returns). The handlers are installed only in the main thread and restored on exit.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StopRequest:
    """SIGTERM and SIGINT set :attr:`requested` (the signal's name in :attr:`name`);
    ``on_stop`` is called on each one (from the main thread, between bytecodes)."""

    def __init__(self, on_stop: Callable[[], object] | None = None) -> None:
        self.signal: int | None = None
        self.on_stop = on_stop
        self._old: dict[int, Any] = {}

    @property
    def requested(self) -> bool:
        """A stop was asked for."""
        return self.signal is not None

    @property
    def name(self) -> str:
        """The signal's name (``SIGTERM``), "" when none came."""
        return signal.Signals(self.signal).name if self.signal is not None else ""

    def sentence(self, what: str) -> str:
        """``stopped by SIGTERM <what>`` (``stopped by SIGTERM: <what>`` for a ``what`` that
        starts with a colon)."""
        sep = "" if what.startswith(":") else " "
        return f"stopped by {self.name}{sep}{what}"

    def _on_signal(self, signum: int, _frame: FrameType | None) -> None:
        if self.on_stop is not None:
            self.signal = self.signal or signum
            self.on_stop()
            return
        if self.signal is not None:
            raise KeyboardInterrupt  # asked twice: stop now (the step log keeps the hand)
        self.signal = signum

    def install(self) -> StopRequest:
        """Take SIGTERM and SIGINT (main thread only; elsewhere nothing changes)."""
        if threading.current_thread() is threading.main_thread():
            for sig in STOP_SIGNALS:
                self._old[sig] = signal.signal(sig, self._on_signal)
        return self

    def restore(self) -> None:
        """Put the previous handlers back."""
        for sig, old in self._old.items():
            signal.signal(sig, old)
        self._old.clear()

    def __enter__(self) -> StopRequest:
        return self.install()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.restore()
