"""Starting any console window (banked, poker, tournament): the Qt application, where the
journal and the roster live by default, the card source factory, the pit-boss users, and the
process's signals and offscreen messages.

Run on the GUI thread, before the window opens."""

from __future__ import annotations

import ctypes.util
import os
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from platformdirs import user_data_dir
from PySide6.QtCore import QMessageLogContext, QTimer, QtMsgType, qInstallMessageHandler
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from dealer_assist.at_rest import data_folder
from dealer_assist.config import TableConfig
from dealer_assist.errors import ConfigError
from dealer_assist.source import CardSource
from dealer_assist.storage.access import USERS_FILE, LocalUsers
from dealer_assist.storage.engine import journal_url
from dealer_assist.storage.faults import StorageNotice
from drivers.factory import open_source
from drivers.failover.table import open_table_sources
from ui.kit import theme
from ui.kit.sources import SourceFactory
from ui.stop import StopRequest


def default_journal_path() -> Path:
    """``<user data folder>/dealer-assist/journal.db`` (the folder created ``0700`` when missing,
    :func:`dealer_assist.at_rest.data_folder`)."""
    return data_folder() / "journal.db"  # the folder 0700: the journal holds the cards


def demo_journal_path(screenshot_dir: Path | None) -> Path:
    """Where demo hands are journaled, so they never mix with the table's real hands:
    ``demo-journal.db`` in the screenshot folder (created), else ``journal.db`` in a new
    temporary folder."""
    if screenshot_dir is None:
        return Path(tempfile.mkdtemp(prefix="dealer-assist-demo-")) / "journal.db"
    screenshot_dir.mkdir(parents=True, exist_ok=True)
    return screenshot_dir / "demo-journal.db"


def default_roster_path() -> Path:
    """``<user data folder>/dealer-assist/pit_bosses.json``."""
    return Path(user_data_dir("dealer-assist", appauthor=False)) / "pit_bosses.json"


def source_factory(
    config: TableConfig, url: str | None = None, *, switch_after: float = 5.0
) -> SourceFactory:
    """Builds the card source: the table's ``[[sources]]`` in priority order with the dealer's
    keypad as the last resort (:func:`drivers.failover.open_table_sources`; a source that fails
    is replaced by the next one after ``switch_after`` seconds), or just ``url`` when given.

    The factory raises ConfigError (a source that cannot be built) or DeviceError (a bad URL).
    """

    def make() -> CardSource:
        if url is not None:
            return open_source(url)
        return open_table_sources(config, switch_after=switch_after)

    return make


def qt_app() -> QApplication:
    """The QApplication (created once), with the console's font and style sheet."""
    app = QApplication.instance()
    if app is None:
        app = QApplication([])
    if not isinstance(app, QApplication):
        raise ConfigError("a non-GUI Qt application is already running")
    app.setFont(QFont(theme.FONT_FAMILY, 12))
    app.setStyleSheet(theme.STYLE)
    return app


def pitboss_users(url: str) -> LocalUsers | None:
    """The pit-boss application's users file beside a SQLite journal (``dealer-assist pitboss
    --db`` keeps ``pitboss_users.json`` in the journal's folder) when it exists: large payouts
    are then signed off by its users' badges, PINs and roles (:mod:`ui.console.signoff`); else
    None (the console's roster). A floor (PostgreSQL) users table is not read here."""
    if "://" in url and not url.startswith("sqlite"):
        return None
    db = journal_url(url).database
    if not db:
        return None
    folder = Path(db).parent
    return LocalUsers(folder) if (folder / USERS_FILE).is_file() else None


def notice_to_stderr(notice: StorageNotice) -> None:
    # the operator's copy of a storage notice (the dealer reads it translated on the banner)
    print(f"dealer-assist console: {notice}", file=sys.stderr)


def quiet_offscreen(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    # The offscreen platform warns on every window resize; everything else goes to stderr.
    if "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


@contextmanager
def console_qt(offscreen: bool = False) -> Iterator[QApplication]:
    """The Qt application of one run of a console (:func:`qt_app`). ``offscreen`` (a demo):
    Qt draws offscreen unless ``QT_QPA_PLATFORM`` names a platform. Offscreen, Qt's message
    about every window resize is kept quiet (:func:`quiet_offscreen`) until the run ends, when
    the message handler there was is put back."""
    if offscreen and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    quiet = os.environ.get("QT_QPA_PLATFORM") == "offscreen"
    previous = qInstallMessageHandler(quiet_offscreen) if quiet else None
    try:
        yield qt_app()
    finally:
        if previous is not None:
            qInstallMessageHandler(previous)


_XCB_LIBS = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
}


def check_xcb_libraries() -> None:
    """Qt's X11 plugin aborts the process when a system library is missing; say which first."""
    if not sys.platform.startswith("linux") or os.environ.get("QT_QPA_PLATFORM", "xcb") != "xcb":
        return
    if not os.environ.get("DISPLAY"):
        return
    missing = [pkg for lib, pkg in _XCB_LIBS.items() if ctypes.util.find_library(lib) is None]
    if missing:
        raise ConfigError(
            "Qt needs system libraries to open a window on X11: "
            f"sudo apt-get install {' '.join(missing)}"
        )


def no_display() -> bool:
    """Linux/BSD without X11 or Wayland and no Qt platform forced: Qt would abort."""
    if not sys.platform.startswith(("linux", "freebsd")) or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def quit_on_signals(app: QApplication) -> StopRequest:
    """Ctrl+C / SIGTERM close the console cleanly (source and journal closed by the worker):
    the application quits, the returned request says which signal came (the caller says what
    was done, :mod:`ui.kit.console_stop`, and restores the handlers). Python runs signal
    handlers only between bytecodes, so a timer wakes it up regularly."""
    stop = StopRequest(on_stop=app.quit).install()
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(250)
    # a signal before the event loop runs: quit() then did nothing, so quit once it runs
    QTimer.singleShot(0, app, lambda: app.quit() if stop.requested else None)
    return stop


def say_when_running(line: str) -> None:
    """Print ``line`` on stdout (flushed) once the event loop runs: a supervisor (or a test)
    reading it knows the window is open and takes signals."""
    QTimer.singleShot(0, lambda: print(line, flush=True))
