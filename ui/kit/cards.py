"""What both consoles' card widgets are given (Qt-free): a card slot's face and what the card
keypad is for now. Neither ever shows a hidden card: a face-down slot is ``back``, the keypad
says only where the card goes (the cards typed so far it refuses, in the same words as a card
face up). :func:`hand_to_source` gives the source a card typed on the keypad and names its
refusal the same way at both consoles."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from dealer_assist.cards import Card
from dealer_assist.engine.state import Position
from dealer_assist.errors import CardError, DealerAssistError

CardFace = Card | Literal["back", "empty"]
"""A card slot: the card face up, a card face down (``back``), or no card yet (``empty``)."""


@dataclass(frozen=True)
class CardEntry:
    """What the card keypad is for now.

    ``mode``: ``manual`` (type the next card of the deal: the keypad is the card source),
    ``identify`` (the dealer enters the unreadable card) or ``confirm`` (a pit boss enters it too,
    after their badge and PIN). ``position``: where the card goes (never which card it is).
    ``number``/``total``: the card's rank in this deal (manual). ``waiting``: the last typed card
    is still being taken. ``badge``, ``pin_len`` (the PIN itself stays in the presenter),
    ``pin_field`` (``badge``, ``pin``: where the digits go; ``card``: the pit boss enters the
    card) and ``pin_required`` for ``confirm``.
    """

    mode: str
    position: Position | None
    number: int = 0
    total: int = 0
    waiting: bool = False
    badge: str = ""
    pin_len: int = 0
    pin_field: str = "badge"
    pin_required: bool = False
    held: bool = False
    """manual: the last typed card is held (not in the deal yet) and can be typed again."""
    typed: frozenset[Card] | None = field(default=None, repr=False)
    """manual: the cards typed into this deck so far (the one held too), which the keypad
    refuses; a card dropped by *Re-enter the last card* is not in it any more. None: the
    keypad keeps its own list of the cards confirmed on it."""


def hand_to_source(enter: Callable[[Card], None], card: Card) -> tuple[str, str] | None:
    """Give ``card``, typed on the keypad, to the keypad source (``enter``: the service's
    ``enter_card``). None when the source took it, else the refusal the console says as a
    message (code, text): ``card_taken`` with no text when the core refused the card (a
    CardError names the card, maybe a hidden one: never shown), ``device`` with the reason for
    any other refusal (DealerAssistError)."""
    try:
        enter(card)
    except CardError:
        return "card_taken", ""
    except DealerAssistError as e:
        return "device", str(e)
    return None
