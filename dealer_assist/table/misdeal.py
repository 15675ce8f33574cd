"""Misdeal reasons and the detector that decides when a hand is void.

Rules text 000 (and 004, 002): "In caso di errore nella distribuzione delle carte o di
malfunzionamento della miscelatrice automatica, l'intera mano viene annullata" — a dealing error
or a shuffler malfunction voids the whole hand, every wager returned. A card the dealer exposes by
mistake stays valid and is only recorded. TCRP/1 (DEVICE_PROTOCOL.md, Reliability): within a deck
CARD indexes run 1, 2, 3... with no gap and no repeat; a card seen twice since the last SHUFFLED is
a duplicate.
"""

from __future__ import annotations

from dataclasses import dataclass

from dealer_assist.cards import Card
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    DeviceFault,
    IdentityChanged,
    LinkLost,
)

# code -> (Italian, English) text shown on the void alarm and in the journal.
REASON_TEXTS: dict[str, tuple[str, str]] = {
    "device_fault": ("Guasto della miscelatrice", "Shuffler fault"),
    "missing_cards": ("Carte mancanti nella distribuzione", "Cards missing from the deal"),
    "extra_card": ("Carta in più nella distribuzione", "Extra card in the deal"),
    "index_gap": ("Carta saltata dal lettore", "The reader skipped a card"),
    "index_repeat": ("Carta ripetuta dal lettore", "The reader repeated a card"),
    "duplicate_card": ("Carta doppia nel mazzo", "The same card twice in one deck"),
    "unreadable_card": ("Carta illeggibile", "Unreadable card"),
    "link_lost": ("Collegamento con la miscelatrice perso", "Link to the shuffler lost"),
    "identity_changed": ("La miscelatrice è cambiata", "The shuffler's identity changed"),
    "shuffle_count": ("Mazzo incompleto o eccedente", "Deck count is not 52"),
    "wrong_deck": ("Carta da un altro mazzo", "Card from another deck"),
    "restart": ("Riavvio durante la mano", "Restart during the hand"),
    "dealer_void": ("Mano annullata dal dealer", "Hand voided by the dealer"),
}


@dataclass(frozen=True)
class VoidReason:
    """Why a hand is void: a ``code`` from :data:`REASON_TEXTS` and a free ``detail``
    (e.g. the TCRP/1 fault code ``JAM``)."""

    code: str
    detail: str = ""

    def text(self, lang: str = "en") -> str:
        """Human text in ``it`` or ``en``, with the detail in parentheses."""
        it, en = REASON_TEXTS.get(self.code, (self.code, self.code))
        base = it if lang == "it" else en
        return f"{base} ({self.detail})" if self.detail else base


class MisdealDetector:
    """Watches one hand's device events and says when the hand must be voided.

    Feed every event received while a hand is in progress to :meth:`on_event`; it returns a
    :class:`VoidReason` for the first event that voids the hand, else None. ``unreadable_card``:
    ``"void"`` (default) voids on a ``XX`` card; ``"dealer_identifies"`` lets the caller ask the
    dealer (and a pit boss) for the card instead.
    """

    def __init__(self, unreadable_card: str = "void") -> None:
        self.unreadable_card = unreadable_card
        self.deck_id: str | None = None
        self.last_index = 0
        self.seen: set[Card] = set()

    def start_deck(self, event: DeckShuffled) -> VoidReason | None:
        """A new deck: reset the index and duplicate checks; a count other than 52 voids."""
        self.deck_id, self.last_index, self.seen = event.deck_id, 0, set()
        if event.count != 52:
            return VoidReason("shuffle_count", f"{event.count} cards")
        return None

    def on_event(self, event: DeviceEvent, *, expecting_card: bool) -> VoidReason | None:
        """Check one event of a hand in progress; ``expecting_card`` is False when the hand has
        no position left for a card (then a card is an extra card)."""
        if isinstance(event, DeckShuffled):
            return self.start_deck(event)
        if isinstance(event, DeviceFault):
            return VoidReason("device_fault", event.code)
        if isinstance(event, LinkLost):
            return VoidReason("link_lost", event.reason)
        if isinstance(event, IdentityChanged):
            return VoidReason("identity_changed", f"{event.expected} -> {event.got}")
        if isinstance(event, CardRead):
            return self._on_card(event, expecting_card)
        return None

    def _on_card(self, event: CardRead, expecting_card: bool) -> VoidReason | None:
        if event.manual:
            return None  # entered by the dealer: no reader sequence to check
        if self.deck_id is not None and event.deck_id != self.deck_id:
            return VoidReason("wrong_deck", f"deck {event.deck_id}, expected {self.deck_id}")
        expected = self.last_index + 1
        if event.index != expected:
            code = "index_repeat" if event.index <= self.last_index else "index_gap"
            return VoidReason(code, f"index {event.index}, expected {expected}")
        self.last_index = event.index
        if not expecting_card:
            return VoidReason("extra_card", f"index {event.index}")
        if event.card is None:
            if self.unreadable_card == "void":
                return VoidReason("unreadable_card", f"index {event.index}")
            return None
        if event.card in self.seen:
            return VoidReason("duplicate_card", str(event.card))
        self.seen.add(event.card)
        return None
