"""Formatting of integer minor units for people (screens, summaries)."""

from __future__ import annotations


def fmt_money(minor: int, currency: str = "EUR") -> str:
    """``123456`` -> ``EUR 1,234.56``; negative amounts keep their sign. Integer arithmetic only."""
    sign = "-" if minor < 0 else ""
    units, cents = divmod(abs(minor), 100)
    return f"{sign}{currency} {units:,}.{cents:02d}"
