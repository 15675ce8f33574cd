"""Misdeal reasons and the detector that decides when a hand is void.

Rules text 000 (and 004, 002): "In caso di errore nella distribuzione delle carte o di
malfunzionamento della miscelatrice automatica, l'intera mano viene annullata" — a dealing error
or a shuffler malfunction voids the whole hand, every wager returned. "Se durante la distribuzione
il Dealer mostra accidentalmente una o più carte dei giocatori, tali carte restano valide": a card
the dealer exposes by mistake stays valid and is only recorded (never a void reason here).
TCRP/1 (DEVICE_PROTOCOL.md, Reliability): within a deck CARD indexes run 1, 2, 3... with no gap
and no repeat; a card seen twice since the last SHUFFLED is a duplicate.

The detector is fed every device event of a hand plus what the hand expects (a card or not) and
answers with the first :class:`VoidReason`, or None. :class:`DealWatch` adds the time rule: cards
that do not come (``missing_cards``).
"""

from __future__ import annotations

import math

from dealer_assist.cards import Card
from dealer_assist.engine.operations import CardDealt
from dealer_assist.engine.voids import VoidReason
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceEvent,
    DeviceFault,
    DeviceHello,
    DeviceStateChanged,
    FrameConflict,
    IdentityChanged,
    LinkLost,
)

UNREADABLE_POLICIES = ("void", "dealer_identifies")
_NOT_READY_STATES = frozenset({"FAULT", "DOOR_OPEN"})


class MisdealDetector:
    """Watches one hand's device events and says when the hand must be voided.

    Feed every event received while a hand is in progress to :meth:`on_event` (check and
    accept in one call), or to :meth:`check` then :meth:`commit` when the caller must record the
    event durably in between (the runner's step log). Either returns the :class:`VoidReason` of
    the first event that voids the hand, else None.

    ``unreadable_card``: ``"void"`` (default) voids on a ``XX`` card; ``"dealer_identifies"``
    lets the caller ask the dealer (confirmed by a pit boss) for the card instead.
    """

    def __init__(self, unreadable_card: str = "void") -> None:
        self.unreadable_card = unreadable_card
        self.deck_id: str | None = None
        self.last_index = 0
        self.seen: set[Card] = set()
        self.allowed: frozenset[Card] | None = None
        """The only cards the deck may hold (a short street's deck of the burns and the
        stub), None for a full deck."""
        self._expect: tuple[int, frozenset[Card]] | None = None

    @property
    def expecting_new_deck(self) -> bool:
        """A new deck is due in the middle of the hand (:meth:`expect_new_deck`)."""
        return self._expect is not None

    def expect_new_deck(self, count: int, allowed: frozenset[Card]) -> None:
        """The hand's deck ran short (Stud's seventh street, rules text 002): the next SHUFFLED
        is a new deck of ``count`` cards, the burns and the stub; every card it deals must be
        one of ``allowed`` (any other, e.g. a folded player's card, is a dealing error)."""
        self._expect = (count, allowed)

    def start_deck(self, event: DeckShuffled) -> VoidReason | None:
        """A new deck: reset the index and duplicate checks; a count other than 52 (or than
        the short street's deck) voids."""
        self.deck_id, self.last_index, self.seen = event.deck_id, 0, set()
        want, self.allowed = 52, None
        if self._expect is not None:
            (want, self.allowed), self._expect = self._expect, None
        if event.count != want:
            return VoidReason("shuffle_count", f"{event.count} cards, {want} expected", (event,))
        return None

    def on_event(self, event: DeviceEvent, *, expecting_card: bool) -> VoidReason | None:
        """Check one event of a hand in progress and accept it when it does not void;
        ``expecting_card`` is False when the hand has no position left for a card (then a card
        is an extra card)."""
        reason = self.check(event, expecting_card=expecting_card)
        if reason is None:
            self.commit(event)
        elif isinstance(event, DeckShuffled) and reason.code == "shuffle_count":
            self.commit(event)  # the deck is the hand's deck even when its count is wrong
        return reason

    def check(self, event: DeviceEvent, *, expecting_card: bool) -> VoidReason | None:
        """The void reason ``event`` would cause now, without changing any state."""
        causes = (event,)
        if isinstance(event, DeckShuffled):
            if self._expect is not None:
                want = self._expect[0]
                if event.count != want:
                    return VoidReason(
                        "shuffle_count", f"{event.count} cards, {want} expected", causes
                    )
                return None
            if self.last_index and event.deck_id != self.deck_id:
                return VoidReason("deck_reshuffled", f"new deck {event.deck_id}", causes)
            if not self.last_index and event.count != 52:
                return VoidReason("shuffle_count", f"{event.count} cards", causes)
            return None
        if isinstance(event, DeviceFault):
            return VoidReason("device_fault", event.code, causes)
        if isinstance(event, DeviceStateChanged) and event.state in _NOT_READY_STATES:
            return VoidReason("device_fault", event.state, causes)
        if isinstance(event, LinkLost):
            return VoidReason("link_lost", event.reason, causes)
        if isinstance(event, IdentityChanged):
            return VoidReason("identity_changed", f"{event.expected} -> {event.got}", causes)
        if isinstance(event, FrameConflict):
            detail = f"device frame {event.seq}: {event.first}, then {event.second}"
            return VoidReason("frame_conflict", detail, causes)
        if isinstance(event, DeviceHello) and event.restarted:
            return VoidReason("restart", "the shuffler restarted (HELLO seq 0)", causes)
        if isinstance(event, CardRead):
            return self._check_card(event, expecting_card)
        return None

    def commit(self, event: DeviceEvent | CardDealt) -> None:
        """Accept an event :meth:`check` passed, or the hand's card step made of it (live or
        replayed): advance the deck, index and duplicate state."""
        if isinstance(event, DeckShuffled):
            if not self.last_index or self._expect is not None:
                self.start_deck(event)
        elif isinstance(event, CardRead | CardDealt) and not event.manual:
            if self.deck_id is None:
                self.deck_id = event.deck_id
            self.last_index = event.index
            if event.card is not None:
                self.seen.add(event.card)

    def accept_identified(self, card: Card) -> VoidReason | None:
        """A card the dealer identified for an unreadable one: a duplicate of a card seen in
        this deck voids; otherwise it joins the duplicate check."""
        if card in self.seen:
            return VoidReason("duplicate_card", f"{card} (identified by the dealer)")
        self.seen.add(card)
        return None

    def _check_card(self, event: CardRead, expecting_card: bool) -> VoidReason | None:
        causes = (event,)
        if self.allowed is not None and event.card is not None and event.card not in self.allowed:
            return VoidReason("reshuffle_card", str(event.card), causes)
        if event.manual:
            return None  # entered by the dealer: no reader sequence to check
        if self.deck_id is not None and event.deck_id != self.deck_id:
            return VoidReason(
                "wrong_deck", f"deck {event.deck_id}, expected {self.deck_id}", causes
            )
        expected = self.last_index + 1
        if event.index != expected:
            code = "index_repeat" if event.index <= self.last_index else "index_gap"
            return VoidReason(code, f"index {event.index}, expected {expected}", causes)
        if not expecting_card:
            return VoidReason("extra_card", f"index {event.index}", causes)
        if event.card is None:
            if self.unreadable_card == "void":
                return VoidReason("unreadable_card", f"index {event.index}", causes)
            return None
        if event.card in self.seen:
            return VoidReason("duplicate_card", str(event.card), causes)
        return None


