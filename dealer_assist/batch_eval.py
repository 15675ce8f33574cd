"""Numpy batch evaluator and the seven-card census, for pay-table analysis.

Cards are integer indexes ``Card.index`` (0..51 = rank_index * 4 + suit). Values returned by
:func:`evaluate_batch` are exactly :attr:`dealer_assist.evaluator.HandValue.value` (same layout:
higher = better, equal = tie, ``value >> 20`` is the :class:`Category`), because the tables are
built with the evaluator's own functions. Settlement uses the single-hand evaluator; this module
answers "how often" questions.

Method (see :mod:`dealer_assist._eval_tables`): a hand's rank-key sum indexes a table of non-flush
values; its suit-key sum tells whether a suit holds 5+ cards, and that suit's 13-bit rank mask
indexes the flush table. With at most 7 cards a flush excludes quads and full houses, so the flush
value, when there is one, is the hand's value.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import numpy as np
import numpy.typing as npt

from dealer_assist import _eval_tables as tables
from dealer_assist.errors import CardError
from dealer_assist.evaluator import VALUE_SHIFT, Category

SEVEN_CARD_HANDS = 133_784_560
"""C(52, 7)."""

_CHUNK = 1 << 20  # rows per evaluate_batch step: bounds temporaries to tens of MB


def categories_of(values: npt.ArrayLike) -> npt.NDArray[np.int8]:
    """Category numbers (``Category`` int values 0..9) of evaluator values, same shape, int8."""
    return (np.asarray(values) >> VALUE_SHIFT).astype(np.int8)


def _check_cards(cards: npt.ArrayLike) -> npt.NDArray[np.intp]:
    arr = np.asarray(cards)
    if arr.ndim != 2 or not 5 <= arr.shape[1] <= 7:
        raise CardError(f"expected an (N, 5..7) array of card indexes, got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise CardError(f"card indexes must be integers, got dtype {arr.dtype}")
    if arr.size and (arr.min() < 0 or arr.max() > 51):
        raise CardError("card index out of range 0..51")
    idx = arr.astype(np.intp)
    ordered = np.sort(idx, axis=1)
    dup_rows = np.flatnonzero((np.diff(ordered, axis=1) == 0).any(axis=1))
    if dup_rows.size:
        raise CardError(f"duplicate card in row {int(dup_rows[0])}")
    return idx


def evaluate_batch(cards: npt.ArrayLike) -> npt.NDArray[np.int32]:
    """Values of many hands at once.

    Args:
        cards: integer array (N, k), k in 5..7, of card indexes 0..51 (``Card.index``).

    Returns:
        int32 array (N,) equal to ``evaluate(row).value`` for each row (GAMES.md "Hand value").

    Raises:
        CardError: wrong shape or dtype, an index outside 0..51, or a card twice in a row.
    """
    idx = _check_cards(cards)
    n, k = idx.shape
    out = np.empty(n, np.int32)
    rank_table = tables.rank_table(k)
    rank_key = tables.card_rank_key()
    suit_key = tables.card_suit_key()
    flush_suit = tables.flush_suit_table()
    flush_table = tables.flush_table()
    bit = tables.card_bit()
    for lo in range(0, n, _CHUNK):
        part = idx[lo : lo + _CHUNK]
        values = rank_table[rank_key[part].sum(axis=1)]
        suit = flush_suit[suit_key[part].sum(axis=1)]
        rows = np.flatnonzero(suit >= 0)
        if rows.size:
            mask = np.bitwise_or.reduce(bit[part[rows]], axis=1)
            shift = np.uint64(16) * suit[rows].astype(np.uint64)
            values[rows] = flush_table[(mask >> shift) & np.uint64(0x1FFF)]
        out[lo : lo + len(part)] = values
    return out


def random_hands(rng: np.random.Generator, n: int, k: int) -> npt.NDArray[np.int8]:
    """``n`` rows of ``k`` distinct card indexes (0..51), each row a uniform random deal in order.

    Row order is random too, so a row can be split into board and hole cards. Shape (n, k) int8.

    Raises:
        CardError: ``k`` outside 1..52 or ``n`` negative.
    """
    if not 1 <= k <= 52 or n < 0:
        raise CardError(f"cannot deal {n} hands of {k} cards from one deck")
    out = np.empty((n, k), np.int8)
    step = 1 << 16  # rows per chunk: a (step, 52) float matrix of sort keys
    for lo in range(0, n, step):
        m = min(step, n - lo)
        out[lo : lo + m] = np.argsort(rng.random((m, 52)), axis=1)[:, :k]
    return out


def combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    """All k-subsets of 0..n-1 (n <= 256) as rows in lexicographic order, shape (C(n, k), k)."""
    return _combinations(n, k).copy()


@cache
def _combinations(n: int, k: int) -> npt.NDArray[np.uint8]:
    if k == 0:
        return np.zeros((1, 0), np.uint8)
    blocks = []
    for first in range(n - k + 1):
        rest = _combinations(n - first - 1, k - 1) + np.uint8(first + 1)
        head = np.full((len(rest), 1), first, np.uint8)
        blocks.append(np.hstack([head, rest]))
    if not blocks:
        return np.zeros((0, k), np.uint8)
    return np.vstack(blocks)


class _CensusTables:
    """Per-five-card-combination sums for the census: two low cards + a suffix of these rows."""

    def __init__(self) -> None:
        five = combinations(52, 5)
        self.rank_key = tables.card_rank_key()
        self.suit_key = tables.card_suit_key()
        self.bit = tables.card_bit()
        self.rank_sum = self.rank_key[five].sum(axis=1, dtype=np.int32)
        self.suit_sum = self.suit_key[five].sum(axis=1, dtype=np.int16)
        self.mask = np.bitwise_or.reduce(self.bit[five], axis=1)
        # start[b] = first row whose lowest card is above b (rows are sorted by lowest card)
        self.start = np.searchsorted(five[:, 0], np.arange(1, 53), side="left")
        self.rank_cat = categories_of(tables.rank_table(7))
        self.flush_cat = categories_of(tables.flush_table())
        self.flush_suit = tables.flush_suit_table()
        self.buf_sum = np.empty(len(five), np.int32)
        self.buf_cat = np.empty(len(five), np.int8)
        self.buf_suit = np.empty(len(five), np.int16)
        self.buf_fs = np.empty(len(five), np.int8)

    def count_low_pair(self, a: int, b: int) -> npt.NDArray[np.int64]:
        """Category counts of every 7-card hand whose two lowest cards are a < b."""
        s = int(self.start[b])
        n = len(self.rank_sum) - s
        r, cat = self.buf_sum[:n], self.buf_cat[:n]
        np.add(self.rank_sum[s:], self.rank_key[a] + self.rank_key[b], out=r)
        np.take(self.rank_cat, r, out=cat, mode="clip")
        sv, fs = self.buf_suit[:n], self.buf_fs[:n]
        np.add(self.suit_sum[s:], self.suit_key[a] + self.suit_key[b], out=sv)
        np.take(self.flush_suit, sv, out=fs, mode="clip")
        rows = np.flatnonzero(fs >= 0)
        if rows.size:
            mask = self.mask[s + rows] | (self.bit[a] | self.bit[b])
            shift = np.uint64(16) * fs[rows].astype(np.uint64)
            cat[rows] = self.flush_cat[(mask >> shift) & np.uint64(0x1FFF)]
        return np.bincount(cat, minlength=len(Category))


def seven_card_census(progress: Callable[[int], None] | None = None) -> dict[Category, int]:
    """Count the categories of all C(52, 7) = 133,784,560 seven-card hands by enumeration.

    Each hand is visited once as (two lowest cards a < b) + a five-card combination whose lowest
    card is above b; those combinations are a contiguous suffix of the lexicographic list, so each
    (a, b) is a few vectorized steps. Tables are built on the first call (well under a second).

    Args:
        progress: called with the number of hands just counted (suits ``tqdm.update``).

    Returns:
        Category -> number of hands, all ten categories present; the counts sum to 133,784,560.
    """
    census = _CensusTables()
    total = np.zeros(len(Category), np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            counts = census.count_low_pair(a, b)
            total += counts
            if progress is not None and counts.sum():
                progress(int(counts.sum()))
    return {c: int(total[c]) for c in Category}
