"""Texts of the payout walk, the corrections and the hand history, through Qt's
translation system like :mod:`ui.console.texts` (Italian in ``ui/i18n/it_console_walk.py``)."""

from __future__ import annotations

from dealer_assist.cards import Card
from ui.kit.card_texts import card_text
from ui.kit.format import money
from ui.kit.translate import tr, trf


def chips_text(counts: tuple[tuple[int, int], ...], rest: int, currency: str) -> str:
    """The chips to pay a box: ``4 × 100 + 1 × 25 + 1 × 10 + 1 × 5`` (chip values in whole
    units when they are whole), and the change no chip pays (``+ EUR 0.50``)."""
    parts = [f"{n} × {_chip(value)}" for value, n in counts]
    if rest:
        parts.append(money(rest, currency))
    joined = " + ".join(parts)  # a variable: lupdate takes a literal 2nd argument as a comment
    return trf("Chips: %1", joined) if parts else ""


def _chip(value: int) -> str:
    units, cents = divmod(value, 100)
    return f"{units:,}" if not cents else f"{units},{cents:02d}"


def hole_text(cards: tuple[Card, ...]) -> str:
    """``Cards read: A♠ K♥`` (after the reveal: the cards as the reader read them)."""
    shown = " ".join(card_text(c) for c in cards)
    return trf("Cards read: %1", shown) if cards else ""


def walk_texts() -> dict[str, str]:
    """The walk's fixed labels, translated now."""
    return {
        "back": tr("Back"),
        "resumed": tr("Hand resumed after a restart"),
        "undo_chip": tr("Undo last chip"),
        "history": tr("Hand history"),
        "reenter": tr("Re-enter the last card"),
        "reenter_hint": tr("The last card was dropped: enter it again"),
        "close": tr("Close"),
        "holes": tr("Show hole cards (pit boss)"),
        "confirm_void": tr("Tap “Confirm: void the hand” to void it. Any other tap cancels."),
        "exposed_mismatch": tr("Not the card the reader read there: look again at the card"),
    }
