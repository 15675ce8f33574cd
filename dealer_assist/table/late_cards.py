"""Cards that leave the device after their hand is over.

A card of a finished hand's deck can still come out of the device: the rest of a voided hand's
DEAL (the device was still dealing when the hand was voided), or a card dealt after the hand
was settled (a device that deals on its own, a retransmission of the device's own making). It
is not a card of the next hand: handed to the next hand's misdeal detector it would void that
hand with a misleading ``index_gap`` (the next deck not started yet) or ``wrong_deck``.

:class:`LateCards` keeps the deck of the last finished hand and takes every device card of that
deck that arrives afterwards: each is recorded (journaled in the next hand's
``extra["late_cards"]`` and among its device events: the recall of what left the shuffler);
after a settled hand it also raises a :class:`LateCardAlarm` that names the deck, shown in the
device status until the next journaled hand carries it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from dealer_assist.events import CardRead, DeviceEvent, event_to_json, iso_utc

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LateCardAlarm:
    """Cards of a settled hand's deck dealt after its settlement.

    Attributes:
        deck_id: the settled hand's deck.
        hand_uid: the settled hand.
        cards: ``index card`` of each late card (``XX`` when unreadable), in arrival order.
    """

    deck_id: str
    hand_uid: str
    cards: tuple[str, ...]

    def text(self) -> str:
        """One English sentence for the dealer, the operator and the log."""
        n = len(self.cards)
        what = "a card" if n == 1 else f"{n} cards"
        return (
            f"{what} of deck {self.deck_id} left the device after hand {self.hand_uid} was "
            f"settled (index {', '.join(self.cards)}): take it off the table"
        )


class LateCards:
    """The last finished hand's deck, and the cards of it that came after the hand ended."""

    def __init__(self) -> None:
        self._deck: str | None = None
        self._hand_uid = ""
        self._status = ""
        self.records: list[dict[str, Any]] = []
        """Late cards not journaled yet: ``{"hand_uid", "hand_status", "deck_id", "index",
        "card", "source", "at"}`` (``card`` None when unreadable)."""
        self.alarm: LateCardAlarm | None = None
        self._between: list[dict[str, Any]] = []  # events that came while no hand was open

    def finished(self, hand_uid: str, deck_id: str | None, status: str) -> None:
        """The hand ``hand_uid`` ended (``settled`` or ``void``) with ``deck_id`` (None when no
        deck was started: nothing to watch)."""
        self._deck, self._hand_uid, self._status = deck_id, hand_uid, status

    def is_late(self, event: DeviceEvent, *, hand_open: bool, current_deck: str | None) -> bool:
        """True for a device card that came after the last hand ended: any while no hand is
        open (``hand_open`` False), else one of the finished hand's deck that is not of
        ``current_deck`` (the open hand's deck, None before its SHUFFLED)."""
        if not isinstance(event, CardRead) or event.manual or not self._hand_uid:
            return False
        if not hand_open:
            return True
        return self._deck is not None and event.deck_id == self._deck != current_deck

    def kept(self, event: DeviceEvent, *, hand_open: bool, current_deck: str | None) -> bool:
        """A late card (:meth:`is_late`) is taken (:meth:`take`): True; else False."""
        if isinstance(event, CardRead) and self.is_late(
            event, hand_open=hand_open, current_deck=current_deck
        ):
            self.take(event, hand_open=hand_open)
            return True
        return False

    def take(self, event: CardRead, *, hand_open: bool) -> None:
        """Record a late card (``hand_open``: a next hand is open and keeps the event with its
        own; else it waits for the next hand, :meth:`between`)."""
        card = str(event.card) if event.card is not None else None
        self.records.append(
            {
                "hand_uid": self._hand_uid,
                "hand_status": self._status,
                "deck_id": event.deck_id,
                "index": event.index,
                "card": card,
                "source": event.source,
                "at": iso_utc(event.at),
            }
        )
        if not hand_open:
            self._between.append(event_to_json(event))
        if self._status == "settled":
            old = self.alarm
            deck = old.deck_id if old is not None else event.deck_id
            text = f"{event.index} {card or 'XX'}"
            if event.deck_id != deck:
                text += f" of deck {event.deck_id}"
            self.alarm = LateCardAlarm(deck, self._hand_uid, (*(old.cards if old else ()), text))
            log.error("late card: %s", self.alarm.text())
        else:
            log.warning(
                "card %d of deck %s came after hand %s was %s",
                event.index,
                event.deck_id,
                self._hand_uid,
                self._status,
            )

    def between(self) -> list[dict[str, Any]]:
        """The late cards' events that came while no hand was open (taken: the next hand's
        first step keeps them)."""
        out, self._between = self._between, []
        return out

    def put_back(self, events: list[dict[str, Any]]) -> None:
        """Events :meth:`between` gave to a hand that did not open after all."""
        self._between = events + self._between

    def carried(self, records: list[dict[str, Any]]) -> None:
        """``records`` are journaled now: they and the alarm they raised go."""
        self.records = [r for r in self.records if r not in records]
        if not self.records:
            self.alarm = None
