"""The evaluator's cache-miss path against the functions it stands in for, on every hand.

``evaluator._rank_shape`` (a look-up in the shipped table, rank runs from the value) and
``evaluator.work_out_rank_shape`` (the shape worked out at once) must each give exactly
``packed_rank_shape``'s category, ``_encode``'s value and ``_groups``' runs for every multiset
of 5, 6 or 7 ranks (each rank at most four times): 73,775 of them. The shipped table must be the
bytes its builder makes now.
"""

from __future__ import annotations

import pytest

from dealer_assist import evaluator, rank_values
from dealer_assist.rank_values_build import build, rank_counts


def test_every_rank_shape_matches_the_packed_one() -> None:
    seen = 0
    for cards in (5, 6, 7):
        for counts in rank_counts(cards):
            category, ranks = evaluator.packed_rank_shape(counts)
            expected = (category, evaluator._encode(category, ranks), evaluator._groups(ranks))
            evaluator._RANK_SHAPES.pop(counts, None)
            assert evaluator.work_out_rank_shape(counts) == expected, (cards, oct(counts))
            evaluator._RANK_SHAPES.pop(counts, None)
            found = evaluator._rank_shape(counts)
            assert found == expected, (cards, oct(counts))
            assert type(found[0]) is evaluator.Category
            assert evaluator._RANK_SHAPES[counts] == expected
            seen += 1
    assert seen == 6_175 + 18_395 + 49_205 == rank_values.ENTRIES


def test_the_builder_enumerates_each_multiset_once() -> None:
    for cards in (5, 6, 7):
        found = list(rank_counts(cards))
        assert len(set(found)) == len(found)
        for counts in found:
            fields = [counts >> 3 * r & 7 for r in range(16)]
            assert sum(fields) == cards and max(fields) <= 4 and fields[0] == fields[1] == 0
            assert counts < 1 << 3 * 15


def test_the_shipped_table_is_what_the_builder_makes() -> None:
    with open(rank_values.TABLE, "rb") as f:
        assert f.read() == build()


@pytest.mark.parametrize(
    "counts", [0, 1 << 6, 5 << 6, 4 << 6 | 4 << 9, (1 << 3 * 15) | 0o11111 << 6]
)
def test_counts_outside_the_table_are_not_found(counts: int) -> None:
    # none of these is 5..7 cards of ranks 2..14, at most four a rank
    assert rank_values.lookup(counts) is None


def test_a_table_that_cannot_be_read_leaves_the_shapes_worked_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: object
) -> None:
    monkeypatch.setattr(rank_values, "TABLE", str(tmp_path) + "/missing.bin")
    monkeypatch.setattr(rank_values, "_loaded", False)
    monkeypatch.setattr(rank_values, "_KEYS", ())
    monkeypatch.setattr(rank_values, "_VALUES", ())
    counts = 2 << 3 * 14 | 2 << 3 * 9 | 1 << 3 * 5 | 1 << 3 * 3 | 1 << 3 * 2  # A A 9 9 5 3 2
    assert rank_values.lookup(counts) is None
    evaluator._RANK_SHAPES.pop(counts, None)
    found = evaluator._rank_shape(counts)
    assert found == (evaluator.Category.TWO_PAIR, 2 << 20 | 0xEE995, ((14, 2), (9, 2), (5, 1)))
