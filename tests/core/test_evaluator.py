"""Single-hand evaluator: categories, values, best five, errors (GAMES.md "Hand value")."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from phevaluator import evaluate_cards

from dealer_assist.batch_eval import combinations, random_hands
from dealer_assist.cards import FULL_DECK, Card, parse_card, parse_cards
from dealer_assist.errors import CardError
from dealer_assist.evaluator import Category, HandValue, evaluate, packed_rank_shape, rank_shape

FIVE_CARD_COUNTS = {
    Category.ROYAL_FLUSH: 4,
    Category.STRAIGHT_FLUSH: 36,
    Category.FOUR_OF_A_KIND: 624,
    Category.FULL_HOUSE: 3_744,
    Category.FLUSH: 5_108,
    Category.STRAIGHT: 10_200,
    Category.THREE_OF_A_KIND: 54_912,
    Category.TWO_PAIR: 123_552,
    Category.PAIR: 1_098_240,
    Category.HIGH_CARD: 1_302_540,
}
CARD_TEXT = [str(c) for c in FULL_DECK]


def ev(text: str) -> HandValue:
    return evaluate(parse_cards(text.split()))


def five(text: str) -> list[str]:
    return [str(c) for c in ev(text).best_five]


def check_best_five(cards: tuple[Card, ...], hv: HandValue) -> None:
    assert len(hv.best_five) == 5
    assert len(set(hv.best_five)) == 5
    assert set(hv.best_five) <= set(cards)
    again = evaluate(hv.best_five)
    assert again.value == hv.value
    assert again.category == hv.category


def test_category_codes_match_games_md() -> None:
    codes = [c.code for c in sorted(Category, reverse=True)]
    assert codes == [
        "royal_flush",
        "straight_flush",
        "four_of_a_kind",
        "full_house",
        "flush",
        "straight",
        "three_of_a_kind",
        "two_pair",
        "pair",
        "high_card",
    ]
    assert int(Category.ROYAL_FLUSH) == 9 and int(Category.HIGH_CARD) == 0


def test_all_five_card_hands_by_suit_orbits() -> None:
    """Exact counts over all 2,598,960 hands, evaluating one hand per suit-permutation orbit.

    Categories do not depend on which suit is which, so each orbit (about 134k of them) counts
    with its size; the random phevaluator tests below cover suit handling itself.
    """
    hands = combinations(52, 5).astype(np.int64)
    rank, suit = hands // 4, hands % 4
    # the orbit of a hand is fixed by the multiset of its four per-suit rank masks
    masks = np.stack([((suit == s) << rank).sum(axis=1) for s in range(4)], axis=1)
    canon = np.sort(masks, axis=1) @ (np.int64(1) << np.arange(0, 52, 13, dtype=np.int64))
    reps, first, weight = np.unique(canon, return_index=True, return_counts=True)
    assert weight.sum() == 2_598_960
    counts: Counter[Category] = Counter()
    for row, w in zip(hands[first].tolist(), weight.tolist(), strict=True):
        counts[evaluate([FULL_DECK[i] for i in row]).category] += w
    assert dict(counts) == FIVE_CARD_COUNTS
    assert len(reps) == 134_459  # the known number of suit-isomorphic five-card hands


def test_order_agrees_with_phevaluator_on_board_sharing_pairs() -> None:
    """200,000 hold'em-style pairs (shared 5-card board): the comparison sign must agree."""
    rng = np.random.default_rng(20240611)
    deals = random_hands(rng, 200_000, 9).tolist()
    deck = FULL_DECK
    disagreements, ties = [], 0
    for row in deals:
        a, b = row[:7], row[:5] + row[7:]
        ours = evaluate([deck[i] for i in a]).value - evaluate([deck[i] for i in b]).value
        theirs = evaluate_cards(*(CARD_TEXT[i] for i in b)) - evaluate_cards(
            *(CARD_TEXT[i] for i in a)
        )  # lower phevaluator rank = better
        ties += ours == 0
        if (ours > 0) != (theirs > 0) or (ours == 0) != (theirs == 0):
            disagreements.append(f"{[CARD_TEXT[i] for i in a]} vs {[CARD_TEXT[i] for i in b]}")
    assert disagreements == []
    assert ties > 1000  # the tie branch is exercised too


