"""The hand search over a SQLite journal's ``hand_search`` (revision 0004), by a plan of its own.

SQLite's planner has no statistics on a journal (nothing runs ``ANALYZE``) and cannot tell a
rare filter from a common one, so the search chooses the index (``INDEXED BY``):

1. Each filter with an index of its own is an *access*: the time range, voids, each flag (a
   partial index), the dealer, the amount, the game, the status, the table. Each is probed
   with a count bounded at ``budget`` (``SELECT count(*) FROM (... LIMIT budget)``: at most
   that many index entries read, never the hands).
2. The smallest access under the budget reads its hands, and SQLite sorts those (at most
   ``budget``); ``budget`` = sqrt(rows wanted x hands), where reading them costs about what
   walking the sort's index would (rows wanted / density), but at least ``MIN_BUDGET``: a
   filter correlated with the sort key (voids have no amount staked) makes the walk read far
   more than its density says, and 16,000 hands read and sorted take ~20 ms.
3. Otherwise every filter is common: walk an index in the sort's order (an access in that
   order, e.g. the voids' index for newest first, or the sort key's own) and stop after the
   page; the other filters are checked on the way.

The results are those of :meth:`~dealer_assist.pitboss.filters.HandFilter.matches`, in the
floor's order: the sort key, then table and position in the same direction, hands without
the key (``NULL`` amounts) last.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dealer_assist.pitboss.filters import HandFilter, HandRow, Page, Sort
from dealer_assist.storage.hand_index import (
    IX_DEALER,
    IX_GAME,
    IX_RECORDED,
    IX_STATUS,
    IX_TABLE,
    IX_TOP_AMOUNT,
    IX_VOIDS,
    IX_WAGERED,
    flag_index,
    flag_term,
    row_of_values,
)
from dealer_assist.storage.schema import UTCDateTime, hand_search

_COLUMNS = ", ".join(c.name for c in hand_search.c)
#: The index that gives each sort key's order (``None``: the table itself, in rowid order).
SORT_INDEX = {
    "recorded_at": IX_RECORDED,
    "table_id": IX_TABLE,
    "game": IX_GAME,
    "status": IX_STATUS,
    "top_amount": IX_TOP_AMOUNT,
    "wagered": IX_WAGERED,
    "position": None,
}
_NULLABLE = ("top_amount", "wagered")
MIN_BUDGET, _MAX_BUDGET = 16_000, 64_000
_VOID = "status = 'void'"  # as written, the partial index's own term
_ANY_TABLE, _TABLE = "+table_id = :table_id", "table_id = :table_id"


@dataclass
class Access:
    """A way into the hands: ``index``, the filter ``terms`` it narrows to (only its own
    columns, so a probe reads the index alone), the sort key it yields in order (or
    ``None``); ``count``: the probe's (bounded) count."""

    index: str
    terms: list[str]
    order: str | None
    count: int = field(default=-1)


@dataclass
class Query:
    """The WHERE terms of a filter and their bound values."""

    terms: list[str] = field(default_factory=list)
    params: dict[str, Any] = field(default_factory=dict)
    accesses: list[Access] = field(default_factory=list)


def query_of(where: HandFilter) -> Query:
    """The SQL terms of ``where`` on ``hand_search`` and the accesses it offers."""
    q = Query()
    span: list[str] = []
    if where.since is not None:
        span.append("recorded_at >= :since")
        q.params["since"] = where.since
    if where.until is not None:
        span.append("recorded_at < :until")
        q.params["until"] = where.until
    q.terms += span
    if span:
        q.accesses.append(Access(IX_RECORDED, span, "recorded_at"))
    if where.table_id is not None:
        # "+": not an equality SQLite's ORDER BY analysis knows, which would make it sort what
        # an index walk (key, table_id, hand_id) already gives in order; IX_TABLE seeks on it
        q.terms.append(_ANY_TABLE)
        q.params["table_id"] = where.table_id
        q.accesses.append(Access(IX_TABLE, [_TABLE], "table_id"))
    if where.game is not None:
        q.terms.append("game = :game")
        q.params["game"] = where.game
        q.accesses.append(Access(IX_GAME, ["game = :game"], "game"))
    if where.seat is not None:
        q.terms.append("instr(seats, :seat) > 0")
        q.params["seat"] = f",{where.seat},"
    void = where.outcome == "void" or where.void_reason is not None
    if void:
        q.terms.append(_VOID)
        q.accesses.append(Access(IX_VOIDS, [_VOID, *span], "recorded_at"))
    if where.outcome == "settled":
        q.terms.append("status = 'settled'")
        q.accesses.append(Access(IX_STATUS, ["status = 'settled'"], "status"))
    if where.void_reason:  # "" matches every void (Python's "" in text)
        q.terms.append("instr(void_folded, :reason) > 0")
        q.params["reason"] = where.void_reason.lower()
    if where.min_amount is not None:
        if where.min_amount == 0:  # (top_amount or 0) >= 0: an unknown amount counts as 0
            q.terms.append("(top_amount IS NULL OR top_amount >= 0)")
        else:
            q.terms.append("top_amount >= :min_amount")
            q.params["min_amount"] = where.min_amount
            q.accesses.append(Access(IX_TOP_AMOUNT, ["top_amount >= :min_amount"], "top_amount"))
    for flag in dict.fromkeys(where.flags):
        q.terms.append(flag_term(flag))
        q.accesses.append(Access(flag_index(flag), [flag_term(flag), *span], "recorded_at"))
    if where.dealer is not None:
        q.terms.append("dealer = :dealer")
        q.params["dealer"] = where.dealer
        q.accesses.append(Access(IX_DEALER, ["dealer = :dealer", *span], "recorded_at"))
    return q


