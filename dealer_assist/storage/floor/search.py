"""The pit boss's hand search, floor view and alerts on the floor database
(:class:`~dealer_assist.pitboss.filters.HandSource`; docs/PITBOSS.md).

SQL over ``floor_records`` using the floor's indexes (docs/FLOOR.md): the time range with the
table, the game or the dealer (``ix_floor_records_dealer_recorded``, revision f0003), the
partial index of voids, ``top_amount``, the GIN index of ``flags``; ``seats`` by array
containment. Every query is one short read transaction with the floor's statement timeout;
errors translated as :class:`~dealer_assist.storage.floor.floor.Floor` does.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg

from dealer_assist.pitboss.filters import (
    AlertRow,
    FloorSnapshot,
    HandFilter,
    HandRow,
    Page,
    Sort,
    TableStatus,
    status_of,
)
from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.floor.schema import floor_alerts, floor_records, floor_tables

_R = floor_records.c
_COLUMNS = (
    _R.table_id,
    _R.position,
    _R.recorded_at,
    _R.game,
    _R.status,
    _R.void_reason,
    _R.wagered,
    _R.top_amount,
    _R.seats,
    _R.flags,
    _R.dealer,
)


def conditions(where: HandFilter) -> list[Any]:
    """The SQL conditions of ``where`` on ``floor_records`` (table records excluded)."""
    out: list[Any] = [_R.status != _inline(TABLE_RECORD)]
    if where.table_id is not None:
        out.append(_R.table_id == where.table_id)
    if where.game is not None:
        out.append(_R.game == where.game)
    if where.since is not None:
        out.append(_R.recorded_at >= where.since)
    if where.until is not None:
        out.append(_R.recorded_at < where.until)
    if where.outcome is not None:
        out.append(_R.status == _inline(where.outcome))
    if where.seat is not None:
        out.append(_R.seats.contains(sa.cast([where.seat], pg.ARRAY(sa.SmallInteger))))
    if where.min_amount:  # at least 0 is every hand: a void's missing amount counts as 0
        out.append(_R.top_amount >= where.min_amount)
    if where.void_reason is not None:
        out.append(_R.status == _inline("void"))
        out.append(_R.void_reason.ilike(f"%{_escape(where.void_reason)}%", escape="\\"))
    if where.flags:
        out.append(_R.flags.contains(sa.cast(list(where.flags), pg.ARRAY(sa.String))))
    if where.dealer is not None:
        out.append(_R.dealer == where.dealer)
    return out


def _inline(status: str) -> Any:
    """A status written into the SQL, not bound: once psycopg prepares a statement PostgreSQL
    may plan it generically, and ``status = $1`` cannot use the partial index of voids
    (``WHERE status = 'void'``; bench/README.md, floor_search: voids p95 101 ms -> 8.5 ms)."""
    return sa.bindparam(None, status, type_=sa.String, literal_execute=True)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _order(col: Any, descending: bool, *, no_nulls: bool = False) -> Any:
    """``col`` in order; NULLS LAST only on a column that can be NULL in the results: on a NOT
    NULL one, or one the filter keeps non-NULL (``no_nulls``), it keeps PostgreSQL from reading
    an ascending index backwards (every match read and sorted instead of stopping after one
    page; bench/README.md, floor_search and floor_fill)."""
    if not col.nullable or no_nulls:
        return col.desc() if descending else col.asc()
    return col.desc().nulls_last() if descending else col.asc().nulls_last()


class FloorSearch:
    """The searches over the floor at ``url`` (see :class:`Floor` for the URL and errors)."""

    def __init__(self, url: str) -> None:
        self.floor = Floor(url)

    def open(self) -> None:
        """Connect and check the floor's schema."""
        self.floor.open()

    def close(self) -> None:
        """Release the connections; safe twice."""
        self.floor.close()

    def search(self, where: HandFilter, sort: Sort, offset: int, limit: int) -> Page:
        """Rows ``offset..offset+limit`` of the matching hands in ``sort`` order (one row more is
        read to know whether more follow)."""
        col = _R[sort.key] if sort.key != "position" else _R.position
        order = [
            # a payout or pot at least min_amount > 0 is never NULL: the plain order is the same
            _order(
                col,
                sort.descending,
                no_nulls=sort.key == "top_amount" and bool(where.min_amount),
            ),
            _R.table_id.desc() if sort.descending else _R.table_id,
            _R.position.desc() if sort.descending else _R.position,
        ]
        query = (
            sa.select(*_COLUMNS)
            .where(*conditions(where))
            .order_by(*order)
            .offset(offset)
            .limit(limit + 1)
        )
        with self.floor._transaction("search hands") as conn:
            rows = conn.execute(query).all()
        out = tuple(
            HandRow(
                r.table_id,
                int(r.position),
                r.recorded_at,
                r.game,
                r.status,
                r.void_reason,
                r.wagered,
                r.top_amount,
                tuple(r.seats or ()),
                tuple(r.flags or ()),
                r.dealer,
            )
            for r in rows[:limit]
        )
        return Page(out, offset, len(rows) > limit)

    def hand(self, table_id: str, position: int) -> StoredHand:
        """The floor's copy of the hand (content as hashed). Raises FloorError when none."""
        return self.floor.get_record(table_id, position)

    def snapshot(self, now: datetime) -> FloorSnapshot:
        """Every table with its status from its last record and head, hands in the last hour,
        open alerts; the open alerts and the last day's acknowledged ones."""
        hour = (
            sa.select(sa.func.count())
            .where(
                _R.table_id == floor_tables.c.table_id,
                _R.recorded_at >= now - timedelta(hours=1),
                _R.status != TABLE_RECORD,
            )
            .scalar_subquery()
        )
        last = (
            sa.select(_R.status, _R.flags, _R.recorded_at)
            .where(_R.table_id == floor_tables.c.table_id, _R.status != TABLE_RECORD)
            .order_by(_R.position.desc())
            .limit(1)
            .lateral("last")
        )
        query = (
            sa.select(
                floor_tables, hour.label("hour"), last.c.status, last.c.flags, last.c.recorded_at
            )
            .select_from(floor_tables.outerjoin(last, sa.true()))
            .order_by(floor_tables.c.table_id)
        )
        alerts_q = (
            sa.select(floor_alerts)
            .where(
                sa.or_(
                    floor_alerts.c.acknowledged_at.is_(None),
                    floor_alerts.c.acknowledged_at >= now - timedelta(days=1),
                )
            )
            .order_by(floor_alerts.c.id.desc())
        )
        with self.floor._transaction("read the floor view") as conn:
            rows = conn.execute(query).all()
            alert_rows = conn.execute(alerts_q).all()
        alerts = tuple(
            AlertRow(
                str(a.id),
                a.kind,
                a.table_id,
                a.position,
                a.detail,
                a.raised_at,
                a.acknowledged_by,
                a.acknowledged_at,
            )
            for a in alert_rows
        )
        tables = []
        for r in rows:
            m = r._mapping
            flags = tuple(m["flags"] or ())
            seen = m["last_received_at"] or m["recorded_at"]
            open_here = sum(
                1 for a in alerts if a.table_id == m["table_id"] and a.acknowledged_by is None
            )
            status = status_of(m["status"], flags, seen, now)
            tables.append(
                TableStatus(
                    m["table_id"],
                    m["game"],
                    int(m["last_position"]),
                    seen,
                    int(m["hour"]),
                    status,
                    flags,
                    open_here,
                    m["pit"],
                )
            )
        return FloorSnapshot(now, tuple(tables), alerts)

    def acknowledge(self, key: str, by: str) -> AlertRow:
        """Record who acknowledged alert ``key`` (its id) and when (the first one stays)."""
        a = self.floor.acknowledge(int(key), by)
        return AlertRow(
            str(a.id),
            a.kind,
            a.table_id,
            a.position,
            a.detail,
            a.raised_at,
            a.acknowledged_by,
            a.acknowledged_at,
        )
