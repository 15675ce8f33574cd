"""Make ``rank_values.bin`` (:mod:`dealer_assist.rank_values`) from the evaluator's exact function.

python -m dealer_assist.rank_values_build    # writes dealer_assist/rank_values.bin
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Iterator

from dealer_assist import rank_values
from dealer_assist.evaluator import work_out_rank_shape


def rank_counts(left: int, rank: int = 2) -> Iterator[int]:
    """Every packed rank count (3 bits a rank) of ``left`` more cards over ranks ``rank``..14,
    each rank at most four times."""
    if left == 0:
        yield 0
        return
    if rank > 14:
        return
    for n in range(min(4, left) + 1):
        for rest in rank_counts(left - n, rank + 1):
            yield n << (3 * rank) | rest


def build() -> bytes:
    """The table's bytes: the sorted packed counts of every 5..7-card rank multiset, then their
    values (layout in :mod:`dealer_assist.rank_values`)."""
    keys = array("Q", sorted(c for cards in (5, 6, 7) for c in rank_counts(cards)))
    values = array("I", (work_out_rank_shape(c)[1] for c in keys))
    if sys.byteorder == "big":
        keys.byteswap()
        values.byteswap()
    return keys.tobytes() + values.tobytes()


def main() -> int:
    """Write the table where :mod:`dealer_assist.rank_values` reads it."""
    data = build()
    with open(rank_values.TABLE, "wb") as f:
        f.write(data)
    print(f"{rank_values.TABLE}: {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
