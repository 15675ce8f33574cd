"""The hand search: a filter, a result row, a page, and the port both searches implement
(the floor database's SQL, one table's SQLite journal; docs/PITBOSS.md "Hand search").

Amounts are integer minor units; times UTC-aware. ``outcome`` is ``settled`` or ``void``;
``flags`` are the floor's search flags (``device_fault``, ``manual_card``, ``camera_card``,
``link_lost``, ``source_switched``, ``identity_changed``, ``resumed``; see
:mod:`dealer_assist.storage.search_columns`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Literal, Protocol

from dealer_assist.errors import DealerAssistError
from dealer_assist.ports import StoredHand

Outcome = Literal["settled", "void"]
#: The columns a search can sort on (newest first by default).
SORT_KEYS = ("recorded_at", "table_id", "position", "game", "status", "top_amount", "wagered")
FLAGS = (
    "device_fault",
    "manual_card",
    "camera_card",
    "link_lost",
    "source_switched",
    "identity_changed",
    "resumed",
)


#: The floor's alert kinds that say a table's records cannot be trusted as they are (its chain,
#: its key or its signer): the floor's own names (dealer_assist/storage/floor/schema.py). While
#: one is open (not acknowledged) the table's tile, every hand it covers and the shift report
#: say so (:func:`covers`).
INTEGRITY_ALERTS = frozenset(
    {
        "chain_break",
        "tampered",
        "gap",
        "foreign_record",
        "journal_behind",
        "key_changed",
        "bad_checkpoint",
        "signer_rewound",
    }
)
#: A table's floor status while an integrity alert of it is open (over every other status).
TAMPER_STATUS = "tamper_alert"


class FilterError(DealerAssistError, ValueError):
    """A search filter that cannot be: the message names the field."""


@dataclass(frozen=True)
class HandFilter:
    """What to look for; every field ``None``/empty matches all hands (table records are never
    results).

    Attributes:
        table_id, game: exact. since, until: ``since <= recorded_at < until`` (UTC-aware).
        seat: a seat dealt in. outcome: ``settled`` or ``void``.
        min_amount: the largest payout (banked) or pot (pot games) at least this (minor units).
        void_reason: a void whose reason contains this text (case-insensitive).
        flags: every one of these search flags (see the module doc).
        dealer: the dealer's badge id recorded with the hand (``extra["dealer"]``), exact. A
            shift is a time range (:class:`dealer_assist.audit.stats.ShiftPlan`): since/until.
    """

    table_id: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    game: str | None = None
    seat: int | None = None
    outcome: Outcome | None = None
    min_amount: int | None = None
    void_reason: str | None = None
    flags: tuple[str, ...] = ()
    dealer: str | None = None

    def __post_init__(self) -> None:
        for name in ("since", "until"):
            t = getattr(self, name)
            if t is not None and t.utcoffset() is None:
                raise FilterError(f"{name}: a time with its time zone (UTC) is needed")
        if self.since and self.until and self.until <= self.since:
            raise FilterError("until: must be after since")
        if self.outcome not in (None, "settled", "void"):
            raise FilterError(f"outcome: settled or void, got {self.outcome!r}")
        if self.min_amount is not None and self.min_amount < 0:
            raise FilterError("min_amount: must not be negative")
        if self.seat is not None and not 0 < self.seat < 2**15:
            raise FilterError(f"seat: not a seat number: {self.seat}")
        unknown = [f for f in self.flags if f not in FLAGS]
        if unknown:
            raise FilterError(f"flags: unknown {', '.join(unknown)} (one of {', '.join(FLAGS)})")

    def matches(self, row: HandRow) -> bool:
        """True when ``row`` passes every field (the journal search's predicate; the floor's
        SQL says the same)."""
        checks = (
            self.table_id is None or row.table_id == self.table_id,
            self.game is None or row.game == self.game,
            self.since is None or row.recorded_at >= self.since,
            self.until is None or row.recorded_at < self.until,
            self.seat is None or self.seat in row.seats,
            self.outcome is None or row.status == self.outcome,
            self.min_amount is None or (row.top_amount or 0) >= self.min_amount,
            self.void_reason is None
            or (
                row.status == "void" and self.void_reason.lower() in (row.void_reason or "").lower()
            ),
            all(f in row.flags for f in self.flags),
            self.dealer is None or row.dealer == self.dealer,
        )
        return all(checks)


@dataclass(frozen=True)
class HandRow:
    """One search result: where the hand is (``table_id``, ``position``: its chain position),
    when, what, and its search columns (``None`` when the record does not say)."""

    table_id: str
    position: int
    recorded_at: datetime
    game: str
    status: str
    void_reason: str | None
    wagered: int | None
    top_amount: int | None
    seats: tuple[int, ...] = ()
    flags: tuple[str, ...] = ()
    dealer: str | None = None
    alerts: tuple[str, ...] = ()
    """The kinds of the open integrity alerts that cover this hand (:func:`covers`)."""


@dataclass(frozen=True)
class Page:
    """Rows ``offset .. offset+len(rows)`` of a search in its order; ``more``: rows follow."""

    rows: tuple[HandRow, ...]
    offset: int
    more: bool


@dataclass(frozen=True)
class Sort:
    """A search's order: ``key`` one of :data:`SORT_KEYS`, ``descending`` (default newest first);
    ties by table and position."""

    key: str = "recorded_at"
    descending: bool = True

    def __post_init__(self) -> None:
        if self.key not in SORT_KEYS:
            raise FilterError(f"sort: unknown column {self.key!r}")


@dataclass(frozen=True)
class TableStatus:
    """A table on the floor view: its head, when it last recorded, its hands in the last hour,
    ``status`` (:func:`status_of`: dealing, faulted, void_alarm, offline), its last hand's
    search flags, open alerts."""

    table_id: str
    game: str
    position: int
    last_recorded_at: datetime | None
    hands_last_hour: int
    status: str
    last_flags: tuple[str, ...] = ()
    open_alerts: int = 0
    pit: str | None = None


@dataclass(frozen=True)
class AlertRow:
    """An alert; ``key`` its identity in its store (floor: the id; a journal:
    ``kind:table:position``)."""

    key: str
    kind: str
    table_id: str | None
    position: int | None
    detail: str
    raised_at: datetime
    acknowledged_by: str | None = None
    acknowledged_at: datetime | None = None


@dataclass(frozen=True)
class FloorSnapshot:
    """The floor view's content at ``at``: every table and the alerts."""

    at: datetime
    tables: tuple[TableStatus, ...]
    alerts: tuple[AlertRow, ...] = field(default_factory=tuple)


