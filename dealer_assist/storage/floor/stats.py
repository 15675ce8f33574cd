"""Statistics on the floor (docs/STATISTICS.md): the hourly rollup, with the edges of the range
read from ``floor_records``.

The range is on ``recorded_at`` (the journal's time of the record: what the floor indexes);
the ``hour``/``day``/``shift`` buckets go by the hand's ``started_at``, as
:class:`~dealer_assist.storage.stats.JournalStats` has them. ``floor_hourly`` (revision f0003)
holds each table's hands summed per recorded hour, started hour, game and dealer, so every
group is a sum of its rows; the whole recorded hours of ``[start, end)`` are read from it and
the parts of an hour at either edge from the records (``ix_floor_records_stats``): the same
figures as summing every record (:meth:`FloorStats.row_query`, kept as the reference and
compared with the rollup in tests/core/test_floor_stats.py). Drop and win are the ``wagered`` and
``house_net`` columns ingest read from each hand's settlement
(:mod:`dealer_assist.storage.search_columns`), summed as integers by PostgreSQL. A hold outside
its band is stored as a ``hold_variance`` alert of the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import sqlalchemy as sa

from dealer_assist.audit.stats import (
    HOLD_VARIANCE,
    UNKNOWN,
    ShiftPlan,
    StatsRow,
    VarianceAlert,
    check_groups,
    variance_alerts,
)
from dealer_assist.games.hold import Estimate
from dealer_assist.ports import TABLE_RECORD
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.floor.ingest import hour_of
from dealer_assist.storage.floor.schema import floor_hourly, floor_records, floor_tables

_R = floor_records.c
_H = floor_hourly.c
_HOUR = timedelta(hours=1)
#: the group columns of a record as :func:`_group_expr` reads them
_RECORD_KEYS = SimpleNamespace(
    table_id=_R.table_id, game=_R.game, dealer=_R.dealer, started=_R.started_at
)


def _utc(column: sa.ColumnElement[datetime]) -> sa.ColumnElement[datetime]:
    return sa.func.timezone("UTC", column)


def _shift_expr(started: sa.ColumnElement[datetime], plan: ShiftPlan) -> sa.ColumnElement[str]:
    """The shift's start as ``YYYY-MM-DD HH:00`` (ShiftPlan.label), in SQL; ``started`` may be
    truncated to its hour (shifts start on whole hours)."""
    local = _utc(started)
    hour = sa.extract("hour", local)
    day = sa.func.date_trunc("day", local)
    cases = [
        (hour >= h, day + sa.func.make_interval(0, 0, 0, 0, h))
        for h in sorted(plan.starts, reverse=True)
    ]
    last = plan.starts[-1]
    start = sa.case(
        *cases, else_=day - sa.text("interval '1 day'") + sa.func.make_interval(0, 0, 0, 0, last)
    )
    return sa.func.to_char(start, "YYYY-MM-DD HH24:MI")


def _group_expr(group: str, plan: ShiftPlan, cols: Any) -> sa.ColumnElement[str]:
    """The value of ``group`` over ``cols`` (``table_id``, ``game``, ``dealer`` (NULL: not
    recorded), ``started``: the start or its hour), ``floor_tables`` joined for the pit."""
    if group == "table":
        return cols.table_id  # type: ignore[no-any-return]
    if group == "pit":
        return sa.func.coalesce(floor_tables.c.pit, UNKNOWN)
    if group == "game":
        return cols.game  # type: ignore[no-any-return]
    if group == "dealer":
        return sa.func.coalesce(cols.dealer, UNKNOWN)
    if group == "shift":
        return _shift_expr(cols.started, plan)
    if group == "hour":
        return sa.func.to_char(_utc(cols.started), "YYYY-MM-DD HH24:00")
    return sa.func.to_char(_utc(cols.started), "YYYY-MM-DD")


def whole_hours(start: datetime, end: datetime) -> tuple[datetime, datetime] | None:
    """The whole UTC hours ``[lo, hi)`` inside ``[start, end)``, ``None`` when there is none
    (the rollup then answers nothing and the records everything)."""
    lo = hour_of(start)
    if lo < start:
        lo += _HOUR
    hi = hour_of(end)
    return (lo, hi) if lo < hi else None


class FloorStats:
    """:class:`~dealer_assist.audit.stats.StatsSource` over an open :class:`Floor`.

    ``rollup=False`` sums every record instead (:meth:`row_query`: the reference the rollup
    is checked against, and the bench's "before" figure)."""

    def __init__(
        self, floor: Floor, *, shifts: ShiftPlan | None = None, rollup: bool = True
    ) -> None:
        self.floor = floor
        self.shifts = shifts or ShiftPlan()
        self.rollup = rollup

    def stats(
        self,
        start: datetime,
        end: datetime,
        by: Sequence[str],
        *,
        pit: str | None = None,
        table_id: str | None = None,
    ) -> list[StatsRow]:
        """See :meth:`dealer_assist.audit.stats.StatsSource.stats`. Raises FloorError."""
        groups = check_groups(by)
        make = self.query if self.rollup else self.row_query
        query = make(start, end, groups, pit=pit, table_id=table_id)
        with self.floor._transaction("read the statistics") as conn:
            rows = conn.execute(query).all()
        return [
            StatsRow(
                groups,
                tuple(str(r[i]) for i in range(len(groups))),
                tuple(sorted(r.games)),
                int(r.hands),
                int(r.drop),
                int(r.win),
                r.first.astimezone(UTC),
                r.last.astimezone(UTC),
            )
            for r in rows
        ]

    def query(
        self,
        start: datetime,
        end: datetime,
        groups: Sequence[str],
        *,
        pit: str | None = None,
        table_id: str | None = None,
    ) -> sa.Select[*tuple[Any, ...]]:
        """The SELECT :meth:`stats` runs (for ``EXPLAIN`` in bench/floor_stats.py): the rollup's
        rows of the whole hours and the records of the edges, UNION ALL, then grouped."""
        hours = whole_hours(start, end)
        parts: list[sa.Select[Any]] = []
        if hours is None:
            parts.append(self._records(start, end, pit, table_id))
        else:
            lo, hi = hours
            if start < lo:
                parts.append(self._records(start, lo, pit, table_id))
            parts.append(self._hourly(lo, hi, pit, table_id))
            if hi < end:
                parts.append(self._records(hi, end, pit, table_id))
        fine = (parts[0] if len(parts) == 1 else sa.union_all(*parts)).subquery("fine")
        keys = [_group_expr(g, self.shifts, fine.c).label(f"k{i}") for i, g in enumerate(groups)]
        source: Any = fine
        if "pit" in groups:
            source = fine.join(floor_tables, floor_tables.c.table_id == fine.c.table_id)
        return (
            sa.select(
                *keys,
                sa.func.array_agg(sa.distinct(fine.c.game)).label("games"),
                sa.func.sum(fine.c.hands).label("hands"),
                sa.func.sum(fine.c.wagered).label("drop"),
                sa.func.sum(fine.c.house_net).label("win"),
                sa.func.min(fine.c.first).label("first"),
                sa.func.max(fine.c.last).label("last"),
            )
            .select_from(source)
            .group_by(*keys)
            .order_by(*keys)
        )

    @staticmethod
    def _tables(column: Any, pit: str | None, table_id: str | None) -> list[Any]:
        """The pit and table conditions on ``column`` (a table id), in each part so each reads
        its index per table."""
        out = []
        if pit is not None:
            out.append(
                column.in_(sa.select(floor_tables.c.table_id).where(floor_tables.c.pit == pit))
            )
        if table_id is not None:
            out.append(column == table_id)
        return out

    def _hourly(
        self, lo: datetime, hi: datetime, pit: str | None, table_id: str | None
    ) -> sa.Select[Any]:
        return sa.select(
            _H.table_id,
            _H.game,
            sa.func.nullif(_H.dealer, "").label("dealer"),
            _H.started_hour.label("started"),
            _H.hands,
            _H.wagered,
            _H.house_net,
            _H.first_started.label("first"),
            _H.last_ended.label("last"),
        ).where(_H.hour >= lo, _H.hour < hi, *self._tables(_H.table_id, pit, table_id))

    def _records(
        self, start: datetime, end: datetime, pit: str | None, table_id: str | None
    ) -> sa.Select[Any]:
        return sa.select(
            _R.table_id,
            _R.game,
            _R.dealer,
            _R.started_at.label("started"),
            sa.cast(sa.literal(1), sa.BigInteger).label("hands"),
            sa.func.coalesce(_R.wagered, 0).label("wagered"),
            sa.func.coalesce(_R.house_net, 0).label("house_net"),
            _R.started_at.label("first"),
            _R.ended_at.label("last"),
        ).where(
            _R.recorded_at >= start,
            _R.recorded_at < end,
            _R.status != TABLE_RECORD,
            *self._tables(_R.table_id, pit, table_id),
        )

    def row_query(
        self,
        start: datetime,
        end: datetime,
        groups: Sequence[str],
        *,
        pit: str | None = None,
        table_id: str | None = None,
    ) -> sa.Select[*tuple[Any, ...]]:
        """The reference: every record of the range summed (one index range per table of the
        pit on ``ix_floor_records_stats``)."""
        keys = [
            _group_expr(g, self.shifts, _RECORD_KEYS).label(f"k{i}") for i, g in enumerate(groups)
        ]
        query: sa.Select[*tuple[Any, ...]] = (
            sa.select(
                *keys,
                sa.func.array_agg(sa.distinct(_R.game)).label("games"),
                sa.func.count().label("hands"),
                sa.func.coalesce(sa.func.sum(_R.wagered), 0).label("drop"),
                sa.func.coalesce(sa.func.sum(_R.house_net), 0).label("win"),
                sa.func.min(_R.started_at).label("first"),
                sa.func.max(_R.ended_at).label("last"),
            )
            .select_from(floor_records.join(floor_tables, floor_tables.c.table_id == _R.table_id))
            .where(_R.recorded_at >= start, _R.recorded_at < end, _R.status != TABLE_RECORD)
            .group_by(*keys)
            .order_by(*keys)
        )
        if pit is not None:
            query = query.where(floor_tables.c.pit == pit)
        if table_id is not None:
            query = query.where(_R.table_id == table_id)
        return query

    def raise_variance_alerts(
        self,
        rows: Sequence[StatsRow],
        theory: Callable[[str], Estimate | None],
        *,
        min_hands: int = 30,
    ) -> list[tuple[int, VarianceAlert]]:
        """:func:`~dealer_assist.audit.stats.variance_alerts` of ``rows`` stored in the floor's
        alerts (kind ``hold_variance``, the row's table when it is grouped by table); the same
        group and range again returns the first alert's id. Returns ``(alert id, alert)``."""
        out: list[tuple[int, VarianceAlert]] = []
        for alert in variance_alerts(rows, theory, min_hands=min_hands):
            row = alert.row
            table = row.value("table") if "table" in row.by else None
            detail = f"{alert.sentence()} [{row.first.isoformat()} .. {row.last.isoformat()}]"
            # position: the range's end in seconds, so each range is its own alert
            position = int(row.last.timestamp())
            out.append((self.floor.raise_alert(HOLD_VARIANCE, table, position, detail), alert))
        return out
