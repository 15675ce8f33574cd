"""The payout walk's marks, kept so a crash during the payouts loses nothing.

A banked hand is settled and journaled at the reveal, which clears its steps; the dealer then
pays the seats one by one. Which seats are paid is kept in the journal's pending-step log under
the table key ``<table_id>#payout`` (never read by the hand's resume, which reads ``<table_id>``):
step 0 :class:`~dealer_assist.engine.operations.PayoutStarted` is written before the settlement,
each :class:`~dealer_assist.engine.operations.SeatPaid` when the dealer moves past a seat, each
durable on return (the journal's write, a committed transaction: it survives ``kill -9`` and, with
the SQLite journal's synchronous writes, a power cut). The marks go when the next hand opens.

A large payout's sign-off (``[signoff]`` tiers of the table's config) is a step
of the same log, kind :data:`SIGNOFF_KIND` (:class:`SignOff`: seat, amount, the role required,
who signed, when, the seat's cards as read), written before the screen says so; the table
service journals it as a table record (kind ``payout_signoff``) before the marks go.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dealer_assist.engine.operations import PayoutStarted, SeatPaid, operation_from_json
from dealer_assist.errors import OperationError
from dealer_assist.events import utc_now
from dealer_assist.ports import JournalPort

PAYOUT_SUFFIX = "#payout"
SIGNOFF_KIND = "payout_signoff"
"""The step kind (and the table record's kind) of a large payout's sign-off."""


@dataclass(frozen=True)
class SignOff:
    """A large payout signed off: ``seat`` of ``hand_uid`` wins ``amount`` (minor units, its
    net), above a tier that needs ``role``; ``by`` (a badge) signed at ``at`` (UTC), seeing
    ``cards`` (the seat's cards as read, e.g. ``("As", "Kd")``); ``via`` where: ``console``
    (badge and PIN at the table) or ``pitboss`` (confirmed in the pit-boss application)."""

    hand_uid: str
    seat: int
    amount: int
    role: str
    by: str
    at: datetime
    cards: tuple[str, ...] = field(default=())
    via: str = "console"

    def to_json(self) -> dict[str, Any]:
        """The step's (and the table record's) payload."""
        return {
            "hand_uid": self.hand_uid,
            "seat": self.seat,
            "amount": self.amount,
            "role": self.role,
            "by": self.by,
            "at": self.at.isoformat(),
            "cards": list(self.cards),
            "via": self.via,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SignOff:
        """The inverse of :meth:`to_json`. Raises OperationError naming a bad field."""
        try:
            at = datetime.fromisoformat(str(data["at"]))
            return cls(
                str(data["hand_uid"]),
                int(data["seat"]),
                int(data["amount"]),
                str(data["role"]),
                str(data["by"]),
                at,
                tuple(str(c) for c in data.get("cards", ())),
                str(data.get("via", "console")),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise OperationError(f"payout sign-off: bad or missing field ({e})") from e


@dataclass(frozen=True)
class PayoutMarks:
    """The payout walk of one hand as the step log kept it: ``seats`` in the hand, ``paid``
    those the dealer moved past (in the order they were paid)."""

    hand_uid: str
    seats: tuple[int, ...]
    paid: tuple[int, ...]
    signed: tuple[SignOff, ...] = ()


class PayoutLog:
    """The payout marks of one table; a no-op without a journal.

    Args:
        journal: an opened journal (the port), or None.
        table_id: the table's id.

    Every write raises :class:`~dealer_assist.errors.JournalError` when it cannot be made durable.
    """

    def __init__(self, journal: JournalPort | None, table_id: str) -> None:
        self.journal = journal
        self.key = table_id + PAYOUT_SUFFIX
        self._hand_uid = ""
        self._next = 0
        self._paid: list[int] = []
        self._seats: tuple[int, ...] = ()
        self._signed: dict[int, SignOff] = {}

    def start(self, hand_uid: str, seats: tuple[int, ...]) -> None:
        """The payouts of ``hand_uid`` begin (written before the hand is settled); the marks of
        any older hand go."""
        if hand_uid == self._hand_uid:
            return
        self.finish()
        self._write(hand_uid, 0, PayoutStarted(hand_uid=hand_uid, seats=seats))
        self._hand_uid, self._next, self._paid, self._seats = hand_uid, 1, [], seats
        self._signed = {}

    def sign(self, signoff: SignOff) -> bool:
        """A large payout signed off (durable on return); False when that seat was signed off
        already or the walk is another hand's (nothing written)."""
        seat = signoff.seat
        if signoff.hand_uid != self._hand_uid or seat in self._signed or seat not in self._seats:
            return False
        if self.journal is not None:
            self.journal.write_step(
                self.key, self._hand_uid, self._next, SIGNOFF_KIND, signoff.to_json()
            )
        self._next += 1
        self._signed[seat] = signoff
        return True

    def signed(self, seat: int) -> SignOff | None:
        """The sign-off of ``seat``'s payout in the walk in progress, None when none."""
        return self._signed.get(seat)

    def mark(self, hand_uid: str, seat: int) -> bool:
        """``seat`` of ``hand_uid`` is paid (durable on return); False when it was already, or
        the walk is another hand's (nothing written)."""
        if hand_uid != self._hand_uid or seat in self._paid or seat not in self._seats:
            return False
        self._write(hand_uid, self._next, SeatPaid(hand_uid=hand_uid, seat=seat, at=utc_now()))
        self._next += 1
        self._paid.append(seat)
        return True

    def finish(self) -> None:
        """The walk is over (the next hand opens): its marks go."""
        if self.journal is not None:
            for step in self.journal.pending_steps(self.key):
                self.journal.clear_steps(self.key, step.hand_uid)
        self._hand_uid, self._next, self._paid, self._seats = "", 0, [], ()
        self._signed = {}

    def current(self) -> PayoutMarks | None:
        """The walk in progress (after :meth:`start`, or as :meth:`restore` found it)."""
        if not self._hand_uid:
            return None
        return PayoutMarks(
            self._hand_uid,
            self._seats,
            tuple(self._paid),
            tuple(self._signed[s] for s in sorted(self._signed)),
        )

    def restore(self) -> PayoutMarks | None:
        """After a restart: the walk the step log kept (the latest hand's), or None. Marks it
        cannot read (another release's) are dropped with the walk: the list then starts over."""
        if self.journal is None:
            return None
        steps = self.journal.pending_steps(self.key)
        if not steps:
            return None
        uid = steps[-1].hand_uid
        seats: tuple[int, ...] = ()
        paid: list[int] = []
        signed: dict[int, SignOff] = {}
        try:
            for step in (s for s in steps if s.hand_uid == uid):
                if step.kind == SIGNOFF_KIND:
                    so = SignOff.from_json(step.payload)
                    signed.setdefault(so.seat, so)
                    continue
                op = operation_from_json(step.kind, step.payload)
                if isinstance(op, PayoutStarted):
                    seats = tuple(op.seats)
                elif isinstance(op, SeatPaid) and op.seat not in paid:
                    paid.append(op.seat)
        except OperationError:
            self.finish()
            return None
        if not seats:
            self.finish()
            return None
        self._hand_uid, self._seats, self._paid, self._signed = uid, seats, paid, signed
        self._next = 1 + max(s.step_no for s in steps if s.hand_uid == uid)
        return self.current()

    def _write(self, hand_uid: str, step_no: int, op: PayoutStarted | SeatPaid) -> None:
        if self.journal is not None:
            self.journal.write_step(self.key, hand_uid, step_no, op.kind, op.to_json())
