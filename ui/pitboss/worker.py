"""The application's one worker thread: every database call of the session runs there, never
on the GUI thread; each result (or the error's sentence) comes back as a Qt signal and is
handed to the callback the caller gave, on the GUI thread."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QThread, Signal, Slot

from dealer_assist.errors import DealerAssistError

Done = Callable[[Any], None]
Failed = Callable[[str], None]


class _Runner(QObject):
    finished = Signal(int, object)
    failed = Signal(int, str)

    @Slot(int, object)
    def run(self, job: int, fn: Callable[[], Any]) -> None:
        try:
            result = fn()
        except DealerAssistError as e:  # the product's errors are sentences for the screen
            self.failed.emit(job, str(e))
            return
        self.finished.emit(job, result)


class Jobs(QObject):
    """Submit ``fn`` to the worker thread; ``on_done(result)`` or ``on_error(text)`` follows on
    the GUI thread. ``idle`` is emitted when nothing is pending (tests wait on it)."""

    _submit = Signal(int, object)
    idle = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._thread = QThread()
        self._thread.setObjectName("pitboss-worker")
        self._runner = _Runner()
        self._runner.moveToThread(self._thread)
        self._submit.connect(self._runner.run)
        self._runner.finished.connect(self._finished)
        self._runner.failed.connect(self._failed)
        self._ids = itertools.count(1)
        self._pending: dict[int, tuple[Done, Failed]] = {}
        self._thread.start()

    @property
    def pending(self) -> int:
        """Jobs submitted and not yet answered."""
        return len(self._pending)

    def submit(self, fn: Callable[[], Any], on_done: Done, on_error: Failed) -> None:
        """Run ``fn`` on the worker thread."""
        job = next(self._ids)
        self._pending[job] = (on_done, on_error)
        self._submit.emit(job, fn)

    def _finished(self, job: int, result: Any) -> None:
        done, _ = self._pending.pop(job)
        done(result)
        if not self._pending:
            self.idle.emit()

    def _failed(self, job: int, text: str) -> None:
        _, error = self._pending.pop(job)
        error(text)
        if not self._pending:
            self.idle.emit()

    def stop(self) -> None:
        """End the worker thread (waits for the running job); safe twice."""
        if self._thread.isRunning():
            self._thread.quit()
            self._thread.wait(10_000)
