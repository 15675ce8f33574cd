"""The evaluator's cache-miss path against the functions it stands in for, on every hand.

``evaluator._rank_shape`` works out a hand's category, value and rank runs at once; it must
give exactly ``packed_rank_shape``'s category, ``_encode``'s value and ``_groups``' runs for
every multiset of 5, 6 or 7 ranks (each rank at most four times): 73,775 of them.
"""

from __future__ import annotations

from collections.abc import Iterator

from dealer_assist import evaluator


def _rank_counts(left: int, rank: int = 2) -> Iterator[int]:
    """Every packed rank count (3 bits a rank) of ``left`` more cards over ranks ``rank``..14."""
    if left == 0:
        yield 0
        return
    if rank > 14:
        return
    for n in range(min(4, left) + 1):
        for rest in _rank_counts(left - n, rank + 1):
            yield n << (3 * rank) | rest


def test_every_rank_shape_matches_the_packed_one() -> None:
    seen = 0
    for cards in (5, 6, 7):
        for counts in _rank_counts(cards):
            category, ranks = evaluator.packed_rank_shape(counts)
            expected = (category, evaluator._encode(category, ranks), evaluator._groups(ranks))
            evaluator._RANK_SHAPES.pop(counts, None)
            assert evaluator._rank_shape(counts) == expected, (cards, oct(counts))
            assert evaluator._RANK_SHAPES[counts] == expected
            seen += 1
    assert seen == 6_175 + 18_395 + 49_205
