"""One level clock (issue: the level clock jumped backwards as time banks were drawn): a live
tournament's clock, as every screen reads it from the journal, only moves forwards with the
wall clock, whatever records without a clock (time banks) come between two readings; the
director's pause and a break stop the action clock of the seat to act, which runs again from
where it stood. The wall clock is the test's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.games.session import TableSession
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.action_clock import DecisionOutcome, bank_part
from dealer_assist.tournament.records import journal_event
from dealer_assist.tournament.state import TournamentState
from tests.ui.test_tournament_screens import Clock, desk_for, stud_break
from ui.tournament.board import Snapshot
from ui.tournament.level_strip import LevelStrip


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(str(tmp_path / "tournament.db"))
    j.open()
    yield j
    j.close()


def read(journal: Journal, clock: Clock) -> Snapshot:
    """What a screen reads from the journal now (the fold, read at this moment)."""
    state = TournamentState("ROOM")
    for stored in journal.iter_hands(1):
        state.take(stored)
    return Snapshot.of_state(state, clock())


def bank_record(journal: Journal, n: int) -> None:
    """A table's decision drew on a time bank (a record with no clock)."""
    out = DecisionOutcome("Ada", 40_000, 10_000, 60_000 - 10_000 * n, False)
    journal_event(
        journal,
        "ROOM-T1",
        bank_part("ROOM", "ROOM-T1", out, None),
        TableSession("ROOM-T1"),
        by="dealer",
        game="stud",
    )


def test_records_without_a_clock_never_move_the_level_clock_back(journal: Journal) -> None:
    clock = Clock()
    desk_for(journal, stud_break(), clock)
    shown: list[int] = []
    screens: list[Snapshot] = []
    for n in range(1, 6):
        clock.move(seconds=45)
        snap = read(journal, clock)
        screens.append(snap)
        bank_record(journal, n)  # drawn at a table: read again at once by every screen
        clock.move(seconds=1)
        again = read(journal, clock)
        for s in (*screens, again):  # every screen, whenever it last read, says the same
            left = s.board(clock()).level_ms_left
            assert left is not None
            shown.append(left)
        assert len({s.board(clock()).level_ms_left for s in (*screens, again)}) == 1
    assert shown == sorted(shown, reverse=True)  # never backwards
    assert shown[-1] == 20 * 60_000 - 5 * 46_000  # exactly the wall time run


def test_the_pause_and_the_break_stop_the_action_clock(journal: Journal, qtbot: Any) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    strip = LevelStrip(now=clock)
    qtbot.addWidget(strip)
    strip.set_snapshot(read(journal, clock))
    strip.on_turn(("h1", 3, "third"), "Ada")
    clock.move(seconds=10)
    strip.refresh()
    assert strip.decision is not None
    assert strip.decision.status(strip.action_now()).action_ms_left == 20_000
    desk.pause(by="Anna")
    strip.set_snapshot(read(journal, clock))
    clock.move(minutes=5)  # the director's pause: nothing runs
    strip.refresh()
    assert strip.decision.status(strip.action_now()).action_ms_left == 20_000
    assert "20" in strip.action.text() or "0:20" in strip.action.text()
    assert strip.left.text() == "Clock paused"
    desk.resume(by="Anna")
    strip.set_snapshot(read(journal, clock))
    clock.move(seconds=5)
    strip.refresh()
    assert strip.decision.status(strip.action_now()).action_ms_left == 15_000
    # the break: the level's 20 minutes run out while the action is at Bea
    assert strip.board is not None and strip.board.level_ms_left is not None
    clock.move(milliseconds=strip.board.level_ms_left - 10_000)
    strip.on_turn(("h1", 4, "third"), "Bea")  # 10 s before the level's end
    clock.move(seconds=40)  # the screen's next look: the break began 30 s ago
    strip.refresh()
    assert strip.board.on_break
    frozen = strip.decision.status(strip.action_now()).action_ms_left
    assert frozen == 20_000  # 10 s of the action clock ran, not 40
    clock.move(minutes=3)
    strip.refresh()
    assert strip.decision.status(strip.action_now()).action_ms_left == frozen
    clock.move(minutes=7)  # the break is over: the action clock runs again
    strip.refresh()
    assert not strip.board.on_break
    clock.move(seconds=2)
    strip.refresh()
    assert strip.decision.status(strip.action_now()).action_ms_left == frozen - 2_000
    strip.stop()


def test_the_last_minute_of_a_level_is_announced_on_the_clock_and_the_strip(
    journal: Journal, qtbot: Any
) -> None:
    from ui.tournament.clock_window import ClockWindow

    clock = Clock()
    desk_for(journal, stud_break(), clock)
    strip, win = LevelStrip(now=clock), ClockWindow(now=clock)
    qtbot.addWidget(strip)
    qtbot.addWidget(win)
    snap = read(journal, clock)
    strip.set_snapshot(snap)
    win.set_snapshot(snap)
    clock.move(minutes=18, seconds=59)
    strip.refresh()
    win.refresh()
    assert win.banner.text() == "LEVEL 1" and strip.left.text() == "1:01 left in the level"
    clock.move(seconds=2)
    strip.refresh()
    win.refresh()
    assert win.banner.text() == "LEVEL 1 · LAST MINUTE" and win.time.text() == "0:59"
    assert win.time.property("kind") == "warning"
    assert strip.left.text() == "Last minute of the level: 0:59"
    clock.move(minutes=1)  # the break: no warning
    win.refresh()
    assert win.banner.text() == "BREAK"
    strip.stop()
