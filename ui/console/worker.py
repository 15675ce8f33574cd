"""The worker thread: the table service runs on its own QThread; commands go in by a queued
signal, snapshots come back by another. The GUI thread never waits for the device.

A timer on the worker thread ticks the service (device events, the clock, faults that void a
hand, the heartbeat): every ``busy_tick_ms`` while the table waits for the device (a deal's
cards), every ``tick_ms`` otherwise. No step blocks the worker, so a command, a void or a close
is handled at once, also during a deal.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt, QThread, QTimer, Signal, Slot

from ui.console.commands import execute
from ui.console.presenter import Command
from ui.console.service import TableService
from ui.console.snapshot import TableSnapshot


class TableWorker(QObject):
    """Lives on the worker thread and owns the service. ``snapshot`` carries a TableSnapshot."""

    snapshot = Signal(object)

    def __init__(self, service: TableService, tick_ms: int = 250, busy_tick_ms: int = 20) -> None:
        super().__init__()
        self.service = service
        self.tick_ms = tick_ms
        self.busy_tick_ms = busy_tick_ms
        self._timer: QTimer | None = None
        self._last: TableSnapshot | None = None

    @Slot()
    def start(self) -> None:
        """Start ticking (runs on the worker thread once it started)."""
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.tick)
        self._timer.start(self.tick_ms)

    @Slot(object)
    def run(self, cmd: Command) -> None:
        """Execute one presenter command and report the snapshot."""
        self._emit(execute(self.service, cmd), force=True)
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

    def _emit(self, snap: TableSnapshot, *, force: bool) -> None:
        if force or snap != self._last:
            self._last = snap
            self.snapshot.emit(snap)


class WorkerBridge(QObject):
    """GUI-side handle: ``send(cmd)`` queues a command to the worker thread; snapshots arrive on
    the GUI thread through ``snapshot``. Call :meth:`shutdown` before the application quits."""

    command = Signal(object)
    snapshot = Signal(object)
    _stop = Signal()

    def __init__(self, service: TableService, tick_ms: int = 250) -> None:
        super().__init__()
        self.worker_thread = QThread()
        self.worker_thread.setObjectName("table-worker")
        self.worker = TableWorker(service, tick_ms)
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

    def send(self, cmd: Command) -> None:
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
