"""Formatting of integer minor units for people (screens, summaries)."""

from __future__ import annotations

from collections.abc import Sequence


def fmt_money(minor: int, currency: str = "EUR") -> str:
    """``123456`` -> ``EUR 1,234.56``; negative amounts keep their sign. Integer arithmetic only."""
    sign = "-" if minor < 0 else ""
    units, cents = divmod(abs(minor), 100)
    return f"{sign}{currency} {units:,}.{cents:02d}"


def chip_breakdown(amount: int, chips: Sequence[int]) -> tuple[list[tuple[int, int]], int]:
    """The chips to pay ``amount`` (minor units) from the table's chip set ``chips`` (minor units,
    any order), largest first, greedily: ``44000`` with EUR 1/5/10/25/100 chips ->
    ``([(10000, 4), (2500, 1), (1000, 1), (500, 1)], 0)``. The second value is what no chip pays
    (below the smallest chip: paid in change); a negative ``amount`` is broken down as its size.

    Greedy is exact for the casino chip sets (each chip at least twice the one below it).

    Raises:
        ValueError: a chip that is not a positive integer.
    """
    if any(not isinstance(c, int) or isinstance(c, bool) or c <= 0 for c in chips):
        raise ValueError(f"chips must be positive integers (minor units), got {list(chips)!r}")
    left = abs(amount)
    out: list[tuple[int, int]] = []
    for chip in sorted(set(chips), reverse=True):
        count, left = divmod(left, chip)
        if count:
            out.append((chip, count))
    return out, left
