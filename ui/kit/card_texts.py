"""The texts both consoles say about cards and card sources: a card's face and spoken name, a
hand category, where a card goes, an exposed card's place, a source switch.

English sources through Qt's translation (:mod:`ui.kit.translate`, the empty context that
``ui/i18n/console_it.ts`` keeps).
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP

from dealer_assist.cards import Card
from dealer_assist.engine.state import Position
from ui.kit.status import SourceNotice
from ui.kit.translate import tr, trf

_CATEGORIES = {
    "royal_flush": QT_TRANSLATE_NOOP("", "Royal flush"),
    "straight_flush": QT_TRANSLATE_NOOP("", "Straight flush"),
    "four_of_a_kind": QT_TRANSLATE_NOOP("", "Four of a kind"),
    "full_house": QT_TRANSLATE_NOOP("", "Full house"),
    "flush": QT_TRANSLATE_NOOP("", "Flush"),
    "straight": QT_TRANSLATE_NOOP("", "Straight"),
    "three_of_a_kind": QT_TRANSLATE_NOOP("", "Three of a kind"),
    "two_pair": QT_TRANSLATE_NOOP("", "Two pair"),
    "pair": QT_TRANSLATE_NOOP("", "Pair"),
    "high_card": QT_TRANSLATE_NOOP("", "High card"),
}


_SUIT_NAMES = {
    "s": QT_TRANSLATE_NOOP("", "spades"),
    "h": QT_TRANSLATE_NOOP("", "hearts"),
    "d": QT_TRANSLATE_NOOP("", "diamonds"),
    "c": QT_TRANSLATE_NOOP("", "clubs"),
}


SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


#: a typed card refused as already in the deck, by the keypad or by the core, in both consoles:
#: the same words for a face-up card and a face-down one, never which card or where (4)
CARD_TAKEN = QT_TRANSLATE_NOOP(
    "", "That card is already in this deck: look again and enter the right card"
)


RANK_TEXT = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}


def category_name(code: str | None) -> str:
    """``three_of_a_kind`` -> ``Three of a kind`` (Italian ``Tris``)."""
    return tr(_CATEGORIES[code]) if code in _CATEGORIES else (code or "")


def rank_text(card: Card) -> str:
    """``A``, ``K``, ``10``, ``9``..."""
    return RANK_TEXT.get(card.rank, str(card.rank))


def card_text(card: Card) -> str:
    """``A♠``, ``10♥``: what a face-up card shows."""
    return rank_text(card) + SUIT_SYMBOLS[card.suit]


def card_spoken(card: Card) -> str:
    """Accessible name of a face-up card, e.g. ``A of spades``."""
    return trf("%1 of %2", rank_text(card), tr(_SUIT_NAMES[card.suit]))


def position_text(pos: Position | None) -> str:
    """Where a card goes: ``Seat 3 — card 1``, ``Dealer — card 2``, ``Board — card 4``,
    ``Burn card 1`` (never which card)."""
    if pos is None:
        return ""
    n = pos.n
    if pos.kind == "seat":
        return trf("Seat %1 — card %2", pos.seat, n)
    if pos.kind == "dealer":
        return trf("Dealer — card %1", n)
    if pos.kind == "board":
        return trf("Board — card %1", n)
    return trf("Burn card %1", n)


def place_text(place: str) -> str:
    """An exposed card's place: ``seat 3`` -> ``Seat 3``, ``dealer`` -> ``Dealer``,
    ``board`` -> ``Board``."""
    if place.startswith("seat "):
        seat = place.split(" ", 1)[1]
        return trf("Seat %1", seat)
    if place == "dealer":
        return tr("Dealer")
    if place == "board":
        return tr("Board")
    return place


def notice_text(notice: SourceNotice) -> str:
    """The card-source switch notice (a visible notice); the reason goes on its own
    line (``"Reason: %1"``)."""
    head = trf("Card source changed: %1 → %2.", notice.from_source, notice.to_source)
    if notice.manual:
        return head + " " + tr("From now on the dealer types every card on the keypad.")
    return head
