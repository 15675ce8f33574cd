"""Batch evaluator, its tables and the seven-card census (GAMES.md "Hand value")."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from phevaluator import evaluate_cards

from dealer_assist import _eval_tables as tables
from dealer_assist.batch_eval import (
    SEVEN_CARD_HANDS,
    categories_of,
    combinations,
    evaluate_batch,
    random_hands,
    seven_card_census,
)
from dealer_assist.cards import FULL_DECK, parse_cards
from dealer_assist.errors import CardError
from dealer_assist.evaluator import Category, evaluate

CARD_TEXT = [str(c) for c in FULL_DECK]
FIVE_CARD_COUNTS = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 36, 4]
SEVEN_CARD_COUNTS = {
    Category.ROYAL_FLUSH: 4_324,
    Category.STRAIGHT_FLUSH: 37_260,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def test_all_five_card_hands() -> None:
    hands = combinations(52, 5)
    assert hands.shape == (2_598_960, 5)
    counts = np.bincount(categories_of(evaluate_batch(hands)), minlength=10)
    assert counts.tolist() == FIVE_CARD_COUNTS


@pytest.mark.parametrize("k", [5, 6, 7])
def test_batch_values_equal_single_hand_values(k: int) -> None:
    rng = np.random.default_rng(200 + k)
    hands = random_hands(rng, 20_000, k)
    values = evaluate_batch(hands)
    assert values.dtype == np.int32 and values.shape == (20_000,)
    expected = [evaluate([FULL_DECK[i] for i in row]).value for row in hands.tolist()]
    assert values.tolist() == expected
    assert categories_of(values).tolist() == [v >> 20 for v in expected]


def test_batch_order_agrees_with_phevaluator_on_board_sharing_pairs() -> None:
    """200,000 hold'em-style pairs (shared 5-card board): the comparison sign must agree."""
    rng = np.random.default_rng(7)
    deals = random_hands(rng, 200_000, 9)
    a = deals[:, :7]
    b = np.concatenate([deals[:, :5], deals[:, 7:]], axis=1)
    ours = np.sign(evaluate_batch(a).astype(np.int64) - evaluate_batch(b))
    phe_a = np.array([evaluate_cards(*(CARD_TEXT[i] for i in row)) for row in a.tolist()])
    phe_b = np.array([evaluate_cards(*(CARD_TEXT[i] for i in row)) for row in b.tolist()])
    theirs = np.sign(phe_b - phe_a)  # lower phevaluator rank = better hand
    bad = np.flatnonzero(ours != theirs)
    assert bad.size == 0, [CARD_TEXT[i] for i in deals[bad[0]]]
    assert (ours == 0).sum() > 1000  # the shared board makes ties common: they are exercised


def test_batch_accepts_any_integer_dtype_and_empty_input() -> None:
    hand = [c.index for c in parse_cards(["As", "Ks", "Qs", "Js", "Ts", "2d", "3c"])]
    for dtype in (np.uint8, np.int16, np.int64):
        assert categories_of(evaluate_batch(np.array([hand], dtype))).tolist() == [9]
    assert evaluate_batch(np.zeros((0, 7), np.int64)).shape == (0,)


@pytest.mark.parametrize(
    "bad",
    [
        np.arange(4)[None, :],  # too few cards
        np.arange(8)[None, :],  # too many
        np.arange(5),  # not 2-D
        np.array([[0, 1, 2, 3, 52]]),  # index out of range
        np.array([[0, 1, 2, 3, -1]]),
        np.array([[0, 1, 2, 3, 4], [0, 1, 2, 3, 3]]),  # duplicate card in row 1
        np.array([[0.0, 1, 2, 3, 4]]),  # not integers
    ],
)
def test_batch_rejects_bad_input(bad: np.ndarray) -> None:
    with pytest.raises(CardError):
        evaluate_batch(bad)


def test_rank_keys_make_sums_unique_per_hand_size() -> None:
    for size, n in ((5, 6_175), (6, 18_395), (7, 49_205)):
        counts, sums = tables.rank_key_sums(size)
        assert counts.shape == (n, 13)
        assert (counts.sum(axis=1) == size).all() and counts.max() == 4
        assert len(np.unique(sums)) == n


def test_rank_key_search_reproduces_the_stored_keys() -> None:
    assert tables.search_rank_keys(9) == list(tables.RANK_KEYS[:9])


def test_flush_suit_table() -> None:
    table = tables.flush_suit_table()
    key = tables.SUIT_KEYS
    assert table[5 * key[2] + 2 * key[0]] == 2
    assert table[4 * key[1] + 3 * key[3]] == -1
    assert table[7 * key[3]] == 3


def test_combinations_and_random_hands() -> None:
    assert combinations(7, 3).tolist() == [list(c) for c in itertools.combinations(range(7), 3)]
    hands = random_hands(np.random.default_rng(1), 70_000, 9)
    assert hands.shape == (70_000, 9) and hands.min() >= 0 and hands.max() <= 51
    assert (np.diff(np.sort(hands, axis=1), axis=1) > 0).all()
    # the first position is uniform over the deck (chi-square-free bound: every card is frequent)
    assert np.bincount(hands[:, 0], minlength=52).min() > 1_000
    with pytest.raises(CardError):
        random_hands(np.random.default_rng(1), 1, 53)


def test_seven_card_census() -> None:
    """The full enumeration takes a couple of seconds, so it runs here as well as in bench/."""
    seen: list[int] = []
    counts = seven_card_census(seen.append)
    assert counts == SEVEN_CARD_COUNTS
    assert sum(counts.values()) == sum(seen) == SEVEN_CARD_HANDS
