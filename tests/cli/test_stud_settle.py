"""Seven Card Stud hand records settled (HAND_RECORD.md "Pot games"; GAMES.md "Seven Card Stud";
rules text 002): every shared ``stud-*`` case, the bring-in (lowest door card by suit, a fold
passing it on, no option when called), the completion as the opening bet for the cap, the
open pair on fourth street, the best exposed hand, the seventh-street shortage, odd chips by
suit, and random hands (every structure) that conserve chips and whose side pots equal a
brute-force split."""

from __future__ import annotations

import copy
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

from dealer_assist.cards import parse_card, parse_cards
from dealer_assist.engine.peer import Structure
from dealer_assist.errors import InvalidRecordError
from dealer_assist.games import POT_GAME_CODES, get_pot_game
from dealer_assist.games.stud import (
    CODE,
    best_exposed,
    bring_in_order,
    card_key,
    describe_exposed,
    odd_chip_order,
    opening,
    seventh_street,
    showdown_order,
)
from dealer_assist.games.stud_players import random_record
from dealer_assist.record import settle_record
from tests.conftest import CASES

POT = CASES / "pot"
if not POT.is_dir():  # README: tests that need ../shared skip without it
    pytest.skip(f"pot cases not found at {POT}", allow_module_level=True)

VALID = sorted((POT / "valid").glob("stud-*.json"))
INVALID = sorted((POT / "invalid").glob("stud-*.json"))


def _normalise(settlement: dict[str, Any]) -> dict[str, Any]:
    """best_five compared as a set (HAND_RECORD.md: its order is free)."""
    out: dict[str, Any] = json.loads(json.dumps(settlement))
    for seat in out["seats"]:
        if seat["hand"] is not None:
            seat["hand"]["best_five"] = sorted(seat["hand"]["best_five"])
    return out


def _case(stem: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads((POT / "valid" / f"{stem}.json").read_text())["record"]
    return record


def _refused(record: dict[str, Any]) -> InvalidRecordError:
    with pytest.raises(InvalidRecordError) as err:
        settle_record(record)
    return err.value


def test_cases_present() -> None:
    assert len(VALID) >= 5 and len(INVALID) >= 2, f"stud cases missing under {POT}"
    assert CODE in POT_GAME_CODES and get_pot_game(CODE).code == CODE


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_case_settles_as_expected(path: Path) -> None:
    case = json.loads(path.read_text())
    got = settle_record(case["record"])
    assert _normalise(got) == _normalise(case["expected"]), case["why"]
    start = sum(p["stack"] for p in case["record"]["players"])
    assert sum(s["stack"] for s in got["seats"]) == start
    assert sum(s["net"] for s in got["seats"]) == 0


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_case_is_refused_naming_the_field(path: Path) -> None:
    case = json.loads(path.read_text())
    err = _refused(case["record"])
    assert err.field == case["field"], (str(err), case["why"])
    assert err.reason


@pytest.mark.integration
def test_cli_settles_stud_and_exits_2_naming_the_action() -> None:
    case = json.loads(VALID[0].read_text())
    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "settle", "-"],
        input=json.dumps(case["record"]),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert _normalise(json.loads(proc.stdout)) == _normalise(case["expected"])
    bad = json.loads((POT / "invalid" / "stud-invalid-wrong-bring-in-seat.json").read_text())
    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "settle", "-"],
        input=json.dumps(bad["record"]),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 2
    assert "actions[0]" in proc.stderr and "seat 1" in proc.stderr


# -- the rules, one by one -----------------------------------------------------------------------


