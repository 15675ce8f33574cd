"""The table runner: one card source, one hand at a time, every hand into the journal.

Event-driven: it never waits. Whoever owns the source (the console's worker, a headless job
through :mod:`dealer_assist.table.driving`) hands it each device event (:meth:`TableRunner.handle`,
or :meth:`~TableRunner.poll` to read what the source has now) and the clock
(:meth:`~TableRunner.tick`); the dealer's steps return at once. A step that needs the device (the
initial deal needs the deck's SHUFFLED first, a deal needs its cards) leaves the runner
:attr:`~TableRunner.waiting`, with a finite deadline: a deck that does not come voids the hand
("no SHUFFLED"), cards that do not come void it (``missing_cards``).

Every change to the hand is a typed operation, written to the journal's pending-step log before
it takes effect (:mod:`dealer_assist.table.steplog`), then applied; :meth:`~TableRunner.resume`
folds the same operations over a new hand after a restart. Every device event of the hand goes
through the misdeal detector; the first that voids the hand journals it with its causes. A void
must be acknowledged before the next hand. A card of the last hand's deck that comes after it
ended is kept and journaled with the next hand (:mod:`dealer_assist.table.late_cards`).
"""

from __future__ import annotations

import gc
import time
import uuid
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.operations import (
    CardDealt,
    CardExposed,
    DealRequested,
    DeckStarted,
    HandOpened,
    HandResumed,
    HandSettled,
    HandVoided,
    Operation,
)
from dealer_assist.engine.state import GameState
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import DealerAssistError, DeviceError, HandStateError
from dealer_assist.events import (
    DeckShuffled,
    DeviceEvent,
    DeviceStateChanged,
    event_to_json,
    utc_now,
)
from dealer_assist.games.session import TableSession
from dealer_assist.ports import JournalPort, StoredHand
from dealer_assist.source import CardSource
from dealer_assist.table.card_intake import DEAL_STEPS, CardIntake
from dealer_assist.table.dealing import DealState
from dealer_assist.table.device_link import DeviceLink
from dealer_assist.table.device_status import DeviceStatus
from dealer_assist.table.family import HandFamily, Resumer
from dealer_assist.table.identification import PendingIdentification
from dealer_assist.table.journaling import HandFacts, journal_hand
from dealer_assist.table.late_cards import LateCardAlarm, LateCards
from dealer_assist.table.steplog import StepLog, VoidAlarm, VoidAlarms
from dealer_assist.table.waits import Waits

S = TypeVar("S", bound=GameState)


