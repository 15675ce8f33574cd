"""The settle path's shortcuts (issue 13 speed) agree with the general code they stand in for:
the two-card hole read inline against ``take_cards``, remembered settings against
``HoldemSettings.from_json``, the whole-number rake against the Fraction formula, card texts and
the evaluator's per-card lookups against cards made elsewhere, a round's stacks copied as given
against any mapping. Seeded random inputs; each side is computed, never written down."""

from __future__ import annotations

import copy
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dealer_assist.cards import FULL_DECK, Card, format_cards
from dealer_assist.engine.betting import Limits, RoundState
from dealer_assist.engine.pot_settle import PotHand, _rake, _texts
from dealer_assist.errors import ConfigError, InvalidRecordError
from dealer_assist.evaluator import evaluate, evaluate_parts
from dealer_assist.games.holdem import HoldemSettings
from dealer_assist.games.holdem_players import random_record
from dealer_assist.games.holdem_record import _settings
from dealer_assist.record import settle_record

_SPELLINGS = (str.lower, lambda t: t[0] + {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}[t[1]])


def _respelled(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record with every known hole card in another spelling (the general card reader)."""
    out = copy.deepcopy(record)
    for p in out["players"]:
        if p.get("hole") and "??" not in p["hole"]:
            p["hole"] = [rng.choice(_SPELLINGS)(t) for t in p["hole"]]
    return out


@pytest.mark.parametrize("betting", ["no_limit", "pot_limit", "fixed_limit"])
def test_inline_hole_cards_settle_as_the_general_reader(betting: str) -> None:
    rng = random.Random(f"holes-{betting}")
    for _ in range(150):
        record = random_record(rng, betting=betting)  # type: ignore[arg-type]
        assert settle_record(record) == settle_record(_respelled(record, rng))


def test_inline_hole_cards_refuse_as_the_general_reader() -> None:
    rng = random.Random("hole-errors")
    for _ in range(150):
        record = random_record(rng, betting="no_limit")
        shown = [p for p in record["players"] if p.get("hole") and "??" not in p["hole"]]
        if len(shown) < 2:
            continue
        a, b = rng.sample(shown, 2)
        b["hole"] = [a["hole"][rng.randrange(2)], b["hole"][1]]  # a card dealt twice
        with pytest.raises(InvalidRecordError) as fast:
            settle_record(record)
        with pytest.raises(InvalidRecordError) as general:
            settle_record(_respelled(record, rng))
        assert (fast.value.field, fast.value.reason) == (general.value.field, general.value.reason)


_SETTING_VALUES = st.one_of(st.booleans(), st.integers(-2, 6), st.sampled_from(["moving", "x"]))
_SETTING_KEYS = st.sampled_from(
    ["no_cap_heads_up", "max_raises", "reopen_by_sum", "no_flop_no_drop", "button", "nope"]
)


@given(st.dictionaries(_SETTING_KEYS, _SETTING_VALUES, max_size=4))
def test_remembered_settings_are_from_json(raw: dict[str, Any]) -> None:
    for _ in range(2):  # the second read comes from the memory when the first was good
        try:
            expected: HoldemSettings | str = HoldemSettings.from_json(raw)
        except ConfigError as e:
            expected = str(e)
        try:
            got: HoldemSettings | str = _settings(raw)
        except ConfigError as e:
            got = str(e)
        assert got == expected


@given(
    total=st.integers(0, 10**7),
    percent=st.decimals(0, 100, places=3, allow_nan=False),
    chip=st.sampled_from([1, 5, 25]),
    cap=st.one_of(st.none(), st.integers(0, 10**5)),
)
def test_whole_number_rake_is_the_fraction_formula(
    total: int, percent: Any, chip: int, cap: int | None
) -> None:
    p = Fraction(str(percent))
    hand = PotHand("holdem", (1, 2), {1: 1, 2: 1}, 1, {}, frozenset(), {}, {}, (), chip=chip,
                   rake_percent=p, rake_cap=cap, flop_seen=True)  # fmt: skip
    expected = 0 if p <= 0 or total <= 0 else int(total * p / 100) // chip * chip
    if cap is not None:
        expected = min(expected, cap)
    assert _rake(hand, total) == expected


def test_card_lookups_agree_with_cards_made_elsewhere() -> None:
    rng = random.Random("cards")
    for _ in range(3000):
        cards = rng.sample(FULL_DECK, rng.choice((5, 6, 7)))
        fresh = [Card(c.rank, c.suit) for c in cards]  # equal cards, not the deck's objects
        value = evaluate(cards)
        assert evaluate_parts(fresh) == (value.category, value.value, value.best_five)
        assert _texts(value.best_five) == format_cards(value.best_five)
        assert _texts(fresh) == format_cards(fresh)


def test_round_stacks_copied_as_any_mapping() -> None:
    rng = random.Random("stacks")
    limits = Limits("no_limit", 20)
    for _ in range(500):
        order = tuple(sorted(rng.sample(range(1, 10), rng.randint(2, 9))))
        stacks = {s: rng.choice((0, 5, 100, 1000)) for s in order}
        shuffled = dict(rng.sample(list(stacks.items()), len(stacks)))
        extra = {**stacks, 10: 7}  # a seat outside the round is left out
        first = rng.randint(1, 10)
        states = [RoundState(order, s, limits, first) for s in (stacks, shuffled, extra)]
        for rs in states:
            assert list(rs.stacks.items()) == [(s, stacks[s]) for s in order]
            assert rs.actor == states[0].actor
