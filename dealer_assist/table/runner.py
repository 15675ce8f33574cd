"""The table runner: one card source, one hand at a time, every hand into the journal.

It turns the dealer's steps into device commands and waits (with finite timeouts) for the cards:
new hand (the device shuffles a new deck) -> bets -> "rien ne va plus" (DEAL for the initial deal)
-> decisions and streets (DEAL for cards dealt later, THB) -> reveal -> settlement, journaled.
Every device event of the hand goes through the :class:`MisdealDetector`; the first one that
voids the hand voids it and journals it with the events that caused it. A void must be
acknowledged (:meth:`TableRunner.acknowledge_void`) before the next hand.

Crash safety (issue 4): every step of a hand is written to the journal's pending-step log
(:mod:`dealer_assist.table.steplog`) before it takes effect, and :meth:`TableRunner.resume`
replays them after a restart. The same ``_apply`` code runs live and in replay, so the resumed
hand is exactly the one that was interrupted.

Blocking calls: run it on a worker thread under a GUI (the console does).
"""

from __future__ import annotations

import contextlib
import gc
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealer_assist.cards import Card, parse_card
from dealer_assist.config import TableConfig
from dealer_assist.errors import (
    CardError,
    DealerAssistError,
    DeviceError,
    HandStateError,
    IllegalActionError,
)
from dealer_assist.events import CardRead, DeckShuffled, DeviceEvent, DeviceStateChanged, utc_now
from dealer_assist.games.base import Action
from dealer_assist.source import CardSource, HistorySource, LinkAware, StatusRequester
from dealer_assist.storage.eventjson import event_to_json
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.model import HandEntry, PendingStep, StoredHand
from dealer_assist.table.device_status import DeviceStatus, ReadinessTracker
from dealer_assist.table.hand import Hand, Phase
from dealer_assist.table.misdeal import DealWatch, MisdealDetector, VoidReason
from dealer_assist.table.recovery import RESTART_CODES, assess_history, sort_pending
from dealer_assist.table.steplog import StepLog, VoidAlarm

_OVER = (Phase.SETTLED, Phase.VOID)
_BUSY = frozenset({"DEALING", "SHUFFLING"})


@dataclass
class PendingIdentification:
    """An unreadable card (TCRP/1 ``XX``) waiting for the dealer and a pit boss.

    Attributes:
        deck_id, index: where the device dealt it.
        card: what the dealer entered (None until then).
        dealer: who entered it.
    """

    deck_id: str
    index: int
    source: str
    at: datetime
    card: Card | None = None
    dealer: str = ""


