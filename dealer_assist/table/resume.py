"""Resume after a restart: replay the step log (the one fold of its operations), then catch up
with the device ("Crash safety").

Unfinished steps are replayed: a hand whose settlement or void was decided is journaled (once:
the journal ignores a hand_uid it already holds); a hand in progress continues exactly where it
was (bets, decisions, cards, an unreadable card awaiting its identification) after the cards the
device dealt meanwhile are taken from its history, or is voided with reason ``restart`` when the
device lost or reshuffled the deck. An unacknowledged void alarm is restored. A step the table's
signer did not sign as it reads now (changed in the step log: ``forged``) is not replayed: the hand
is voided there with reason ``step_forged``.

:class:`ResumingRunner` adds this to the table runner; it waits for nothing either (but for the
source's own bounded ``recover_history``): what needs the device's answer continues when the
answer is handled.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TypeVar

from dealer_assist.engine.fold import fold
from dealer_assist.engine.operations import (
    CardExposed,
    HandOpened,
    HandResumed,
    Operation,
    operation_from_json,
)
from dealer_assist.engine.state import GameState
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import DealerAssistError, DeviceError
from dealer_assist.events import utc_now
from dealer_assist.games.session import TableSession
from dealer_assist.ports import PendingStep, StoredHand
from dealer_assist.table.recovery import DeviceHistory, assess_history, sort_pending
from dealer_assist.table.runner import TableRunner

S = TypeVar("S", bound=GameState)


class ResumingRunner(TableRunner[S]):
    """A table runner that resumes after a restart (:meth:`resume`), and journals a finished
    hand a storage fault kept out of the journal before the next hand (:meth:`new_hand`)."""

    def new_hand(self, *, even_if_busy: bool = False) -> S:
        """:meth:`TableRunner.new_hand`, after :meth:`journal_unsaved` (a hand is never left
        behind in the step log while the table goes on).

        Raises:
            JournalError: the finished hand still cannot be journaled (no new hand starts);
                as :meth:`TableRunner.new_hand`.
        """
        self.journal_unsaved()
        return super().new_hand(even_if_busy=even_if_busy)

    def journal_unsaved(self) -> StoredHand | None:
        """Journal the hand that finished (settled or void) while the journal could not take
        it (a storage fault: its steps stay pending); idempotent by ``hand_uid``. Returns the
        stored hand, None when there was none to journal.

        Raises:
            JournalError: the storage still fails (the hand stays pending).
        """
        hand = self.hand
        if hand is None or not hand.is_over or self.stored is not None or self.journal is None:
            return None
        if hand.status == "void":
            why = hand.void_reason_json() or {}
            reason = VoidReason(why.get("code", "restart"), why.get("detail", ""))
            return self._finish_void(hand, reason)  # the alarm marker too, if it was not written
        return self._journal(hand)

    def resume(self) -> S | None:
        """Pick up where the table was before a crash; call once, right after opening the
        source and the journal and before any other call.

        Returns:
            The hand in progress or just finished by the replay, or None.
        Raises:
            JournalError: the step log cannot be read or written. Device errors void the hand.
        """
        if self.journal is None:
            return None
        self.session = TableSession.of_journal(self.config.table_id, self.journal)
        work = sort_pending(self.journal.pending_steps(self.config.table_id))
        last = self.journal.last_hand()
        carried = {a.get("hand_uid") for a in (last.extra if last else {}).get(
            "void_acknowledgements", [])}  # fmt: skip
        self._voids.restore(work.alarms, work.acks, carried, utc_now())
        history = DeviceHistory(self.source, self.history_timeout)  # read once per resume
        for i, (uid, steps) in enumerate(work.hands):
            hand = self._replay(uid, steps, history)
            if self.stored is not None:
                continue  # the replay itself voided and journaled it
            if hand.status == "settled":
                self._journal(hand)
            elif hand.status == "void":
                why = hand.void_reason_json() or {}
                self._finish_void(
                    hand, VoidReason(why.get("code", "restart"), why.get("detail", ""))
                )
            elif i < len(work.hands) - 1:
                self._void(VoidReason("restart", "an older hand was left unfinished"))
            else:
                self._resume_with_device(hand, history)
        if self.hand is None or self.hand.is_over:
            self._ask_state(lambda _state: None)  # a fault raised while down blocks the next hand
        return self.hand

    def _replay(self, uid: str, steps: list[PendingStep], history: DeviceHistory) -> S:
        """A new hand with the step log of ``uid`` folded over it (:func:`fold`, the runner's
        own apply: the hand's and the table's part of each step). A step that cannot be
        replayed (forged, unreadable, contradicted by the device's history, refused by the
        hand) ends the fold there and voids the hand."""
        self._new_hand_state()
        hand = self.make_state(self.config, uid)
        self.hand, self.stored = hand, None
        self._steps.begin(uid, steps[-1].step_no + 1 if steps else 0)
        carried = {a.get("hand_uid") for a in steps[0].payload.get("acks", [])} if steps else set()
        self._voids.forget(carried)
        current: list[PendingStep] = []  # the step being applied (its device events)
        refused: list[VoidReason] = []

        def replayable() -> Iterator[Operation]:
            for step in steps:
                if hand.is_over or refused:
                    return
                if step.forged is not None:  # the signer never signed this content: refused
                    refused.append(VoidReason("step_forged", step.forged))
                    return
                try:
                    op = operation_from_json(step.kind, step.payload)
                except DealerAssistError as e:
                    refused.append(_failed(step, e))
                    return
                disagrees = history.disagrees(op)
                if disagrees is not None:  # the step log is not what the device dealt: refused
                    refused.append(disagrees)
                    return
                current[:] = [step]
                yield op

        def apply(_hand: S, op: Operation) -> None:
            try:
                self._apply(op, list(current[0].payload.get("events", [])))
            except DealerAssistError as e:  # the hand's rule, or the table's part of the step
                refused.append(_failed(current[0], e))

        fold(hand, replayable(), apply=apply)
        if refused:
            self._void(refused[0])
        self._facts.resumes = 1 + max((s.payload.get("resumes", 0) for s in steps), default=0)
        self._cards.horizon = self._cards.detector.last_index
        return hand

    def _resume_with_device(self, hand: S, history: DeviceHistory) -> None:
        ident = self.source.identity
        want = self._facts.device
        if (
            ident is not None
            and want
            and (ident.model, ident.serial) != (want.get("model"), want.get("serial"))
        ):
            detail = f"{want.get('model')}/{want.get('serial')} -> {ident.model}/{ident.serial}"
            self._void(VoidReason("identity_changed", detail))
            return
        self._step(HandResumed(resumes=self._facts.resumes))
        locked = any(not isinstance(op, HandOpened | CardExposed) for op in hand.operations)
        if not self.deal.shuffled or not locked:
            self._restart_deal(hand)  # nothing dealt yet: a fresh deck costs nothing
            return
        # what the device said before this session (its history), then what this session has
        # received so far: together, everything the device still knows, oldest first
        events = history.since()
        verdict = assess_history(
            events, self._cards.detector.deck_id or "", self._cards.detector.last_index
        )
        for event in events[: len(events) - len(verdict.after)]:
            self._device.update(event)  # before the last recorded card: state only
        if verdict.lost:
            self._void(VoidReason("restart", verdict.lost))
            return
        self.deal.resuming = True  # a deck or index error now means the device lost the deck
        # No deal until _continue_deal has the device's STATE: a card step (its automatic
        # operations) or a pot game's resume would otherwise DEAL the rest at once, and the
        # STATE answer, sent before that DEAL, would DEAL it a second time (extra_card).
        self.deal.restarting = True
        try:
            for event in verdict.after:
                if hand.is_over:
                    return
                self._handle(event)
            self.deal.resuming = self.deal.resuming and not verdict.anchored
            self.poll(0)
        except BaseException:
            self.deal.restarting = False
            raise
        if hand.is_over:
            return
        if hand.pending_deal and not self._cards.ident.waiting:
            self._continue_deal(hand)  # it ends the hold once it decided
        else:
            self.deal.restarting = False

    def _restart_deal(self, hand: S) -> None:
        """Nothing was dealt: a new deck. The device's STATE first (that also takes a SHUFFLED
        still in flight from before the crash), then, once it is not busy, SHUFFLE; the hand's
        deal follows the new deck."""

        def shuffle(_idle: bool) -> None:
            self.deal.restarting = False
            if hand is not self.hand or hand.is_over:
                return
            self._cards.new_deck()
            self.deal.shuffled = False
            try:
                self.source.shuffle()
            except DeviceError as e:
                self._void(VoidReason("restart", f"SHUFFLE after the restart failed: {e}"))
                return
            self._deal_opened()

        self.deal.restarting = True
        self._ask_state(lambda _state: self._waits.add(
            "idle", lambda: not self.device_busy, self.shuffle_timeout, shuffle))  # fmt: skip

    def _continue_deal(self, hand: S) -> None:
        """Cards still pending after the history: if the device is still dealing them, wait;
        otherwise the DEAL never reached it (or was not sent): send it again. Until the
        device's STATE is in, nothing else deals (``_restarting``, set by the caller): the one
        DEAL the hand is missing is sent here, once."""

        def go_on(state: str) -> None:
            if hand is not self.hand:
                return
            self.deal.restarting = False
            if not hand.pending_deal or self._cards.ident.waiting or hand.is_over:
                return
            if state == "DEALING":
                n = len(hand.pending_deal)
                self.deal.watch_cards(n, self.card_timeout, time.monotonic())
            else:
                self._deal(len(hand.pending_deal))

        self._ask_state(go_on)


def _failed(step: PendingStep, e: Exception) -> VoidReason:
    """The void of a step the replay could not apply (read or applied: ``e`` says why)."""
    return VoidReason("restart", f"step {step.step_no} ({step.kind}) failed: {e}")