class HandSource(Protocol):
    """What the application asks of a floor database or one table's journal (read-only, except
    an alert's acknowledgement). Implementations raise DealerAssistError subclasses."""

    def search(self, where: HandFilter, sort: Sort, offset: int, limit: int) -> Page:
        """Rows ``offset..offset+limit`` of the hands matching ``where`` in ``sort`` order."""
        ...

    def hand(self, table_id: str, position: int) -> StoredHand:
        """The stored hand at ``position`` of ``table_id``."""
        ...

    def snapshot(self, now: datetime) -> FloorSnapshot:
        """Every table's status and the alerts at ``now``."""
        ...

    def acknowledge(self, key: str, by: str) -> AlertRow:
        """Record who acknowledged alert ``key`` and when."""
        ...

    def close(self) -> None:
        """Release the connection."""
        ...


def is_open_integrity(alert: AlertRow) -> bool:
    """Whether ``alert`` is an integrity alert (:data:`INTEGRITY_ALERTS`) nobody acknowledged."""
    return alert.kind in INTEGRITY_ALERTS and alert.acknowledged_by is None


def covers(alert: AlertRow, table_id: str, position: int) -> bool:
    """Whether the open integrity ``alert`` covers hand ``position`` of ``table_id``: its table
    (or every table when it names none) from its position on (a break, a changed entry or a
    gap at N leaves N and every entry chained after it unproven; a key or signer alert without
    a position covers the whole table)."""
    if not is_open_integrity(alert):
        return False
    if alert.table_id is not None and alert.table_id != table_id:
        return False
    return alert.position is None or position >= alert.position


def covering(alerts: tuple[AlertRow, ...], table_id: str, position: int) -> tuple[str, ...]:
    """The kinds (sorted, once each) of ``alerts`` that cover hand ``position`` of
    ``table_id``."""
    return tuple(sorted({a.kind for a in alerts if covers(a, table_id, position)}))


def status_of(
    last_status: str | None,
    flags: tuple[str, ...],
    last_at: datetime | None,
    now: datetime,
    *,
    offline_after_s: int = 600,
) -> str:
    """A table's floor status: ``offline`` (nothing for ``offline_after_s``), ``void_alarm``
    (its last hand void), ``faulted`` (its last hand had a device fault), else ``dealing``."""
    if last_at is None or (now - last_at).total_seconds() > offline_after_s:
        return "offline"
    if last_status == "void":
        return "void_alarm"
    if "device_fault" in flags or "link_lost" in flags:
        return "faulted"
    return "dealing"


def row_of(hand: StoredHand, columns: dict[str, Any]) -> HandRow:
    """The search row of ``hand`` with its search columns (``columns`` as
    :func:`dealer_assist.storage.search_columns.search_columns` gives them)."""
    return HandRow(
        table_id=hand.table_id,
        position=hand.hand_id,
        recorded_at=hand.recorded_at,
        game=hand.game,
        status=hand.status,
        void_reason=hand.void_reason,
        wagered=columns.get("wagered"),
        top_amount=columns.get("top_amount"),
        seats=tuple(columns.get("seats") or ()),
        flags=tuple(columns.get("flags") or ()),
        dealer=columns.get("dealer"),
    )