@pytest.mark.parametrize("k", [5, 6, 7])
def test_global_order_agrees_with_phevaluator(k: int) -> None:
    """Over 20,000 random k-card hands, value -> phevaluator rank is strictly decreasing."""
    rng = np.random.default_rng(k)
    hands = random_hands(rng, 20_000, k).tolist()
    ours = np.array([evaluate([FULL_DECK[i] for i in h]).value for h in hands])
    theirs = np.array([evaluate_cards(*(CARD_TEXT[i] for i in h)) for h in hands])
    pairs = np.unique(np.stack([ours, theirs], axis=1), axis=0)  # sorted by our value
    assert len(pairs) == len(np.unique(ours)) == len(np.unique(theirs))
    assert np.all(np.diff(pairs[:, 1]) < 0)
    assert len(pairs) > 1000


@pytest.mark.parametrize("k", [5, 6, 7])
def test_best_five_realises_value_on_random_hands(k: int) -> None:
    rng = np.random.default_rng(100 + k)
    for row in random_hands(rng, 5_000, k).tolist():
        cards = tuple(FULL_DECK[i] for i in row)
        check_best_five(cards, evaluate(cards))


@pytest.mark.parametrize(
    ("text", "code", "best"),
    [
        ("As 2d 3h 4c 5s Kd Kh", "straight", "5s 4c 3h 2d As"),  # wheel beats the pair of kings
        ("Ah 2h 3h 4h 5h 6d 7c", "straight_flush", "5h 4h 3h 2h Ah"),  # steel wheel over 7-high
        ("Ah 2h 3h 4h 5h 6h Kc", "straight_flush", "6h 5h 4h 3h 2h"),  # 6-high beats the wheel
        ("As Ks 9s 7s 4s 2s Qd", "flush", "As Ks 9s 7s 4s"),  # 6-card flush keeps the top five
        ("9c Th Jh Qh Kh 2h 3h", "flush", "Kh Qh Jh Th 3h"),  # straight 9-K, flush wins
        ("8h 9h Th Jh Qh Kh 2h", "straight_flush", "Kh Qh Jh Th 9h"),  # best of 7 suited
        ("As Ks Qs Js Ts 9s 8s", "royal_flush", "As Ks Qs Js Ts"),
        ("Ks Kd 9h 9c 4s 4d Ac", "two_pair", "Ks Kd 9h 9c Ac"),  # three pairs: kicker ace
        ("Ks Kd 9h 9c 4s 4d 2c", "two_pair", None),  # kicker comes from the third pair
        ("Ks Kd Kh 9c 9s 9d 2c", "full_house", None),  # two trips: kings full of nines
        ("5s 5d 5h Ac Ad 9d 9c", "full_house", None),  # trips + two pairs: best pair
        ("7s 7d 7h 7c Ks Kd Qd", "four_of_a_kind", None),  # kicker king out of a pair
        ("7s 7d 7h 7c 3s 3d 3h", "four_of_a_kind", None),  # kicker out of trips
        ("2s 3d 4h 5c 7s 9h Jd", "high_card", "Jd 9h 7s 5c 4h"),
        ("Ts Jd Qh Kc Ah 2h 3h", "straight", "Ah Kc Qh Jd Ts"),
    ],
)
def test_tricky_hands(text: str, code: str, best: str | None) -> None:
    cards = parse_cards(text.split())
    hv = evaluate(cards)
    assert hv.category.code == code
    check_best_five(cards, hv)
    if best is not None:
        assert [str(c) for c in hv.best_five] == best.split()


def test_tricky_hands_pick_the_right_ranks() -> None:
    assert [c.rank for c in ev("Ks Kd 9h 9c 4s 4d 2c").best_five] == [13, 13, 9, 9, 4]
    assert [c.rank for c in ev("Ks Kd Kh 9c 9s 9d 2c").best_five] == [13, 13, 13, 9, 9]
    assert [c.rank for c in ev("5s 5d 5h Ac Ad 9d 9c").best_five] == [5, 5, 5, 14, 14]
    assert [c.rank for c in ev("7s 7d 7h 7c Ks Kd Qd").best_five] == [7, 7, 7, 7, 13]
    assert [c.rank for c in ev("7s 7d 7h 7c 3s 3d 3h").best_five] == [7, 7, 7, 7, 3]


