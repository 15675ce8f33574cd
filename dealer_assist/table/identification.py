"""The unreadable-card flow (``misdeal.unreadable_card = "dealer_identifies"``).

GAMES.md / TCRP/1: a card the reader could not read (``XX``) does not void the hand when the table
lets the dealer identify it: the dealer enters the card, a pit boss confirms it, and it is placed
with both names. Cards the device deals meanwhile wait (they are placed after it, in deal order);
another unreadable card among them is identified next. :class:`Identification` checks the
dealer's and the pit boss's steps and makes them (:meth:`~Identification.identified`,
:meth:`~Identification.answered`: :class:`~dealer_assist.engine.operations.CardIdentified`,
``IdentificationConfirmed``, ``IdentificationRejected``); the runner writes each before this
module applies it (:meth:`~Identification.identify`, ``confirm``, ``reject``), live and in
replay alike.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from datetime import datetime

from dealer_assist.cards import Card
from dealer_assist.engine.operations import (
    CardDealt,
    CardIdentified,
    IdentificationConfirmed,
    IdentificationRejected,
)
from dealer_assist.errors import CardError, HandStateError
from dealer_assist.events import utc_now


@dataclass
class PendingIdentification:
    """An unreadable card (TCRP/1 ``XX``) waiting for the dealer and a pit boss.

    Attributes:
        deck_id, index: where the device dealt it.
        source, at: the source that dealt it and when (UTC).
        card: what the dealer entered (None until then).
        dealer: who entered it.
    """

    deck_id: str
    index: int
    source: str
    at: datetime
    card: Card | None = None
    dealer: str = ""


class Identification:
    """The unreadable card waiting now (if any) and the cards dealt after it."""

    def __init__(self) -> None:
        self.pending: PendingIdentification | None = None
        self.held: list[CardDealt] = []
        self._op: CardDealt | None = None

    @property
    def waiting(self) -> bool:
        """True while an unreadable card waits for its identification."""
        return self.pending is not None

    def take(self, op: CardDealt) -> list[CardDealt]:
        """A card the device dealt: the cards to place now, in order (none while an earlier
        card waits, or when ``op`` is itself unreadable)."""
        if self.pending is not None:
            self.held.append(op)
            return []
        if op.card is None:
            self._start(op)
            return []
        return [op]

    def identified(
        self, card: Card, dealer: str, *, seen: Collection[Card], live: bool
    ) -> CardIdentified:
        """The step of the dealer (``dealer``) entering the unreadable card as ``card``; ``seen``:
        the cards already dealt from the deck, ``live``: a hand is in progress.

        Raises:
            HandStateError: no unreadable card is waiting (or no hand in progress).
            CardError: that card was already dealt from this deck (enter it again, or void).
        """
        ident = self._require(live)
        if card in seen:
            raise CardError(f"{card} was already dealt from deck {ident.deck_id}")
        return CardIdentified(card=card, dealer=dealer, at=utc_now())

    def answered(
        self, pit_boss: str, *, accept: bool, live: bool
    ) -> IdentificationConfirmed | IdentificationRejected:
        """The step of the pit boss confirming the dealer's card (``accept``) or rejecting it
        (the dealer enters it again); ``live``: a hand is in progress.

        Raises:
            HandStateError: nothing to confirm (no unreadable card, or no card entered).
        """
        if self._require(live).card is None:
            raise HandStateError("the dealer has not entered the unreadable card yet")
        if accept:
            return IdentificationConfirmed(pit_boss=pit_boss, at=utc_now())
        return IdentificationRejected(pit_boss=pit_boss, at=utc_now())

    def identify(self, card: Card, dealer: str) -> None:
        """The dealer entered ``card``. Raises HandStateError when no card waits."""
        ident = self._require()
        ident.card, ident.dealer = card, dealer

    def reject(self) -> None:
        """The pit boss saw another card: the dealer enters it again."""
        ident = self._require()
        ident.card, ident.dealer = None, ""

    def confirm(self, pit_boss: str) -> list[CardDealt]:
        """The pit boss confirmed the dealer's card: the identified card, then the held cards
        up to the next unreadable one (which then waits). Raises HandStateError when the dealer
        has not entered a card."""
        ident, op = self._require(), self._op
        if ident.card is None or op is None:
            raise HandStateError("the dealer has not entered the unreadable card yet")
        placed = replace(
            op, card=ident.card, manual=True, identified_by=ident.dealer, confirmed_by=pit_boss
        )
        out = [placed]
        self.pending, self._op, held, self.held = None, None, self.held, []
        for i, nxt in enumerate(held):
            if nxt.card is None:  # another unreadable card: identify it next
                self._start(nxt)
                self.held = held[i + 1 :]
                break
            out.append(nxt)
        return out

    def _start(self, op: CardDealt) -> None:
        self.pending = PendingIdentification(op.deck_id, op.index, op.source, op.at)
        self._op = op

    def _require(self, live: bool = True) -> PendingIdentification:
        if self.pending is None or not live:
            raise HandStateError("no unreadable card is waiting for identification")
        return self.pending
