"""Hold'em hand records settled (HAND_RECORD.md "Pot games"; GAMES.md "Pot games"; rules text
003 art. 6-7): every shared ``holdem-*`` case, the betting rules one by one, the pots, and random
hands (hypothesis: no limit, pot limit, fixed limit, antes) that conserve chips and whose side
pots equal a brute-force split."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealer_assist.cards import Card, format_cards
from dealer_assist.engine.betting import Limits, RoundState
from dealer_assist.engine.peer import BettingStructure, Structure
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.engine.pots import Share, after_button, layer, split, uncalled
from dealer_assist.errors import IllegalActionError, InvalidRecordError
from dealer_assist.games import POT_GAME_CODES, get_pot_game
from dealer_assist.games.holdem import CODE, STREETS, forced_bets
from dealer_assist.record import settle_record
from tests.conftest import CASES

POT = CASES / "pot"
if not POT.is_dir():  # README: tests that need ../shared skip without it
    pytest.skip(f"pot cases not found at {POT}", allow_module_level=True)

VALID = sorted((POT / "valid").glob("holdem-*.json"))
INVALID = sorted((POT / "invalid").glob("holdem-*.json"))

# The shared case says returned 150, but seat 4 put in 100 (big blind) + 200 (its uncalled turn
# bet) = 300 and the case's own put_in (100), pot (200) and end stack (3100) need 200 back:
# 3000 - 300 + 200 + 200 = 3100. Reported; every other field is compared.
INCONSISTENT_RETURNED = {"holdem-big-blind-only": [{"seat": 4, "amount": 200}]}


def _normalise(settlement: dict[str, Any]) -> dict[str, Any]:
    """best_five compared as a set (HAND_RECORD.md: its order is free)."""
    out: dict[str, Any] = json.loads(json.dumps(settlement))
    for seat in out["seats"]:
        if seat["hand"] is not None:
            seat["hand"]["best_five"] = sorted(seat["hand"]["best_five"])
    return out


def test_cases_present() -> None:
    assert len(VALID) >= 19 and len(INVALID) >= 10, f"holdem cases missing under {POT}"
    assert CODE in POT_GAME_CODES and get_pot_game(CODE).code == CODE


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_case_settles_as_expected(path: Path) -> None:
    case = json.loads(path.read_text())
    got = _normalise(settle_record(case["record"]))
    expected = _normalise(case["expected"])
    if path.stem in INCONSISTENT_RETURNED:
        expected["returned"] = INCONSISTENT_RETURNED[path.stem]
    assert got == expected, case["why"]
    start = sum(p["stack"] for p in case["record"]["players"])
    assert sum(s["stack"] for s in got["seats"]) + got["rake"] == start
    assert sum(s["net"] for s in got["seats"]) + got["rake"] == 0


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_case_is_refused_naming_the_field(path: Path) -> None:
    case = json.loads(path.read_text())
    with pytest.raises(InvalidRecordError) as err:
        settle_record(case["record"])
    assert err.value.field == case["field"], (str(err.value), case["why"])
    assert err.value.reason


def _cli(stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "settle", "-"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.integration
def test_cli_settles_holdem_and_exits_2_naming_the_field() -> None:
    case = json.loads(VALID[0].read_text())
    proc = _cli(json.dumps(case["record"]))
    assert proc.returncode == 0, proc.stderr
    assert _normalise(json.loads(proc.stdout)) == _normalise(case["expected"])
    bad = json.loads(INVALID[0].read_text())
    proc = _cli(json.dumps(bad["record"]))
    assert proc.returncode == 2
    assert bad["field"] in proc.stderr


# -- the betting rules one by one ------------------------------------------------------------


def _round(stacks: dict[int, int], kind: str = "no_limit", **kw: Any) -> RoundState:
    limits = Limits(kind, kw.pop("bet", 100), 1, kw.pop("max_raises", 3))  # type: ignore[arg-type]
    return RoundState(sorted(stacks), stacks, limits, kw.pop("first", 1), **kw)


def test_minimum_raise_is_the_largest_earlier_raise_and_names_it() -> None:
    r = _round({1: 5000, 2: 5000, 3: 5000})
    r.act(1, "bet", 200)
    with pytest.raises(IllegalActionError, match="raise to 250 is below the minimum raise to 400"):
        r.act(2, "raise", 250)
    r.act(2, "raise", 700)  # a raise of 500
    space = r.legal(3)
    assert space.kinds == ("fold", "call", "raise")
    assert space.amount is not None and space.amount.minimum == 1200
    assert space.amount.maximum == 5000


def test_short_all_ins_that_add_up_to_a_full_raise_reopen_the_betting() -> None:
    # 1 bets 100; 2 all-in to 150 (short), 3 all-in to 200 (short): 1 faced 100 and now faces
    # 200, a full raise in all, so 1 may raise again (GAMES.md "Incomplete all-in").
    r = _round({1: 5000, 2: 150, 3: 200, 4: 5000})
    r.act(1, "bet", 100)
    r.act(2, "raise", 150)
    assert r.reopened(4)
    r.act(3, "raise", 200)
    r.act(4, "call")
    assert r.actor == 1 and "raise" in r.legal(1).kinds
    # one short all-in alone does not reopen
    r2 = _round({1: 5000, 2: 150, 3: 5000})
    r2.act(1, "bet", 100)
    r2.act(2, "raise", 150)
    r2.act(3, "call")
    assert r2.legal(1).kinds == ("fold", "call")
    with pytest.raises(IllegalActionError, match="does not reopen the betting for seat 1"):
        r2.act(1, "raise", 400)


def test_big_blind_option_and_a_round_that_closes_by_itself() -> None:
    r = _round({1: 950, 2: 900, 3: 1000}, committed={1: 50, 2: 100}, high=100, first=3)
    for seat in (3, 1):
        r.act(seat, "call")
    assert r.actor == 2 and r.legal(2).kinds == ("fold", "check", "raise")
    r.act(2, "check")
    assert r.closed
    with pytest.raises(IllegalActionError, match="round is closed"):
        r.act(3, "check")


def test_pot_limit_maximum_as_games_md_computes_it() -> None:
    # GAMES.md: pot 100 before the round, A bets 50, B may raise to 50 + 200 = 250
    r = _round({1: 5000, 2: 5000}, "pot_limit", bet=10, pot=100)
    r.act(1, "bet", 50)
    space = r.legal(2)
    assert space.amount is not None and space.amount.maximum == 250
    with pytest.raises(IllegalActionError, match=r"above the pot \(250\)"):
        r.act(2, "raise", 260)


def test_pot_limit_counts_a_short_big_blind_as_full_before_the_flop() -> None:
    # big blind all-in for 60 of 100: the pot-limit sum still counts 100 (TDA 54-B), so the
    # first raise may go to 100 + (50 + 100 + 100) = 350, as with a full big blind
    structure = BettingStructure("pot_limit", 100, 100, None, 1)
    dead, live, big = forced_bets([1, 2, 3], 3, (50, 100), 0, ante_by_big=False)
    hand = PeerBetting(
        [1, 2, 3],
        {1: 5000, 2: 60, 3: 5000},
        3,
        STREETS,
        structure,
        dead=dead,
        live=live,
        big_blind=big,
        blind=100,
    )
    space = hand.legal(3)
    assert hand.actor == 3 and space.amount is not None and space.amount.maximum == 350


def test_fixed_limit_cap_and_half_bet_all_in_counts_as_full() -> None:
    r = _round({1: 5000, 2: 5000, 3: 5000}, "fixed_limit")
    r.act(1, "bet", 100)
    r.act(2, "raise", 200)
    r.act(3, "raise", 300)
    r.act(1, "raise", 400)
    with pytest.raises(IllegalActionError, match="capped"):
        r.act(2, "raise", 500)
    h = _round({1: 5000, 2: 160, 3: 5000}, "fixed_limit")
    h.act(1, "bet", 100)
    h.act(2, "raise", 160)  # all-in for 60 of a 100 bet: at least half, a full raise
    h.act(3, "call")
    space = h.legal(1)
    assert "raise" in space.kinds and space.amount is not None and space.amount.minimum == 260
    h2 = _round({1: 5000, 2: 5000}, "fixed_limit", max_raises=None)
    for k in range(6):
        h2.act(1 + k % 2, "bet" if k == 0 else "raise", 100 * (k + 1))
    assert h2.actor == 1


def test_all_in_for_less_and_acting_out_of_turn() -> None:
    r = _round({1: 5000, 2: 300, 3: 5000})
    with pytest.raises(IllegalActionError, match=r"seat 2 acted out of turn \(seat 1 is to act\)"):
        r.act(2, "check")
    r.act(1, "bet", 200)
    space = r.legal(2)  # less than the minimum raise to 400: all-in for less only
    assert space.amount is not None and (space.amount.minimum, space.amount.maximum) == (300, 300)
    r.act(2, "raise", 300)
    third = r.legal(3).amount
    assert r.is_all_in(2) and third is not None
    assert third.minimum == 500  # the last full raise (200) is still the step
    with pytest.raises(IllegalActionError, match="seat 2 is all-in and cannot act"):
        r.act(2, "check")


# -- pots --------------------------------------------------------------------------------------


def test_pots_layer_split_and_odd_chips() -> None:
    put_in = {1: 10, 2: 125, 3: 25}
    assert uncalled(put_in) == (2, 100)
    put_in[2] = 25
    pots = layer(put_in, live=[1, 2])
    assert [(p.amount, p.eligible) for p in pots] == [(30, (1, 2)), (30, (2,))]
    assert after_button([2, 4, 5], 4) == [5, 2, 4]
    assert split(8, [4, 5, 2]) == [Share(4, 3, True), Share(5, 3, True), Share(2, 2, False)]
    assert split(275, [1, 2], chip=25) == [Share(1, 150, True), Share(2, 125, False)]


# -- random hands: no limit mostly, pot limit and fixed limit too, antes sometimes ----------------


def _brute_force_pots(put_in: dict[int, int], live: set[int]) -> dict[frozenset[int], int]:
    """Chip level by chip level: each level's chips go to the live seats that reached it (a level
    only folded seats reached, to the last contested set below it)."""
    out: dict[frozenset[int], int] = defaultdict(int)
    last: frozenset[int] | None = None
    for level in range(1, max(put_in.values(), default=0) + 1):
        chips = sum(1 for c in put_in.values() if c >= level)
        contenders = frozenset(s for s in live if put_in[s] >= level)
        key = contenders or last
        if key is None:
            raise AssertionError("chips nobody live reached at the bottom")
        out[key] += chips
        last = key
    return dict(out)


def _random_hand(data: st.DataObject) -> dict[str, Any]:
    n = data.draw(st.integers(2, 6), label="players")
    seats = sorted(data.draw(st.lists(st.integers(1, 9), min_size=n, max_size=n, unique=True)))
    button = data.draw(st.sampled_from(seats), label="button")
    stacks = {s: data.draw(st.integers(1, 3000), label=f"stack {s}") for s in seats}
    rng = random.Random(data.draw(st.integers(0, 2**32), label="deck"))
    deck = [Card.from_index(i) for i in range(52)]
    rng.shuffle(deck)
    holes = {s: deck[2 * i : 2 * i + 2] for i, s in enumerate(seats)}
    board = deck[2 * n : 2 * n + 5]
    kinds: list[Structure] = ["no_limit", "no_limit", "pot_limit", "fixed_limit"]
    kind = data.draw(st.sampled_from(kinds), label="betting")
    ante = data.draw(st.sampled_from([0, 0, 1, 3]), label="ante")
    dead, live, big = forced_bets(seats, button, (5, 10), ante, ante_by_big=False)
    later = 20 if kind == "fixed_limit" else 10
    structure = BettingStructure(kind, 10, later, 3 if kind == "fixed_limit" else None, 1)
    hand = PeerBetting(
        seats, stacks, button, STREETS, structure, dead=dead, live=live, big_blind=big, blind=10
    )
    actions: list[dict[str, Any]] = []
    while not hand.is_over:
        seat, street = hand.actor, hand.street
        assert seat is not None and street is not None
        space = hand.legal(seat)
        act = data.draw(st.sampled_from(space.kinds), label="action")
        action: dict[str, Any] = {"street": street, "seat": seat, "action": act}
        if act in ("bet", "raise"):
            assert space.amount is not None
            low, high = space.amount.minimum, space.amount.maximum
            action["to"] = data.draw(st.sampled_from([low, high]) | st.integers(low, high))
        hand.act(street, seat, act, action.get("to"))
        actions.append(action)
    return {
        "game": CODE,
        "betting": kind,
        "seats": 9,
        "button": button,
        "blinds": [5, 10],
        "ante": ante,
        "chip": 1,
        "board": format_cards(board),
        "limits": [10, later],
        "players": [{"seat": s, "stack": stacks[s], "hole": format_cards(holes[s])} for s in seats],
        "actions": actions,
        "_put_in": dict(hand.total),
        "_dead": dict(hand.dead),
    }


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_hands_conserve_chips_and_pots_match_a_brute_force_split(
    data: st.DataObject,
) -> None:
    record = _random_hand(data)
    total: dict[int, int] = record.pop("_put_in")
    dead: dict[int, int] = record.pop("_dead")
    got = settle_record(record)
    start = sum(p["stack"] for p in record["players"])
    assert sum(s["stack"] for s in got["seats"]) + got["rake"] == start
    assert sum(s["net"] for s in got["seats"]) == 0
    back = {r["seat"]: r["amount"] for r in got["returned"]}
    put_in = {s["seat"]: s["put_in"] for s in got["seats"]}
    assert all(put_in[s] + back.get(s, 0) == total[s] for s in total)
    ranked = sorted((c - dead.get(s, 0) for s, c in total.items()), reverse=True)
    assert sum(back.values()) == ranked[0] - ranked[1]  # the uncalled bet: live chips only
    live = {s["seat"] for s in got["seats"] if s["result"] != "fold"}
    pots: dict[frozenset[int], int] = defaultdict(int)
    for pot in got["pots"]:
        pots[frozenset(pot["eligible"])] += pot["amount"]
        shares = [w["amount"] for w in pot["winners"]]
        assert sum(shares) == pot["amount"] and max(shares) - min(shares) <= 1
        seats = [w["seat"] for w in pot["winners"]]
        assert seats == after_button(seats, record["button"])  # odd-chip order
        assert shares == sorted(shares, reverse=True)  # odd chips to the first winners
        assert [w["odd_chip"] for w in pot["winners"]] == [a > min(shares) for a in shares]
    assert dict(pots) == _brute_force_pots(put_in, live)


def _case(stem: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((POT / "valid" / f"{stem}.json").read_text())["record"]
    return record


def test_rake_from_the_main_pot_capped_and_no_flop_no_drop() -> None:
    record = _case("holdem-big-blind-option-raise")  # a 1200 pot at showdown, seat 2 wins
    record["rake"] = {"percent": 5, "cap": 50}
    got = settle_record(record)
    assert got["rake"] == 50 and got["pots"][0]["amount"] == 1150
    assert got["pots"][0]["winners"] == [{"seat": 2, "amount": 1150, "odd_chip": False}]
    assert sum(s["net"] for s in got["seats"]) + got["rake"] == 0
    record["rake"] = {"percent": 2.5}
    assert settle_record(record)["rake"] == 30
    walk = _case("holdem-walk-big-blind-wins")
    walk["rake"] = {"percent": 10, "cap": 300}
    assert settle_record(walk)["rake"] == 0  # the hand ended before the flop


def test_big_blind_ante_is_posted_by_the_big_blind_after_the_blind() -> None:
    record = _case("holdem-walk-big-blind-wins")  # button 6: small blind 1, big blind 2
    record["ante"], record["ante_kind"] = 100, "big_blind"
    got = settle_record(record)
    by_seat = {s["seat"]: s for s in got["seats"]}
    # the big blind's uncalled 50 goes back, the ante is dead: 50 + 50 + 100 in the pot
    assert got["returned"] == [{"seat": 2, "amount": 50}]
    assert by_seat[2]["put_in"] == 150 and by_seat[2]["won"] == 200
    assert by_seat[1]["put_in"] == 50 and by_seat[4]["put_in"] == 0


def test_a_record_that_breaks_a_field_names_it() -> None:
    record = _case("holdem-walk-big-blind-wins")
    bad: list[tuple[str, Any, str]] = [
        ("betting", "spread_limit", "betting"),
        ("players", [{"seat": 1, "stack": 0, "hole": None}] * 2, "players[0].stack"),
        (
            "actions",
            [*record["actions"], {"street": "flop", "seat": 2, "action": "check"}],
            "actions[3]",
        ),
        ("actions", [{"street": "preflop", "seat": 4, "action": "raise"}], "actions[0].to"),
        ("mucked", [1], "mucked"),
        ("board", ["As", "As", "Kd"], "board[1]"),
    ]
    for key, value, field in bad:
        broken = {**record, key: value}
        with pytest.raises(InvalidRecordError) as err:
            settle_record(broken)
        assert err.value.field == field, (key, str(err.value))
    showdown = _case("holdem-loser-mucks")
    showdown["players"][0]["hole"] = None  # seat 1 wins at showdown: its cards are needed
    showdown["mucked"] = []
    with pytest.raises(InvalidRecordError) as err:
        settle_record(showdown)
    assert err.value.field == "players[0].hole"


def test_dead_money_above_the_ante_goes_to_the_main_pot() -> None:
    """A big-blind ante (and a dead missed blind) is dead money for the main pot: a big blind
    who loses never wins it back as a side pot of their own (found with pokerkit and a public
    WSOP hand, tests/cli/test_phh.py)."""
    record = {
        "game": "holdem",
        "betting": "no_limit",
        "seats": 3,
        "button": 3,
        "blinds": [50, 100],
        "ante": 100,
        "ante_kind": "big_blind",
        "players": [
            {"seat": 1, "stack": 1000, "hole": ["2c", "7d"]},
            {"seat": 2, "stack": 1000, "hole": ["Kc", "Qd"]},
            {"seat": 3, "stack": 1000, "hole": ["As", "Ah"]},
        ],
        "board": ["Ad", "9s", "5h", "3c", "Jd"],
        "actions": [
            {"street": "preflop", "seat": 3, "action": "raise", "to": 300},
            {"street": "preflop", "seat": 1, "action": "fold"},
            {"street": "preflop", "seat": 2, "action": "call"},
        ]
        + [
            {"street": st, "seat": s, "action": "check"}
            for st in ("flop", "turn", "river")
            for s in (2, 3)
        ],
    }
    out = settle_record(record)
    assert [(p["pot"], p["amount"]) for p in out["pots"]] == [("main", 750)]
    assert [s["stack"] for s in out["seats"]] == [950, 600, 1450]
    posts = dict(record, ante=0)
    del posts["ante_kind"]
    posts["posts"] = [
        {"seat": 1, "type": "small_blind", "amount": 50},
        {"seat": 2, "type": "big_blind", "amount": 100},
        {"seat": 2, "type": "ante", "amount": 100},
    ]  # a dead missed blind alike
    assert [s["stack"] for s in settle_record(posts)["seats"]] == [950, 600, 1450]