def test_values_order_hands_as_games_md() -> None:
    ascending = [
        "2s 3d 4h 5c 7s",  # 7-high
        "2s 3d 4h 5c 8s",
        "As Kd Qh Jc 9s",  # best high card
        "2s 2d 3h 4c 5s",  # lowest pair
        "2s 2d Ah Kc Qs",
        "3s 3d 4h 5c 6s",
        "As Ad Kh Qc Js",
        "3s 3d 2h 2c 4s",  # lowest two pair
        "3s 3d 2h 2c As",  # kicker
        "4s 4d 2h 2c 3s",  # top pair decides before kicker
        "As Ad Kh Kc Qs",
        "2s 2d 2h 3c 4s",
        "As Ad Ah Kc Qs",
        "As 2d 3h 4c 5s",  # wheel, lowest straight
        "2s 3d 4h 5c 6s",
        "Ts Jd Qh Kc As",
        "2s 3s 4s 5s 7s",
        "As Ks Qs Js 9s",
        "2s 2d 2h 3c 3s",
        "2s 2d 2h Ac As",
        "3s 3d 3h 2c 2s",  # trips rank decides before pair rank
        "2s 2d 2h 2c 3s",
        "2s 2d 2h 2c As",
        "3s 3d 3h 3c 2s",
        "As 2s 3s 4s 5s",  # steel wheel, lowest straight flush
        "9s Ts Js Qs Ks",
        "Ts Js Qs Ks As",
    ]
    values = [ev(h).value for h in ascending]
    assert values == sorted(values)
    assert len(set(values)) == len(values)
    assert ev("Ts Js Qs Ks As").category is Category.ROYAL_FLUSH
    assert ev("9s Ts Js Qs Ks").category is Category.STRAIGHT_FLUSH


def test_suits_never_matter() -> None:
    assert ev("As Kd Qh Jc 9s").value == ev("Ad Kh Qc Js 9d").value
    assert ev("Ah Kh 9h 5h 3h Ks 2d").value == ev("Ac Kc 9c 5c 3c Kd 2s").value
    assert ev("Ks Kd 9h 9c 4s").value == ev("Kh Kc 9s 9d 4h").value


@pytest.mark.parametrize(
    "text",
    ["As Kd Qh Jc", "As Kd Qh Jc Ts 9s 8s 7s", "As Kd Qh Jc As", "As Kd Qh Jc Ts 9s Ts"],
)
def test_bad_hands_raise_card_error(text: str) -> None:
    cards = [parse_card(t) for t in text.split()]  # parse_cards would refuse the duplicate
    with pytest.raises(CardError):
        evaluate(cards)


def test_non_card_raises_card_error() -> None:
    with pytest.raises(CardError):
        evaluate([*parse_cards(["As", "Kd", "Qh", "Jc"]), "Ts"])  # type: ignore[list-item]


def test_equal_ranks_prefer_the_card_given_first() -> None:
    """Golden cases pick, among equal ranks, the card listed first (board before hole)."""
    assert [str(c) for c in ev("9s 9h 9d 4c Kd Kh Kc").best_five] == ["Kd", "Kh", "Kc", "9s", "9h"]
    assert [str(c) for c in ev("4d 8s 4h 7d 8c 7c 2s").best_five][-1] == "4d"


def test_packed_rank_shape_agrees_with_rank_shape_on_every_rank_multiset() -> None:
    """The bitwise reading of packed rank counts gives rank_shape's category and ranks for
    every multiset of 5, 6 or 7 ranks (at most four of a rank): 73,775 of them."""
    seen = 0
    for size in (5, 6, 7):
        for ranks in itertools.combinations_with_replacement(range(2, 15), size):
            counts = Counter(ranks)
            if max(counts.values()) > 4:
                continue
            packed = sum(1 << (3 * r) for r in ranks)
            assert packed_rank_shape(packed) == rank_shape(counts), ranks
            seen += 1
    assert seen == 73_775
