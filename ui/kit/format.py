"""Amounts for the dealer's screen: integer minor units only, never floats.

``money(250050, "EUR")`` is ``€ 2,500.50`` in English and ``€ 2.500,50`` in Italian (the language
set by :func:`set_language`); whole amounts drop the cents on chips (``chip(2500)`` is ``25``).
"""

from __future__ import annotations

SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}
_lang = "en"


def set_language(lang: str) -> None:
    """Use ``it`` or ``en`` number separators from now on."""
    global _lang
    _lang = lang


def _group(units: int) -> str:
    text = f"{units:,}"
    return text.replace(",", ".") if _lang == "it" else text


def amount(minor: int, *, cents: bool = True) -> str:
    """``123456`` -> ``1,234.56``; with ``cents=False`` whole amounts lose ``.00``."""
    sign = "−" if minor < 0 else ""
    units, rest = divmod(abs(minor), 100)
    if not cents and rest == 0:
        return f"{sign}{_group(units)}"
    sep = "," if _lang == "it" else "."
    return f"{sign}{_group(units)}{sep}{rest:02d}"


CHIPS = "chips"
"""A tournament table's ``currency`` (:data:`dealer_assist.tournament.live_table.CHIPS`):
amounts are chips, never money."""


def money(minor: int, currency: str = "EUR") -> str:
    """``€ 1,234.56``: the currency symbol (or code) and the amount with cents; at a
    tournament table (``currency`` :data:`CHIPS`) ``5,000 chips`` (``5.000 fiches``)."""
    if currency == CHIPS:
        sign = "−" if minor < 0 else ""
        return f"{sign}{_group(abs(minor))}\u00a0{'fiches' if _lang == 'it' else 'chips'}"
    return f"{SYMBOLS.get(currency, currency)}\u00a0{amount(minor)}"  # never split on a line


def chip(minor: int) -> str:
    """A chip or a box stake, as short as it stays exact: ``25``, ``2.50``."""
    return amount(minor, cents=False)


def seconds(value: float) -> str:
    """A duration for the status bar with one decimal: ``0.4`` (``0,4`` in Italian)."""
    text = f"{value:.1f}"
    return text.replace(".", ",") if _lang == "it" else text
