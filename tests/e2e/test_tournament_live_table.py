"""A live tournament table (issue: the table plays the level in force): the dealer's console of
a table the director made posts the level in force when each hand starts, in chips; a level
that falls due in the middle of a hand starts with the next hand; no hand starts during a
break or the director's pause; each hand record names the tournament and its level, and
``settle`` checks that field by name. Real SQLite journals written by the director's desk,
the real poker service and presenter (:class:`ui.tournament.table_driver.TableDriver`), cards
typed on the keypad source; the clock is the test's."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.errors import InvalidRecordError
from dealer_assist.record import settle_record
from dealer_assist.storage.journal import Journal
from tests.ui.test_tournament_screens import Clock, desk_for, holdem_dear, stud_break
from ui.kit.format import money
from ui.tournament.desk import DirectorDesk
from ui.tournament.table_config import assigned_table
from ui.tournament.table_driver import TableDriver

CASES = Path(__file__).parent.resolve().parents[1].parent / "shared" / "cases" / "pot" / "valid"


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(str(tmp_path / "tournament.db"))
    j.open()
    yield j
    j.close()


def driver_for(journal: Journal, desk: DirectorDesk, clock: Clock) -> TableDriver:
    url = str(journal.url_or_path)
    config, tid = assigned_table(url, None, "T1")
    d = TableDriver(config, url, tid, now=clock, seed=4)
    d.open()
    return d


def play_out(d: TableDriver, rng: random.Random, before_each: Any = None) -> dict[str, Any]:
    """Deal and decide until the hand is over; the journaled record."""
    d.deal()
    uid = d.p.snap.hand_uid
    for _ in range(400):
        if not d.p.snap.in_hand:
            break
        if before_each is not None:
            before_each()
        d.decide(rng)
        assert d.p.snap.error is None, d.p.snap.error
        d.deal()
    assert not d.p.snap.in_hand
    stored = d.service.journal.last_hand()  # type: ignore[union-attr]
    assert stored is not None and stored.hand_uid == uid
    return stored.record


def test_the_table_posts_the_level_in_force_in_chips_and_its_record_names_it(
    journal: Journal,
) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    d = driver_for(journal, desk, clock)
    rng = random.Random(2)
    try:
        assert d.config.currency == "chips" and d.config.table_id == "ROOM-T1"
        assert money(1000, d.config.currency) == "1,000\u00a0chips"
        d.new_hand()
        assert d.p.snap.error is None, d.p.snap.error
        # the level changes in the middle of the hand: it finishes at its own level
        moved = []

        def move_once() -> None:
            if not moved:
                clock.move(minutes=20, seconds=30)  # level 1 (20 min) over: the break is due
                moved.append(1)

        rec = play_out(d, rng, move_once)
        assert rec["tournament"] == {"id": "ROOM", "level": 1}
        assert (rec["ante"], rec["bring_in"], rec["limits"]) == (25, 25, [100, 200])
        assert settle_record(rec)["game"] == "stud"
        # the break: no hand starts
        d.new_hand()
        assert not d.p.snap.in_hand
        assert d.p.snap.error is not None and "break after level 1" in d.p.snap.error.message
        clock.move(minutes=10)  # the break over: level 2
        d.new_hand()
        assert d.p.snap.error is None, d.p.snap.error
        rec = play_out(d, rng)
        assert rec["tournament"] == {"id": "ROOM", "level": 2}
        assert (rec["ante"], rec["bring_in"], rec["limits"]) == (50, 50, [200, 400])
        # the director's pause: no hand starts until the clock resumes
        desk.pause(by="Anna")
        d.new_hand()
        assert not d.p.snap.in_hand and "paused" in d.p.snap.error.message  # type: ignore[union-attr]
        desk.resume(by="Anna")
        d.new_hand()
        assert d.p.snap.in_hand, d.p.snap.error
    finally:
        d.close()


def test_holdem_blinds_of_the_level_and_the_stacks_are_chips(journal: Journal) -> None:
    clock = Clock()
    desk = desk_for(journal, holdem_dear(), clock)
    d = driver_for(journal, desk, clock)
    try:
        # the director draws the button (Hold'em) before the first hand
        d.new_hand()
        assert d.p.snap.error is None, d.p.snap.error
        rec = play_out(d, random.Random(5))
        assert rec["tournament"] == {"id": "ROOM", "level": 1}
        assert rec["blinds"] == [50, 100]
        assert sum(p["stack"] for p in rec["players"]) == 6 * 1000
    finally:
        d.close()


def test_settle_checks_the_tournament_field_by_name() -> None:
    record = json.loads((CASES / "holdem-big-blind-only.json").read_text())
    record = record.get("record", record)
    plain = settle_record(record)
    ok = dict(record, tournament={"id": "ROOM", "level": 3})
    assert settle_record(ok) == plain  # the field changes no settlement
    bad = [
        ("x", "tournament"),
        ({"id": "", "level": 1}, "tournament.id"),
        ({"id": 7, "level": 1}, "tournament.id"),
        ({"id": "ROOM", "level": 0}, "tournament.level"),
        ({"id": "ROOM", "level": True}, "tournament.level"),
        ({"id": "ROOM", "level": "2"}, "tournament.level"),
        ({"id": "ROOM"}, "tournament.level"),
        ({"id": "ROOM", "level": 1, "table": "T1"}, "tournament.table"),
    ]
    for value, field in bad:
        with pytest.raises(InvalidRecordError) as e:
            settle_record(dict(copy.deepcopy(record), tournament=value))
        assert e.value.field == field, (value, str(e.value))


def test_a_hand_resumed_after_a_restart_keeps_the_level_it_started_at(journal: Journal) -> None:
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    d = driver_for(journal, desk, clock)
    rng = random.Random(3)
    d.new_hand()
    d.deal()
    d.decide(rng)
    d.deal()
    uid = d.p.snap.hand_uid
    d.close()  # the console gone in the middle of the hand: its steps stay in the step log
    clock.move(minutes=31)  # level 1 and the break are over meanwhile: level 2 is in force
    again = driver_for(journal, desk, clock)
    try:
        snap = again.p.snap
        assert snap.resumed and snap.hand_uid == uid and snap.in_hand
        rec = play_out(again, rng)
        assert rec["tournament"] == {"id": "ROOM", "level": 1}
        assert (rec["ante"], rec["limits"]) == (25, [100, 200])
        again.new_hand()  # the next hand: the level in force
        assert again.p.snap.error is None, again.p.snap.error
        assert again.service.runner is not None
        assert again.service.runner.config.poker.ante == 50
    finally:
        again.close()


def test_the_bring_in_button_says_the_bring_in_of_the_hands_level(
    journal: Journal, qtbot: Any
) -> None:
    from ui.kit.boot import qt_app
    from ui.kit.i18n import install_language
    from ui.poker.window import PokerWindow

    install_language(qt_app(), "en")
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    d = driver_for(journal, desk, clock)
    win = PokerWindow(d.p, d.config, "en")  # made at level 1: its bring-in is 25
    qtbot.addWidget(win)
    try:
        clock.move(minutes=31)  # level 1 and the break over: level 2, bring-in 50
        d.new_hand()
        d.deal()
        assert d.p.snap.legal is not None and "bring_in" in d.p.snap.legal.kinds
        assert d.p.snap.forced_amount == 50
        label = win.side.bar.buttons["bring_in"].text()
        assert money(50, "chips") in label and money(25, "chips") not in label
    finally:
        d.close()


def test_the_strip_says_the_hands_own_level_once_the_clock_moved_on(
    journal: Journal, qtbot: Any
) -> None:
    from ui.kit.boot import qt_app
    from ui.kit.i18n import install_language
    from ui.tournament.board import Snapshot
    from ui.tournament.level_strip import LevelStrip

    install_language(qt_app(), "en")
    clock = Clock()
    desk = desk_for(journal, stud_break(), clock)
    d = driver_for(journal, desk, clock)
    strip = LevelStrip(now=clock)
    qtbot.addWidget(strip)
    try:
        d.new_hand()
        d.deal()
        strip.set_snapshot(Snapshot.of_state(desk.state, clock()))
        strip.on_view(d.p.view())
        assert strip.amounts.text() == "Limits 100 / 200 · Ante 25 · Bring-in 25"
        clock.move(minutes=21)  # level 1 over during the hand: the break, then level 2
        desk.refresh()
        strip.set_snapshot(Snapshot.of_state(desk.state, clock()))
        assert strip.amounts.text() == (
            "This hand: level 1, Limits 100 / 200 · Ante 25 · "
            "Bring-in 25 · level 2 from the next hand"
        )
        play_out(d, random.Random(3))
        strip.on_view(d.p.view())  # the hand is over: the level in force only
        clock.move(minutes=10)  # past the break
        strip.refresh()
        assert strip.amounts.text() == "Limits 200 / 400 · Ante 50 · Bring-in 50"
    finally:
        strip.stop()
        d.close()
