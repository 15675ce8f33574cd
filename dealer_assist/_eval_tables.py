"""Lookup tables for :mod:`dealer_assist.batch_eval` (built in memory, nothing cached on disk).

Rank keys: one integer per rank (2..A) such that, for each hand size s in 5..7, the sums of the
keys of all rank multisets of size s (each rank at most 4 times) are pairwise distinct. The key sum
of a hand then indexes a table of non-flush values. :data:`RANK_KEYS` was found by
:func:`search_rank_keys` (greedy, smallest admissible key per rank; about 30 s, so the result is
stored here and a test re-checks the property and reproduces the first keys). The set coincides
with the keys published with the SKPokerEval evaluator (largest 7-card sum 7,825,759).

Flush detection: suit keys 1, 8, 64, 512 (three bits per suit count); a table over the suit-key sum
gives the suit holding 5+ cards, or -1. Flush values: an 8192-entry table over the 13-bit rank mask
of that suit. Card bits: bit ``16 * suit + rank_index`` of a uint64, so one shift and a 13-bit mask
extract any suit's ranks.
"""

from __future__ import annotations

from functools import cache

import numpy as np
import numpy.typing as npt

from dealer_assist.evaluator import flush_value, rank_value

RANK_KEYS: tuple[int, ...] = (
    0,
    1,
    5,
    22,
    98,
    453,
    2031,
    8698,
    22854,
    83661,
    262349,
    636345,
    1479181,
)
"""Key of rank index 0..12 (rank 2..14)."""

SUIT_KEYS: tuple[int, ...] = (1, 8, 64, 512)
MAX_PER_RANK = 4
HAND_SIZES = (5, 6, 7)

I32 = npt.NDArray[np.int32]
I8 = npt.NDArray[np.int8]


def rank_multisets(size: int, n_ranks: int = 13) -> npt.NDArray[np.int8]:
    """All rank-count vectors with ``size`` cards, each rank at most 4: shape (M, n_ranks) int8.

    M = 6,175 / 18,395 / 49,205 for sizes 5 / 6 / 7 with 13 ranks.
    """
    # rows[s] = count vectors over the ranks seen so far holding s cards
    rows: list[npt.NDArray[np.int8]] = [np.zeros((1, 0), np.int8)]
    rows += [np.zeros((0, 0), np.int8)] * size
    for _ in range(n_ranks):
        new: list[npt.NDArray[np.int8]] = []
        for s in range(size + 1):
            parts = [
                np.hstack([rows[s - c], np.full((len(rows[s - c]), 1), c, np.int8)])
                for c in range(min(MAX_PER_RANK, s) + 1)
                if rows[s - c].shape[0]
            ]
            new.append(np.vstack(parts) if parts else np.zeros((0, rows[0].shape[1] + 1), np.int8))
        rows = new
    return rows[size]


def _positive_differences(
    a: npt.NDArray[np.int64], b: npt.NDArray[np.int64], top: int
) -> npt.NDArray[np.int64]:
    """Sorted t > 0 with t = y - x for some x in a, y in b (values in 0..top)."""
    if a.size * b.size < 20_000_000:
        diff = (b[None, :] - a[:, None]).ravel()
        return np.unique(diff[diff > 0])
    size = 1 << (2 * top + 2).bit_length()
    oa = np.zeros(size)
    ob = np.zeros(size)
    oa[a] = 1.0
    ob[b] = 1.0
    corr = np.fft.irfft(np.fft.rfft(ob) * np.conj(np.fft.rfft(oa)), size)  # corr[t] = #(y - x = t)
    t = np.flatnonzero(corr[: top + 1] > 0.5)
    return t[t > 0]


def search_rank_keys(n_ranks: int = 13, max_size: int = 7) -> list[int]:
    """Greedy search for rank keys (see module docstring); returns ``n_ranks`` keys.

    Adding a key k for a new rank collides iff A2 - A1 = d * k for old multisets A1, A2 whose
    sizes differ by d (1..4 copies of the new rank), so every such difference is forbidden.
    """
    keys = [0]
    while len(keys) < n_ranks:
        counts_by_size = [
            rank_multisets(s, len(keys)).astype(np.int64) for s in range(max_size + 1)
        ]
        key_vec = np.array(keys, np.int64)
        sums = [c @ key_vec for c in counts_by_size]
        top = int(max(s.max() for s in sums if s.size))
        forbidden = np.zeros(top + 2, bool)
        forbidden[0] = True  # 0 is taken by the first rank
        for d in range(1, MAX_PER_RANK + 1):
            for s in range(max_size - d + 1):
                t = _positive_differences(sums[s], sums[s + d], top)
                forbidden[t[t % d == 0] // d] = True
        keys.append(int(np.argmin(forbidden)))  # the last slot (top + 1) is always free
    return keys


def rank_key_sums(size: int) -> tuple[npt.NDArray[np.int8], npt.NDArray[np.int64]]:
    """(count vectors of all rank multisets of ``size``, their key sums), same row order."""
    counts = rank_multisets(size)
    return counts, counts.astype(np.int64) @ np.array(RANK_KEYS, np.int64)


@cache
def rank_table(size: int) -> I32:
    """Non-flush value (evaluator layout) indexed by the rank-key sum of a ``size``-card hand.

    Shape (max key sum + 1,) int32; entries that are no hand's sum hold 0.
    """
    counts, sums = rank_key_sums(size)
    table = np.zeros(int(sums.max()) + 1, np.int32)
    for row, s in zip(counts.tolist(), sums.tolist(), strict=True):
        table[s] = rank_value({r + 2: n for r, n in enumerate(row) if n})
    return table


@cache
def flush_suit_table() -> I8:
    """Suit index (0..3) holding 5+ cards, indexed by the suit-key sum of up to 7 cards; else -1."""
    sums = np.arange(8 * SUIT_KEYS[-1], dtype=np.int64)
    out = np.full(sums.shape, -1, np.int8)
    for suit in range(4):
        out[(sums >> (3 * suit)) & 7 >= 5] = suit
    return out


@cache
def flush_table() -> I32:
    """Flush / straight flush / royal value indexed by a 13-bit rank mask (bit i = rank i + 2).

    Shape (8192,) int32; masks with fewer than 5 bits hold 0.
    """
    table = np.zeros(1 << 13, np.int32)
    for m in range(1 << 13):
        if m.bit_count() >= 5:
            table[m] = flush_value(m << 2)
    return table


def card_rank_key() -> npt.NDArray[np.int32]:
    """Rank key of card index 0..51 (Card.index = rank_index * 4 + suit), shape (52,)."""
    return np.repeat(np.array(RANK_KEYS, np.int32), 4)


def card_suit_key() -> npt.NDArray[np.int16]:
    """Suit key of card index 0..51, shape (52,)."""
    return np.tile(np.array(SUIT_KEYS, np.int16), 13)


def card_bit() -> npt.NDArray[np.uint64]:
    """Bit ``16 * suit + rank_index`` of card index 0..51, shape (52,) uint64."""
    idx = np.arange(52, dtype=np.uint64)
    return np.left_shift(np.uint64(1), np.uint64(16) * (idx % np.uint64(4)) + idx // np.uint64(4))
