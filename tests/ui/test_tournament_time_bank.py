"""A live tournament table's time banks survive a restart of its console.

Real journals (SQLite files), a real ``kill -9`` of a console process mid-hand, the strip and
the poker console offscreen: a bank drawn before the restart shows what is left after it.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.storage.journal import Journal
from dealer_assist.table.records import tournament_part
from dealer_assist.tournament.action_clock import TIME_BANK_EVENT, journaled_banks
from dealer_assist.tournament.errors import ClockError
from tests.ui.test_tournament_screens import Clock, desk_for, stud_break
from ui.kit.boot import qt_app
from ui.kit.i18n import install_language
from ui.kit.service_parts import ServiceParts
from ui.tournament.bank_journal import BankJournal
from ui.tournament.desk import DirectorDesk
from ui.tournament.level_strip import LevelStrip

ROOT = Path(__file__).parent.resolve().parents[1]


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(str(tmp_path / "tournament.db"))
    j.open()
    yield j
    j.close()


@pytest.fixture
def english(qtbot: Any) -> Iterator[None]:
    install_language(qt_app(), "en")
    yield


def strip_on(qtbot: Any, journal: Journal, desk: DirectorDesk, clock: Clock) -> LevelStrip:
    """A strip of the desk's first table whose banks go to ``journal``'s file."""
    strip = LevelStrip(now=clock)
    qtbot.addWidget(strip)
    strip.table_id = desk.state.tables[0]
    strip.bank_journal = BankJournal(str(journal.url_or_path))
    strip.set_snapshot(desk.snapshot())
    qtbot.waitUntil(strip.banks_ready, timeout=10000)  # read back on the journal's thread
    return strip


def bank_records(journal: Journal) -> list[dict[str, Any]]:
    parts = (tournament_part(s) for s in journal.iter_hands())
    return [p for p in parts if p is not None and p.get("event") == TIME_BANK_EVENT]


def test_a_bank_drawn_before_a_restart_is_not_full_after_it(
    qtbot: Any, journal: Journal, english: None
) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    strip = strip_on(qtbot, journal, desk, clock)
    strip.on_turn(("h1", 3, "third"), "Ada")
    clock.move(seconds=35)  # 5 s of her bank (automatic after the 30 s action clock)
    strip.on_turn(("h1", 4, "third"), "Bea")
    clock.move(seconds=3)  # Bea acts within her action clock: nothing journaled
    strip.on_turn(("h1", 5, "third"), "Carlo")
    strip.stop()
    recs = bank_records(journal)
    assert [(r["player"], r["bank_ms_used"], r["bank_ms_left"]) for r in recs] == [
        ("Ada", 5000, 55_000)
    ]
    assert journal.verify().ok
    again = strip_on(qtbot, journal, desk, clock)  # the console restarted on the same journal
    assert again.banks.left("Ada") == 55_000
    again.on_turn(("h2", 3, "fourth"), "Ada")
    again.refresh()
    assert again.action.text() == "Ada: 0:30 · time bank 0:55"
    clock.move(seconds=40)  # 10 s more of it
    again.on_turn(("h2", 4, "fourth"), "Bea")
    again.stop()
    third = strip_on(qtbot, journal, desk, clock)  # read twice, counted once: absolute ms left
    assert third.banks.left("Ada") == 45_000
    assert "Bea" not in third.banks.banks  # never drew: full when she is next to act
    third.stop()


def test_a_console_killed_mid_hand_keeps_the_bank_it_journaled(
    qtbot: Any, journal: Journal, english: None, tmp_path: Path
) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    child = textwrap.dedent(f"""
        import sys, time
        from datetime import timedelta
        from dealer_assist.storage.journal import Journal
        from dealer_assist.tournament.state import TournamentState
        from tests.ui.test_tournament_screens import Clock
        from ui.kit.boot import qt_app
        from ui.tournament.bank_journal import BankJournal
        from ui.tournament.board import Snapshot
        from ui.tournament.level_strip import LevelStrip

        app = qt_app()
        j = Journal({str(journal.url_or_path)!r}, read_only=True)
        j.open()
        state = TournamentState({desk.state.tournament_id!r})
        for stored in j.iter_hands():
            state.take(stored)
        clock = Clock()
        strip = LevelStrip(now=clock)
        strip.table_id = {desk.state.tables[0]!r}
        strip.bank_journal = BankJournal({str(journal.url_or_path)!r})
        strip.set_snapshot(Snapshot.of_state(state, clock()))
        while not strip.banks_ready():  # the answer comes as a signal: the event loop runs
            app.processEvents()
            time.sleep(0.01)
        strip.on_turn(("h7", 3, "fifth"), "Ada")
        clock.move(seconds=50)  # 20 s of Ada's bank
        strip.on_turn(("h7", 4, "fifth"), "Bea")  # mid-hand: Bea to act
        clock.move(seconds=45)  # Bea is drawing hers when the process dies
        strip.refresh()
        assert strip.bank_journal.wait_idle(10)
        print("drawn", flush=True)
        time.sleep(60)
    """)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", child], stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "drawn"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(10)
    assert proc.returncode == -signal.SIGKILL
    assert journal.verify().ok
    strip = strip_on(qtbot, journal, desk, clock)
    assert strip.banks.left("Ada") == 40_000
    # her decision never ended, but what was left of her bank while she drew it was journaled
    assert strip.banks.left("Bea") == 45_000
    strip.stop()


def test_a_decision_ended_before_the_banks_are_read_back_counts_from_them(
    qtbot: Any, journal: Journal, english: None
) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    first = strip_on(qtbot, journal, desk, clock)
    first.on_turn(("h1", 3, "third"), "Ada")
    clock.move(seconds=50)  # 20 s of her bank: 40 s left
    first.on_turn(("h1", 4, "third"), None)
    first.stop()
    strip = LevelStrip(now=clock)  # the console again; its banks not read back yet
    qtbot.addWidget(strip)
    strip.table_id = desk.state.tables[0]
    strip.bank_journal = BankJournal(str(journal.url_or_path))
    strip.set_snapshot(desk.snapshot())
    strip.on_turn(("h2", 3, "fourth"), "Ada")  # begun on what the strip knows: a full bank
    clock.move(seconds=35)  # 5 s of it
    strip.on_turn(("h2", 4, "fourth"), None)
    qtbot.waitUntil(strip.banks_ready, timeout=10000)
    assert strip.banks.left("Ada") == 35_000  # 40 s read back, less the 5 s
    strip.stop()
    assert [r["bank_ms_left"] for r in bank_records(journal)] == [40_000, 35_000]


def test_the_journal_is_written_off_the_gui_thread(
    qtbot: Any, journal: Journal, english: None
) -> None:
    """A journal another writer holds (here a second connection's write transaction) does
    not stop the console: the decision moves on at once and the record lands when the
    journal is free."""
    import sqlite3
    import time

    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    strip = strip_on(qtbot, journal, desk, clock)
    other = sqlite3.connect(str(journal.url_or_path), timeout=0)
    try:
        other.execute("BEGIN IMMEDIATE")  # the journal's write lock, held
        strip.on_turn(("h1", 3, "third"), "Ada")
        clock.move(seconds=40)
        t0 = time.monotonic()
        strip.on_turn(("h1", 4, "third"), "Bea")
        assert time.monotonic() - t0 < 1.0  # no wait for the lock on the GUI thread
        assert strip.banks.left("Ada") == 50_000
        assert bank_records(journal) == []  # not written yet: the lock is held
    finally:
        time.sleep(0.5)
        other.rollback()
        other.close()
    assert strip.bank_journal is not None and strip.bank_journal.wait_idle(60)
    assert [(r["player"], r["bank_ms_left"]) for r in bank_records(journal)] == [("Ada", 50_000)]
    strip.stop()


def test_the_poker_console_reopened_on_the_journal_shows_the_bank_left(
    qtbot: Any, journal: Journal, english: None
) -> None:
    from drivers.manual import ManualSource
    from ui.poker.app import PokerConsole

    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    first = strip_on(qtbot, journal, desk, clock)
    first.on_turn(("h1", 3, "third"), "Ada")
    clock.move(seconds=42)
    first.on_turn(("h1", 4, "third"), "Bea")
    first.stop()
    config = dataclasses.replace(
        load_table_config(game="stud"),
        table_id=desk.state.tables[0],
        seats=8,
        journal_url=str(journal.url_or_path),
    )
    console = PokerConsole(
        ServiceParts(config, ManualSource, Journal(str(journal.url_or_path))),
        lang="en",
        tournament="",
    )
    qtbot.addWidget(console.window)
    console.window.show()
    console.start()
    try:
        strip = console.level_strip
        assert strip is not None and strip.bank_journal is not None
        qtbot.waitUntil(lambda: strip.isVisible(), timeout=10000)
        qtbot.waitUntil(strip.banks_ready, timeout=10000)  # read back on the journal's thread
        assert strip.banks.left("Ada") == 48_000
    finally:
        console.close()


def test_a_corrupt_bank_record_is_refused_by_name() -> None:
    good = {"id": "T", "event": TIME_BANK_EVENT, "player": "Ada", "bank_ms_left": 1000}
    other = {"id": "U", "event": TIME_BANK_EVENT, "player": "Ada", "bank_ms_left": 7}
    assert journaled_banks([good, other], "T").banks == {"Ada": 1000}
    with pytest.raises(ClockError, match="bad bank_ms_left -5"):
        journaled_banks([{**good, "bank_ms_left": -5}], "T")
    with pytest.raises(ClockError, match="bad player"):
        journaled_banks([{**good, "player": ""}], "T")