def _hand(
    players: list[tuple[int, int, str]], actions: list[tuple[str, int, str, int | None]], **kw: Any
) -> dict[str, Any]:
    """A fixed-limit 20/40 record, ante 5, bring-in 10: ``players`` (seat, stack, cards)."""
    record: dict[str, Any] = {
        "game": "stud",
        "betting": "fixed_limit",
        "seats": 8,
        "ante": 5,
        "bring_in": 10,
        "limits": [20, 40],
        "chip": 1,
        "players": [{"seat": s, "stack": k, "cards": c.split()} for s, k, c in players],
        "actions": [
            {"street": st_, "seat": s, "action": a, **({"to": to} if to is not None else {})}
            for st_, s, a, to in actions
        ],
    }
    record.update(kw)
    return record


FOUR = [
    (1, 1000, "Ah Kd 2c 3h 4d 5s 6c"),  # bring-in: 2c
    (2, 1000, "Qs Qh 9d 8c 7h 6d 5c"),
    (3, 1000, "Js Jd Th 2s 3c 4h 5h"),
    (4, 1000, "As Ad Kh Ks 9s Tc Jc"),
]


def test_the_bring_in_folds_and_passes_on_until_one_is_left() -> None:
    three = [(s, k, " ".join(c.split()[:3])) for s, k, c in FOUR[:3]]  # the hand ends on third
    record = _hand(three, [("third", 1, "fold", None), ("third", 3, "fold", None)])
    err = _refused(record)  # door cards 2c, 9d, Th: after seat 1, seat 2 (9d) owes it
    assert err.field == "actions[1]" and "seat 2" in err.reason
    record = _hand(three, [("third", 1, "fold", None), ("third", 2, "fold", None)])
    got = settle_record(record)  # every bring-in folded: seat 3 takes the antes
    assert [s["net"] for s in got["seats"]] == [-5, -5, 10]
    assert got["returned"] == []


def test_the_bring_in_has_no_option_when_only_called() -> None:
    calls = [
        ("third", 1, "bring_in", None),
        ("third", 2, "call", None),
        ("third", 3, "call", None),
        ("third", 4, "call", None),
    ]
    err = _refused(_hand(FOUR, [*calls, ("third", 1, "check", None)]))
    assert err.field == "actions[4]"
    # fourth street opens with the best exposed hand: seat 4 shows Ks (door Kh) -> pair of kings
    err = _refused(_hand(FOUR, [*calls, ("fourth", 1, "check", None)]))
    assert err.field == "actions[4]" and "seat 4" in err.reason


def test_the_completion_is_the_opening_bet_for_the_cap() -> None:
    third = [
        ("third", 1, "bring_in", None),
        ("third", 2, "complete", 20),
        ("third", 3, "raise", 40),
        ("third", 4, "raise", 60),
        ("third", 1, "raise", 80),
    ]
    err = _refused(_hand(FOUR, [*third, ("third", 2, "raise", 100)]))
    assert err.field == "actions[5]" and "capped" in err.reason
    err = _refused(_hand(FOUR, [third[0], ("third", 2, "raise", 30)]))
    assert err.field == "actions[1]" and "exactly 20" in err.reason
    err = _refused(_hand(FOUR, [third[0], ("third", 2, "bet", 20)]))
    assert err.field == "actions[1]" and "complete" in err.reason
    err = _refused(_hand(FOUR, [*third[:2], ("third", 3, "complete", 40)]))
    assert err.field == "actions[2]" and "raise" in err.reason


def _to_fourth() -> list[tuple[str, int, str, int | None]]:
    return [
        ("third", 1, "bring_in", None),
        ("third", 2, "call", None),
        ("third", 3, "call", None),
        ("third", 4, "call", None),
    ]


