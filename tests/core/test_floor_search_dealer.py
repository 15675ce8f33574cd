"""The floor's hand search by dealer (revision f0003's ``dealer`` column): the rows a dealer
filter returns, with the dealer filled in, are the journal rule's (:func:`row_of` with the
search columns, :meth:`HandFilter.matches`); on the real PostgreSQL."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from dealer_assist.pitboss.filters import HandFilter, Sort, row_of
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


def test_the_dealer_filter_finds_that_dealers_hands_newest_first(floor_db: FloorDb) -> None:
    rng = random.Random(11)
    dealers = ("D-1", "D-2", "Zoë ♠", None, 7)
    hands = [
        *chain("UTH-1", "uth", 120, rng, dealers=dealers),
        *chain("BJ-2", "blackjack", 90, rng, dealers=dealers),
    ]
    with Floor(floor_db.url) as floor:
        for table_id in ("UTH-1", "BJ-2"):
            mine = [h for h in hands if h.table_id == table_id]
            assert floor.ingest(table_id, mine).stored == len(mine)
    expected_rows = [row_of(h, search_columns(h)) for h in hands if h.status != TABLE_RECORD]
    search = FloorSearch(floor_db.url)
    search.open()
    try:
        for where in (
            HandFilter(dealer="D-1"),
            HandFilter(dealer="Zoë ♠", game="blackjack"),
            HandFilter(dealer="D-2", since=T0, until=T0.replace(hour=12)),
            HandFilter(dealer="nobody"),
            HandFilter(dealer="7"),
        ):
            page = search.search(where, Sort(), 0, 500)
            expected = sorted(
                (r for r in expected_rows if where.matches(r)),
                key=lambda r: (r.recorded_at, r.table_id, r.position),
                reverse=True,
            )
            assert list(page.rows) == expected, where
            assert all(r.dealer == where.dealer for r in page.rows)
        assert len(search.search(HandFilter(dealer="D-1"), Sort(), 0, 500).rows) > 20
        # every row carries its dealer (None where the table recorded none or not a badge)
        everything = search.search(HandFilter(), Sort("position", False), 0, 1000).rows
        assert {r.dealer for r in everything} == {"D-1", "D-2", "Zoë ♠", None}
        assert list(everything) == sorted(expected_rows, key=lambda r: (r.position, r.table_id))
    finally:
        search.close()
