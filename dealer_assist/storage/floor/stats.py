"""Statistics on the floor (docs/STATISTICS.md): one SQL aggregation over ``floor_records``.

The range is on ``recorded_at`` (``ix_floor_records_table_recorded``: per table, so a pit's
month is one index range per table of the pit; ``ix_floor_records_recorded`` otherwise); drop
and win are the ``wagered`` and ``house_net`` columns ingest read from each hand's settlement
(:mod:`dealer_assist.storage.floor.summary`), summed as integers by PostgreSQL. Grouping by
``dealer`` reads the dealer from each record's content (``extra.dealer``), the only group that
parses JSON. A hold outside its band is stored as a ``hold_variance`` alert of the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa

from dealer_assist.audit.stats import (
    DEALER_KEY,
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
from dealer_assist.storage.floor.schema import floor_records, floor_tables

_R = floor_records.c


def _utc(column: sa.ColumnElement[datetime]) -> sa.ColumnElement[datetime]:
    return sa.func.timezone("UTC", column)


def _shift_expr(plan: ShiftPlan) -> sa.ColumnElement[str]:
    """The shift's start as ``YYYY-MM-DD HH:00`` (ShiftPlan.label), in SQL."""
    local = _utc(_R.started_at)
    hour = sa.extract("hour", local)
    day = sa.func.date_trunc("day", local)
    cases = [
        (hour >= h, day + sa.func.make_interval(0, 0, 0, 0, h))
        for h in sorted(plan.starts, reverse=True)
    ]
    last = plan.starts[-1]
    start = sa.case(*cases, else_=day - sa.text("interval '1 day'") +
                    sa.func.make_interval(0, 0, 0, 0, last))  # fmt: skip
    return sa.func.to_char(start, "YYYY-MM-DD HH24:MI")


def _group_expr(group: str, plan: ShiftPlan) -> sa.ColumnElement[str]:
    if group == "table":
        return _R.table_id
    if group == "pit":
        return sa.func.coalesce(floor_tables.c.pit, UNKNOWN)
    if group == "game":
        return _R.game
    if group == "dealer":
        content = sa.cast(_R.content, sa.dialects.postgresql.JSONB)
        return sa.func.coalesce(content["extra"][DEALER_KEY].astext, UNKNOWN)
    if group == "shift":
        return _shift_expr(plan)
    if group == "hour":
        return sa.func.to_char(_utc(_R.started_at), "YYYY-MM-DD HH24:00")
    return sa.func.to_char(_utc(_R.started_at), "YYYY-MM-DD")


class FloorStats:
    """:class:`~dealer_assist.audit.stats.StatsSource` over an open :class:`Floor`."""

    def __init__(self, floor: Floor, *, shifts: ShiftPlan | None = None) -> None:
        self.floor = floor
        self.shifts = shifts or ShiftPlan()

    def stats(
        self, start: datetime, end: datetime, by: Sequence[str], *,
        pit: str | None = None, table_id: str | None = None,
    ) -> list[StatsRow]:  # fmt: skip
        """See :meth:`dealer_assist.audit.stats.StatsSource.stats`. Raises FloorError."""
        groups = check_groups(by)
        query = self.query(start, end, groups, pit=pit, table_id=table_id)
        with self.floor._transaction("read the statistics") as conn:
            rows = conn.execute(query).all()
        return [
            StatsRow(groups, tuple(str(r[i]) for i in range(len(groups))),
                     tuple(sorted(r.games)), int(r.hands), int(r.drop), int(r.win),
                     r.first.astimezone(UTC), r.last.astimezone(UTC))
            for r in rows
        ]  # fmt: skip

    def query(
        self, start: datetime, end: datetime, groups: Sequence[str], *,
        pit: str | None = None, table_id: str | None = None,
    ) -> sa.Select[*tuple[Any, ...]]:  # fmt: skip
        """The SELECT :meth:`stats` runs (for ``EXPLAIN`` in bench/floor_stats.py)."""
        keys = [_group_expr(g, self.shifts).label(f"k{i}") for i, g in enumerate(groups)]
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
        self, rows: Sequence[StatsRow], theory: Callable[[str], Estimate | None], *,
        min_hands: int = 30,
    ) -> list[tuple[int, VarianceAlert]]:  # fmt: skip
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
