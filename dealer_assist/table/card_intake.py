"""The cards of one hand as the device deals them, before the hand places them.

:class:`CardIntake` owns what the runner knows of the deal: the misdeal detector (the deck, its
indexes, duplicates; :mod:`dealer_assist.table.misdeal`), the cards recorded before a restart
(a card the device sends again is skipped, not dealt twice), and the unreadable card waiting
for the dealer and a pit boss (:class:`~dealer_assist.table.identification.Identification`,
with the cards dealt after it). It decides what a device event means for the hand
(:meth:`CardIntake.read`: a void, a card or a deck to write as a step, or nothing) and, once a
card step is written, which cards the hand places now (:meth:`CardIntake.dealt`,
:meth:`CardIntake.confirmed`). It writes nothing itself: the runner writes each step first.
"""

from __future__ import annotations

from collections.abc import Callable

from dealer_assist.cards import Card
from dealer_assist.engine.operations import (
    CardDealt,
    CardIdentified,
    DeckStarted,
    IdentificationConfirmed,
    IdentificationRejected,
)
from dealer_assist.engine.voids import VoidReason
from dealer_assist.events import CardRead, DeckShuffled, DeviceEvent
from dealer_assist.table.identification import Identification
from dealer_assist.table.misdeal import MisdealDetector

DealStep = CardDealt | CardIdentified | IdentificationRejected | IdentificationConfirmed
DEAL_STEPS = (CardDealt, CardIdentified, IdentificationRejected, IdentificationConfirmed)
"""The steps :meth:`CardIntake.take` applies (a card and the unreadable card's steps)."""


class CardIntake:
    """One hand's deal as the device reports it (see the module docstring).

    Args:
        unreadable_card: the table's ``misdeal.unreadable_card`` (``void`` or
            ``dealer_identifies``).

    Attributes:
        detector: the hand's misdeal detector (a new one for a restarted deal).
        ident: the unreadable card waiting, and the cards held behind it.
        horizon: cards up to this index were recorded before a restart.
    """

    def __init__(self, unreadable_card: str) -> None:
        self.unreadable_card = unreadable_card
        self.detector = MisdealDetector(unreadable_card)
        self.ident = Identification()
        self.horizon = 0
        self._known: dict[tuple[str, int], str | None] = {}

    def new_deck(self) -> None:
        """The deal starts again on a new deck (after a restart that dealt nothing)."""
        self.detector = MisdealDetector(self.unreadable_card)

    def expecting(self, pending: int) -> bool:
        """Whether a card is due, with ``pending`` positions left to deal (those waiting behind
        an unreadable card are not)."""
        waiting = (1 if self.ident.waiting else 0) + len(self.ident.held)
        return pending > waiting

    def already_recorded(self, event: DeviceEvent) -> bool:
        """After a restart: a card recorded before it, seen again (retransmitted)."""
        if not isinstance(event, CardRead) or event.index > self.horizon:
            return False
        known = self._known.get((event.deck_id, event.index), "?")
        return known != "?" and known == (str(event.card) if event.card else None)

    def read(
        self, event: DeviceEvent, *, pending: int, device: Callable[[], dict[str, str]]
    ) -> VoidReason | CardDealt | DeckStarted | None:
        """What ``event`` means for the hand with ``pending`` positions to deal: the void it
        causes, the card or the deck (``device()``: the source that shuffled it) to write as
        the hand's step, or None (nothing to write)."""
        reason = self.detector.check(event, expecting_card=self.expecting(pending))
        if reason is not None:
            return reason
        if isinstance(event, CardRead):
            return CardDealt(
                deck_id=event.deck_id,
                index=event.index,
                card=event.card,
                source=event.source,
                manual=event.manual,
                at=event.at,
            )
        if isinstance(event, DeckShuffled) and (
            not self.detector.last_index or self.detector.expecting_new_deck
        ):
            # the source that shuffled is the hand's device (a failover may have switched
            # sources at the shuffle, after the "open" step named the previous one)
            return DeckStarted(deck_id=event.deck_id, count=event.count, device=device())
        return None

    def take(self, op: DealStep) -> list[CardDealt]:
        """A step of the deal written (live or replayed): a card, the dealer's card for the
        unreadable one, the pit boss's answer. Returns the cards the hand places now, in order
        (none while an unreadable card waits). Raises HandStateError (no card waiting)."""
        if isinstance(op, CardDealt):
            return self.dealt(op)
        if isinstance(op, CardIdentified):
            self.ident.identify(op.card, op.dealer)
        elif isinstance(op, IdentificationRejected):
            self.ident.reject()
        else:
            return self.confirmed(op.pit_boss)
        return []

    def dealt(self, op: CardDealt) -> list[CardDealt]:
        """A card step written (live or replayed): noted, and the cards to place now, in order
        (none while an unreadable card waits)."""
        self.detector.commit(op)
        self._known[(op.deck_id, op.index)] = str(op.card) if op.card is not None else None
        return self.ident.take(op)

    def identified(self, card: Card, dealer: str, *, live: bool) -> CardIdentified:
        """The dealer's step entering the unreadable card (see
        :meth:`Identification.identified`: HandStateError, CardError)."""
        return self.ident.identified(card, dealer, seen=self.detector.seen, live=live)

    def answered(
        self, pit_boss: str, *, accept: bool, live: bool
    ) -> IdentificationConfirmed | IdentificationRejected:
        """The pit boss's step (see :meth:`Identification.answered`: HandStateError)."""
        return self.ident.answered(pit_boss, accept=accept, live=live)

    def confirmed(self, pit_boss: str) -> list[CardDealt]:
        """The confirmation written: the identified card and the cards held behind it, to place
        now (HandStateError when the dealer has not entered the card)."""
        placed = self.ident.confirm(pit_boss)
        if placed[0].card is not None:
            self.detector.seen.add(placed[0].card)
        return placed