class DealWatch:
    """The time rule of one deal: fewer cards than the positions need is ``missing_cards``.

    Args:
        n: cards asked for.
        card_timeout: seconds allowed before the first card and between two cards.
        now: monotonic seconds at the DEAL.
        grace: seconds still allowed after the device said it is done dealing (STATE READY or
            IDLE after DEALING) while positions are still pending (never more than
            ``card_timeout``); frames arrive in device order, so this only covers devices that
            announce READY early or between the cards of a slow deal.
    """

    def __init__(self, n: int, card_timeout: float, now: float, grace: float = 1.5) -> None:
        self.n = n
        self.card_timeout = card_timeout
        self.grace = grace
        self.deadline = now + card_timeout
        self._dealing_seen = False
        self._done: DeviceEvent | None = None  # the STATE that said dealing was over

    def on_card(self, now: float) -> None:
        """A card of this deal arrived: the next one has a fresh ``card_timeout``."""
        self.deadline = now + self.card_timeout

    def on_state(self, state: str, now: float, event: DeviceEvent | None = None) -> None:
        """The device's STATE: READY/IDLE after DEALING means it has dealt all it will
        (``event``, kept as the cause of a ``missing_cards`` void)."""
        if state == "DEALING":
            self._dealing_seen = True
        elif state in ("READY", "IDLE") and self._dealing_seen:
            self.deadline = min(self.deadline, now + min(self.grace, self.card_timeout))
            self._done = event

    def pause(self) -> None:
        """Stop the clock (the dealer is identifying an unreadable card)."""
        self.deadline = math.inf

    def expired(self, now: float, pending: int) -> VoidReason | None:
        """``missing_cards`` when ``pending`` positions are still empty after the deadline."""
        if pending and now > self.deadline:
            causes = (self._done,) if self._done is not None else ()
            return VoidReason("missing_cards", f"{pending} of {self.n} not received", causes)
        return None
