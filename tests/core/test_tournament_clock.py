"""The tournament clock (rules text 002): levels by time and/or hands taking effect from the first
hand that starts after they fall due, breaks stopping the level clock, pause and resume, exact
resumption from JSON; the action clock with the one-off time bank drawn across hands; sit-out."""

from __future__ import annotations

import json
import tomllib
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.tournament.action_clock import DecisionClock, TimeBanks, timeout_action
from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.errors import ClockError
from dealer_assist.tournament.sitout import SitOuts
from dealer_assist.tournament.structure import TournamentStructure, shipped_structures
from dealer_assist.tournament.structure_reader import load_structure

SHIPPED = shipped_structures()
T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def at(minutes: float = 0, seconds: float = 0) -> datetime:
    return T0 + timedelta(minutes=minutes, seconds=seconds)


def stud() -> TournamentStructure:
    return load_structure(SHIPPED["stud_freezeout"])


def custom(
    tmp_path: Path,
    levels: list[dict[str, Any]],
    breaks: tuple[dict[str, Any], ...] | list[dict[str, Any]] = (),
    **clock: Any,
) -> TournamentStructure:
    data = tomllib.loads(SHIPPED["stud_freezeout"].read_text(encoding="utf-8"))
    data["levels"] = levels
    data["breaks"] = list(breaks)
    data["clock"].update(clock)
    p = tmp_path / "s.toml"
    p.write_text(tomli_w.dumps(data), encoding="utf-8")
    return load_structure(p)


def lv(small: int, **kw: Any) -> dict[str, Any]:
    return {
        "small_limit": small,
        "ante": small // 4 // 25 * 25,
        "bring_in": small // 4 // 25 * 25 or 25,
        **kw,
    }


def test_a_hand_keeps_its_level_and_the_next_hand_takes_the_new_one() -> None:
    s = stud()
    c = ClockState().start(s, at(0))
    c, level = c.start_hand(s, at(19, 50))  # starts 10 s before level 1 is up
    assert level.number == 1
    c = c.advance(s, at(20, 30))
    assert c.level == 2 and c.level_ms == 30_000  # level 2's time runs from 20:00
    c = c.end_hand(s, at(21))
    c, level = c.start_hand(s, at(21, 5))
    assert (level.number, level.small, level.bring_in) == (2, 150, 50)
    assert c.hands_in_level == 1 and c.hands_started == 2


def test_break_stops_the_level_clock_and_no_hand_starts_during_it() -> None:
    s = stud()
    c = ClockState().start(s, at(0))
    c = c.advance(s, at(80))  # levels 1-4 done: the break after level 4 begins
    assert (c.level, c.on_break, c.break_ms) == (4, True, 0)
    with pytest.raises(ClockError, match="break after level 4"):
        c.start_hand(s, at(85))
    v = c.view(s, at(85))
    assert v.on_break and v.break_ms_left == 5 * 60_000 and v.next_level is not None
    assert v.next_level.number == 5
    c = c.advance(s, at(93))  # the 10-minute break ended at 90
    assert (c.level, c.on_break, c.level_ms) == (5, False, 3 * 60_000)
    assert c.next_hand_level(s, at(93)) == s.levels[4]


def test_hand_in_play_across_a_break_start() -> None:
    s = stud()
    c = ClockState().start(s, at(0)).advance(s, at(79))
    c, level = c.start_hand(s, at(79, 30))
    assert level.number == 4
    c = c.advance(s, at(81))  # the hand goes on; the break's clock runs
    assert c.on_break and c.break_ms == 60_000 and c.hands_in_play == 1
    c = c.end_hand(s, at(82))
    assert c.on_break and c.hands_in_play == 0


def test_pause_stops_everything_and_resume_goes_on_exactly() -> None:
    s = stud()
    c = ClockState().start(s, at(0))
    c = c.pause(s, at(5))
    with pytest.raises(ClockError, match="paused"):
        c.start_hand(s, at(6))
    with pytest.raises(ClockError, match="already paused"):
        c.pause(s, at(6))
    c = c.advance(s, at(50))
    assert c.level == 1 and c.level_ms == 5 * 60_000
    c = c.resume(s, at(50))
    c = c.advance(s, at(62))  # 5 + 12 minutes of running clock
    assert c.level == 1 and c.level_ms == 17 * 60_000
    v = c.view(s)
    assert v.level_ms_left == 3 * 60_000 and v.ms_to_break == 63 * 60_000
    # during a break too
    c = c.advance(s, at(127)).pause(s, at(127))  # 80 running minutes = 125 wall (45 paused)
    assert c.on_break and c.break_ms == 2 * 60_000
    assert c.advance(s, at(200)).break_ms == 2 * 60_000


