"""The pit boss's hand search over one table's journal, opened read-only
(:class:`~dealer_assist.pitboss.filters.HandSource`; docs/PITBOSS.md).

The journal is verified when it is opened and its search index rebuilt from the verified
hands (:class:`~dealer_assist.storage.verified_index.VerifiedIndex`): the journal's own
``hand_search`` table is not hashed, so it is never read here. The search is SQL on the
rebuilt index (:mod:`dealer_assist.storage.search_sql`), in the floor's order
(:func:`in_order` says the same in Python); entries appended since are verified and indexed at
the next search or floor view; a hand opened is checked against its verified hash.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

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
    status_of,
)
from dealer_assist.ports import StoredHand
from dealer_assist.storage import search_sql
from dealer_assist.storage.access import LocalAcks
from dealer_assist.storage.hand_index import IX_VOIDS, flag_index, flag_term, row_of_values
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.schema import UTCDateTime, hand_search
from dealer_assist.storage.signing import KeyRing
from dealer_assist.storage.verified_index import VerifiedIndex

_ALERT_FLAGS = ("device_fault", "link_lost", "identity_changed")


class JournalSearch:
    """One journal at ``path`` (a SQLite file), read-only; acknowledgements in
    ``pitboss_acks.jsonl`` beside it (:class:`~dealer_assist.storage.access.LocalAcks`).

    Raises (``open``): JournalError: no journal there, or a schema this program cannot read;
    JournalNotVerifiedError: it does not verify (the sentence names the hand and why).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        least_budget: int = search_sql.MIN_BUDGET,
        keys: KeyRing | None = None,
    ) -> None:
        self.path = Path(path)
        self.least_budget = least_budget  # see search_sql: hands read and sorted at least
        self._journal = Journal(str(path), create=False, read_only=True)
        self.index = VerifiedIndex(self._journal, keys)
        self.acks = LocalAcks(self.path.parent)

    def open(self) -> None:
        """Open the journal read-only, verify it and build the index (see the module doc)."""
        self._journal.open()
        try:
            self.index.build()
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        """Close the journal and drop the index; safe twice."""
        self._journal.close()
        self.index.close()

    def search(self, where: HandFilter, sort: Sort, offset: int, limit: int) -> Page:
        """Rows ``offset..offset+limit`` of the matching hands in ``sort`` order. Raises
        JournalError (the journal cannot be read), JournalNotVerifiedError (it stopped
        verifying)."""
        self.index.catch_up()
        with self.index.reading() as conn:
            return search_sql.search(conn, where, sort, offset, limit, least=self.least_budget)

    def _tables(self, now: datetime) -> list[tuple[str, HandRow, int, list[HandRow]]]:
        """Each table's (id, last hand, hands in the hour before ``now``, its hands that may
        be alerts: voids and the alert flags', in position order)."""
        self.index.catch_up()
        with self.index.reading() as conn:
            return [_table_sql(conn, t, now) for t in _table_ids(conn)]

    def hand(self, table_id: str, position: int) -> StoredHand:
        """The hand at ``position``, as verified. Raises JournalError when none, or of another
        table; JournalNotVerifiedError when it changed since."""
        hand = self.index.check(self._journal.get_hand(position))
        if hand.table_id != table_id:
            raise JournalError(
                f"hand {position} of this journal is of {hand.table_id}, not {table_id}"
            )
        return hand

    def snapshot(self, now: datetime) -> FloorSnapshot:
        """The journal's tables (usually one) and its alerts: each void and each hand with a
        device fault, link loss or identity change, acknowledged or not."""
        acks = self.acks.all()
        tables, alerts = [], []
        for table_id, last, hour, mine in self._tables(now):
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


def in_order(rows: list[HandRow], sort: Sort) -> list[HandRow]:
    """``rows`` in ``sort`` order as the floor gives them: by the key, then table and position
    in the same direction; rows without the key (``None``) last, by table and position."""
    key = sort.key
    known = [r for r in rows if getattr(r, key) is not None]
    unknown = [r for r in rows if getattr(r, key) is None]
    known.sort(key=lambda r: (getattr(r, key), r.table_id, r.position), reverse=sort.descending)
    unknown.sort(key=lambda r: (r.table_id, r.position), reverse=sort.descending)
    return known + unknown


def _table_ids(conn: Any) -> list[str]:
    """The tables of ``hand_search``, one index seek each (not a walk of every hand)."""
    out: list[str] = []
    while True:
        sql = "SELECT min(table_id) FROM hand_search WHERE table_id > :after"
        found = conn.execute(sa.text(sql).bindparams(after=out[-1] if out else "")).scalar()
        if found is None:
            return out
        out.append(str(found))


def _table_sql(conn: Any, table_id: str, now: datetime) -> tuple[str, HandRow, int, list[HandRow]]:
    """:meth:`JournalSearch._tables` for one table, by the indexes of ``hand_search``."""
    columns = hand_search.c

    def rows(sql: str, **params: Any) -> list[HandRow]:
        result = conn.execute(sa.text(sql).bindparams(t=table_id, **params).columns(*columns))
        return [row_of_values(r._mapping) for r in result]

    last = rows(
        "SELECT * FROM hand_search INDEXED BY ix_hand_search_table WHERE table_id = :t "
        "ORDER BY table_id DESC, hand_id DESC LIMIT 1"
    )
    since = sa.bindparam("since", now - timedelta(hours=1), type_=UTCDateTime())
    hour = conn.execute(
        sa.text(
            "SELECT count(*) FROM hand_search INDEXED BY ix_hand_search_recorded "
            "WHERE recorded_at >= :since AND table_id = :t"
        ).bindparams(since, t=table_id)
    ).scalar_one()
    found: dict[int, HandRow] = {}
    alerts = [(IX_VOIDS, "status = 'void'")] + [(flag_index(f), flag_term(f)) for f in _ALERT_FLAGS]
    for index, term in alerts:
        sql = f"SELECT * FROM hand_search INDEXED BY {index} WHERE {term} AND table_id = :t"
        found.update((r.position, r) for r in rows(sql))
    return table_id, last[0], int(hour), sorted(found.values(), key=lambda r: r.position)
