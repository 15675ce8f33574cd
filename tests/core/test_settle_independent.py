"""Random valid hand records: `settle` agrees with an independent re-implementation.

The reference below shares no code with dealer_assist's games: it ranks hands with phevaluator
(a perfect-hash evaluator, lower rank = better) and applies GAMES.md's tables written out again.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from phevaluator import evaluate_cards

from dealer_assist.record import settle_record

DECK = [r + s for r in "23456789TJQKA" for s in "shdc"]
# phevaluator rank ranges -> category (1 = royal flush ... 7462 = worst high card).
BANDS = [
    (1, "royal_flush"),
    (10, "straight_flush"),
    (166, "four_of_a_kind"),
    (322, "full_house"),
    (1599, "flush"),
    (1609, "straight"),
    (2467, "three_of_a_kind"),
    (3325, "two_pair"),
    (6185, "pair"),
    (7462, "high_card"),
]
ORDER = [name for _, name in reversed(BANDS)]  # low to high
BLIND = {
    "royal_flush": (500, 1),
    "straight_flush": (50, 1),
    "four_of_a_kind": (10, 1),
    "full_house": (3, 1),
    "flush": (3, 2),
    "straight": (1, 1),
}
TRIPS = {
    "royal_flush": (50, 1),
    "straight_flush": (40, 1),
    "four_of_a_kind": (30, 1),
    "full_house": (8, 1),
    "flush": (7, 1),
    "straight": (4, 1),
    "three_of_a_kind": (3, 1),
}


def category(rank: int) -> str:
    return next(name for top, name in BANDS if rank <= top)


def rank7(cards: list[str]) -> int:
    return int(evaluate_cards(*cards))


def bonus_odds(hole: list[str]) -> int:
    r = sorted(("23456789TJQKA".index(c[0]) + 2 for c in hole), reverse=True)
    suited = hole[0][1] == hole[1][1]
    if r[0] == r[1]:
        return 30 if r[0] == 14 else 10 if r[0] >= 11 else 3
    if r == [14, 13]:
        return 25 if suited else 15
    if r[0] == 14 and r[1] in (11, 12):
        return 20 if suited else 5
    return 0


def random_uth(rng: random.Random) -> dict[str, Any]:
    seats = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
    deck = rng.sample(DECK, 5 + 2 + 2 * len(seats))
    players = []
    for i, seat in enumerate(seats):
        ante = rng.choice([100, 500, 1005, 2500, 333])
        bets = {"ante": ante, "blind": ante}
        if rng.random() < 0.5:
            bets["trips"] = rng.choice([100, 250, 777])
        street = rng.choice(["preflop", "flop", "river", "fold"])
        acts: list[dict[str, Any]] = []
        for st in ("preflop", "flop", "river"):
            if st == street:
                mult = {"preflop": rng.choice([3, 4]), "flop": 2, "river": 1}[st]
                acts.append({"street": st, "action": "play", "multiple": mult})
                break
            if st == "river":
                acts.append({"street": st, "action": "fold"})
            else:
                acts.append({"street": st, "action": "check"})
        players.append(
            {"seat": seat, "hole": deck[7 + 2 * i : 9 + 2 * i], "bets": bets, "actions": acts}
        )
    return {"game": "uth", "board": deck[:5], "dealer": deck[5:7], "players": players}


def reference_uth(rec: dict[str, Any]) -> dict[int, dict[str, tuple[str, int]]]:
    board, dealer_rank = rec["board"], rank7(rec["board"] + rec["dealer"])
    qualifies = ORDER.index(category(dealer_rank)) >= ORDER.index("pair")
    out: dict[int, dict[str, tuple[str, int]]] = {}
    for p in rec["players"]:
        r = rank7(board + p["hole"])
        cat = category(r)
        ante = p["bets"]["ante"]
        boxes: dict[str, tuple[str, int]] = {}
        last = p["actions"][-1]
        if last["action"] == "fold":
            boxes["ante"], boxes["blind"] = ("lose", -ante), ("lose", -ante)
        else:
            play = ante * last["multiple"]
            if r < dealer_rank:  # player better
                boxes["ante"] = ("win", ante) if qualifies else ("push", 0)
                if cat in BLIND:
                    w, s = BLIND[cat]
                    boxes["blind"] = ("win", ante * w // s)
                else:
                    boxes["blind"] = ("push", 0)
                boxes["play"] = ("win", play)
            elif r > dealer_rank:
                boxes["ante"] = ("lose", -ante) if qualifies else ("push", 0)
                boxes["blind"], boxes["play"] = ("lose", -ante), ("lose", -play)
            else:
                boxes["ante"], boxes["blind"], boxes["play"] = ("push", 0), ("push", 0), ("push", 0)
        if "trips" in p["bets"]:
            t = p["bets"]["trips"]
            boxes["trips"] = ("win", t * TRIPS[cat][0]) if cat in TRIPS else ("lose", -t)
        out[p["seat"]] = boxes
    return out


def random_thb(rng: random.Random) -> dict[str, Any]:
    seats = sorted(rng.sample(range(1, 7), rng.randint(1, 6)))
    deck = rng.sample(DECK, 5 + 2 + 2 * len(seats))
    players = []
    for i, seat in enumerate(seats):
        bets = {"ante": rng.choice([100, 500, 1005])}
        if rng.random() < 0.6:
            bets["bonus"] = rng.choice([100, 250])
        if rng.random() < 0.3:
            acts = [{"street": "preflop", "action": "fold"}]
        else:
            acts = [{"street": "preflop", "action": "bet"}] + [
                {"street": st, "action": rng.choice(["bet", "check"])} for st in ("flop", "turn")
            ]
        players.append(
            {"seat": seat, "hole": deck[7 + 2 * i : 9 + 2 * i], "bets": bets, "actions": acts}
        )
    all_fold = all(p["actions"][0]["action"] == "fold" for p in players)
    board = [] if all_fold and rng.random() < 0.5 else deck[:5]
    return {"game": "thb", "board": board, "dealer": deck[5:7], "players": players}


def reference_thb(rec: dict[str, Any]) -> dict[int, dict[str, tuple[str, int]]]:
    out: dict[int, dict[str, tuple[str, int]]] = {}
    dealer_rank = rank7(rec["board"] + rec["dealer"]) if rec["board"] else None
    for p in rec["players"]:
        boxes: dict[str, tuple[str, int]] = {}
        ante = p["bets"]["ante"]
        if "bonus" in p["bets"]:
            b, odds = p["bets"]["bonus"], bonus_odds(p["hole"])
            boxes["bonus"] = ("win", b * odds) if odds else ("lose", -b)
        if p["actions"][0]["action"] == "fold" or dealer_rank is None:
            boxes["ante"] = ("lose", -ante)
            out[p["seat"]] = boxes
            continue
        r = rank7(rec["board"] + p["hole"])
        stakes = {"ante": ante, "flop": 2 * ante}
        for a, box in zip(p["actions"][1:], ("turn", "river"), strict=True):
            if a["action"] == "bet":
                stakes[box] = ante
        flush_or_better = ORDER.index(category(r)) >= ORDER.index("flush")
        for box, stake in stakes.items():
            if r < dealer_rank:
                boxes[box] = (
                    ("push", 0) if box == "ante" and not flush_or_better else ("win", stake)
                )
            elif r > dealer_rank:
                boxes[box] = ("lose", -stake)
            else:
                boxes[box] = ("push", 0)
        out[p["seat"]] = boxes
    return out


@pytest.mark.parametrize("game", ["uth", "thb"])
def test_random_records_agree_with_reference(game: str) -> None:
    rng = random.Random(20261130 + len(game))
    for _ in range(3000):
        rec = random_uth(rng) if game == "uth" else random_thb(rng)
        expected = reference_uth(rec) if game == "uth" else reference_thb(rec)
        got = settle_record(rec)
        assert got["settlement_order"] == sorted(expected, reverse=True)
        for seat in got["seats"]:
            boxes = {b["box"]: (b["outcome"], b["net"]) for b in seat["bets"]}
            assert boxes == expected[seat["seat"]], (rec, seat)
            assert seat["net"] == sum(n for _, n in boxes.values())
            if seat["hand"] is not None:
                want = category(
                    rank7(
                        rec["board"]
                        + next(p["hole"] for p in rec["players"] if p["seat"] == seat["seat"])
                    )
                )
                assert seat["hand"]["category"] == want
