"""Resume after a restart: replay the step log (the one fold of its operations), then catch up
with the device ("Crash safety").

Unfinished steps are replayed: a hand whose settlement or void was decided is journaled (once:
the journal ignores a hand_uid it already holds); a hand in progress continues exactly where it
was (bets, decisions, cards, an unreadable card awaiting its identification) after the cards the
device dealt meanwhile are taken from its history, or is voided with reason ``restart`` when the
device lost or reshuffled the deck. An unacknowledged void alarm is restored. A step the table's
signer did not sign as it reads now (changed in the step log: ``forged``) is not replayed: the hand
is voided there with reason ``step_forged``.

:class:`Resume` is the table runner's collaborator for this; it waits for nothing either (but for
the source's own bounded ``recover_history``): what needs the device's answer continues when the
answer is handled.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Generic, TypeVar

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


class Resume(Generic[S]):
    """Resumes ``runner`` after a restart (:meth:`run`): its step log replayed, then the device
    caught up with; the family is told before the replay and keeps its records after it."""

    def __init__(self, runner: TableRunner[S]) -> None:
        self.runner = runner

    def journal_unsaved(self) -> StoredHand | None:
        """Journal the hand that finished while the journal could not take it (a storage
        fault: its steps stay pending); idempotent by ``hand_uid``. Returns the stored hand,
        None when there was none. Raises JournalError (still failing: the hand stays pending)."""
        r = self.runner
        hand = r.hand
        if hand is None or not hand.is_over or r.stored is not None or r.journal is None:
            return None
        if hand.status == "void":
            why = hand.void_reason_json() or {}
            reason = VoidReason(why.get("code", "restart"), why.get("detail", ""))
            return r._finish_void(hand, reason)  # the alarm marker too, if it was not written
        return r._journal(hand)

    def forget_unstarted(self) -> bool:
        """An ordinary stop (SIGTERM) of a hand that has only opened: no bet locked, no blind
        posted, no card dealt, no late card kept with it. Its step log is cleared, as when its
        SHUFFLE fails, so the next start has nothing to resume (and no restarted device voids
        it). Returns whether it was forgotten; any other hand stays parked in the step log.
        Raises JournalError (the step log cannot be cleared: the hand stays parked)."""
        r = self.runner
        hand = r.hand
        if hand is None or hand.is_over or r._steps.hand_uid != hand.hand_uid:
            return False
        if r._steps.next_no != 1 or r._opened_with_events:
            return False
        if any(e.get("kind") == "card" for e in r._unsaved):
            return False  # a card read and not yet a step: the hand is kept with it
        r._steps.discard(hand.hand_uid)
        r.hand = None
        return True

    def run(self) -> S | None:
        """Pick up where the table was before a crash; call once, right after opening the
        source and the journal and before any other call.

        Returns:
            The hand in progress or just finished by the replay, or None.
        Raises:
            JournalError: the step log cannot be read or written. Device errors void the hand.
        """
        r = self.runner
        r.family.resuming()
        hand = self._run()
        if hand is not None and not hand.is_over and r.family.automatic:
            r.run_due()  # what was due: pots signed off before the restart, the next deal
        r.family.keep_records(r._open_uid(), r.session)
        return hand

    def _run(self) -> S | None:
        r = self.runner
        if r.journal is None:
            return None
        r.session = TableSession.of_journal(r.config.table_id, r.journal)
        work = sort_pending(r.journal.pending_steps(r.config.table_id))
        last = r.journal.last_hand()
        carried = {
            a.get("hand_uid") for a in (last.extra if last else {}).get("void_acknowledgements", [])
        }
        r._voids.restore(work.alarms, work.acks, carried, utc_now())
        history = DeviceHistory(r.source, r.history_timeout)  # read once per resume
        for i, (uid, steps) in enumerate(work.hands):
            hand = self._replay(uid, steps, history)
            if r.stored is not None:
                continue  # the replay itself voided and journaled it
            if hand.status == "settled":
                r._journal(hand)
            elif hand.status == "void":
                why = hand.void_reason_json() or {}
                r._finish_void(hand, VoidReason(why.get("code", "restart"), why.get("detail", "")))
            elif i < len(work.hands) - 1:
                r._void(VoidReason("restart", "an older hand was left unfinished"))
            else:
                self._resume_with_device(hand, history)
        if r.hand is None or r.hand.is_over:
            r._ask_state(lambda _state: None)  # a fault raised while down blocks the next hand
        return r.hand

    def _replay(self, uid: str, steps: list[PendingStep], history: DeviceHistory) -> S:
        """A new hand with the step log of ``uid`` folded over it (:func:`fold`, the runner's
        own apply: the hand's and the table's part of each step). A step that cannot be
        replayed (forged, unreadable, contradicted by the device's history, refused by the
        hand) ends the fold there and voids the hand."""
        r = self.runner
        r._new_hand_state()
        hand = r.make_state(uid)
        r.hand, r.stored = hand, None
        r._steps.begin(uid, steps[-1].step_no + 1 if steps else 0)
        carried = {a.get("hand_uid") for a in steps[0].payload.get("acks", [])} if steps else set()
        r._voids.forget(carried)
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
                r._apply(op, list(current[0].payload.get("events", [])))
            except DealerAssistError as e:  # the hand's rule, or the table's part of the step
                refused.append(_failed(current[0], e))

        fold(hand, replayable(), apply=apply)
        if refused:
            r._void(refused[0])
        r._facts.resumes = 1 + max((s.payload.get("resumes", 0) for s in steps), default=0)
        r._cards.horizon = r._cards.detector.last_index
        return hand

    def _resume_with_device(self, hand: S, history: DeviceHistory) -> None:
        r = self.runner
        ident = r.source.identity
        want = r._facts.device
        if (
            ident is not None
            and want
            and (ident.model, ident.serial) != (want.get("model"), want.get("serial"))
        ):
            detail = f"{want.get('model')}/{want.get('serial')} -> {ident.model}/{ident.serial}"
            r._void(VoidReason("identity_changed", detail))
            return
        r._step(HandResumed(resumes=r._facts.resumes))
        locked = any(not isinstance(op, HandOpened | CardExposed) for op in hand.operations)
        if not r.deal.shuffled or not locked:
            self._restart_deal(hand)  # nothing dealt yet: a fresh deck costs nothing
            return
        # what the device said before this session (its history), then what this session has
        # received so far: together, everything the device still knows, oldest first
        events = history.since()
        verdict = assess_history(
            events, r._cards.detector.deck_id or "", r._cards.detector.last_index
        )
        for event in events[: len(events) - len(verdict.after)]:
            r._device.update(event)  # before the last recorded card: state only
        if verdict.lost:
            r._void(VoidReason("restart", verdict.lost))
            return
        r.deal.resuming = True  # a deck or index error now means the device lost the deck
        # No deal until _continue_deal has the device's STATE: a card step (its automatic
        # operations) or a pot game's resume would otherwise DEAL the rest at once, and the
        # STATE answer, sent before that DEAL, would DEAL it a second time (extra_card).
        r.deal.restarting = True
        try:
            for event in verdict.after:
                if hand.is_over:
                    return
                r._handle(event)
            r.deal.resuming = r.deal.resuming and not verdict.anchored
            r.poll(0)
        except BaseException:
            r.deal.restarting = False
            raise
        if hand.is_over:
            return
        if hand.pending_deal and not r._cards.ident.waiting:
            self._continue_deal(hand)  # it ends the hold once it decided
        else:
            r.deal.restarting = False

    def _restart_deal(self, hand: S) -> None:
        """Nothing was dealt: a new deck. The device's STATE first (that also takes a SHUFFLED
        still in flight from before the crash), then, once it is not busy, SHUFFLE; the hand's
        deal follows the new deck."""
        r = self.runner

        def shuffle(_idle: bool) -> None:
            r.deal.restarting = False
            if hand is not r.hand or hand.is_over:
                return
            r._cards.new_deck()
            r.deal.shuffled = False
            try:
                r.source.shuffle()
            except DeviceError as e:
                r._void(VoidReason("restart", f"SHUFFLE after the restart failed: {e}"))
                return
            r._deal_opened()

        r.deal.restarting = True
        r._ask_state(
            lambda _state: r._waits.add(
                "idle", lambda: not r.device_busy, r.shuffle_timeout, shuffle
            )
        )

    def _continue_deal(self, hand: S) -> None:
        """Cards still pending after the history: if the device is still dealing them, wait;
        otherwise the DEAL never reached it (or was not sent): send it again. Until the
        device's STATE is in, nothing else deals (``_restarting``, set by the caller): the one
        DEAL the hand is missing is sent here, once."""
        r = self.runner

        def go_on(state: str) -> None:
            if hand is not r.hand:
                return
            r.deal.restarting = False
            if not hand.pending_deal or r._cards.ident.waiting or hand.is_over:
                return
            if state == "DEALING":
                n = len(hand.pending_deal)
                r.deal.watch_cards(n, r.card_timeout, time.monotonic())
            else:
                r._deal(len(hand.pending_deal))

        r._ask_state(go_on)


def _failed(step: PendingStep, e: Exception) -> VoidReason:
    """The void of a step the replay could not apply (read or applied: ``e`` says why)."""
    return VoidReason("restart", f"step {step.step_no} ({step.kind}) failed: {e}")
