"""What the core asks of its storage (the table reaches the journal only through this port).

The table runner journals finished hands, writes each step of the hand in progress before it takes
effect, and reads both back after a restart. :class:`JournalPort` is that contract; the SQLite
journal and the PostgreSQL floor database (:mod:`dealer_assist.storage`) are adapters of it. The
records that cross the port are plain dataclasses defined here, so the core never imports a
storage module.

Timestamps are UTC-aware datetimes; amounts inside ``record``/``settlement`` are integer minor
units as HAND_RECORD.md defines them. The journal never interprets those dicts, it only stores
them and chains their hash.

Besides hands, the chain holds *table records*: a change made to the table between hands (a
buy-in, a top-up, a sit-out, a return, a player leaving, the button placed) stored as an entry
with status ``"table"`` (:data:`TABLE_RECORD`) in the same hash chain, so money and table state
that move between hands are as tamper-evident as the hands (:mod:`dealer_assist.table.records`
builds them). A tournament's own records (registrations, the seat draw, purchases, levels,
eliminations: :mod:`dealer_assist.tournament.records`) are table records too, of kind
``"tournament"`` (:data:`TOURNAMENT_KIND`) or, when they move chips, of the table's own kinds
with a ``"tournament"`` part; a director reads them back through :class:`ChainJournal`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from dealer_assist.events import iso_utc

HandStatus = Literal["settled", "void", "table"]
TABLE_RECORD: Literal["table"] = "table"
"""The status of a table record (a change between hands, not a hand)."""
TOURNAMENT_KIND = "tournament"
"""The ``record["kind"]`` of a tournament's table record that moves no chips."""
HAND_STATUSES: tuple[str, ...] = ("settled", "void")
STATUSES: tuple[str, ...] = (*HAND_STATUSES, TABLE_RECORD)
OPERATIONS_KEY = "operations"
"""The key in a journaled hand's ``extra`` of its typed operations (the hand's record of truth,
one JSON object with its ``kind`` each; absent in entries of the releases before them)."""


@dataclass(frozen=True, kw_only=True)
class HandEntry:
    """One finished hand as the table hands it to :meth:`Journal.append_hand`.

    Attributes:
        table_id: the table's id (config), e.g. ``"UTH-3"``.
        game: game code of GAMES.md (``uth``, ``thb``, ...).
        started_at, ended_at: UTC-aware; ``ended_at >= started_at``.
        status: ``"settled"`` or ``"void"`` (misdeal, fault, ...); ``"table"`` for a table
            record (``record`` = ``{"kind": ..., ...}``, no settlement, no events, ``game`` the
            table's game, ``started_at == ended_at`` the time of the change).
        void_reason: why a void hand was voided; required when void, ``None`` when settled.
        record: the HAND_RECORD.md JSON object (board, dealer, players with bets/actions).
        settlement: the HAND_RECORD.md settlement object, ``None`` for a void hand.
        events: device events of the hand, JSON dicts (see :func:`event_to_json`): each has
            ``kind``, ``at`` (ISO-8601 UTC) and ``source`` (the card source), burns included.
        extra: free JSON object (operator, pay-table version, link stats, ...).
        hand_uid: the table's own unique id of the hand; appending the same uid again returns
            the hand already stored (idempotent retry after a crash) and clears its pending steps.
    """

    table_id: str
    game: str
    started_at: datetime
    ended_at: datetime
    status: HandStatus
    record: dict[str, Any]
    void_reason: str | None = None
    settlement: dict[str, Any] | None = None
    events: list[dict[str, Any]] = field(default_factory=list)
    extra: dict[str, Any] = field(default_factory=dict)
    hand_uid: str | None = None