def test_open_pair_big_bet_only_for_the_pair_and_then_big_raises() -> None:
    # fourth street: seat 4 shows Kh Ks (a pair), the others none; seat 4 opens with the big bet
    big = [*_to_fourth(), ("fourth", 4, "bet", 40), ("fourth", 1, "raise", 80)]
    assert _refused(_hand(FOUR, big)).field == "actions"  # legal so far: only not finished
    err = _refused(
        _hand(FOUR, [*_to_fourth(), ("fourth", 4, "bet", 40), ("fourth", 1, "raise", 60)])
    )
    assert err.field == "actions[5]" and "80" in err.reason  # raises are big bets now
    err = _refused(
        _hand(FOUR, [*_to_fourth(), ("fourth", 4, "check", None), ("fourth", 1, "bet", 40)])
    )
    assert err.field == "actions[5]" and "exactly 20" in err.reason  # seat 1 shows no pair
    off = _hand(FOUR, [*_to_fourth(), ("fourth", 4, "bet", 40)], settings={"open_pair": False})
    assert _refused(off).field == "actions[4]"


def test_seventh_card_counts_and_shortage() -> None:
    assert seventh_street(48, 3, 8).plan == "community"
    assert seventh_street(48, 3, 8).message() == (
        "stub 1 card + 3 burns = 4, 8 players need 8: shuffle the burns, turn one community card"
    )
    short = seventh_street(45, 3, 7)  # 8 dealt in, one folded on third: stub 4 + 3 burns = 7
    assert short.plan == "reshuffle" and short.stub == 4
    exact = seventh_street(42, 3, 7)  # 7 players to seventh: stub 7, no card to burn
    assert exact.plan == "deal" and not exact.burn
    assert seventh_street(12, 3, 2).plan == "deal" and seventh_street(12, 3, 2).burn
    with pytest.raises(Exception, match="impossible deck"):
        seventh_street(50, 3, 2)


def _community_record() -> dict[str, Any]:
    for seed in range(50):
        rec = random_record(random.Random(seed), betting="fixed_limit", seats=8, stay_in=True)
        if "community" in rec:
            return rec
    raise AssertionError("no 8-handed record reached the community card")


def test_eight_players_to_seventh_street_share_a_community_card() -> None:
    record = _community_record()
    assert all(len(p["cards"]) == 6 for p in record["players"])
    got = settle_record(record)
    assert sum(s["net"] for s in got["seats"]) == 0
    assert parse_card(record["community"]) not in {
        parse_card(c) for p in record["players"] for c in p["cards"]
    }
    missing = copy.deepcopy(record)
    del missing["community"]
    err = _refused(missing)
    assert err.field == "community" and "8 players need 8" in err.reason
    seventh = copy.deepcopy(record)
    del seventh["community"]
    seventh["players"][0]["cards"].append(record["community"])
    assert _refused(seventh).field == "community"


def test_cards_count_and_folded_cards() -> None:
    record = _case("stud-high-exposed-hand-acts-first-tie-lowest-seat")
    short = copy.deepcopy(record)
    short["players"][0]["cards"] = short["players"][0]["cards"][:6]  # seat 2 at showdown
    err = _refused(short)
    assert err.field == "players[0].cards" and "7" in err.reason
    # seat 6 folded on fourth street: its later cards were never dealt and play no part
    folded = copy.deepcopy(record)
    folded["players"][2]["cards"] = folded["players"][2]["cards"][:4]
    assert _normalise(settle_record(folded)) == _normalise(settle_record(record))
    folded["players"][2]["cards"] = folded["players"][2]["cards"][:3]  # its fourth card opened
    assert _refused(folded).field == "players[2].cards"
    unknown = copy.deepcopy(record)
    unknown["players"][2]["cards"][:2] = ["??", "??"]
    assert settle_record(unknown)["seats"][2]["result"] == "fold"
    unknown["players"][2]["cards"][2] = "??"  # the door card decides the bring-in
    assert _refused(unknown).field == "players[2].cards[2]"
    twice = copy.deepcopy(record)
    twice["players"][1]["cards"][6] = "Ac"
    assert _refused(twice).field == "players[1].cards[6]"
    assert _refused({**record, "bring_in": 11}).field == "bring_in"  # more than half of 20