def test_levels_by_hands(tmp_path: Path) -> None:
    s = custom(
        tmp_path, [lv(100, hands=3), lv(200, hands=2), lv(400)], [{"after_level": 2, "minutes": 5}]
    )
    c = ClockState().start(s, at(0))
    levels = []
    for i in range(5):
        c, level = c.start_hand(s, at(i))
        levels.append(level.number)
        c = c.end_hand(s, at(i, 30))
    assert levels == [1, 1, 1, 2, 2]
    assert c.on_break  # the 2nd hand of level 2 ended: its break begins then
    with pytest.raises(ClockError, match="break"):
        c.start_hand(s, at(5))
    c, level = c.start_hand(s, at(10))
    assert level.number == 3


def test_levels_by_hands_with_two_tables_in_play(tmp_path: Path) -> None:
    # table B's hand is still in play when table A's next hand starts: the new level applies
    s = custom(tmp_path, [lv(100, hands=2), lv(200)])
    c = ClockState().start(s, at(0))
    c, a1 = c.start_hand(s, at(1))
    c, b1 = c.start_hand(s, at(1, 10))
    c = c.end_hand(s, at(2))
    assert c.level == 1  # B still plays a level-1 hand
    c, a2 = c.start_hand(s, at(2, 5))
    assert (a1.number, b1.number, a2.number) == (1, 1, 2)


def test_minutes_or_hands_whichever_first(tmp_path: Path) -> None:
    s = custom(tmp_path, [lv(100, minutes=10, hands=4), lv(200, minutes=10, hands=4), lv(400)])
    c = ClockState().start(s, at(0))
    for i in range(4):  # four quick hands end level 1 by hands at 2:30
        c, _ = c.start_hand(s, at(0, 30 * i))
        c = c.end_hand(s, at(0, 30 * i + 20))
    c, level = c.start_hand(s, at(2, 30))
    assert level.number == 2
    c = c.end_hand(s, at(3))
    # level 2's 10 minutes ran from 1:50, when level 1's 4th hand ended: due at 11:50
    c, level = c.start_hand(s, at(11, 49))
    assert level.number == 2
    c = c.end_hand(s, at(12))
    c, level = c.start_hand(s, at(12))
    assert level.number == 3


def test_last_level_lasts_to_the_end() -> None:
    s = stud()
    c = ClockState().start(s, at(0)).advance(s, at(10_000))
    assert c.level == len(s.levels) and not c.on_break
    v = c.view(s)
    assert v.next_level is None and v.level_ms_left is None and v.ms_to_break is None


def test_state_resumes_exactly_from_json() -> None:
    s = stud()
    c = ClockState().start(s, at(0))
    c, _ = c.start_hand(s, at(19, 59.5))
    c = c.advance(s, at(20, 0.25))
    text = json.dumps(c.to_json())
    back = ClockState.from_json(json.loads(text))
    assert back == c
    later = at(95)
    assert back.end_hand(s, later) == c.end_hand(s, later)


@pytest.mark.parametrize(
    "field,value",
    [
        ("level", 0),
        ("level_ms", -1),
        ("paused", 1),
        ("as_of", "yesterday"),
        ("as_of", "2026-12-01T18:00"),
    ],
)
def test_bad_state_refused(field: str, value: Any) -> None:
    data = ClockState().start(stud(), at(0)).to_json()
    data[field] = value
    with pytest.raises(ClockError, match=field):
        ClockState.from_json(data)


def test_time_must_be_aware_and_forward() -> None:
    s = stud()
    with pytest.raises(ClockError, match="no time zone"):
        ClockState().start(s, datetime(2026, 1, 1))
    c = ClockState().start(s, at(10))
    with pytest.raises(ClockError, match="backwards"):
        c.advance(s, at(9))
    with pytest.raises(ClockError, match="not started"):
        ClockState().advance(s, at(0))
    with pytest.raises(ClockError, match="no hand is in play"):
        c.end_hand(s, at(11))


# -- action clock and time bank ----------------------------------------------------------------


