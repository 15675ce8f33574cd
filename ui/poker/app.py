"""Assembling and running the poker console: the service on the shared worker thread, the
presenter, the window (``dealer-assist console --game holdem``)."""

from __future__ import annotations

import dataclasses
import os
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, qInstallMessageHandler

from dealer_assist.config import TableConfig
from dealer_assist.errors import ConfigError
from dealer_assist.notary.client import NotaryClient
from dealer_assist.storage.faults import ResilientJournal
from dealer_assist.storage.journal import Journal
from ui.console.app import (
    _quiet_offscreen,
    _quit_on_signals,
    default_journal_path,
    default_roster_path,
    demo_journal_path,
    pitboss_users,
    qt_app,
    source_factory,
)
from ui.console.i18n import install_language
from ui.console.pitboss import PitBossRoster
from ui.console.service import SourceFactory
from ui.console.worker import WorkerBridge
from ui.poker.presenter import PokerPresenter
from ui.poker.service import PokerService, execute
from ui.poker.window import PokerWindow
from ui.tournament.level_strip import LevelStrip, attach_level_strip


class PokerConsole:
    """One poker console: the service on its worker thread, the presenter and the window.

    Args:
        config: the table (``config.poker`` its game).
        make_source: builds the card source.
        journal: the journal (opened and closed by the service on the worker thread).
        lang: ``it`` or ``en``.
        card_timeout, slow_card_timeout: seconds per card (device; keypad or camera).
        dealer: who makes the changes between hands.
        roster: pit bosses who confirm an identified unreadable card (None: badge only).
        tournament: a tournament table: the id of the tournament in the table's journal ("":
            the last one playing at this table) whose level and action clock the console shows
            (:mod:`ui.tournament.level_strip`); None: not a tournament table.

    ``start()`` starts the worker and connects; ``close()`` closes everything (idempotent).
    Raises ConfigError when Qt's application does not exist yet or the table is not a pot game.
    """

    def __init__(
        self, config: TableConfig, make_source: SourceFactory, journal: Journal | None, *,
        lang: str = "it", card_timeout: float = 5.0, slow_card_timeout: float = 120.0,
        dealer: str = "dealer", roster: PitBossRoster | None = None,
        tournament: str | None = None,
    ) -> None:  # fmt: skip
        app = QCoreApplication.instance()
        if app is None:
            raise ConfigError("create the Qt application first (ui.console.app.qt_app)")
        if config.poker is None:
            raise ConfigError(f"table {config.table_id}: not a poker-room game ({config.game})")
        self.translators = install_language(app, lang)
        self.config = config
        self.service = PokerService(config, make_source, journal, card_timeout=card_timeout,
                                    slow_card_timeout=slow_card_timeout, dealer=dealer,
                                    roster=roster)  # fmt: skip
        self.bridge = WorkerBridge(self.service, run_command=execute)
        self.presenter = PokerPresenter(config, self.bridge.send, enter=self.service.enter_card)
        self.bridge.snapshot.connect(self.presenter.on_snapshot)
        self.window = PokerWindow(self.presenter, config, lang)
        self.level_strip: LevelStrip | None = None  # a tournament table: level, action clock
        if tournament is not None:
            self.level_strip = attach_level_strip(self.window, self.presenter, config,
                                                  tournament_id=tournament or None)  # fmt: skip

    def start(self) -> None:
        """Start the worker thread and connect the source."""
        self.bridge.start()
        self.presenter.start()

    def close(self) -> None:
        """Stop the worker (closing source and journal), close the window, remove this console's
        translators."""
        self.bridge.shutdown()
        if self.level_strip is not None:
            self.level_strip.stop()
        self.window.close()
        app = QCoreApplication.instance()
        if app is not None:
            for t in self.translators:
                app.removeTranslator(t)
        self.translators = []


def run_poker_console(
    config: TableConfig, *, lang: str, windowed: bool, size: tuple[int, int] = (1920, 1080),
    db: str | None = None, source_url: str | None = None, demo: int = 0,
    screenshot_dir: Path | None = None, seed: int = 1, dealer: str = "dealer",
    tournament: str | None = None, floor_url: str | None = None,
    notary: NotaryClient | None = None,
) -> int:  # fmt: skip
    """Run the poker console until its window closes; ``demo`` > 0 plays scripted hands
    offscreen (:mod:`ui.poker.demo`, cards typed on the keypad source, its own journal unless
    ``db``) and saves screenshots in ``screenshot_dir`` in both languages. ``floor_url``: the
    table's ``[floor]``: a held large pot is also confirmed in the pit-boss application
    (:mod:`ui.poker.service_signoff`). Returns the exit status."""
    previous = None
    if demo and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        previous = qInstallMessageHandler(_quiet_offscreen)
    app = qt_app()
    status = 0
    if demo:
        from ui.poker.demo import run_demo

        status = run_demo(app, config, demo, screenshot_dir, size=size, db=db, seed=seed,
                          langs=(lang, "en" if lang != "en" else "it"))  # fmt: skip
    else:
        url = db or config.journal_url or str(default_journal_path())
        config = dataclasses.replace(config, journal_url=url)
        roster = PitBossRoster(default_roster_path()).load()
        # retries what may pass, says what did not; its notices reach the dealer through the
        # service's snapshots (PokerService takes them: on_notice is set there)
        journal = ResilientJournal(url, group=config.journal_group, notary=notary)
        console = PokerConsole(config, source_factory(config, source_url), journal,
                               lang=lang, dealer=dealer, roster=roster,
                               tournament=tournament)  # fmt: skip
        console.service.signers = pitboss_users(url)  # large pots: the pit-boss app's users
        if floor_url:  # ... and confirmed in the pit-boss application (the relay's thread)
            from dealer_assist.storage.floor.signoff_relay import SignoffRelay

            console.service.signoff_relay = SignoffRelay(floor_url, config.table_id)
        win = console.window
        if windowed:
            win.resize(*size)
            win.show()
        else:
            win.setGeometry(app.primaryScreen().geometry())
            win.showFullScreen()
        console.start()
        _quit_on_signals(app)
        app.exec()
        console.close()
        console.window.deleteLater()
        app.processEvents()
    if previous is not None:
        qInstallMessageHandler(previous)
    return status


def demo_journal(screenshot_dir: Path | None, lang: str) -> Path:
    """The demo's own journal for ``lang`` (never the table's)."""
    base = demo_journal_path(screenshot_dir)
    path = base.with_name(f"poker-demo-{lang}.db")
    if path.exists():
        path.unlink()
    print(f"poker demo hands journaled in {path}", file=sys.stderr)
    return path