def test_game_functions() -> None:
    doors = dict(zip((1, 2, 3, 4), parse_cards(["2h", "2c", "As", "2s"]), strict=True))
    assert bring_in_order(doors) == [2, 1, 4, 3]  # clubs < hearts < spades; ace high
    up = {1: parse_cards(["Kh", "7s"]), 2: parse_cards(["Ks", "7d"]), 3: parse_cards(["2c", "2d"])}
    assert best_exposed(up) == 3
    assert best_exposed({1: up[1], 2: up[2]}) == 1  # a tie to the lowest seat
    assert describe_exposed(up[3]) == "pair of twos"
    op = opening("fourth", up, bring_in=10, fixed_limit=True)
    assert op.order[0] == 3 and op.big_open == (3,) and op.why == "highest board: pair of twos"
    assert opening("fifth", up, bring_in=10, fixed_limit=True).big_open == ()
    assert showdown_order([1, 2, 3], up, None) == [3, 1, 2]
    assert showdown_order([1, 2, 3], up, 2) == [2, 3, 1]
    cards = {1: parse_cards(["Kh", "2c"]), 5: parse_cards(["Ks", "3c"])}
    assert odd_chip_order(cards)([1, 5]) == [5, 1]
    shared = {1: parse_cards(["Kh", "2c"]), 5: parse_cards(["Qs", "3c"])}
    assert odd_chip_order(shared, parse_cards(["As"]))([1, 5]) == [1, 5]  # then the next card


# -- random hands --------------------------------------------------------------------------------


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


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    betting=st.sampled_from(["fixed_limit", "pot_limit", "no_limit"]),
    stay_in=st.booleans(),
)
def test_random_hands_conserve_chips_and_pots_match_a_brute_force_split(
    seed: int, betting: Structure, stay_in: bool
) -> None:
    record = random_record(random.Random(seed), betting=betting, stay_in=stay_in)
    got = settle_record(record)
    start = sum(p["stack"] for p in record["players"])
    assert sum(s["stack"] for s in got["seats"]) == start
    assert sum(s["net"] for s in got["seats"]) == 0
    put_in = {s["seat"]: s["put_in"] for s in got["seats"]}
    live = {s["seat"] for s in got["seats"] if s["result"] != "fold"}
    pots: dict[frozenset[int], int] = defaultdict(int)
    cards = {p["seat"]: p["cards"] for p in record["players"]}
    community = [record["community"]] if "community" in record else []
    for pot in got["pots"]:
        pots[frozenset(pot["eligible"])] += pot["amount"]
        shares = [w["amount"] for w in pot["winners"]]
        assert sum(shares) == pot["amount"] and max(shares) - min(shares) <= record["chip"]
        assert shares == sorted(shares, reverse=True)  # odd chips to the first winners
        tops = [
            max(card_key(c) for c in parse_cards([*cards[w["seat"]], *community]))
            for w in pot["winners"]
        ]
        if not community:
            assert tops == sorted(tops, reverse=True)  # highest card by suit first
    assert dict(pots) == _brute_force_pots(put_in, live)


def test_random_records_repeat_for_a_seed() -> None:
    a = random_record(random.Random(7), betting="no_limit")
    assert a == random_record(random.Random(7), betting="no_limit")
    assert a != random_record(random.Random(8), betting="no_limit")


# -- an independent engine ---------------------------------------------------------------------


