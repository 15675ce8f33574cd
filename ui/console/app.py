"""Assembling and running the console: service on its worker thread, presenter, window."""

from __future__ import annotations

import ctypes.util
import dataclasses
import os
import signal
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from platformdirs import user_data_dir
from PySide6.QtCore import (
    QCoreApplication,
    QMessageLogContext,
    QTimer,
    QtMsgType,
    qInstallMessageHandler,
)
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication

from dealer_assist.at_rest import data_folder
from dealer_assist.config import TableConfig
from dealer_assist.errors import ConfigError
from dealer_assist.notary.client import NotaryClient
from dealer_assist.source import CardSource
from dealer_assist.storage.access import USERS_FILE, LocalUsers
from dealer_assist.storage.engine import journal_url
from dealer_assist.storage.faults import ResilientJournal, StorageNotice
from dealer_assist.storage.journal import Journal
from drivers.factory import open_source
from drivers.failover.table import open_table_sources
from ui.console import theme
from ui.console.demo import DemoDriver
from ui.console.i18n import install_language
from ui.console.pitboss import PitBossRoster
from ui.console.presenter import ConsolePresenter
from ui.console.service import SourceFactory, TableService
from ui.console.walk import ALARM_GUARD, REENTER_WINDOW, TAP_GUARD, VOID_ARM_TIMEOUT
from ui.console.window import ConsoleWindow
from ui.console.worker import WorkerBridge


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


class Console:
    """One console: the service on its worker thread, the presenter and the window.

    Args:
        config: the table.
        make_source: builds the card source (see :func:`source_factory`).
        journal: the journal (opened and closed by the service on the worker thread).
        lang: ``it`` or ``en``.
        mirror: seat 1 on the right of the screen.
        card_timeout: seconds the runner waits for each card before voiding the hand.
        slow_card_timeout: the same while the dealer types the cards (or a camera reads them).
        roster: pit bosses who confirm an identified unreadable card (None: badge only).
        dealer: who identifies unreadable cards (journaled with them).
        guards: the presenter's tap settings by name (``tap_guard``, ``void_timeout``,
            ``alarm_guard``, ``reenter_window``, seconds: :mod:`ui.console.walk`); default the
            named settings.

    ``start()`` starts the worker and connects the source; ``close()`` closes everything
    (idempotent). Qt's application must exist (:func:`qt_app`).
    """

    def __init__(
        self,
        config: TableConfig,
        make_source: SourceFactory,
        journal: Journal | None,
        *,
        lang: str = "it",
        mirror: bool = False,
        card_timeout: float = 5.0,
        slow_card_timeout: float = 120.0,
        roster: PitBossRoster | None = None,
        dealer: str = "dealer",
        guards: Mapping[str, float] | None = None,
    ) -> None:
        app = QCoreApplication.instance()
        if app is None:
            raise ConfigError("create the Qt application first (ui.console.app.qt_app)")
        self.translators = install_language(app, lang)
        self.config = config
        self.service = TableService(
            config, make_source, journal, card_timeout=card_timeout,
            slow_card_timeout=slow_card_timeout, roster=roster, dealer=dealer,
        )  # fmt: skip
        self.bridge = WorkerBridge(self.service)
        # a typed card goes straight into the keypad source (thread-safe)
        g = {"tap_guard": TAP_GUARD, "void_timeout": VOID_ARM_TIMEOUT, "alarm_guard": ALARM_GUARD,
             "reenter_window": REENTER_WINDOW, **(guards or {})}  # fmt: skip
        self.presenter = ConsolePresenter(
            config, self.bridge.send, enter=self.service.enter_card, tap_guard=g["tap_guard"],
            void_timeout=g["void_timeout"], alarm_guard=g["alarm_guard"],
            reenter_window=g["reenter_window"],
        )  # fmt: skip
        self.bridge.snapshot.connect(self.presenter.on_snapshot)
        self.window = ConsoleWindow(self.presenter, config, lang, mirror=mirror)

    def start(self) -> None:
        """Start the worker thread and connect the source (the first hand opens)."""
        self.bridge.start()
        self.presenter.start()

    def close(self) -> None:
        """Stop the worker (closing source and journal), close the window, and remove this
        console's translators from the application."""
        self.bridge.shutdown()
        self.window.close()
        app = QCoreApplication.instance()
        if app is not None:
            for t in self.translators:
                app.removeTranslator(t)
        self.translators = []


