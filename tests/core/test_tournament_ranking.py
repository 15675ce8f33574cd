"""Eliminations, ranking and prizes (GAMES.md "Ranking", "Prize pool"; rules text 002): reverse
order of elimination, same-hand busts by start stack with equal stacks sharing, a bust undone and
re-ranked, heats combined; the pool from the fees or the guarantee, payouts in cents with the
remainder to the best place, shared places splitting their prizes; special prizes from showdowns;
the results table."""

from __future__ import annotations

import itertools
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.cards import parse_cards
from dealer_assist.tournament.errors import PrizeError, RankingError
from dealer_assist.tournament.money import Ledger, addon, rebuy, register
from dealer_assist.tournament.prizes import (
    SpecialAward,
    categories_shown,
    payouts,
    place_amounts,
    prize_pool,
    special_prizes_won,
)
from dealer_assist.tournament.ranking import (
    Bust,
    EliminationRecord,
    Eliminations,
    Placing,
    combine_heats,
)
from dealer_assist.tournament.results import results_table
from dealer_assist.tournament.structure import TournamentStructure, shipped_structures
from dealer_assist.tournament.structure_reader import load_structure

SHIPPED = shipped_structures()
PLAYERS = ["A", "B", "C", "D", "E", "F"]


def custom(tmp_path: Path, name: str = "stud_freezeout", **changes: Any) -> TournamentStructure:
    data = tomllib.loads(SHIPPED[name].read_text(encoding="utf-8"))
    for section, values in changes.items():
        data.setdefault(section, {}).update(values)
    p = tmp_path / f"{name}.toml"
    p.write_text(tomli_w.dumps(data), encoding="utf-8")
    return load_structure(p)


def places(ranking: tuple[Placing, ...]) -> list[tuple[int, str]]:
    return [(r.place, r.player) for r in ranking]


def test_reverse_order_of_elimination() -> None:
    e = Eliminations()
    for i, p in enumerate(["F", "E", "D", "C", "B"]):
        e = e.bust(Bust(p, f"T1-{i}", 1000))
    assert places(e.ranking(PLAYERS)) == [
        (1, "A"),
        (2, "B"),
        (3, "C"),
        (4, "D"),
        (5, "E"),
        (6, "F"),
    ]
    assert not e.ranking(PLAYERS)[0].in_play  # the last one left is the winner
    assert e.partita_over(PLAYERS) and not e.undo("B").partita_over(PLAYERS)
    assert e.undo("B").partita_over(PLAYERS, qualifiers=2)
    assert [r.in_play for r in e.undo("B").ranking(PLAYERS)[:2]] == [True, True]


def test_same_hand_busts_by_start_stack_equal_stacks_share() -> None:
    e = Eliminations().bust(Bust("F", "h1", 500))
    # hand h2: C started with 3000, D and E with 1200 each: C 3rd, D and E share 4th
    for p, stack in (("D", 1200), ("C", 3000), ("E", 1200)):
        e = e.bust(Bust(p, "h2", stack))
    r = e.ranking(PLAYERS)
    assert [(x.place, x.player, x.shared) for x in r] == [
        (1, "A", 2),
        (1, "B", 2),
        (3, "C", 1),
        (4, "D", 2),
        (4, "E", 2),
        (6, "F", 1),
    ]
    # B goes out next: A is the winner
    e = e.bust(Bust("B", "h3", 9000))
    assert places(e.ranking(PLAYERS))[:2] == [(1, "A"), (2, "B")]


def test_undo_a_bust_re_ranks() -> None:
    e = Eliminations()
    for p, h, s in (("F", "h1", 100), ("E", "h2", 200), ("D", "h2", 300), ("C", "h3", 50)):
        e = e.bust(Bust(p, h, s))
    assert places(e.ranking(PLAYERS))[2:] == [(3, "C"), (4, "D"), (5, "E"), (6, "F")]
    e2 = e.undo("D")  # the director corrects the settlement of h2: D was not out
    assert places(e2.ranking(PLAYERS)) == [
        (1, "A"),
        (1, "B"),
        (1, "D"),
        (4, "C"),
        (5, "E"),
        (6, "F"),
    ]
    with pytest.raises(RankingError, match="not out"):
        e2.undo("D")
    with pytest.raises(RankingError, match="already out"):
        e.bust(Bust("C", "h4", 10))
    # the same as a journal fold of records
    records = [EliminationRecord("bust", b.player, b.hand, b.start_stack, "dir") for b in e.busts]
    records.append(EliminationRecord("undo", "D", authorised_by="dir"))
    back = [EliminationRecord.from_json(json.loads(json.dumps(r.to_json()))) for r in records]
    assert Eliminations.fold(back) == e2


def test_ranking_refusals() -> None:
    with pytest.raises(RankingError, match="not an entrant"):
        Eliminations().bust(Bust("Z", "h1", 1)).ranking(PLAYERS)
    with pytest.raises(RankingError, match="needs the hand"):
        Eliminations().bust(Bust("A", "", 1))
    with pytest.raises(RankingError):
        EliminationRecord.from_json({"kind": "bust", "player": "A", "start_stack": -1})


