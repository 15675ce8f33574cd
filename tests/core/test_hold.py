"""Theoretical hold: the exact side-bet edges against an independent enumeration and published
figures, the simulation's confidence interval against the exact edge."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.errors import ConfigError
from dealer_assist.evaluator import Category
from dealer_assist.games.hold import (
    SEVEN_CARD_COUNTS,
    bonus_edge,
    exact_side_edges,
    main_game_hold,
    simulate_hold,
    trips_edge,
)
from dealer_assist.games.thb import BONUS_TABLE
from dealer_assist.games.uth import TRIPS_TABLE
from dealer_assist.paytables import build_paytables


def test_trips_edge_of_the_default_table_is_the_published_3_50_percent() -> None:
    # Wizard of Odds, UTH Trips 50-40-30-8-7-4-3: house edge 3.50% (see dealer_assist/games/hold.py)
    edge = trips_edge(TRIPS_TABLE)
    assert edge == Fraction(233_985, 6_689_228)
    assert round(float(edge) * 100, 2) == 3.50


def test_trips_edge_by_hand_from_the_census_counts() -> None:
    # sum of count x (odds + 1) over the paying lines, over C(52, 7): written out independently
    paid = (
        4324 * 51 + 37260 * 41 + 224848 * 31 + 3473184 * 9 + 4047644 * 8 + 6180020 * 5 + 6461620 * 4
    )
    assert sum(SEVEN_CARD_COUNTS.values()) == 133_784_560
    assert trips_edge(TRIPS_TABLE) == 1 - Fraction(paid, 133_784_560)


def test_the_other_common_trips_table_has_the_published_1_90_percent() -> None:
    # Wizard of Odds' Trips pay table 50-40-30-8-6-5-3: 1.90%
    better = {**TRIPS_TABLE, "flush": (6, 1), "straight": (5, 1)}
    assert round(float(trips_edge(better)) * 100, 2) == 1.90


def test_bonus_edge_equals_an_independent_enumeration_of_the_hole_pairs() -> None:
    lines: Counter[str] = Counter()
    for a, b in combinations(FULL_DECK, 2):
        hi, lo = max(a.rank, b.rank), min(a.rank, b.rank)
        if hi == lo:
            lines["aa" if hi == 14 else "kk_qq_jj" if hi >= 11 else "pair_2_to_10"] += 1
        elif hi == 14 and lo in (11, 12, 13):
            kind = "ak" if lo == 13 else "aq_aj"
            lines[f"{kind}_{'suited' if a.suit == b.suit else 'offsuit'}"] += 1
    assert lines == {
        "aa": 6,
        "ak_suited": 4,
        "aq_aj_suited": 8,
        "ak_offsuit": 12,
        "kk_qq_jj": 18,
        "aq_aj_offsuit": 24,
        "pair_2_to_10": 54,
    }
    ret = sum(n * (1 + Fraction(*BONUS_TABLE[k])) for k, n in lines.items())  # type: ignore[misc]
    assert bonus_edge(BONUS_TABLE) == 1 - ret / 1326 == Fraction(59, 663)


def test_exact_edges_follow_the_pay_tables_in_force() -> None:
    assert exact_side_edges("uth") == {"trips": trips_edge(TRIPS_TABLE)}
    tables = build_paytables("thb", {"bonus": {"aa": [40, 1]}})
    assert exact_side_edges("thb", tables)["bonus"] == Fraction(59, 663) - Fraction(60, 1326)
    assert exact_side_edges("holdem") == {}


@pytest.mark.parametrize("game, box", [("uth", "trips"), ("thb", "bonus")])
def test_the_simulated_side_bet_interval_contains_the_exact_edge(game: str, box: str) -> None:
    sim = simulate_hold(game, 6000, seed=7)
    est = sim.side[box]
    exact = exact_side_edges(game)[box]
    lo, hi = est.ci95
    assert est.hands == 6000 and est.drop == 6000 * 100
    assert lo <= float(exact) <= hi
    assert hi - lo < 0.2


def test_the_main_game_simulation_is_seeded_and_states_its_interval() -> None:
    a, b = simulate_hold("uth", 2000, seed=3), simulate_hold("uth", 2000, seed=3)
    assert a == b
    c = simulate_hold("uth", 2000, seed=4)
    assert c.main.win != a.main.win
    lo, hi = a.main.ci95
    assert lo < float(a.main.hold) < hi
    # a band for more hands is narrower
    assert (
        a.main.band(10_000)[1] - a.main.band(10_000)[0] < a.main.band(100)[1] - a.main.band(100)[0]
    )


def test_main_game_hold_of_a_pot_game_is_none_and_bad_sizes_are_refused() -> None:
    assert main_game_hold("holdem", 100) is None
    with pytest.raises(ConfigError, match="at least 2 hands"):
        simulate_hold("uth", 1)
    with pytest.raises(ConfigError, match="unknown game"):
        simulate_hold("baccarat", 10)


def test_census_constant_has_every_category() -> None:
    assert set(SEVEN_CARD_COUNTS) == set(Category)
