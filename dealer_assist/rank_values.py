"""The non-flush value of every 5..7-card rank multiset, read from a shipped table.

``rank_values.bin`` (made by :mod:`dealer_assist.rank_values_build` from the evaluator's exact
function, and checked against it by a test) holds the 73,775 multisets of 5, 6 or 7 ranks (each
rank at most four times) as packed rank counts (3 bits a rank, bits 3r..3r+2 for rank r), sorted,
as little-endian 64-bit integers, then each one's :attr:`~dealer_assist.evaluator.HandValue.value`
as a little-endian 32-bit integer in the same order. It is read once, at the first
:func:`lookup` (the evaluator's first cold miss), and searched by bisection: no dict is built.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from os import path

TABLE = path.join(path.dirname(__file__), "rank_values.bin")
"""Where the table lives (beside this module; package data)."""

ENTRIES = 6_175 + 18_395 + 49_205
"""How many rank multisets of 5, 6 and 7 cards the table holds."""

_KEYS: Sequence[int] = ()
_VALUES: Sequence[int] = ()
_loaded = False


def _not_found(keys: Sequence[int], counts: int) -> int:
    return len(keys)


_bisect_left: Callable[[Sequence[int], int], int] = _not_found
"""``bisect.bisect_left`` once the table is read (an extension module, loaded by then)."""


def lookup(counts: int) -> int | None:
    """The value of the non-flush hand whose packed rank ``counts`` these are, or None when
    ``counts`` is not 5..7 cards of at most four a rank (or the table cannot be read)."""
    if not _loaded:
        _load()
    keys = _KEYS
    i = _bisect_left(keys, counts)
    if i < len(keys) and keys[i] == counts:
        return _VALUES[i]
    return None


def _load() -> None:
    """Read the table into ``_KEYS`` and ``_VALUES`` (64- and 32-bit integer arrays); left
    empty when it cannot be read or is not well formed: every :func:`lookup` then says None
    and the evaluator works its shapes out."""
    global _loaded, _KEYS, _VALUES, _bisect_left
    # extension modules: loaded by the first cold miss only
    from array import array
    from bisect import bisect_left

    _loaded = True
    try:
        with open(TABLE, "rb") as f:
            data = f.read()
    except OSError:
        return
    keys, values = array("Q"), array("I")
    if keys.itemsize != 8 or values.itemsize != 4 or len(data) != ENTRIES * 12:
        return
    view = memoryview(data)
    keys.frombytes(view[: ENTRIES * 8])
    values.frombytes(view[ENTRIES * 8 :])
    if sys.byteorder == "big":
        keys.byteswap()
        values.byteswap()
    _KEYS, _VALUES, _bisect_left = keys, values, bisect_left
