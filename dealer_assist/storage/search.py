"""The pit boss's hand search over one table's journal, opened read-only
(:class:`~dealer_assist.pitboss.filters.HandSource`; docs/PITBOSS.md).

The journal has no search columns: each hand's are read once
(:func:`~dealer_assist.storage.floor.summary.search_columns`, the floor's own) and kept in
memory; hands appended since are read on the next search. A floor is the place for many tables
and many hands; this is for one table's journal.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from dealer_assist.errors import JournalError
from dealer_assist.events import utc_now
from dealer_assist.pitboss.filters import (
    AlertRow,
    FloorSnapshot,
    HandFilter,
    HandRow,
    Page,
    Sort,
    TableStatus,
    row_of,
    status_of,
)
from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage.access import LocalAcks
from dealer_assist.storage.floor.summary import search_columns
from dealer_assist.storage.journal import Journal

_ALERT_FLAGS = ("device_fault", "link_lost", "identity_changed")


class JournalSearch:
    """One journal at ``path`` (a SQLite file), read-only; acknowledgements in
    ``pitboss_acks.jsonl`` beside it (:class:`~dealer_assist.storage.access.LocalAcks`).

    Raises (``open``): JournalError: no journal there, or a schema this program cannot read.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._journal = Journal(str(path), create=False, read_only=True)
        self._rows: list[HandRow] = []
        self._last = 0
        self.acks = LocalAcks(self.path.parent)

    def open(self) -> None:
        """Open the journal read-only."""
        self._journal.open()

    def close(self) -> None:
        """Close the journal; safe twice."""
        self._journal.close()

    def _refresh(self) -> list[HandRow]:
        for hand in self._journal.iter_hands(self._last + 1):
            self._last = hand.hand_id
            if hand.status != TABLE_RECORD:
                self._rows.append(row_of(hand, search_columns(hand)))
        return self._rows

    def search(self, where: HandFilter, sort: Sort, offset: int, limit: int) -> Page:
        """Rows ``offset..offset+limit`` of the matching hands in ``sort`` order."""
        rows = [r for r in self._refresh() if where.matches(r)]
        key = sort.key
        known = [r for r in rows if getattr(r, key) is not None]
        known.sort(key=lambda r: (getattr(r, key), r.table_id, r.position), reverse=sort.descending)
        rows = known + [r for r in rows if getattr(r, key) is None]  # unknown last, as the floor
        page = rows[offset : offset + limit]
        return Page(tuple(page), offset, offset + limit < len(rows))

    def hand(self, table_id: str, position: int) -> StoredHand:
        """The hand at ``position``. Raises JournalError when none, or of another table."""
        hand = self._journal.get_hand(position)
        if hand.table_id != table_id:
            raise JournalError(
                f"hand {position} of this journal is of {hand.table_id}, not {table_id}"
            )
        return hand

    def snapshot(self, now: datetime) -> FloorSnapshot:
        """The journal's tables (usually one) and its alerts: each void and each hand with a
        device fault, link loss or identity change, acknowledged or not."""
        rows = self._refresh()
        acks = self.acks.all()
        tables, alerts = [], []
        for table_id in sorted({r.table_id for r in rows}):
            mine = [r for r in rows if r.table_id == table_id]
            last = mine[-1]
            hour = sum(1 for r in mine if r.recorded_at >= now - timedelta(hours=1))
            alerts_here = []
            for r in mine:
                kinds = (["void"] if r.status == "void" else []) + [
                    f for f in _ALERT_FLAGS if f in r.flags
                ]
                for kind in kinds:
                    key = f"{kind}:{table_id}:{r.position}"
                    by, at = acks.get(key, (None, None))
                    detail = r.void_reason or "" if kind == "void" else kind.replace("_", " ")
                    alerts_here.append(
                        AlertRow(key, kind, table_id, r.position, detail, r.recorded_at, by, at)
                    )
            alerts += alerts_here
            status = status_of(last.status, last.flags, last.recorded_at, now)
            tables.append(
                TableStatus(
                    table_id,
                    last.game,
                    last.position,
                    last.recorded_at,
                    hour,
                    status,
                    last.flags,
                    sum(1 for a in alerts_here if a.acknowledged_by is None),
                )
            )
        return FloorSnapshot(now, tuple(tables), tuple(alerts))

    def acknowledge(self, key: str, by: str) -> AlertRow:
        """Append the acknowledgement of alert ``key`` by ``by``; the alert as it is now.
        Raises JournalError for an unknown alert."""
        snap = self.snapshot(utc_now())
        found = [a for a in snap.alerts if a.key == key]
        if not found:
            raise JournalError(f"no alert {key} in this journal")
        if found[0].acknowledged_by is None:
            self.acks.add(key, by, utc_now())
        return next(a for a in self.snapshot(utc_now()).alerts if a.key == key)
