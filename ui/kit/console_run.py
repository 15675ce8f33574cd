"""Running an assembled dealer console on the table's screen, the same for both consoles
(:func:`ui.console.app.run_console`, :func:`ui.poker.run.run_poker_console`): who signs at the
table (:func:`join_floor`), the window on the screen (:func:`show_console`), and the run from
the first snapshot to the stop sentence (:func:`serve`).

Each console builds its own window, service and journal first; these functions only take what
every console has (:class:`TableConsole`). Run on the GUI thread.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from PySide6.QtWidgets import QApplication, QWidget

from ui.kit.boot import pitboss_users, quit_on_signals
from ui.kit.console_stop import ConsoleStopReport
from ui.kit.table_link import TableLink
from ui.kit.worker import WorkerBridge


class LinkedService(Protocol):
    """A table service that owns a :class:`~ui.kit.table_link.TableLink` as ``link``."""

    link: TableLink


class TableConsole(Protocol):
    """What an assembled console offers its runner: the window, the worker bridge, the service
    (with its link), ``start()`` (the worker and the source) and ``close()`` (idempotent)."""

    @property
    def window(self) -> QWidget: ...

    @property
    def bridge(self) -> WorkerBridge: ...

    @property
    def service(self) -> LinkedService: ...

    def start(self) -> None: ...

    def close(self) -> None: ...


def join_floor(link: TableLink, table_id: str, journal_url: str, floor_url: str | None) -> None:
    """Who signs off at table ``table_id``: the pit-boss application's users beside the journal
    (:func:`ui.kit.boot.pitboss_users`; None leaves the console's roster), and with
    ``floor_url`` (the table's ``[floor]``) a relay that offers the table's sign-offs to the
    pit-boss application too (it runs on its own thread, closed by :meth:`TableLink.close`)."""
    link.signers = pitboss_users(journal_url)
    if floor_url:
        # imported here: SQLAlchemy's floor engine is loaded only by a table with a floor
        from dealer_assist.storage.floor.signoff_relay import SignoffRelay

        link.floor.relay = SignoffRelay(floor_url, table_id)


def show_console(
    app: QApplication, window: QWidget, *, windowed: bool, size: tuple[int, int]
) -> None:
    """Show ``window``: ``size`` (width, height pixels) in a window, else full screen on the
    primary screen (without a window manager, kiosk or Xvfb, full screen alone keeps the
    minimum size)."""
    if windowed:
        window.resize(*size)
        window.show()
    else:
        window.setGeometry(app.primaryScreen().geometry())
        window.showFullScreen()


def serve(
    app: QApplication,
    console: TableConsole,
    report: ConsoleStopReport,
    run: Callable[[], object] | None = None,
) -> None:
    """Start ``console``, run ``run`` (default: Qt's event loop until the window closes or a
    signal quits it), then close it and say how it stopped (``report``).

    The stop signal reaches the worker before it closes (a SIGTERM between hands leaves nothing
    to resume); the step in progress is finished by the worker and the hand stays in the step
    log. The window is deleted once Qt's events run again (the caller's ``processEvents``)."""
    console.bridge.snapshot.connect(lambda s: report.on_state(s.hand_no, s.phase, s.street))
    console.start()
    stop = quit_on_signals(app)
    (run or app.exec)()
    console.service.link.stop_signal = stop.requested  # read by the worker as it closes
    console.close()
    report.report(stop)
    console.window.deleteLater()