def budget(wanted: int, hands: int, least: int = MIN_BUDGET) -> int:
    """The most hands worth reading and sorting for ``wanted`` rows of ``hands`` (see the
    module doc), within ``least``..64,000."""
    return max(least, min(_MAX_BUDGET, math.isqrt(max(wanted * hands, 0))))


def choose(
    conn: Connection, q: Query, sort: Sort, limit: int, least: int = MIN_BUDGET
) -> Access | None:
    """The access to read by (``None``: the table in rowid order); probes ``q.accesses``."""
    if q.accesses:
        hands = conn.exec_driver_sql("SELECT max(hand_id) FROM hand_search").scalar() or 0
        cap = budget(limit, int(hands), least)
        for a in q.accesses:
            sql = (
                f"SELECT count(*) FROM (SELECT 1 FROM hand_search INDEXED BY {a.index} "
                f"WHERE {' AND '.join(a.terms)} LIMIT {cap})"
            )
            a.count = int(conn.execute(_text(sql, q.params)).scalar_one())
        small = min(q.accesses, key=lambda a: (a.count, a.order != sort.key))
        if small.count < cap:
            return small
        ordered = [a for a in q.accesses if a.order == sort.key and a.index != SORT_INDEX[sort.key]]
        if ordered:
            return ordered[0]
    index = SORT_INDEX[sort.key]
    return None if index is None else Access(index, [], sort.key)


def search(
    conn: Connection,
    where: HandFilter,
    sort: Sort,
    offset: int,
    limit: int,
    *,
    least: int = MIN_BUDGET,
) -> Page:
    """Rows ``offset..offset+limit`` of the hands matching ``where`` in ``sort`` order (one
    more read to know whether more follow). ``conn``: a SQLite journal at revision 0004;
    ``least``: the least budget (tests of small journals lower it to walk indexes too)."""
    q = query_of(where)
    access = choose(conn, q, sort, offset + limit + 1, least)
    if access is not None and access.index == IX_TABLE:
        q.terms = [_TABLE if t == _ANY_TABLE else t for t in q.terms]
    if sort.key in _NULLABLE and not sort.descending:
        rows = _nulls_last(conn, q, access, sort, offset, limit)
    else:
        rows = _rows(conn, q, access, sort, offset, limit + 1)
    return Page(tuple(rows[:limit]), offset, len(rows) > limit)


def _nulls_last(
    conn: Connection, q: Query, access: Access | None, sort: Sort, offset: int, limit: int
) -> list[HandRow]:
    """Ascending on a nullable key: SQLite puts NULL first, the floor last. The known values
    first; then, when the page reaches past them, the NULL rows (by table and position)."""
    key = sort.key
    known = Query([*q.terms, f"{key} IS NOT NULL"], q.params)
    rows = _rows(conn, known, access, sort, offset, limit + 1)
    if len(rows) > limit:
        return rows
    if rows or offset == 0:
        seen = offset + len(rows)
    else:  # the page starts past the known rows: how many there are
        sql = f"SELECT count(*) FROM hand_search{_hint(access)} WHERE {' AND '.join(known.terms)}"
        seen = int(conn.execute(_text(sql, q.params)).scalar_one())
    unknown = Query([*q.terms, f"{key} IS NULL"], q.params)
    more = _rows(
        conn, unknown, access, Sort("table_id", False), max(0, offset - seen), limit + 1 - len(rows)
    )
    return rows + more


def _rows(
    conn: Connection, q: Query, access: Access | None, sort: Sort, offset: int, count: int
) -> list[HandRow]:
    way = "DESC" if sort.descending else "ASC"
    keys = {"position": ["hand_id"], "table_id": ["table_id", "hand_id"]}.get(
        sort.key, [sort.key, "table_id", "hand_id"]
    )
    order = ", ".join(f"{k} {way}" for k in keys)
    where = f" WHERE {' AND '.join(q.terms)}" if q.terms else ""
    sql = (
        f"SELECT {_COLUMNS} FROM hand_search{_hint(access)}{where} ORDER BY {order} "
        f"LIMIT {int(count)} OFFSET {int(offset)}"
    )
    result = conn.execute(_text(sql, q.params).columns(*hand_search.c))
    return [row_of_values(r._mapping) for r in result]


def _hint(access: Access | None) -> str:
    return " NOT INDEXED" if access is None else f" INDEXED BY {access.index}"


def _text(sql: str, params: dict[str, Any]) -> sa.TextClause:
    """``sql`` with the parameters it names bound (times as the journal stores them)."""
    binds = [
        sa.bindparam(k, v, type_=UTCDateTime() if k in ("since", "until") else None)
        for k, v in params.items()
        if f":{k}" in sql
    ]
    return sa.text(sql).bindparams(*binds)
