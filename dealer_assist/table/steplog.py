"""The runner's side of the pending-step log: numbered steps of the hand in progress, and the
void alarms the dealer has not acknowledged yet.

Crash safety: every step of a hand (bets locked, each card, each decision, reveal,
settlement, void) is written durably BEFORE it takes effect, so a restarted table replays them
(:mod:`dealer_assist.table.recovery`). The journal clears a hand's steps in the same transaction
that appends the hand, so a hand is either pending or journaled, never both and never neither.

A void needs the dealer's acknowledgement even across a restart: before the void hand is
journaled, a marker hand ``<hand_uid>#ack`` gets step 0 (``void_alarm``); the acknowledgement is
its step 1 (``void_ack``). The marker is cleared once the next journaled hand carries the
acknowledgement in its ``extra["void_acknowledgements"]``.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealer_assist.engine.operations import Operation, VoidAcknowledged, VoidAlarmRaised
from dealer_assist.engine.voids import VoidReason
from dealer_assist.events import utc_now
from dealer_assist.ports import JournalPort

ACK_SUFFIX = "#ack"


@dataclass(frozen=True)
class VoidAlarm:
    """A void the dealer must acknowledge before the next hand: which hand, why, when (UTC)."""

    hand_uid: str
    reason: VoidReason
    at: datetime


def marker_uid(hand_uid: str) -> str:
    """The pending-step key of the acknowledgement marker of ``hand_uid``."""
    return hand_uid + ACK_SUFFIX


class StepLog:
    """Numbered durable steps for one table; a no-op without a journal.

    Args:
        journal: an opened journal, or None (nothing is kept: tests, dry runs).
        table_id: the table's id (the pending-step key).

    Every write raises :class:`~dealer_assist.errors.JournalError` when it cannot be made
    durable; the caller then does not apply the step.
    """

    def __init__(self, journal: JournalPort | None, table_id: str) -> None:
        self.journal = journal
        self.table_id = table_id
        self.hand_uid = ""
        self.next_no = 0

    def begin(self, hand_uid: str, next_no: int = 0) -> None:
        """Number the steps of ``hand_uid`` from ``next_no`` on."""
        self.hand_uid, self.next_no = hand_uid, next_no

    def write(self, op: Operation, events: list[dict[str, Any]]) -> None:
        """Write ``op`` as the next step of the current hand, with the device ``events``
        received since the previous step (durable on return)."""
        if self.journal is not None:
            payload = {**op.to_json(), "events": events}
            self.journal.write_step(self.table_id, self.hand_uid, self.next_no, op.kind, payload)
        self.next_no += 1

    def discard(self, hand_uid: str) -> None:
        """Forget a hand that never locked a bet (its SHUFFLE failed)."""
        if self.journal is not None:
            self.journal.clear_steps(self.table_id, hand_uid)

    def mark_alarm(self, hand_uid: str, reason: VoidReason) -> None:
        """Record that the void of ``hand_uid`` awaits acknowledgement (idempotent)."""
        if self.journal is not None:
            op = VoidAlarmRaised(hand_uid=hand_uid, code=reason.code, detail=reason.detail)
            self.journal.write_step(
                self.table_id, marker_uid(hand_uid), 0, op.kind, _plain(op.to_json())
            )

    def mark_ack(self, ack: VoidAcknowledged) -> None:
        """Record the dealer's acknowledgement of the void of ``ack.hand_uid``."""
        if self.journal is not None:
            self.journal.write_step(
                self.table_id, marker_uid(ack.hand_uid), 1, ack.kind, _plain(ack.to_json())
            )

    def clear_marker(self, hand_uid: str) -> None:
        """Drop the acknowledgement marker of ``hand_uid`` (its acknowledgement is journaled)."""
        if self.journal is not None:
            self.journal.clear_steps(self.table_id, marker_uid(hand_uid))


def _plain(payload: dict[str, Any]) -> dict[str, Any]:
    """A marker's payload as the release before the operations wrote it (no schema key: the
    acknowledgement is carried verbatim into the next journaled hand)."""
    return {k: v for k, v in payload.items() if k != "v"}


def ack_json(ack: VoidAcknowledged) -> dict[str, Any]:
    """The acknowledgement as the journal carries it: ``{"hand_uid", "code", "by", "at"}``."""
    return _plain(ack.to_json())


class VoidAlarms:
    """The voids waiting for the dealer's acknowledgement, and the acknowledgements waiting to be
    carried into the journal by the next hand; each kept in the step log (markers) as it changes.

    Args:
        steps: the table's step log (a no-op one without a journal).
    """

    def __init__(self, steps: StepLog) -> None:
        self.steps = steps
        self.alarms: list[VoidAlarm] = []
        self.acks: list[dict[str, Any]] = []

    @property
    def first(self) -> VoidAlarm | None:
        """The oldest void not acknowledged yet, or None."""
        return self.alarms[0] if self.alarms else None

    def raise_alarm(self, hand_uid: str, reason: VoidReason, at: datetime) -> None:
        """The hand ``hand_uid`` is void: the dealer must acknowledge it (idempotent)."""
        self.steps.mark_alarm(hand_uid, reason)
        if all(a.hand_uid != hand_uid for a in self.alarms):
            self.alarms.append(VoidAlarm(hand_uid, reason, at))

    def acknowledge_first(self, by: str) -> bool:
        """``by`` (the dealer) read the oldest alarm: its acknowledgement written, then the
        alarm dropped. False when there is none. Raises JournalError (the alarm stays)."""
        if not self.alarms:
            return False
        alarm = self.alarms[0]
        self.acknowledge(
            VoidAcknowledged(hand_uid=alarm.hand_uid, code=alarm.reason.code, by=by, at=utc_now())
        )
        return True

    def acknowledge(self, ack: VoidAcknowledged) -> None:
        """The dealer read the oldest alarm (``ack`` names it); written before it is dropped."""
        self.steps.mark_ack(ack)
        self.acks.append(ack_json(ack))
        self.alarms.pop(0)

    def carried(self, acks: list[dict[str, Any]]) -> None:
        """``acks`` are now in a journaled hand: their markers go."""
        for ack in acks:
            self.steps.clear_marker(ack["hand_uid"])
        self.acks = [a for a in self.acks if a not in acks]

    def forget(self, hand_uids: set[Any]) -> None:
        """Acknowledgements of these hands are carried by a hand being replayed."""
        self.acks = [a for a in self.acks if a.get("hand_uid") not in hand_uids]

    def restore(
        self,
        alarms: dict[str, dict[str, Any]],
        acks: dict[str, dict[str, Any]],
        journaled: set[Any],
        at: datetime,
    ) -> None:
        """After a restart: the markers the step log kept (``alarms`` and ``acks`` by hand uid,
        as :func:`~dealer_assist.table.recovery.sort_pending` sorts them); acknowledgements the
        last journaled hand already carries (``journaled``) only lose their marker."""
        for uid, ack in acks.items():
            if uid in journaled:
                self.steps.clear_marker(uid)  # crashed just after journaling the carrier
            else:
                self.acks.append(ack)
        for uid, alarm in alarms.items():
            reason = VoidReason(alarm.get("code", "restart"), alarm.get("detail", ""))
            self.alarms.append(VoidAlarm(uid, reason, at))
