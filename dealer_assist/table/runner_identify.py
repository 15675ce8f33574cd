"""The table runner's steps for an unreadable card (``misdeal.unreadable_card =
"dealer_identifies"``): the dealer enters the card, a pit boss confirms or rejects it. A mixin of
:class:`dealer_assist.table.runner.TableRunner`, kept apart so that module stays small; the
pending card itself is :class:`dealer_assist.table.identification.Identification`.
"""

from __future__ import annotations

import time
from typing import Generic, TypeVar

from dealer_assist.cards import Card
from dealer_assist.engine.operations import (
    CardIdentified,
    IdentificationConfirmed,
    IdentificationRejected,
    Operation,
)
from dealer_assist.engine.state import GameState
from dealer_assist.errors import CardError, HandStateError
from dealer_assist.events import utc_now
from dealer_assist.table.identification import Identification, PendingIdentification
from dealer_assist.table.misdeal import DealWatch, MisdealDetector

S = TypeVar("S", bound=GameState)


class IdentificationSteps(Generic[S]):
    """Unreadable-card steps of :class:`~dealer_assist.table.runner.TableRunner` (see the module
    docstring); the attributes are the runner's."""

    hand: S | None
    card_timeout: float
    _detector: MisdealDetector
    _ident: Identification
    _watch: DealWatch | None

    def _step(self, op: Operation) -> None:
        raise NotImplementedError  # the runner's

    def _current(self) -> S:
        raise NotImplementedError  # the runner's

    def identify_card(self, card: Card, *, dealer: str) -> None:
        """The dealer enters the unreadable card; a pit boss must then confirm it.

        Raises:
            HandStateError: no unreadable card is waiting.
            CardError: that card was already dealt from this deck (enter it again, or void).
        """
        ident = self._require_ident()
        if card in self._detector.seen:
            raise CardError(f"{card} was already dealt from deck {ident.deck_id}")
        self._step(CardIdentified(card=card, dealer=dealer, at=utc_now()))

    def confirm_identification(self, *, pit_boss: str, accept: bool = True) -> S:
        """The pit boss confirms the dealer's card (both names are recorded with it) and the
        deal goes on; ``accept=False`` rejects it and the dealer enters it again.

        Raises:
            HandStateError: nothing to confirm (no unreadable card, or no card entered).
        """
        ident = self._require_ident()
        if ident.card is None:
            raise HandStateError("the dealer has not entered the unreadable card yet")
        if accept:
            self._step(IdentificationConfirmed(pit_boss=pit_boss, at=utc_now()))
        else:
            self._step(IdentificationRejected(pit_boss=pit_boss, at=utc_now()))
        hand = self._current()
        if accept and hand.pending_deal and not self._ident.waiting:
            self._watch = DealWatch(len(hand.pending_deal), self.card_timeout, time.monotonic())
        return hand

    def _require_ident(self) -> PendingIdentification:
        ident = self._ident.pending
        if ident is None or self.hand is None or self.hand.is_over:
            raise HandStateError("no unreadable card is waiting for identification")
        return ident