def _pokerkit_stacks(record: dict[str, Any]) -> list[int] | str:
    """End stacks of ``record`` replayed by pokerkit's fixed-limit stud, or why it stopped."""
    pk = pytest.importorskip("pokerkit")
    a = pk.Automation
    auto = (
        a.ANTE_POSTING,
        a.BET_COLLECTION,
        a.BLIND_OR_STRADDLE_POSTING,
        a.CARD_BURNING,
        a.HOLE_CARDS_SHOWING_OR_MUCKING,
        a.HAND_KILLING,
        a.CHIPS_PUSHING,
        a.CHIPS_PULLING,
    )
    seats = [p["seat"] for p in record["players"]]
    cards = {p["seat"]: list(p["cards"]) for p in record["players"]}
    small, big = record["limits"]
    state = pk.FixedLimitSevenCardStud.create_state(
        auto,
        True,
        record["ante"],
        record["bring_in"],
        small,
        big,
        [p["stack"] for p in record["players"]],
        len(seats),
    )
    actions = list(record["actions"])
    while state.status:
        if state.can_deal_hole():
            state.deal_hole(cards[seats[state.hole_dealee_index]].pop(0))
            continue
        if not actions or state.actor_index is None:
            return "pokerkit wants another action"
        act = actions.pop(0)
        if seats[state.actor_index] != act["seat"]:
            return "another actor"
        kind = act["action"]
        try:
            if kind == "bring_in":
                state.post_bring_in()
            elif kind in ("complete", "bet", "raise"):
                state.complete_bet_or_raise_to(act["to"])
            elif kind == "fold":
                state.fold()
            else:
                state.check_or_call()
        except ValueError as e:
            return f"pokerkit refused: {e}"
    return list(state.stacks)


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_fixed_limit_hands_agree_with_pokerkit_where_the_rules_agree() -> None:
    """pokerkit's fixed-limit stud replays random hands; where it knows the same rules the end
    stacks are ours. It has no open pair (text 002), no bring-in fold, no shortage, and its own
    incomplete all-in, heads-up cap and all-in-on-the-ante bring-in rules: those hands are left
    out, as are tables with non-default settings."""
    agreed = 0
    for seed in range(300):
        rng = random.Random(seed)
        record = random_record(rng, betting="fixed_limit", seats=rng.randint(2, 7))
        big = record["limits"][1]
        if any(a["street"] == "fourth" and a.get("to") == big for a in record["actions"]):
            continue  # an open pair's big bet
        if "settings" in record or any("??" in p["cards"] for p in record["players"]):
            continue
        if record["actions"] and record["actions"][0]["action"] == "fold":
            continue
        if any(p["stack"] <= record["ante"] + record["bring_in"] for p in record["players"]):
            continue  # all-in on the ante or the bring-in: conventions differ
        theirs = _pokerkit_stacks(copy.deepcopy(record))
        got = settle_record(record)
        if isinstance(theirs, str):
            # pokerkit's incomplete all-ins (never reopening, the next bet a full one above it)
            # and its cap heads-up (GAMES.md: no cap with two players, a table setting)
            known = ("all-in", "minimum", "No more completion")
            assert any(k in theirs for k in known), (seed, theirs)
            continue
        ours = [s["stack"] for s in got["seats"]]
        odd = any(w["odd_chip"] for p in got["pots"] for w in p["winners"])
        assert theirs == ours or odd, (seed, theirs, ours)
        if odd:  # pokerkit gives the odd chips elsewhere: only the split differs
            assert sum(theirs) == sum(ours)
        agreed += 1
    assert agreed >= 80, agreed  # 91 of 300 seeds with these settings


def test_no_limit_and_pot_limit_minimum_is_the_big_limit() -> None:
    """Text 002: the smallest bet or raise in no limit and pot limit is the big limit (40 here)
    or the last bet or raise; over the bring-in alone the completion is to at least 40."""
    for betting in ("no_limit", "pot_limit"):
        low = _hand(FOUR, [("third", 1, "bring_in", None), ("third", 2, "complete", 30)])
        err = _refused({**low, "betting": betting})
        assert err.field == "actions[1]" and "40" in err.reason, err
        ok = [
            ("third", 1, "bring_in", None),
            ("third", 2, "complete", 40),
            ("third", 3, "raise", 80),
            ("third", 4, "fold", None),
        ]
        err = _refused({**_hand(FOUR, [*ok, ("third", 1, "raise", 100)]), "betting": betting})
        assert err.field == "actions[4]" and "120" in err.reason, err  # a raise of 40 at least