class TableRunner(Generic[S]):
    """Runs hands of one game at one table. The game family (``family``, :mod:`dealer_assist.
    table.family`) says how a hand is made, what its deal needs and what falls due; a family's
    dealer steps build operations for :meth:`perform` (:mod:`~dealer_assist.table.
    banked_runner`, :mod:`~dealer_assist.table.peer_runner`). Collaborators own their state:
    the device link, the cards (:class:`~dealer_assist.table.card_intake.CardIntake`), the deal
    (:class:`~dealer_assist.table.dealing.DealState`), the resumer, the step log, the void
    alarms, the late cards, the waits.

    Args:
        config: the table (``unreadable_card``: ``void`` or ``dealer_identifies``).
        source: an opened card source.
        journal: an opened journal (the port), or None to keep nothing (tests, dry runs).
        card_timeout, shuffle_timeout: seconds allowed for the next card of a deal (else the
            hand is voided, "missing_cards"), for SHUFFLED after the bets are locked.
        on_event: called with every device event the runner handles (for screens and logs).
        history_timeout: seconds :meth:`resume` lets the source read the device's history.
        family, resume: the game family; the maker of its resumer (None: nothing resumes).
    """

    def __init__(
        self, config: TableConfig, source: CardSource, journal: JournalPort | None, *,
        card_timeout: float = 5.0, shuffle_timeout: float = 15.0,
        on_event: Callable[[DeviceEvent], None] | None = None, history_timeout: float = 2.0,
        family: HandFamily[S], resume: Callable[[TableRunner[S]], Resumer[S]] | None = None,
    ) -> None:  # fmt: skip
        self.config = config
        self.source = source
        self.journal = journal
        self.card_timeout = card_timeout
        self.shuffle_timeout = shuffle_timeout
        self.on_event = on_event
        self.history_timeout = history_timeout
        self.family = family
        self.hand: S | None = None
        self.device_ready = True
        self.stored: StoredHand | None = None
        self.session: TableSession | None = None
        self._device = DeviceLink(source)
        self._steps = StepLog(journal, config.table_id)
        self._voids = VoidAlarms(self._steps)
        self._waits = Waits()
        self._late = LateCards()
        self._opened_with_events = False
        self._new_hand_state()
        self._resumer = resume(self) if resume is not None else None

    def make_state(self, hand_uid: str) -> S:
        """A new hand from the table session (HandStateError: none can start now)."""
        return self.family.make_state(self.config, hand_uid, self.session)

    def _new_hand_state(self) -> None:
        self._cards = CardIntake(self.config.unreadable_card)
        self.deal = DealState()
        self._event_log: list[dict[str, Any]] = []
        self._unsaved: list[dict[str, Any]] = []
        self._facts = HandFacts()
        self._waits = Waits()

    # -- status for the screens -------------------------------------------------------------------
    @property
    def device_status(self) -> DeviceStatus:
        """The device and its link now (fault codes, state, reconnection attempts)."""
        alarm = self._late.alarm
        return self._device.status(alarm.text() if alarm else "")

    @property
    def late_card_alarm(self) -> LateCardAlarm | None:
        """Cards of the last settled hand's deck dealt after it, until journaled, or None."""
        return self._late.alarm

    @property
    def device_state(self) -> str:
        """The device's last TCRP/1 STATE ("" when unknown)."""
        return self._device.state

    @property
    def device_busy(self) -> bool:
        """The device is still dealing or shuffling (a void hand's DEAL may still dispense)."""
        return self._device.busy

    @property
    def void_alarm(self) -> VoidAlarm | None:
        """The void the dealer has not acknowledged yet (blocks :meth:`new_hand`), or None."""
        return self._voids.first

    @property
    def identification(self) -> PendingIdentification | None:
        """The unreadable card waiting for the dealer and a pit boss, or None."""
        return self._cards.ident.pending

    @property
    def waiting(self) -> bool:
        """The runner waits for the device (a deck, cards, a STATUS answer); False when only a
        person can move the table on."""
        dealing = self.hand is not None and bool(self.hand.pending_deal)
        return bool(self._waits) or (
            dealing and self.deal.watch is not None and not self._cards.ident.waiting
        )

    def ask_status(self) -> None:
        """Ask the device for its STATE (the answer arrives as an event); nothing when the
        source cannot report it or its link is down."""
        self._device.ask_status()

    def _ask_state(self, then: Callable[[str], None]) -> None:
        self._device.ask_state(self._waits, then)

    # -- events and the clock ---------------------------------------------------------------------
    def poll(self, timeout: float = 0.0) -> list[DeviceEvent]:
        """Handle the events the source has now (waiting at most ``timeout`` s for the first)."""
        handled = []
        event = self.source.next_event(timeout)
        while event is not None:
            self.handle(event)
            handled.append(event)
            event = self.source.next_event(0)
        return handled

    def handle(self, event: DeviceEvent) -> None:
        """One device event: device status, the misdeal detector, a card for the hand."""
        self._handle(event)
        self._waits.check(time.monotonic())

    def tick(self, now: float | None = None) -> None:
        """The clock (monotonic seconds, default now): voids a deal whose cards are late and ends
        waits whose deadline passed."""
        now = time.monotonic() if now is None else now
        hand, watch, held = self.hand, self.deal.watch, self._cards.ident.waiting
        if hand is not None and watch is not None and hand.pending_deal and not held:
            reason = watch.expired(now, len(hand.pending_deal))
            if reason is not None:
                self._void(reason)
        self._waits.check(now)

    def _handle(self, event: DeviceEvent) -> None:
        self.device_ready = self._device.update(event)
        if self.on_event is not None:
            self.on_event(event)
        hand = self.hand
        over = hand is None or hand.is_over
        deck = self._cards.detector.deck_id
        if self._late.kept(event, hand_open=not over, current_deck=deck):
            if not over:  # not the next hand's card: no void
                self._unsaved.append(event_to_json(event))
            return
        if hand is None or hand.is_over or self._cards.already_recorded(event):
            return
        self._unsaved.append(event_to_json(event))
        if isinstance(event, DeviceStateChanged) and self.deal.watch is not None:
            self.deal.watch.on_state(event.state, time.monotonic(), event)
        read = self._cards.read(event, pending=len(hand.pending_deal), device=self._ident_of)
        if isinstance(read, VoidReason):
            self._void(self.deal.lost_deck(read))
        elif isinstance(read, CardDealt):
            self._step(read)
            self.deal.card_came(time.monotonic(), held=self._cards.ident.waiting)
        elif read is not None:
            self._step(read)

    # -- hand steps -------------------------------------------------------------------------------
    def new_hand(self, *, even_if_busy: bool = False) -> S:
        """Open a new hand and ask the device to shuffle a new deck (``even_if_busy``: also
        while its last STATE said it is still dealing or shuffling; the SHUFFLE then tells).
        The family's records and an unsaved finished hand (:meth:`journal_unsaved`) are
        journaled first; a hand that runs itself then posts its forced bets.

        Raises:
            HandStateError: the previous hand is not finished, or its void is not acknowledged.
            DeviceError: the device is not ready, still dealing or shuffling, or refused the
                shuffle.
            JournalError: the finished hand still cannot be journaled, or the hand's first
                step cannot be written (no new hand starts).
        """
        self.family.keep_records(self._open_uid(), self.session)
        self.journal_unsaved()
        hand = self._open(even_if_busy)
        self.family.opened()
        if self.family.automatic:
            self.run_due()
        return hand

    def _open(self, even_if_busy: bool) -> S:
        if self.hand is not None and not self.hand.is_over:
            raise HandStateError("the current hand is not finished")
        alarm = self.void_alarm
        if alarm is not None:
            raise HandStateError(
                f"the void of hand {alarm.hand_uid} ({alarm.reason.text('en')}) "
                "must be acknowledged first"
            )
        self.poll(0)
        if not self.device_ready:
            why = self._device.readiness.why_not_ready()
            raise DeviceError(f"device not ready ({why}): clear the fault before the next hand")
        if self.device_busy and not even_if_busy:
            raise DeviceError(f"the device is still {self._device.readiness.state}: wait for it")
        # The previous hand's garbage is collected now, while the table is idle, not by an
        # automatic full collection in the middle of the next hand (measured: p99 from the last
        # card to the settlement committed 25 -> 21 ms, bench/latency.py).
        gc.collect()
        if self.session is None:
            self.session = TableSession.of_journal(self.config.table_id, self.journal)
        hand = self.make_state(f"{self.config.table_id}-{uuid.uuid4().hex}")
        self._new_hand_state()
        self.hand, self.stored = hand, None
        self._steps.begin(hand.hand_uid)
        late = self._unsaved = self._late.between()  # kept with the hand's first step
        opened = HandOpened(started_at=hand.started_at, device=self._ident_of(),
                            acks=tuple(self._voids.acks),
                            session=self.session.to_json())  # fmt: skip
        written = False
        self._opened_with_events = bool(late)  # kept with the opened step: never forgotten
        try:
            self._step(opened)
            written = True
            self.source.shuffle()
        except DealerAssistError as e:
            if written:  # a step not written left nothing (and a locked journal: no 2nd wait)
                self._steps.discard(hand.hand_uid)  # nothing was bet: no hand to keep
            self.hand = None
            self._late.put_back(late)
            noted = self._device.readiness.noted_error(e) if isinstance(e, DeviceError) else e
            if noted is not e:
                raise noted from e  # frames went missing before: maybe a second reader
            raise
        return hand

    def forget_unstarted(self) -> bool:
        """A hand that has only opened leaves the step log (an ordinary stop; ``Resume``)."""
        return self._resumer.forget_unstarted() if self._resumer is not None else False

    def perform(self, op: Operation) -> S:
        """A dealer's or player's operation on the hand: verified (the hand's rule error is
        raised and nothing is written), written durably, applied; then the device deals the
        positions it opened, if any."""
        hand = self._current()
        hand.verify(op)
        self._step(op)
        self._deal_opened()
        if self.family.automatic:
            self.run_due()
        return hand

    def run_due(self) -> None:
        """A hand that runs itself: journaled once settled, else what it needs next dealt."""
        hand = self.hand
        if hand is None:
            return
        if hand.status == "settled":
            if self.stored is None:
                self._journal(hand)
            return
        if not hand.is_over:
            self._deal_opened()

    def resume(self) -> S | None:
        """Pick up where the table was before a crash (:class:`~dealer_assist.table.resume.
        Resume`); call once, first. The hand in progress or just finished, or None. Raises
        JournalError (the step log); device errors void the hand."""
        return self._resumer.run() if self._resumer is not None else None

    def journal_unsaved(self) -> StoredHand | None:
        """A hand a storage fault kept out of the journal, journaled (``Resume``); or None."""
        return self._resumer.journal_unsaved() if self._resumer is not None else None

    def settle(self) -> StoredHand | None:
        """Settle the hand and journal it; returns the stored hand (None without a journal).
        A hand a fault voided meanwhile returns its stored void."""
        self.poll(0)
        hand = self._current()
        if hand.status == "void" and self.stored is not None:
            return self.stored
        self.perform(HandSettled(at=utc_now()))
        return self._journal(hand)

    def void(self, reason: VoidReason) -> StoredHand | None:
        """Void the hand in progress (every wager returned) and journal it."""
        hand = self._current()
        hand.verify(HandVoided(code=reason.code, detail=reason.detail, at=utc_now()))
        return self._void(reason)

    def acknowledge_void(self, by: str = "dealer") -> bool:
        """The dealer (``by``) has read the void alarm; the next hand may start. The
        acknowledgement is journaled with the next hand (``extra["void_acknowledgements"]``).
        Returns False when there was nothing to acknowledge. Raises JournalError."""
        return self._voids.acknowledge_first(by)

    def record_exposed(
        self, card: Card | None = None, *, position: str = "", note: str = ""
    ) -> None:
        """A card the dealer exposed by mistake: recorded, play goes on (rules text 000: "tali
        carte restano valide"). Raises HandStateError without a hand in progress."""
        text = " ".join(x for x in (str(card) if card else "", position, note) if x) or "card"
        self.perform(CardExposed(card=card, position=position, note=text, at=utc_now()))

    # -- the unreadable card ----------------------------------------------------------------------
    def identify_card(self, card: Card, *, dealer: str) -> None:
        """The dealer enters the unreadable card; a pit boss must then confirm it. Raises
        HandStateError (none waits), CardError (already dealt from this deck: again, or void)."""
        live = self.hand is not None and not self.hand.is_over
        self._step(self._cards.identified(card, dealer, live=live))

    def confirm_identification(self, *, pit_boss: str, accept: bool = True) -> S:
        """The pit boss confirms the dealer's card (both names are recorded with it) and the
        deal goes on; ``accept=False`` rejects it and the dealer enters it again. Raises
        HandStateError (nothing to confirm: no unreadable card, or no card entered)."""
        live = self.hand is not None and not self.hand.is_over
        self._step(self._cards.answered(pit_boss, accept=accept, live=live))
        hand = self._current()
        if accept and hand.pending_deal and not self._cards.ident.waiting:
            self.deal.watch_cards(len(hand.pending_deal), self.card_timeout, time.monotonic())
        return hand

    # -- steps: written first, then applied (live and in replay) ----------------------------------
    def _step(self, op: Operation) -> None:
        events, self._unsaved = self._unsaved, []
        try:
            self._steps.write(op, events)
        except DealerAssistError:
            self._unsaved = events + self._unsaved  # not written: nothing was applied
            raise
        self._apply(op, events)
        if self.family.automatic and self.family.deals_after(op):
            self.run_due()

    def _apply(self, op: Operation, events: list[dict[str, Any]]) -> None:
        hand = self._current()
        self._event_log.extend(events)
        self.family.before_apply(hand, op, self._cards)
        if isinstance(op, DeckStarted):
            self._cards.detector.start_deck(DeckShuffled(deck_id=op.deck_id, count=op.count))
            self.deal.shuffled = True
        elif isinstance(op, DEAL_STEPS):
            for card in self._cards.take(op):
                self._place(card)
            if isinstance(op, CardDealt) and self._cards.ident.waiting:
                self.deal.pause()
        elif not isinstance(op, DealRequested | HandResumed):
            hand.apply(op)
        self._facts.note(op)  # once applied: what the journal keeps beside the hand
        if isinstance(op, HandOpened) and op.session is not None:
            self.session = TableSession.from_json(op.session)
        self.family.after_apply(hand, op, self.deal)

    def _place(self, op: CardDealt) -> None:
        hand = self._current()
        hand.apply(op)
        if not hand.pending_deal:
            self.deal.watch = None

    # -- void -------------------------------------------------------------------------------------
    def _void(self, reason: VoidReason) -> StoredHand | None:
        hand = self._current()
        # the reason names a possible second reader on the port
        reason = self._device.readiness.noted_void(reason)
        causes = tuple(event_to_json(c) for c in reason.causes)
        self._step(HandVoided(code=reason.code, detail=reason.detail, causes=causes, at=utc_now()))
        self._waits.clear()
        self.deal.watch = None
        return self._finish_void(hand, reason)

    def _finish_void(self, hand: S, reason: VoidReason) -> StoredHand | None:
        self._voids.raise_alarm(hand.hand_uid, reason, hand.ended_at or utc_now())
        return self._journal(hand)

    # -- dealing ----------------------------------------------------------------------------------
    def _current(self) -> S:
        if self.hand is None:
            raise HandStateError("no hand in progress: start a new hand")
        return self.hand

    def _deal_opened(self) -> None:
        """The positions the last operation opened are dealt: at once when the deck is known,
        else after its SHUFFLED (voided when it does not come in ``shuffle_timeout``)."""
        hand = self._current()
        if not hand.pending_deal or not self.deal.may_deal() or not self.family.may_deal(hand):
            return
        if self.deal.shuffled:
            self._deal(len(hand.pending_deal))
            return
        self.deal.arranged = True

        def shuffled(ok: bool) -> None:
            self.deal.arranged = False
            if not hand.pending_deal or hand is not self.hand or self.deal.watch is not None:
                return
            if ok and self.deal.shuffled:
                self._deal(len(hand.pending_deal))
            else:
                self._void(VoidReason("device_fault", "no SHUFFLED from the device"))

        ready = lambda: self.deal.shuffled or not hand.pending_deal  # noqa: E731
        self._waits.add("shuffled", ready, self.shuffle_timeout, shuffled)

    def _deal(self, n: int) -> None:
        hand = self._current()
        if not self.family.may_deal(hand):
            return  # e.g. never from an old deck whose stub cannot give the street
        self._step(DealRequested(n=n))
        try:
            self.source.deal(n)
        except DeviceError as e:
            code = "restart" if self.deal.resuming else "device_fault"
            self._void(VoidReason(code, f"DEAL {n} failed: {e}"))
            return
        if hand.pending_deal:
            self.deal.watch_cards(n, self.card_timeout, time.monotonic())

    def _journal(self, hand: S) -> StoredHand | None:
        self._late.finished(hand.hand_uid, self._cards.detector.deck_id, hand.status)
        if self.journal is None:
            return None
        session = self.session or TableSession.of_journal(self.config.table_id, self.journal)
        events = self._event_log + self._unsaved
        self.stored, self.session = journal_hand(
            self.journal, self.config.table_id, hand, self.session_after(session, hand),
            self._facts, self._late, events,
        )  # fmt: skip
        self._voids.carried(self._facts.acks)
        self.family.keep_records(self._open_uid(), self.session)
        return self.stored

    def session_after(self, session: TableSession, hand: S) -> TableSession:
        """The table session once ``hand`` is journaled (the family's: stacks, the button)."""
        return self.family.session_after(self.config, session, hand)

    def _open_uid(self) -> str:  # the hand in play's, "" between hands
        hand = self.hand
        return hand.hand_uid if hand is not None and not hand.is_over else ""

    def _ident_of(self) -> dict[str, str]:
        ident = self.source.identity
        return {"model": ident.model, "serial": ident.serial} if ident else {}