@dataclass(frozen=True, kw_only=True)
class StoredHand:
    """A hand as stored: the entry's fields plus what the journal assigned.

    Attributes:
        hand_id: 1, 2, 3 ... without gaps, in append order (table records share the numbering).
        recorded_at: UTC-aware time the journal stored it.
        prev_hash: ``hash`` of hand ``hand_id - 1`` (``GENESIS_HASH`` for hand 1).
        hash: ``sha256(prev_hash || canonical JSON of content())``, 64 hex digits.
        signature: the table key's Ed25519 signature of ``hash`` (128 hex digits), ``None``
            for an entry written before the table signed its chain (not part of the content).
        key_id: the first 16 hex digits of the signing key's fingerprint, ``None`` unsigned.
        (other fields as in :class:`HandEntry`.)
    """

    hand_id: int
    hand_uid: str | None
    table_id: str
    game: str
    started_at: datetime
    ended_at: datetime
    status: str
    void_reason: str | None
    record: dict[str, Any]
    settlement: dict[str, Any] | None
    events: list[dict[str, Any]]
    extra: dict[str, Any]
    recorded_at: datetime
    prev_hash: str
    hash: str
    signature: str | None = None
    key_id: str | None = None

    def content(self) -> dict[str, Any]:
        """The hashed content: every field except ``prev_hash`` and ``hash``, times as ISO UTC."""
        return {
            "hand_id": self.hand_id,
            "hand_uid": self.hand_uid,
            "table_id": self.table_id,
            "game": self.game,
            "started_at": iso_utc(self.started_at),
            "ended_at": iso_utc(self.ended_at),
            "status": self.status,
            "void_reason": self.void_reason,
            "record": self.record,
            "settlement": self.settlement,
            "events": self.events,
            "extra": self.extra,
            "recorded_at": iso_utc(self.recorded_at),
        }


@dataclass(frozen=True)
class PendingStep:
    """One step of a hand in progress, written durably before the hand is journaled.

    Attributes:
        table_id, hand_uid: which table and hand it belongs to.
        step_no: the caller's step counter within the hand (unique per table and hand).
        kind: the caller's step type, e.g. ``"card"``, ``"bet"``.
        payload: free JSON object.
        written_at: UTC-aware time of the write.
        forged: why the step cannot be trusted (a journal signed by its notary: the step's
            signature is missing or does not verify, it was changed in the step log), else
            ``None``; a resumed hand with such a step is voided.
    """

    table_id: str
    hand_uid: str
    step_no: int
    kind: str
    payload: dict[str, Any]
    written_at: datetime
    forged: str | None = None


@dataclass(frozen=True)
class VerifyResult:
    """Outcome of :meth:`Journal.verify`.

    Attributes:
        ok: the whole chain verifies.
        hands_checked: hands that verified before the first bad one (all of them when ok).
        first_bad_hand: id of the first hand that fails, ``None`` when ok.
        reason: ``"chain verifies"`` or what is wrong with ``first_bad_hand``.
        head_hash: hash of the last good hand (anchor it elsewhere to detect a rewritten tail).
        signatures_checked: signatures verified against a table's public key.
        unsigned: entries without a signature (written before the table signed its chain).
        signed_from: the first signed entry's id (entries before it are unsigned), ``None``
            when none is signed.
        unchecked: signed entries whose table had no public key to check them with.
    """

    ok: bool
    hands_checked: int
    first_bad_hand: int | None
    reason: str
    head_hash: str | None = None
    signatures_checked: int = 0
    unsigned: int = 0
    signed_from: int | None = None
    unchecked: int = 0


class JournalPort(Protocol):
    """The journal as the table runner uses it. Every method raises
    :class:`~dealer_assist.errors.JournalError` when the store cannot be read or written."""

    def append_hand(self, entry: HandEntry) -> StoredHand:
        """Store a finished hand, chained to the previous one, and clear its pending steps in
        the same transaction; the same ``hand_uid`` again returns the hand already stored."""

    def last_hand(self) -> StoredHand | None:
        """The entry stored last (a hand or a table record: the chain's head), or None."""

    def count(self) -> int:
        """How many entries are stored, hands and table records (= the last ``hand_id``)."""

    def write_step(
        self, table_id: str, hand_uid: str, step_no: int, kind: str, payload: dict[str, Any]
    ) -> PendingStep:
        """Write one step of a hand in progress; durable on return."""

    def pending_steps(self, table_id: str) -> list[PendingStep]:
        """The steps not yet cleared for ``table_id``, in the order they were written."""

    def clear_steps(self, table_id: str, hand_uid: str) -> int:
        """Forget the steps of one hand; returns how many."""


class ReadableJournal(Protocol):
    """The journal as an auditor reads it (the soak's cross-check, the pit boss's screens)."""

    def iter_hands(self, start: int | None = None) -> Iterator[StoredHand]:
        """The stored hands from ``start`` (hand_id) on, in order."""

    def verify(self) -> VerifyResult:
        """Check the whole hash chain."""


class ChainJournal(JournalPort, ReadableJournal, Protocol):
    """The journal as a tournament director uses it: the table runner's port, and the chain
    read back in order (its records folded into the tournament's state after a restart)."""