def run_console(
    config: TableConfig,
    *,
    lang: str,
    windowed: bool,
    size: tuple[int, int] = (1920, 1080),
    db: str | None = None,
    source_url: str | None = None,
    mirror: bool = False,
    demo: int = 0,
    screenshot_dir: Path | None = None,
    seed: int = 1,
    pit_bosses: Path | None = None,
    dealer: str = "dealer",
    floor_url: str | None = None,
    notary: NotaryClient | None = None,
) -> int:
    """Run the console until its window closes (or the demo ends); returns the exit status.

    ``demo`` > 0 plays that many hands by itself (offscreen unless a display is forced) and saves
    a screenshot per phase in ``screenshot_dir``; its hands never go to the table's journal:
    without ``db`` they go to :func:`demo_journal_path` (named on stdout). ``pit_bosses``: the
    roster file (default :func:`default_roster_path`; missing = badge only). ``dealer``:
    recorded with the cards the dealer identifies. ``floor_url``: the table's ``[floor]``: its
    large payouts can also be signed off in the pit-boss application (not in a demo).
    ``notary``: the table's signer (``[notary]``): it signs the journal (not in a demo).
    """
    previous = None
    if not demo and _no_display():
        # No screen here (SSH, CI): show what the console does instead of failing.
        demo, screenshot_dir = 3, screenshot_dir or Path("console-demo")
        print(
            "dealer-assist console: no display here (DISPLAY/WAYLAND_DISPLAY unset), so 3 demo "
            f"hands are played offscreen; screenshots of every phase go to {screenshot_dir}/. "
            "On the table's screen this command opens the console.",
            file=sys.stderr,
        )
    if not demo:
        _check_xcb_libraries()
    if demo and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        previous = qInstallMessageHandler(_quiet_offscreen)
    demo_db = demo_journal_path(screenshot_dir) if demo and db is None else None
    if demo_db is not None:
        url = str(demo_db)
    else:
        url = db or config.journal_url or str(default_journal_path())
    config = dataclasses.replace(config, journal_url=url)
    app = qt_app()
    roster = PitBossRoster(pit_bosses or default_roster_path()).load()
    # retries what may pass; its faults and notices reach the dealer's banner (the service)
    journal = ResilientJournal(url, group=config.journal_group, on_notice=_notice_to_stderr,
                               notary=None if demo else notary)  # fmt: skip
    console = Console(
        config, source_factory(config, source_url), journal,
        lang=lang, mirror=mirror, roster=roster, dealer=dealer,
    )  # fmt: skip
    console.service.signers = pitboss_users(url)  # large payouts: the pit-boss app's users
    if floor_url and not demo:  # ... and confirmed in the pit-boss application (its thread)
        from dealer_assist.storage.floor.signoff_relay import SignoffRelay

        console.service.signoff_relay = SignoffRelay(floor_url, config.table_id)
    win = console.window
    status = 0
    if windowed or demo:
        win.resize(*size)
        win.show()
    else:
        # Without a window manager (kiosk, Xvfb) full screen alone keeps the minimum size.
        win.setGeometry(app.primaryScreen().geometry())
        win.showFullScreen()
    console.start()
    _quit_on_signals(app)
    if demo:
        driver = DemoDriver(console, demo, screenshot_dir, seed=seed)
        driver.finished.connect(app.quit)
        driver.start()
        app.exec()
        status = 0 if driver.ok else 1
        driver.report()
        if demo_db is not None:
            print(
                f"demo hands journaled in {demo_db} (not the table's journal); "
                f"check with: dealer-assist audit verify --db {demo_db}"
            )
    else:
        app.exec()
    console.close()
    console.window.deleteLater()
    del console
    app.processEvents()
    if previous is not None:
        qInstallMessageHandler(previous)
    return status


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


def _notice_to_stderr(notice: StorageNotice) -> None:
    # the operator's copy of a storage notice (the dealer reads it translated on the banner)
    print(f"dealer-assist console: {notice}", file=sys.stderr)


def _quiet_offscreen(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    # The offscreen platform warns on every window resize; everything else goes to stderr.
    if "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


_XCB_LIBS = {
    "xcb-cursor": "libxcb-cursor0",
    "xcb-icccm": "libxcb-icccm4",
    "xcb-keysyms": "libxcb-keysyms1",
    "xkbcommon-x11": "libxkbcommon-x11-0",
}


def _check_xcb_libraries() -> None:
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


def _no_display() -> bool:
    """Linux/BSD without X11 or Wayland and no Qt platform forced: Qt would abort."""
    if not sys.platform.startswith(("linux", "freebsd")) or os.environ.get("QT_QPA_PLATFORM"):
        return False
    return not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _quit_on_signals(app: QApplication) -> None:
    """Ctrl+C / SIGTERM close the console cleanly (source and journal closed by the worker).
    Python runs signal handlers only between bytecodes, so a timer wakes it up regularly."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: app.quit())
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(250)
