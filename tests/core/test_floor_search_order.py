"""The floor's hand search sorted by an amount (revision f0005's indexes, the plain order when a
minimum payout or pot leaves no NULL): every page, in both directions, is the reference order
— NULLS LAST, ties by table and position in the sort's direction — computed here from the
journal rule's rows; on the real PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta

import pytest

from dealer_assist.pitboss.filters import HandFilter, HandRow, Sort, row_of
from dealer_assist.ports import TABLE_RECORD
from dealer_assist.storage.floor import Floor
from dealer_assist.storage.floor.search import FloorSearch
from dealer_assist.storage.search_columns import search_columns
from tests.core.test_floor_hourly import T0, chain, floor_at_head
from tests.fixtures.floor_fixtures import FloorDb

pytestmark = pytest.mark.postgres


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from floor_at_head()


def reference(rows: list[HandRow], where: HandFilter, sort: Sort) -> list[HandRow]:
    """``rows`` that match ``where`` in ``sort``'s order, NULLS LAST, ties by table, position."""
    hits = sorted(
        (r for r in rows if where.matches(r)),
        key=lambda r: (r.table_id, r.position),
        reverse=sort.descending,
    )
    value = {r: getattr(r, sort.key) for r in hits}
    # sorted is stable: the ties keep their order
    present = sorted(
        (r for r in hits if value[r] is not None), key=lambda r: value[r], reverse=sort.descending
    )
    return present + [r for r in hits if value[r] is None]


def paged(search: FloorSearch, where: HandFilter, sort: Sort) -> list[HandRow]:
    out: list[HandRow] = []
    while True:
        page = search.search(where, sort, len(out), 7)
        out += page.rows
        if not page.more:
            return out


def test_amount_orders_page_by_page_as_the_reference(floor_db: FloorDb) -> None:
    rng = random.Random(5)
    hands = [*chain("UTH-1", "uth", 150, rng), *chain("UTH-2", "uth", 120, rng)]
    with Floor(floor_db.url) as floor:
        for table_id in ("UTH-1", "UTH-2"):
            mine = [h for h in hands if h.table_id == table_id]
            assert floor.ingest(table_id, mine).stored == len(mine)
    rows = [row_of(h, search_columns(h)) for h in hands if h.status != TABLE_RECORD]
    assert any(r.wagered is None for r in rows) and any(r.top_amount is None for r in rows)
    assert len({r.wagered for r in rows}) < len(rows)  # ties to break
    search = FloorSearch(floor_db.url)
    search.open()
    try:
        span = (T0 + timedelta(hours=1), T0 + timedelta(hours=4))
        filters = (
            HandFilter(),
            HandFilter(table_id="UTH-2"),
            HandFilter(table_id="UTH-1", since=span[0], until=span[1]),
            HandFilter(min_amount=1),
            HandFilter(min_amount=0, table_id="UTH-1"),
            HandFilter(outcome="void"),
        )
        for where in filters:
            for key in ("wagered", "top_amount"):
                for descending in (True, False):
                    sort = Sort(key, descending)
                    assert paged(search, where, sort) == reference(rows, where, sort), (where, sort)
    finally:
        search.close()