def test_time_bank_split_across_hands() -> None:
    s = stud()  # automatic bank of 60 s, action clock 30 s
    banks = TimeBanks.full(s, ["Anna", "Bruno"])
    assert banks.left("Anna") == 60_000
    # hand 1: Anna thinks 52 s: 30 s of action clock, 22 s from her bank
    d = DecisionClock.begin(s, 1, "Anna", at(0), banks)
    st = d.status(at(0, 40))
    assert (st.action_ms_left, st.bank_ms_left, st.drawing_bank, st.timed_out) == (
        0,
        50_000,
        True,
        False,
    )
    out = d.finish(at(0, 52))
    assert (out.bank_ms_used, out.bank_ms_left, out.timed_out) == (22_000, 38_000, False)
    banks = banks.settle(out)
    # hand 2: a quick decision uses none of it
    d = DecisionClock.begin(s, 1, "Anna", at(5), banks)
    banks = banks.settle(d.finish(at(5, 10)))
    assert banks.left("Anna") == 38_000
    # hand 3 (level 10: action clock 25 s): 25 + 38 s, then time is up
    d = DecisionClock.begin(s, 10, "Anna", at(60), banks)
    assert d.deadline() == at(61, 3)
    assert not d.status(at(61, 2.999)).timed_out
    out = d.finish(at(61, 3))
    assert out.timed_out and out.bank_ms_left == 0
    banks = banks.settle(out)
    # hand 4: no bank left, the action clock alone
    d = DecisionClock.begin(s, 1, "Anna", at(70), banks)
    assert d.deadline() == at(70, 30) and not d.bank_open
    assert banks.left("Bruno") == 60_000
    assert TimeBanks.from_json(json.loads(json.dumps(banks.to_json()))) == banks


def test_time_bank_on_request() -> None:
    s = load_structure(SHIPPED["holdem_rebuy"])  # on request, 90 s
    banks = TimeBanks.full(s, ["Anna"])
    d = DecisionClock.begin(s, 1, "Anna", at(0), banks)
    assert not d.bank_open and d.deadline() == at(0, 30)
    assert d.finish(at(0, 31)).timed_out  # not asked for: the bank is kept
    assert d.finish(at(0, 31)).bank_ms_left == 90_000
    opened = d.open_bank(at(0, 20))
    assert opened.deadline() == at(2, 0)
    out = opened.finish(at(0, 45))
    assert (out.bank_ms_used, out.bank_ms_left) == (15_000, 75_000)
    with pytest.raises(ClockError, match="run out"):
        d.open_bank(at(0, 30))
    with pytest.raises(ClockError, match="already"):
        opened.open_bank(at(0, 21))
    empty = DecisionClock.begin(s, 1, "Anna", at(0), banks.with_left("Anna", 0))
    with pytest.raises(ClockError, match="no time bank"):
        empty.open_bank(at(0, 1))
    assert DecisionClock.from_json(json.loads(json.dumps(opened.to_json()))) == opened


def test_timeout_checks_if_possible_else_folds() -> None:
    assert timeout_action(True) == "check" and timeout_action(False) == "fold"


# -- sit-out ------------------------------------------------------------------------------------


def test_sit_out_is_folded_and_back_from_the_next_hand() -> None:
    so = SitOuts()
    assert so.automatic_action("Anna", can_check=True, timed_out=False) is None
    # Anna's clock runs out: her hand checks, then she sits out
    assert so.automatic_action("Anna", can_check=True, timed_out=True) == "check"
    so = so.sit_out("Anna")
    assert so.automatic_action("Anna", can_check=True, timed_out=False) == "fold"
    so = so.ask_back("Anna")  # "SONO TORNATO" during the hand: still folded in this one
    assert so.sitting_out("Anna")
    with pytest.raises(ClockError, match="already comes back"):
        so.ask_back("Anna")
    assert SitOuts.from_json(json.loads(json.dumps(so.to_json()))) == so
    so = so.hand_starts()
    assert not so.sitting_out("Anna")
    with pytest.raises(ClockError, match="does not sit out"):
        so.ask_back("Anna")
    so = so.sit_out("Bruno").remove("Bruno")
    assert so == SitOuts()


# -- properties --------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 40 * 60_000), min_size=1, max_size=12), st.integers(0, 300 * 60_000))
def test_advancing_in_steps_is_advancing_at_once(steps: list[int], end: int) -> None:
    s = stud()
    start = ClockState().start(s, at(0))
    moments = sorted({*steps, end})
    c = start
    for ms in moments:
        c = c.advance(s, T0 + timedelta(milliseconds=ms))
    assert c == start.advance(s, T0 + timedelta(milliseconds=moments[-1]))
    # and through JSON at every step
    c = start
    for ms in moments:
        c = ClockState.from_json(
            json.loads(json.dumps(c.advance(s, T0 + timedelta(milliseconds=ms)).to_json()))
        )
    assert c == start.advance(s, T0 + timedelta(milliseconds=moments[-1]))
