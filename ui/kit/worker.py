"""The worker thread: the table service runs on its own QThread; commands go in by a queued
signal, snapshots come back by another. The GUI thread never waits for the device.

A timer on the worker thread ticks the service (device events, the clock, faults that void a
hand, the heartbeat): every ``busy_tick_ms`` while the table waits for the device (a deal's
cards), every ``tick_ms`` otherwise. No step blocks the worker, so a command, a void or a close
is handled at once, also during a deal.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot


class TickedService(Protocol):
    """What the worker drives: a table service (:class:`ui.console.service.TableService`, the
    poker room's :class:`ui.poker.service.PokerService`) that ticks, says when it is busy and
    closes; its snapshots are compared for changes."""

    @property
    def busy(self) -> bool:
        """The table waits for the device: tick soon."""

    def tick(self) -> Any:
        """Move the table on; the snapshot."""

    def close(self) -> None:
        """Close the source and the journal."""


Execute = Callable[[Any, Any], Any]
"""Runs one presenter command on the service; returns the snapshot."""


class TableWorker(QObject):
    """Lives on the worker thread and owns the service. ``snapshot`` carries the service's
    snapshot; ``run_command`` executes a command (each console brings its own)."""

    snapshot = Signal(object)

    def __init__(
        self,
        service: TickedService,
        run_command: Execute,
        tick_ms: int = 250,
        busy_tick_ms: int = 20,
    ) -> None:
        super().__init__()
        self.service = service
        self.tick_ms = tick_ms
        self.busy_tick_ms = busy_tick_ms
        self.run_command = run_command
        self._timer: QTimer | None = None
        self._last: Any = None

    @Slot()
    def start(self) -> None:
        """Start ticking (runs on the worker thread once it started)."""
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.tick)
        self._timer.start(self.tick_ms)

    @Slot(object)
    def run(self, cmd: Any) -> None:
        """Execute one presenter command and report the snapshot."""
        self._emit(self.run_command(self.service, cmd), force=True)
        self._pace()

    @Slot()
    def tick(self) -> None:
        """Move the table on; report only when something changed."""
        self._emit(self.service.tick(), force=False)
        self._pace()

    def _pace(self) -> None:
        timer = self._timer
        interval = self.busy_tick_ms if self.service.busy else self.tick_ms
        if timer is not None and timer.interval() != interval:
            timer.setInterval(interval)

    @Slot()
    def stop(self) -> None:
        """Stop ticking and close the source and the journal."""
        if self._timer is not None:
            self._timer.stop()
        self.service.close()

    def _emit(self, snap: Any, *, force: bool) -> None:
        if force or snap != self._last:
            self._last = snap
            self.snapshot.emit(snap)


class WorkerBridge(QObject):
    """GUI-side handle: ``send(cmd)`` queues a command to the worker thread; snapshots arrive on
    the GUI thread through ``snapshot``. Call :meth:`shutdown` before the application quits."""

    command = Signal(object)
    snapshot = Signal(object)
    _stop = Signal()

    def __init__(self, service: TickedService, run_command: Execute, tick_ms: int = 250) -> None:
        super().__init__()
        self.worker_thread = QThread()
        self.worker_thread.setObjectName("table-worker")
        self.worker = TableWorker(service, run_command, tick_ms)
        self.worker.moveToThread(self.worker_thread)
        self.worker_thread.started.connect(self.worker.start)
        self.command.connect(self.worker.run)
        # blocking: the service is closed on its own thread before the thread is asked to quit
        self._stop.connect(self.worker.stop, Qt.ConnectionType.BlockingQueuedConnection)
        self.worker.snapshot.connect(self.snapshot)
        self._running = False

    def start(self) -> None:
        """Start the worker thread (idempotent)."""
        if not self._running:
            self._running = True
            self.worker_thread.start()

    def send(self, cmd: Any) -> None:
        """Queue ``cmd`` to the worker (never blocks)."""
        self.command.emit(cmd)

    def shutdown(self, timeout_ms: int = 8000) -> None:
        """Close the service on its thread, then stop the thread (idempotent)."""
        if not self._running:
            return
        self._running = False
        self._stop.emit()
        self.worker_thread.quit()
        self.worker_thread.wait(timeout_ms)