def test_heats_combined() -> None:
    # two heats of four, two qualifiers each; the final of four
    h1 = Eliminations().bust(Bust("A4", "x1", 10)).bust(Bust("A3", "x2", 10))
    h2 = Eliminations().bust(Bust("B4", "y1", 5)).bust(Bust("B3", "y1", 5))  # B3, B4 share 3rd
    heat1 = h1.ranking(["A1", "A2", "A3", "A4"])
    heat2 = h2.ranking(["B1", "B2", "B3", "B4"])
    final = (
        Eliminations()
        .bust(Bust("B2", "f1", 1))
        .bust(Bust("A1", "f2", 1))
        .bust(Bust("B1", "f3", 1))
        .ranking(["A1", "A2", "B1", "B2"])
    )
    r = combine_heats(final, [heat1, heat2])
    assert [(x.place, x.player, x.shared) for x in r] == [
        (1, "A2", 1),
        (2, "B1", 1),
        (3, "A1", 1),
        (4, "B2", 1),
        (5, "A3", 3),
        (5, "B3", 3),
        (5, "B4", 3),
        (8, "A4", 1),
    ]


# -- prizes ----------------------------------------------------------------------------------


def test_pool_from_fees_or_guarantee() -> None:
    s = load_structure(SHIPPED["holdem_rebuy"])
    assert prize_pool(s, 40_000) == 50_000  # guarantee EUR 500
    assert prize_pool(s, 61_000) == 61_000


def test_rounding_remainder_to_the_best_place(tmp_path: Path) -> None:
    s = custom(tmp_path, prizes={"percentages": [50, 30, 20]})
    ranking = (
        Eliminations().bust(Bust("C", "h1", 1)).bust(Bust("B", "h2", 1)).ranking(["A", "B", "C"])
    )
    pay = payouts(s, ranking, 30_001)
    # 15000.5 -> 15000, 9000.3 -> 9000, 6000.2 -> 6000; 1 cent left to place 1
    assert [(p.player, p.cents) for p in pay] == [("A", 15_001), ("B", 9_000), ("C", 6_000)]
    assert sum(p.cents for p in pay) == 30_001
    assert place_amounts(s, 30_001, 3) == [15_001, 9_000, 6_000]


def test_shared_places_split_the_sum_of_their_prizes(tmp_path: Path) -> None:
    s = custom(tmp_path, prizes={"percentages": [50, 30, 20]})
    # B and C bust in the same hand with equal stacks: they share 2nd and 3rd (30 % + 20 %)
    e = (
        Eliminations()
        .bust(Bust("D", "h1", 100))
        .bust(Bust("B", "h2", 700))
        .bust(Bust("C", "h2", 700))
    )
    pay = payouts(s, e.ranking(["A", "B", "C", "D"]), 30_001)
    got = {p.player: (p.place, p.shared, p.cents) for p in pay}
    # 9000 + 6000 = 15000 shared: 7500 each; 15000 + 1 left over to A
    assert got == {"A": (1, 1, 15_001), "B": (2, 2, 7_500), "C": (2, 2, 7_500), "D": (4, 1, 0)}
    # an odd sum to share: the cent the split cannot give goes to the best place
    # 15005 / 9003 / 6002: 2nd + 3rd = 15005 split 7502 + 7502, the cent left to A
    pay = payouts(s, e.ranking(["A", "B", "C", "D"]), 30_010)
    got = {p.player: p.cents for p in pay}
    assert got == {"A": 15_006, "B": 7_502, "C": 7_502, "D": 0}
    assert sum(got.values()) == 30_010


def test_winner_takes_all_and_fewer_players_than_places(tmp_path: Path) -> None:
    data = tomllib.loads(SHIPPED["stud_freezeout"].read_text(encoding="utf-8"))
    data["prizes"] = {"kind": "winner_takes_all"}
    p = tmp_path / "wta.toml"
    p.write_text(tomli_w.dumps(data), encoding="utf-8")
    wta = load_structure(p)
    ranking = Eliminations().bust(Bust("B", "h", 1)).ranking(["A", "B"])
    assert [x.cents for x in payouts(wta, ranking, 10_000)] == [10_000, 0]
    # a shared first place (the last two out together with equal stacks) splits it, the odd cent
    # to the first listed
    tie = Eliminations().bust(Bust("A", "h", 5)).bust(Bust("B", "h", 5)).ranking(["A", "B"])
    assert [(x.place, x.cents) for x in payouts(wta, tie, 10_001)] == [(1, 5_001), (1, 5_000)]
    # 5 paid places with 3 players: 40/25/15 of the pool, in proportion
    hr = load_structure(SHIPPED["holdem_rebuy"])
    three = (
        Eliminations().bust(Bust("C", "h1", 1)).bust(Bust("B", "h2", 1)).ranking(["A", "B", "C"])
    )
    assert [x.cents for x in payouts(hr, three, 80_000)] == [40_000, 25_000, 15_000]


