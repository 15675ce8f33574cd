"""``dealer-assist console --game holdem|stud``: the poker console on the table's screen, or its
scripted demo (:mod:`ui.poker.demo`) offscreen. The assembled console is :mod:`ui.poker.app`'s;
this module sits above both (the demo drives a console, the console knows no demo)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from dealer_assist.config import TableConfig
from dealer_assist.notary.client import NotaryClient
from dealer_assist.storage.faults import ResilientJournal
from ui.kit.boot import console_qt, default_journal_path, default_roster_path, source_factory
from ui.kit.console_run import join_floor, serve, show_console
from ui.kit.console_stop import ConsoleStopReport
from ui.kit.pitboss import PitBossRoster
from ui.kit.service_parts import ServiceParts
from ui.poker.app import PokerConsole
from ui.poker.demo import run_demo


def run_poker_console(
    config: TableConfig,
    *,
    lang: str,
    windowed: bool,
    size: tuple[int, int] = (1920, 1080),
    db: str | None = None,
    source_url: str | None = None,
    demo: int = 0,
    screenshot_dir: Path | None = None,
    seed: int = 1,
    dealer: str = "dealer",
    tournament: str | None = None,
    floor_url: str | None = None,
    notary: NotaryClient | None = None,
) -> int:
    """Run the poker console until its window closes; ``demo`` > 0 plays scripted hands
    offscreen (:mod:`ui.poker.demo`, cards typed on the keypad source, its own journal unless
    ``db``) and saves screenshots in ``screenshot_dir`` in both languages. ``floor_url``: the
    table's ``[floor]``: a held large pot is also confirmed in the pit-boss application
    (:mod:`ui.poker.service_signoff`). Returns the exit status."""
    with console_qt(offscreen=bool(demo)) as app:
        if demo:
            return run_demo(
                app,
                config,
                demo,
                screenshot_dir,
                size=size,
                db=db,
                seed=seed,
                langs=(lang, "en" if lang != "en" else "it"),
            )
        url = db or config.journal_url or str(default_journal_path())
        config = dataclasses.replace(config, journal_url=url)
        roster = PitBossRoster(default_roster_path()).load()
        # retries what may pass, says what did not; its notices reach the dealer through the
        # service's snapshots (PokerService takes them: on_notice is set there)
        journal = ResilientJournal(url, group=config.journal_group, notary=notary)
        parts = ServiceParts(
            config, source_factory(config, source_url), journal, roster=roster, dealer=dealer
        )
        console = PokerConsole(parts, lang=lang, tournament=tournament)
        # large pots: the pit-boss app's users, and with a floor the pit-boss application
        join_floor(console.service.link, config.table_id, url, floor_url)
        show_console(app, console.window, windowed=windowed, size=size)
        serve(app, console, ConsoleStopReport("dealer-assist console", config.table_id, url))
        app.processEvents()
    return 0
