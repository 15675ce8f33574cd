"""Assembling and running the console: service on its worker thread, presenter, window."""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from dealer_assist.config import TableConfig
from dealer_assist.notary.client import NotaryClient
from dealer_assist.storage.faults import ResilientJournal
from ui.console.demo import DemoDriver
from ui.console.dispatch import execute
from ui.console.presenter import ConsolePresenter
from ui.console.service import TableService
from ui.console.walk import ALARM_GUARD, REENTER_WINDOW, TAP_GUARD, VOID_ARM_TIMEOUT
from ui.console.window import ConsoleWindow
from ui.kit.boot import (
    check_xcb_libraries,
    console_qt,
    default_journal_path,
    default_roster_path,
    demo_journal_path,
    no_display,
    notice_to_stderr,
    source_factory,
)
from ui.kit.console_run import join_floor, serve, show_console
from ui.kit.console_stop import ConsoleStopReport
from ui.kit.i18n import ConsoleLanguage
from ui.kit.pitboss import PitBossRoster
from ui.kit.service_parts import ServiceParts
from ui.kit.tap_guard import HOLD
from ui.kit.worker import WorkerBridge


class Console:
    """One console: the service on its worker thread, the presenter and the window.

    Args:
        parts: the table, its card source (:func:`source_factory`), the journal (opened and
            closed by the service on the worker thread), the seconds the runner waits for each
            card before voiding the hand, the pit bosses who confirm an identified unreadable
            card and the dealer who identifies them (:class:`~ui.kit.service_parts.ServiceParts`).
        lang: ``it`` or ``en``.
        mirror: seat 1 on the right of the screen.
        guards: the presenter's tap settings by name (``tap_guard``, ``void_timeout``,
            ``alarm_guard``, ``reenter_window``, seconds: :mod:`ui.console.walk`); default the
            named settings.
        clock: monotonic seconds of the tap guards (tests pass their own).

    ``start()`` starts the worker and connects the source; ``close()`` closes everything
    (idempotent). Qt's application must exist (:func:`ui.kit.boot.qt_app`).
    """

    def __init__(
        self,
        parts: ServiceParts,
        *,
        lang: str = "it",
        mirror: bool = False,
        guards: Mapping[str, float] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.language = ConsoleLanguage(lang)
        self.config = config = parts.config
        self.service = TableService(parts)
        self.bridge = WorkerBridge(self.service, execute)
        # a typed card goes straight into the keypad source (thread-safe)
        g = {
            "tap_guard": TAP_GUARD,
            "void_timeout": VOID_ARM_TIMEOUT,
            "alarm_guard": ALARM_GUARD,
            "reenter_window": REENTER_WINDOW,
            "steady_hold": HOLD,
            **(guards or {}),
        }
        self.presenter = ConsolePresenter(
            config,
            self.bridge.send,
            enter=self.service.enter_card,
            tap_guard=g["tap_guard"],
            void_timeout=g["void_timeout"],
            alarm_guard=g["alarm_guard"],
            reenter_window=g["reenter_window"],
            steady_hold=g["steady_hold"],
            clock=clock,
        )
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
        self.language.remove()


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
    if not demo and no_display():
        # No screen here (SSH, CI): show what the console does instead of failing.
        demo, screenshot_dir = 3, screenshot_dir or Path("console-demo")
        print(
            "dealer-assist console: no display here (DISPLAY/WAYLAND_DISPLAY unset), so 3 demo "
            f"hands are played offscreen; screenshots of every phase go to {screenshot_dir}/. "
            "On the table's screen this command opens the console.",
            file=sys.stderr,
        )
    if not demo:
        check_xcb_libraries()
    demo_db = demo_journal_path(screenshot_dir) if demo and db is None else None
    if demo_db is not None:
        url = str(demo_db)
    else:
        url = db or config.journal_url or str(default_journal_path())
    config = dataclasses.replace(config, journal_url=url)
    with console_qt(offscreen=bool(demo)) as app:
        roster = PitBossRoster(pit_bosses or default_roster_path()).load()
        # retries what may pass; its faults and notices reach the dealer's banner (the service)
        journal = ResilientJournal(
            url,
            group=config.journal_group,
            on_notice=notice_to_stderr,
            notary=None if demo else notary,
        )
        parts = ServiceParts(
            config, source_factory(config, source_url), journal, roster=roster, dealer=dealer
        )
        console = Console(parts, lang=lang, mirror=mirror)
        # large payouts: the pit-boss app's users, and (not in a demo) the pit-boss application
        join_floor(console.service.link, config.table_id, url, None if demo else floor_url)
        show_console(app, console.window, windowed=windowed or bool(demo), size=size)
        report = ConsoleStopReport("dealer-assist console", config.table_id, url, announce=not demo)
        if not demo:
            serve(app, console, report)
            status = 0
        else:
            driver = DemoDriver(console, demo, screenshot_dir, seed=seed)
            driver.finished.connect(app.quit)

            def play() -> None:
                driver.start()  # the console started: the demo taps its first hand
                app.exec()

            serve(app, console, report, play)
            status = 0 if driver.ok else 1
            driver.report()
            if demo_db is not None:
                print(
                    f"demo hands journaled in {demo_db} (not the table's journal); "
                    f"check with: dealer-assist audit verify --db {demo_db}"
                )
        del console
        app.processEvents()
    return status
