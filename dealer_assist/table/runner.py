"""The table runner: one card source, one hand at a time, every hand into the journal.

It turns the dealer's steps into device commands and waits (with finite timeouts) for the cards:
new hand (the device shuffles a new deck) -> bets -> "rien ne va plus" (DEAL for the initial deal)
-> decisions and streets (DEAL for cards dealt later, THB) -> reveal -> settlement, journaled.
Every device event of the hand goes through the :class:`MisdealDetector`; the first one that
voids the hand voids it and journals it with the events that caused it.

Blocking calls: run it on a worker thread under a GUI (the console does).
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable

from dealer_assist.config import TableConfig
from dealer_assist.errors import DeviceError, HandStateError
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    DeviceFault,
    DeviceStateChanged,
    FaultCleared,
    IdentityChanged,
    LinkLost,
    LinkRestored,
)
from dealer_assist.games.base import Action
from dealer_assist.source import CardSource
from dealer_assist.storage.eventjson import event_to_json
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.model import HandEntry, StoredHand
from dealer_assist.table.hand import Hand, Phase
from dealer_assist.table.misdeal import MisdealDetector, VoidReason

_NOT_READY_STATES = {"FAULT", "DOOR_OPEN"}


class TableRunner:
    """Runs hands at one table.

    Args:
        config: the table.
        source: an opened card source.
        journal: an opened journal, or None to keep nothing (tests, dry runs).
        card_timeout: seconds to wait for the next card of a deal before voiding the hand
            ("missing_cards").
        shuffle_timeout: seconds to wait for SHUFFLED after a new hand starts.
        on_event: called with every device event the runner handles (for screens and logs).
    """

    def __init__(
        self,
        config: TableConfig,
        source: CardSource,
        journal: Journal | None,
        *,
        card_timeout: float = 5.0,
        shuffle_timeout: float = 15.0,
        on_event: Callable[[DeviceEvent], None] | None = None,
    ) -> None:
        self.config = config
        self.source = source
        self.journal = journal
        self.card_timeout = card_timeout
        self.shuffle_timeout = shuffle_timeout
        self.on_event = on_event
        self.hand: Hand | None = None
        self.device_ready = True
        self.stored: StoredHand | None = None
        self._events: list[DeviceEvent] = []
        self._detector = MisdealDetector(config.unreadable_card)
        self._shuffled = False

    # -- hand steps -------------------------------------------------------------------------------
    def new_hand(self) -> Hand:
        """Open bets on a new hand and ask the device to shuffle a new deck.

        Raises:
            HandStateError: the previous hand is not finished.
            DeviceError: the device is not ready or refused the shuffle.
        """
        if self.hand is not None and self.hand.phase not in (Phase.SETTLED, Phase.VOID):
            raise HandStateError("the current hand is not finished")
        self.poll(0)
        if not self.device_ready:
            raise DeviceError("device not ready: clear the fault before the next hand")
        self.hand = Hand(self.config, f"{self.config.table_id}-{uuid.uuid4().hex}")
        self.stored = None
        self._events = []
        self._detector = MisdealDetector(self.config.unreadable_card)
        self._shuffled = False
        self.source.shuffle()
        return self.hand

    def close_bets(self) -> Hand:
        """ "Rien ne va plus": lock the bets and deal. The hand ends in decisions, or void."""
        hand = self._current()
        positions = hand.close_bets()
        self._wait_shuffled()
        if hand.phase is Phase.DEALING:
            self._deal(len(positions))
        return hand

    def act(self, seat: int, action: Action) -> None:
        """A seat's decision (raises IllegalActionError and leaves the hand as it was)."""
        self.poll(0)
        hand = self._current()
        if hand.phase is Phase.DECISIONS:
            hand.act(seat, action)

    def advance(self) -> Hand:
        """Turn the next street, dealing its cards first where the game deals them then."""
        hand = self._current()
        self.poll(0)
        if hand.phase is Phase.DECISIONS:
            positions = hand.advance()
            if positions:
                self._deal(len(positions))
        return hand

    def reveal(self) -> Hand:
        """The dealer turns their cards."""
        hand = self._current()
        self.poll(0)
        if hand.phase is Phase.SHOWDOWN:
            hand.reveal()
        return hand

    def settle(self) -> StoredHand | None:
        """Settle the revealed hand and journal it; returns the stored hand (None without a
        journal)."""
        hand = self._current()
        self.poll(0)
        if hand.phase is Phase.VOID and self.stored is not None:
            return self.stored
        hand.settle()
        return self._journal(hand)

    def void(self, reason: VoidReason) -> StoredHand | None:
        """Void the hand in progress (every wager returned) and journal it."""
        hand = self._current()
        hand.void(reason)
        return self._journal(hand)

    # -- events -----------------------------------------------------------------------------------
    def poll(self, timeout: float = 0.0) -> list[DeviceEvent]:
        """Handle the events waiting now (waiting at most ``timeout`` s for the first one)."""
        handled = []
        event = self.source.next_event(timeout)
        while event is not None:
            self._handle(event)
            handled.append(event)
            event = self.source.next_event(0)
        return handled

    def _handle(self, event: DeviceEvent) -> None:
        self._track_readiness(event)
        if self.on_event is not None:
            self.on_event(event)
        hand = self.hand
        if hand is None or hand.phase in (Phase.SETTLED, Phase.VOID):
            return
        self._events.append(event)
        if isinstance(event, DeckShuffled):
            self._shuffled = True
        expecting = hand.phase is Phase.DEALING and bool(hand.pending)
        reason = self._detector.on_event(event, expecting_card=expecting)
        if reason is not None:
            self.void(reason)
        elif isinstance(event, CardRead) and event.card is not None:
            hand.place_card(
                event.card, source=event.source, deck_id=event.deck_id, index=event.index,
                at=event.at, manual=event.manual,
            )  # fmt: skip

    def _track_readiness(self, event: DeviceEvent) -> None:
        if isinstance(event, DeviceFault | LinkLost | IdentityChanged):
            self.device_ready = False
        elif isinstance(event, FaultCleared | LinkRestored):
            self.device_ready = True
        elif isinstance(event, DeviceStateChanged):
            self.device_ready = event.state not in _NOT_READY_STATES

    # -- internals --------------------------------------------------------------------------------
    def _current(self) -> Hand:
        if self.hand is None:
            raise HandStateError("no hand in progress: start a new hand")
        return self.hand

    def _wait_shuffled(self) -> None:
        hand = self._current()
        deadline = time.monotonic() + self.shuffle_timeout
        while not self._shuffled and hand.phase is Phase.DEALING:
            if time.monotonic() > deadline:
                self.void(VoidReason("device_fault", "no SHUFFLED from the device"))
                return
            self.poll(0.05)

    def _deal(self, n: int) -> None:
        hand = self._current()
        try:
            self.source.deal(n)
        except DeviceError as e:
            self.void(VoidReason("device_fault", f"DEAL {n} failed: {e}"))
            return
        deadline = time.monotonic() + self.card_timeout
        while hand.phase is Phase.DEALING:
            before = len(hand.pending)
            self.poll(0.05)
            if len(hand.pending) < before:
                deadline = time.monotonic() + self.card_timeout
            elif time.monotonic() > deadline and hand.phase is Phase.DEALING:
                self.void(VoidReason("missing_cards", f"{len(hand.pending)} of {n} not received"))

    def _journal(self, hand: Hand) -> StoredHand | None:
        if self.journal is None:
            return None
        void = hand.phase is Phase.VOID
        entry = HandEntry(
            table_id=self.config.table_id,
            game=hand.game.code,
            started_at=hand.started_at,
            ended_at=hand.ended_at or hand.started_at,
            status="void" if void else "settled",
            void_reason=hand.void_reason.text("en") if void and hand.void_reason else None,
            record=hand.to_hand_record().to_json(),
            settlement=hand.void_settlement() if void else _settlement_json(hand),
            events=[event_to_json(e) for e in self._events],
            extra=hand.journal_extra(),
            hand_uid=hand.hand_uid,
        )
        self.stored = self.journal.append_hand(entry)
        return self.stored


def _settlement_json(hand: Hand) -> dict[str, object] | None:
    return hand.settlement.to_json() if hand.settlement is not None else None