class TableRunner:
    """Runs hands at one table.

    Args:
        config: the table (``unreadable_card``: ``void`` or ``dealer_identifies``).
        source: an opened card source.
        journal: an opened journal, or None to keep nothing (tests, dry runs).
        card_timeout: seconds to wait for the next card of a deal before voiding the hand
            ("missing_cards").
        shuffle_timeout: seconds to wait for SHUFFLED after a new hand starts.
        on_event: called with every device event the runner handles (for screens and logs).
        history_timeout: seconds :meth:`resume` spends reading the device's history.
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
        history_timeout: float = 2.0,
    ) -> None:
        self.config = config
        self.source = source
        self.journal = journal
        self.card_timeout = card_timeout
        self.shuffle_timeout = shuffle_timeout
        self.on_event = on_event
        self.history_timeout = history_timeout
        self.hand: Hand | None = None
        self.device_ready = True
        self.stored: StoredHand | None = None
        self._readiness = ReadinessTracker()
        self._steps = StepLog(journal, config.table_id)
        self._alarms: list[VoidAlarm] = []
        self._acks: list[dict[str, Any]] = []
        self._new_hand_state()

    def _new_hand_state(self) -> None:
        self._detector = MisdealDetector(self.config.unreadable_card)
        self._shuffled = False
        self._event_log: list[dict[str, Any]] = []
        self._unsaved: list[dict[str, Any]] = []
        self._ident: PendingIdentification | None = None
        self._held: list[dict[str, Any]] = []
        self._watch: DealWatch | None = None
        self._exposures: list[dict[str, Any]] = []
        self._hand_acks: list[dict[str, Any]] = []
        self._device: dict[str, str] = {}
        self._known: dict[tuple[str, int], str | None] = {}
        self._horizon = 0  # cards up to this index were recorded before a restart
        self._resuming = False
        self._resumes = 0
        self._void_causes: list[dict[str, Any]] = []

    # -- status -----------------------------------------------------------------------------------
    @property
    def device_status(self) -> DeviceStatus:
        """The device and its link now (fault codes, state, reconnection attempts)."""
        link = self.source.link_status if isinstance(self.source, LinkAware) else None
        return self._readiness.status(link)

    @property
    def void_alarm(self) -> VoidAlarm | None:
        """The void the dealer has not acknowledged yet (blocks :meth:`new_hand`), or None."""
        return self._alarms[0] if self._alarms else None

    @property
    def identification(self) -> PendingIdentification | None:
        """The unreadable card waiting for the dealer and a pit boss, or None."""
        return self._ident

    def wait_device_ready(self, timeout: float) -> bool:
        """Handle events until the device is ready for a new hand (no fault, link up, not
        still dealing or shuffling for a void hand) or ``timeout`` seconds passed; whether it
        is."""
        deadline = time.monotonic() + timeout
        self.poll(0)
        if not self._readiness.state:  # a new session: ask rather than assume
            self._device_state_now()
        ask_at = time.monotonic() + 1.0
        while not (self.device_status.ready and self._readiness.state not in _BUSY):
            now = time.monotonic()
            if now >= deadline:
                return False
            if now >= ask_at and self.device_status.link == "connected":
                ask_at = now + 1.0
                self._ask_status()  # the answer settles a state whose change went unheard
            self.poll(min(0.05, deadline - now))
        return True

    def _ask_status(self) -> None:
        if isinstance(self.source, StatusRequester):
            with contextlib.suppress(DeviceError):  # the link is down: its status says so
                self.source.request_status()

    def _wait_not_busy(self) -> None:
        """A void hand's DEAL may still be dispensing: SHUFFLE would be refused (BUSY)."""
        deadline = time.monotonic() + self.shuffle_timeout
        while self._readiness.state in _BUSY and time.monotonic() < deadline:
            self.poll(0.05)

    # -- hand steps -------------------------------------------------------------------------------
    def new_hand(self) -> Hand:
        """Open bets on a new hand and ask the device to shuffle a new deck.

        Raises:
            HandStateError: the previous hand is not finished, or its void is not acknowledged.
            DeviceError: the device is not ready or refused the shuffle.
            JournalError: the hand's first step cannot be written.
        """
        if self.hand is not None and self.hand.phase not in _OVER:
            raise HandStateError("the current hand is not finished")
        alarm = self.void_alarm
        if alarm is not None:
            raise HandStateError(
                f"the void of hand {alarm.hand_uid} ({alarm.reason.text('en')}) "
                "must be acknowledged first"
            )
        self.poll(0)
        if not self.device_ready:
            why = self._readiness.why_not_ready()
            raise DeviceError(f"device not ready ({why}): clear the fault before the next hand")
        self._wait_not_busy()
        # The previous hand's garbage is collected now, while the table is idle, not by an
        # automatic full collection in the middle of the next hand (measured: p99 from the last
        # card to the settlement committed 25 -> 21 ms, bench/latency.py).
        gc.collect()
        hand = Hand(self.config, f"{self.config.table_id}-{uuid.uuid4().hex}")
        self._new_hand_state()
        self.hand, self.stored = hand, None
        self._steps.begin(hand.hand_uid)
        ident = self.source.identity
        device = {"model": ident.model, "serial": ident.serial} if ident else {}
        started = {"started_at": hand.started_at.isoformat(), "device": device}
        try:
            self._step("open", {**started, "acks": list(self._acks)})
            self.source.shuffle()
        except DealerAssistError:
            self._steps.discard(hand.hand_uid)  # nothing was bet: no hand to keep
            self.hand = None
            raise
        return hand

    def close_bets(self) -> Hand:
        """ "Rien ne va plus": lock the bets and deal. The hand ends in decisions, or void."""
        hand = self._current()
        if hand.phase is not Phase.BETS_OPEN or not hand.seats:
            hand.close_bets()  # raises the hand's own HandStateError
        seats = {str(s): dict(st.bets) for s, st in sorted(hand.seats.items())}
        self._step("bets", {"seats": seats})
        self._wait_shuffled()
        if hand.phase is Phase.DEALING:
            self._deal(len(hand.pending))
        return hand

    def act(self, seat: int, action: Action) -> None:
        """A seat's decision (raises IllegalActionError and leaves the hand as it was)."""
        self.poll(0)
        hand = self._current()
        if hand.phase is Phase.DECISIONS:
            if seat not in hand.seats or action not in hand.legal_actions(seat):
                hand.act(seat, action)  # raises the hand's own error
            self._step("act", {"seat": seat, **action.to_json()})

    def act_many(self, decisions: Sequence[tuple[int, Action]], *, advance: bool = False) -> None:
        """Several seats' decisions on the current street as ONE durable step (a terminal that
        collects a street at once, the simulator): one journal write instead of one per seat.
        All are checked first; an illegal or repeated one raises and none is applied.

        ``advance``: the same step also turns the next street (as :meth:`advance`), when the
        decisions leave no seat to act; otherwise HandStateError names the seats and nothing
        is applied."""
        self.poll(0)
        hand = self._current()
        if hand.phase is not Phase.DECISIONS or not decisions:
            if advance:
                self.advance()
            return
        seats = [seat for seat, _ in decisions]
        if len(set(seats)) != len(seats):
            raise IllegalActionError(f"a seat decides twice in one step: {seats}")
        for seat, action in decisions:
            if seat not in hand.seats or action not in hand.legal_actions(seat):
                hand.act(seat, action)  # raises the hand's own error, nothing applied yet
        if advance:
            waiting = sorted(set(hand.seats_to_act) - set(seats))
            if waiting:
                raise HandStateError(f"seats {waiting} have not decided: the street cannot turn")
        payload = [{"seat": seat, **action.to_json()} for seat, action in decisions]
        self._step("acts", {"decisions": payload, **({"advance": True} if advance else {})})
        if advance and _dealing(hand):
            self._deal(len(hand.pending))

    def advance(self) -> Hand:
        """Turn the next street, dealing its cards first where the game deals them then."""
        hand = self._current()
        self.poll(0)
        if hand.phase is Phase.DECISIONS:
            if hand.seats_to_act:
                hand.advance()  # raises HandStateError naming the seats
            self._step("advance", {})
            if _dealing(hand):
                self._deal(len(hand.pending))
        return hand

    def reveal(self) -> Hand:
        """The dealer turns their cards."""
        hand = self._current()
        self.poll(0)
        if hand.phase is Phase.SHOWDOWN:
            self._step("reveal", {})
        return hand

    def settle(self) -> StoredHand | None:
        """Settle the revealed hand and journal it; returns the stored hand (None without a
        journal)."""
        hand = self._current()
        self.poll(0)
        if hand.phase is Phase.VOID and self.stored is not None:
            return self.stored
        if hand.phase is not Phase.REVEALED:
            hand.settle()  # raises HandStateError
        hand.game.validate_record(hand.to_hand_record())  # a record that cannot settle: no step
        self._step("settle", {"at": utc_now().isoformat()})
        return self._journal(hand)

    def void(self, reason: VoidReason) -> StoredHand | None:
        """Void the hand in progress (every wager returned) and journal it."""
        hand = self._current()
        if hand.phase in _OVER:
            hand.void(reason)  # raises HandStateError
        return self._void(reason)

    def acknowledge_void(self, by: str = "dealer") -> bool:
        """The dealer (``by``) has read the void alarm; the next hand may start. The
        acknowledgement is journaled with the next hand (``extra["void_acknowledgements"]``).
        Returns False when there was nothing to acknowledge. Raises JournalError."""
        alarm = self.void_alarm
        if alarm is None:
            return False
        ack = {"hand_uid": alarm.hand_uid, "code": alarm.reason.code, "by": by,
               "at": utc_now().isoformat()}  # fmt: skip
        self._steps.mark_ack(alarm.hand_uid, ack)
        self._acks.append(ack)
        self._alarms.pop(0)
        return True

    def record_exposed(
        self, card: Card | None = None, *, position: str = "", note: str = ""
    ) -> None:
        """A card the dealer exposed by mistake: recorded, play goes on (rules text 000: "tali
        carte restano valide"). Raises HandStateError without a hand in progress."""
        hand = self._current()
        if hand.phase in _OVER:
            raise HandStateError(f"cannot record an exposed card in phase {hand.phase}")
        text = " ".join(x for x in (str(card) if card else "", position, note) if x) or "card"
        payload = {"card": str(card) if card else None, "position": position, "note": text,
                   "at": utc_now().isoformat()}  # fmt: skip
        self._step("exposed", payload)

    # -- unreadable cards ("dealer_identifies") ---------------------------------------------------
    def identify_card(self, card: Card, *, dealer: str) -> None:
        """The dealer enters the unreadable card; a pit boss must then confirm it.

        Raises:
            HandStateError: no unreadable card is waiting.
            CardError: that card was already dealt from this deck (enter it again, or void).
        """
        ident = self._require_ident()
        if card in self._detector.seen:
            raise CardError(f"{card} was already dealt from deck {ident.deck_id}")
        self._step("identify", {"card": str(card), "dealer": dealer,
                                "at": utc_now().isoformat()})  # fmt: skip

    def confirm_identification(self, *, pit_boss: str, accept: bool = True) -> Hand:
        """The pit boss confirms the dealer's card (both names are recorded with it) and the
        deal goes on; ``accept=False`` rejects it and the dealer enters it again.

        Raises:
            HandStateError: nothing to confirm (no unreadable card, or no card entered).
        """
        ident = self._require_ident()
        if ident.card is None:
            raise HandStateError("the dealer has not entered the unreadable card yet")
        kind = "confirm" if accept else "reject"
        self._step(kind, {"pit_boss": pit_boss, "at": utc_now().isoformat()})
        hand = self._current()
        if accept and hand.phase is Phase.DEALING:
            self._await_cards(len(hand.pending))
        return hand

    def _require_ident(self) -> PendingIdentification:
        if self._ident is None or self.hand is None or self.hand.phase in _OVER:
            raise HandStateError("no unreadable card is waiting for identification")
        return self._ident

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
        self._readiness.update(event)
        self.device_ready = self._readiness.ready
        if self.on_event is not None:
            self.on_event(event)
        hand = self.hand
        if hand is None or hand.phase in _OVER or self._already_recorded(event):
            return
        self._unsaved.append(event_to_json(event))
        if isinstance(event, DeviceStateChanged) and self._watch is not None:
            self._watch.on_state(event.state, time.monotonic(), event)
        reason = self._detector.check(event, expecting_card=self._expecting_card())
        if reason is not None:
            if self._resuming and reason.code in RESTART_CODES:
                detail = f"the device lost the deck while the table was down: {reason.text('en')}"
                reason = VoidReason("restart", detail, reason.causes)
            self._void(reason)
        elif isinstance(event, CardRead):
            self._step("card", _card_payload(event))
            self._resuming = False  # the deck continues where it was
            if self._watch is not None:
                self._watch.on_card(time.monotonic())
        elif isinstance(event, DeckShuffled) and not self._detector.last_index:
            # the source that shuffled is the hand's device (a failover may have switched
            # sources at the shuffle, after the "open" step named the previous one)
            ident = self.source.identity
            device = {"model": ident.model, "serial": ident.serial} if ident else {}
            self._step("deck", {"deck_id": event.deck_id, "count": event.count, "device": device})

    def _already_recorded(self, event: DeviceEvent) -> bool:
        """After a restart: a card recorded before it, seen again (retransmitted) is skipped."""
        if not isinstance(event, CardRead) or event.index > self._horizon:
            return False
        known = self._known.get((event.deck_id, event.index), "?")
        return known != "?" and known == (str(event.card) if event.card else None)

    def _expecting_card(self) -> bool:
        hand = self.hand
        if hand is None or hand.phase is not Phase.DEALING:
            return False
        waiting = (1 if self._ident is not None else 0) + len(self._held)
        return len(hand.pending) > waiting

    # -- steps: written first, then applied (live and in replay) ----------------------------------
    def _step(self, kind: str, payload: dict[str, Any]) -> None:
        payload = {**payload, "events": self._unsaved}
        self._steps.write(kind, payload)
        self._unsaved = []
        self._apply(kind, payload, replay=False)

    def _apply(self, kind: str, p: dict[str, Any], *, replay: bool) -> None:
        hand = self._current()
        self._event_log.extend(p.get("events", []))
        if kind == "open":
            hand.started_at = datetime.fromisoformat(p["started_at"])
            self._device = dict(p.get("device", {}))
            self._hand_acks = list(p.get("acks", []))
        elif kind == "deck":
            self._detector.start_deck(DeckShuffled(deck_id=p["deck_id"], count=p["count"]))
            self._shuffled = True
            if p.get("device"):
                self._device = dict(p["device"])
        elif kind == "bets":
            if replay:
                for seat, bets in p["seats"].items():
                    hand.place_bets(int(seat), bets)
            hand.close_bets()
        elif kind == "card":
            self._apply_card(p)
        elif kind in ("identify", "reject", "confirm"):
            self._apply_identification(kind, p)
        elif kind == "exposed":
            hand.record_exposed(p["note"])
            self._exposures.append({k: v for k, v in p.items() if k != "events"})
        elif kind == "act":
            hand.act(p["seat"], Action(p["street"], p["action"], p.get("multiple")))
        elif kind == "acts":
            for d in p["decisions"]:
                hand.act(d["seat"], Action(d["street"], d["action"], d.get("multiple")))
            if p.get("advance"):
                hand.advance()
        elif kind == "advance":
            hand.advance()
        elif kind == "reveal":
            hand.reveal()
        elif kind == "settle":
            hand.settle()
            hand.ended_at = datetime.fromisoformat(p["at"])
        elif kind == "void":
            hand.void(VoidReason(p["code"], p["detail"]))
            hand.ended_at = datetime.fromisoformat(p["at"])
            self._void_causes = list(p.get("causes", []))
        # "deal" only records that a DEAL was (about to be) sent

    def _apply_card(self, p: dict[str, Any]) -> None:
        card = parse_card(p["card"]) if p["card"] else None
        event = CardRead(source=p["source"], deck_id=p["deck_id"], index=p["index"], card=card,
                         manual=p["manual"], at=datetime.fromisoformat(p["at"]))  # fmt: skip
        self._detector.commit(event)
        self._known[(event.deck_id, event.index)] = p["card"]
        if self._ident is not None:
            self._held.append(p)  # placed after the unreadable card before it is identified
        elif card is None:
            self._wait_identification(p)
        else:
            self._place(p, card)

    def _wait_identification(self, p: dict[str, Any]) -> None:
        at = datetime.fromisoformat(p["at"])
        self._ident = PendingIdentification(p["deck_id"], p["index"], p["source"], at)
        if self._watch is not None:
            self._watch.pause()

    def _apply_identification(self, kind: str, p: dict[str, Any]) -> None:
        ident = self._ident
        if ident is None:
            raise HandStateError(f"{kind}: no unreadable card is waiting")
        if kind == "identify":
            ident.card, ident.dealer = parse_card(p["card"]), p["dealer"]
        elif kind == "reject":
            ident.card, ident.dealer = None, ""
        elif ident.card is not None:
            self._detector.seen.add(ident.card)
            self._current().place_card(
                ident.card, source=ident.source, deck_id=ident.deck_id, index=ident.index,
                at=ident.at, manual=True, identified_by=ident.dealer, confirmed_by=p["pit_boss"],
            )  # fmt: skip
            self._ident, held, self._held = None, self._held, []
            for i, q in enumerate(held):
                if q["card"] is None:  # another unreadable card: identify it next
                    self._wait_identification(q)
                    self._held = held[i + 1 :]
                    break
                self._place(q, parse_card(q["card"]))

    def _place(self, p: dict[str, Any], card: Card) -> None:
        self._current().place_card(
            card, source=p["source"], deck_id=p["deck_id"], index=p["index"],
            at=datetime.fromisoformat(p["at"]), manual=p["manual"],
        )  # fmt: skip

    # -- void -------------------------------------------------------------------------------------
    def _void(self, reason: VoidReason) -> StoredHand | None:
        hand = self._current()
        causes = [event_to_json(c) for c in reason.causes]
        self._step("void", {**reason.to_json(), "causes": causes, "at": utc_now().isoformat()})
        return self._finish_void(hand, reason)

    def _finish_void(self, hand: Hand, reason: VoidReason) -> StoredHand | None:
        self._steps.mark_alarm(hand.hand_uid, reason)
        if all(a.hand_uid != hand.hand_uid for a in self._alarms):
            self._alarms.append(VoidAlarm(hand.hand_uid, reason, hand.ended_at or utc_now()))
        return self._journal(hand)

    # -- dealing ----------------------------------------------------------------------------------
    def _current(self) -> Hand:
        if self.hand is None:
            raise HandStateError("no hand in progress: start a new hand")
        return self.hand

    def _wait_shuffled(self) -> None:
        hand = self._current()
        deadline = time.monotonic() + self.shuffle_timeout
        while not self._shuffled and hand.phase is Phase.DEALING:
            if time.monotonic() > deadline:
                self._void(VoidReason("device_fault", "no SHUFFLED from the device"))
                return
            self.poll(0.05)

    def _deal(self, n: int) -> None:
        hand = self._current()
        self._step("deal", {"n": n})
        try:
            self.source.deal(n)
        except DeviceError as e:
            code = "restart" if self._resuming else "device_fault"
            self._void(VoidReason(code, f"DEAL {n} failed: {e}"))
            return
        if hand.phase is Phase.DEALING:
            self._await_cards(n)

    def _await_cards(self, n: int) -> None:
        """Wait for the pending positions; stops early for an unreadable card to identify."""
        hand = self._current()
        self._watch = watch = DealWatch(n, self.card_timeout, time.monotonic())
        while hand.phase is Phase.DEALING and self._ident is None:
            self.poll(0.05)
            if hand.phase is not Phase.DEALING or self._ident is not None:
                break
            reason = watch.expired(time.monotonic(), len(hand.pending))
            if reason is not None:
                self._void(reason)
        if hand.phase is not Phase.DEALING:
            self._watch = None

    # -- journal ----------------------------------------------------------------------------------
    def _journal(self, hand: Hand) -> StoredHand | None:
        if self.journal is None:
            return None
        void = hand.phase is Phase.VOID
        extra = hand.journal_extra()
        if void and hand.void_reason is not None:
            extra["void"] = {**hand.void_reason.to_json(), "causes": self._void_causes}
        if self._exposures:
            extra["exposed_cards"] = self._exposures
        if self._hand_acks:
            extra["void_acknowledgements"] = self._hand_acks
        if self._resumes:
            extra["resumed"] = self._resumes
        if self._device:
            extra["device"] = self._device
        entry = HandEntry(
            table_id=self.config.table_id,
            game=hand.game.code,
            started_at=hand.started_at,
            ended_at=hand.ended_at or hand.started_at,
            status="void" if void else "settled",
            void_reason=hand.void_reason.text("en") if void and hand.void_reason else None,
            record=hand.to_hand_record().to_json(),
            settlement=hand.void_settlement() if void else _settlement_json(hand),
            events=self._event_log + self._unsaved,
            extra=extra,
            hand_uid=hand.hand_uid,
        )
        self.stored = self.journal.append_hand(entry)
        for ack in self._hand_acks:  # now carried by a journaled hand
            self._steps.clear_marker(ack["hand_uid"])
        self._acks = [a for a in self._acks if a not in self._hand_acks]
        return self.stored

    # -- resume after a restart -------------------------------------------------------------------
    def resume(self) -> Hand | None:
        """Pick up where the table was before a crash; call once, right after opening the
        source and the journal and before any other call.

        Unfinished steps are replayed: a hand whose settlement or void was decided is journaled
        (once: the journal ignores a hand_uid it already holds); a hand in progress continues
        exactly where it was (bets, decisions, cards, an unreadable card awaiting its
        identification) after the cards the device dealt meanwhile are taken from its history,
        or is voided with reason ``restart`` when the device lost or reshuffled the deck. An
        unacknowledged void alarm is restored.

        Returns:
            The hand in progress or just finished by the replay, or None.
        Raises:
            JournalError: the step log cannot be read or written. Device errors void the hand.
        """
        if self.journal is None:
            return None
        work = sort_pending(self.journal.pending_steps(self.config.table_id))
        last = self.journal.last_hand()
        carried = {a.get("hand_uid") for a in (last.extra if last else {}).get(
            "void_acknowledgements", [])}  # fmt: skip
        for uid, ack in work.acks.items():
            if uid in carried:
                self._steps.clear_marker(uid)  # crashed just after journaling the carrier
            else:
                self._acks.append(ack)
        for uid, alarm in work.alarms.items():
            reason = VoidReason(alarm.get("code", "restart"), alarm.get("detail", ""))
            self._alarms.append(VoidAlarm(uid, reason, utc_now()))
        for i, (uid, steps) in enumerate(work.hands):
            hand = self._replay(uid, steps)
            if hand.phase is Phase.SETTLED:
                self._journal(hand)
            elif hand.phase is Phase.VOID and hand.void_reason is not None:
                self._finish_void(hand, hand.void_reason)
            elif i < len(work.hands) - 1:
                self._void(VoidReason("restart", "an older hand was left unfinished"))
            else:
                self._resume_with_device(hand)
        if self.hand is None or self.hand.phase in _OVER:
            self._device_state_now()  # a fault raised while the table was down blocks the next hand
        return self.hand

    def _replay(self, uid: str, steps: list[PendingStep]) -> Hand:
        self._new_hand_state()
        hand = Hand(self.config, uid)
        self.hand, self.stored = hand, None
        self._steps.begin(uid, steps[-1].step_no + 1 if steps else 0)
        carried = {a.get("hand_uid") for a in steps[0].payload.get("acks", [])} if steps else set()
        self._acks = [a for a in self._acks if a.get("hand_uid") not in carried]
        for step in steps:
            if hand.phase in _OVER:
                break
            try:
                self._apply(step.kind, step.payload, replay=True)
            except DealerAssistError as e:
                self._void(VoidReason("restart", f"step {step.step_no} ({step.kind}) failed: {e}"))
                break
        self._resumes = 1 + max((s.payload.get("resumes", 0) for s in steps), default=0)
        self._horizon = self._detector.last_index
        return hand

    def _resume_with_device(self, hand: Hand) -> None:
        ident = self.source.identity
        want = self._device
        if (
            ident is not None
            and want
            and (ident.model, ident.serial) != (want.get("model"), want.get("serial"))
        ):
            detail = f"{want.get('model')}/{want.get('serial')} -> {ident.model}/{ident.serial}"
            self._void(VoidReason("identity_changed", detail))
            return
        self._step("resume", {"resumes": self._resumes})
        if not self._shuffled or hand.phase is Phase.BETS_OPEN:
            self._restart_deal(hand)  # nothing dealt yet: a fresh deck costs nothing
            return
        # what the device said before this session (its history), then what this session has
        # received so far: together, everything the device still knows, oldest first
        history: list[DeviceEvent] = []
        if isinstance(self.source, HistorySource):
            history = self.source.recover_history(self.history_timeout)
        events = history + self._drain()
        verdict = assess_history(events, self._detector.deck_id or "", self._detector.last_index)
        for event in events[: len(events) - len(verdict.after)]:
            self._readiness.update(event)  # before the last recorded card: state only
        if verdict.lost:
            self._void(VoidReason("restart", verdict.lost))
            return
        self._resuming = True  # a deck or index error now means the device lost the deck
        for event in verdict.after:
            if hand.phase in _OVER:
                return
            self._handle(event)
        self._resuming = self._resuming and not verdict.anchored
        self.poll(0)
        if hand.phase is Phase.DEALING and self._ident is None:
            self._continue_deal(hand)

    def _drain(self) -> list[DeviceEvent]:
        """The events waiting in the source, taken without handling them."""
        out = []
        event = self.source.next_event(0)
        while event is not None:
            out.append(event)
            event = self.source.next_event(0)
        return out

    def _restart_deal(self, hand: Hand) -> None:
        self._device_state_now()  # also takes a SHUFFLED still in flight from before the crash
        self._wait_not_busy()
        self._detector = MisdealDetector(self.config.unreadable_card)
        self._shuffled = False
        try:
            self.source.shuffle()
        except DeviceError as e:
            self._void(VoidReason("restart", f"SHUFFLE after the restart failed: {e}"))
            return
        if hand.phase is Phase.DEALING:
            self._wait_shuffled()
            if hand.phase is Phase.DEALING:
                self._deal(len(hand.pending))

    def _continue_deal(self, hand: Hand) -> None:
        """Cards still pending after the history: if the device is still dealing them, wait;
        otherwise the DEAL never reached it (or was not sent): send it again."""
        state = self._device_state_now()
        if hand.phase is not Phase.DEALING or self._ident is not None:
            return
        if state == "DEALING":
            self._await_cards(len(hand.pending))
        else:
            self._deal(len(hand.pending) - len(self._held))

    def _device_state_now(self) -> str:
        if not isinstance(self.source, StatusRequester):
            return ""
        before = self._readiness.state
        self._readiness.state = ""
        try:
            self.source.request_status()
        except DeviceError:
            self._readiness.state = before
            return ""
        deadline = time.monotonic() + 2.0
        while not self._readiness.state and time.monotonic() < deadline:
            self.poll(0.05)
        return self._readiness.state


def _dealing(hand: Hand) -> bool:
    """The hand waits for cards (a function, so type checkers re-read the phase after a step)."""
    return hand.phase is Phase.DEALING


def _card_payload(event: CardRead) -> dict[str, Any]:
    return {
        "deck_id": event.deck_id,
        "index": event.index,
        "card": str(event.card) if event.card is not None else None,
        "source": event.source,
        "manual": event.manual,
        "at": event.at.isoformat(),
    }


def _settlement_json(hand: Hand) -> dict[str, object] | None:
    return hand.settlement.to_json() if hand.settlement is not None else None