def test_first_prize_must_be_above_the_entry_fee(tmp_path: Path) -> None:
    s = custom(tmp_path, prizes={"percentages": [50, 30, 20]})
    ranking = Eliminations().bust(Bust("B", "h", 1)).ranking(["A", "B"])
    with pytest.raises(PrizeError, match=r"not above the entry fee EUR 50\.00"):
        payouts(s, ranking, 6_000)  # 2 players, but 50/30 of EUR 60: EUR 37.50
    with pytest.raises(PrizeError, match="no one"):
        payouts(s, (), 1)


# -- special prizes ------------------------------------------------------------------------------


def test_special_prizes_from_showdowns() -> None:
    s = load_structure(SHIPPED["holdem_rebuy"])  # royal flush EUR 200 once; straight flush 50
    shown = categories_shown(
        {
            "A": parse_cards(["As", "Ks", "Qs", "Js", "Ts", "2h", "3d"]),
            "B": parse_cards(["9h", "8h", "7h", "6h", "5h", "Ac", "Ad"]),
            "C": parse_cards(["2c", "2d", "2h", "7s", "9d", "Kc", "Qd"]),
        }
    )
    assert shown == {"A": "royal_flush", "B": "straight_flush", "C": "three_of_a_kind"}
    won = special_prizes_won(s, "T1-17", shown)
    assert [(a.category, a.player, a.hand, a.cents) for a in won] == [
        ("royal_flush", "A", "T1-17", 20_000),
        ("straight_flush", "B", "T1-17", 5_000),
    ]
    # the royal flush was paid once already: no more; straight flushes every time
    again = special_prizes_won(s, "T2-3", {"C": "royal_flush", "D": "straight_flush"}, won)
    assert [(a.category, a.player) for a in again] == [("straight_flush", "D")]
    back = [SpecialAward.from_json(json.loads(json.dumps(a.to_json()))) for a in won]
    assert tuple(back) == won


def test_two_royal_flushes_in_one_hand_share_the_one_award() -> None:
    s = load_structure(SHIPPED["holdem_rebuy"])
    won = special_prizes_won(s, "h", {"X": "royal_flush", "Y": "royal_flush", "Z": "royal_flush"})
    assert [(a.player, a.cents) for a in won] == [("X", 6_667), ("Y", 6_667), ("Z", 6_666)]
    assert sum(a.cents for a in won) == 20_000


# -- results table ---------------------------------------------------------------------------------


def test_results_table() -> None:
    s = load_structure(SHIPPED["holdem_rebuy"])
    ledger = Ledger.empty()
    names = [f"P{i}" for i in range(8)]
    for n in names:
        ledger = ledger.apply(register(s, ledger, n, authorised_by="dir"), s)
    ledger = ledger.apply(rebuy(s, ledger, "P3", stack=0, level=2, authorised_by="dir"), s)
    ledger = ledger.apply(addon(s, ledger, "P0", level=4, authorised_by="dir"), s)
    e = Eliminations()
    for i, n in enumerate(reversed(names[1:])):
        e = e.bust(Bust(n, f"h{i}", 100))
    ranking = e.ranking(names)
    pool = prize_pool(s, ledger.fees_cents)
    assert (ledger.fees_cents, pool) == (20_000, 50_000)
    pay = payouts(s, ranking, pool)
    specials = special_prizes_won(s, "h9", {"P2": "straight_flush"})
    table = results_table(s, ledger, ranking, pay, pool, specials)
    assert (table.entrants, table.rebuys, table.addons, table.pool_cents) == (8, 1, 1, 50_000)
    first = table.rows[0]
    assert (first.place, first.player, first.prize_cents, first.paid_cents, first.addon) == (
        1,
        "P0",
        20_000,
        4_000,
        True,
    )
    assert [r.prize_cents for r in table.rows] == [20_000, 12_500, 7_500, 6_000, 4_000, 0, 0, 0]
    p2 = next(r for r in table.rows if r.player == "P2")
    assert p2.special_cents == 5_000
    assert json.loads(json.dumps(table.to_json()))["rows"][0]["player"] == "P0"


# -- properties ------------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(2, 12),
    stacks=st.lists(st.integers(0, 3), min_size=12, max_size=12),
    hands=st.lists(st.integers(0, 4), min_size=12, max_size=12),
    pool=st.integers(60_000, 10_000_000),
)
def test_payouts_add_up_and_follow_the_ranking(
    n: int, stacks: list[int], hands: list[int], pool: int
) -> None:
    s = load_structure(SHIPPED["holdem_rebuy"])  # 40/25/15/12/8, entry EUR 20
    players = [f"P{i}" for i in range(n)]
    e = Eliminations()
    # every player but P0 goes out, in hands numbered by `hands` (several per hand), ties often
    for i, p in sorted(enumerate(players[1:], 1), key=lambda ip: hands[ip[0]]):
        e = e.bust(Bust(p, f"h{hands[i]}", stacks[i] * 100))
    ranking = e.ranking(players)
    pay = payouts(s, ranking, pool)
    assert sum(p.cents for p in pay) == pool
    assert all(a.cents >= b.cents for a, b in itertools.pairwise(pay))
    for place in {p.place for p in pay}:
        group = [p.cents for p in pay if p.place == place]
        assert max(group) - min(group) <= (1 if place == 1 else 0)
