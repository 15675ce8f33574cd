"""The floor's statistics from the hourly rollup equal the sum of every record (the row query,
the reference) and the pure aggregation of the same hands, for ranges off the hour, every
group, two pits, resent batches; on the real PostgreSQL."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest

from dealer_assist.audit.stats import GROUPS, ShiftPlan, aggregate
from dealer_assist.ports import StoredHand
from dealer_assist.storage.floor import Floor
from dealer_assist.storage.floor.stats import FloorStats, whole_hours
from dealer_assist.storage.stats import hand_fact
from tests.core.test_floor_hourly import T0, chain, floor_at_head
from tests.fixtures.floor_fixtures import FloorDb

pytestmark = pytest.mark.postgres

TABLES = (
    ("UTH-1", "uth", "P1"),
    ("UTH-2", "uth", "P1"),
    ("BJ-3", "blackjack", "P1"),
    ("TCP-4", "three_card", "P2"),
    ("UTH-5", "uth", None),
)


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from floor_at_head()


@pytest.fixture
def dealt(floor_db: FloorDb) -> Iterator[tuple[Floor, dict[str, list[StoredHand]]]]:
    """Five tables, a few hundred hands each over a day and more, ingested in random batches
    with some batches sent twice (a forwarder's retry)."""
    rng = random.Random(2026)
    hands = {
        t: chain(
            t,
            g,
            rng.randint(250, 400),
            rng,
            start=T0 + timedelta(minutes=7 * i),
            dealers=("D-1", "D-2", "D-3", None),
        )
        for i, (t, g, _) in enumerate(TABLES)
    }
    with Floor(floor_db.url) as floor:
        for table_id, game, pit in TABLES:
            floor.register(table_id, game, pit=pit)
            todo, at = hands[table_id], 0
            while at < len(todo):
                size = rng.randint(1, 60)
                assert floor.ingest(table_id, todo[at : at + size]).refused is None
                if rng.random() < 0.3:  # resent, and resent overlapping the head
                    back = rng.randint(0, at + size)
                    floor.ingest(table_id, todo[back : at + size + rng.randint(0, 5)])
                at += size
        yield floor, hands


def ranges(rng: random.Random) -> list[tuple[datetime, datetime]]:
    """Ranges off the hour (random seconds and microseconds), inside one hour, on whole hours,
    starting on an hour and ending off one, the whole floor."""
    out = [
        (T0 - timedelta(days=1), T0 + timedelta(days=30)),
        (
            T0.replace(minute=0, second=0, microsecond=0) + timedelta(hours=2),
            T0.replace(minute=0, second=0, microsecond=0) + timedelta(hours=9),
        ),
        (
            T0.replace(minute=0, second=0, microsecond=0) + timedelta(hours=3),
            T0 + timedelta(hours=11, minutes=1),
        ),
        (T0 + timedelta(hours=4, minutes=3), T0 + timedelta(hours=4, minutes=50)),
    ]
    for _ in range(8):
        start = T0 + timedelta(
            seconds=rng.randint(-3600, 30 * 3600), microseconds=rng.randint(0, 999_999)
        )
        out.append(
            (
                start,
                start
                + timedelta(
                    seconds=rng.randint(60, 20 * 3600), microseconds=rng.randint(1, 999_999)
                ),
            )
        )
    return out


def test_the_rollup_gives_exactly_what_every_record_gives(
    dealt: tuple[Floor, dict[str, list[StoredHand]]],
) -> None:
    floor, hands = dealt
    rng = random.Random(5)
    pits = {t: p for t, _, p in TABLES}
    facts = [(h, hand_fact(h, pits[h.table_id])) for hs in hands.values() for h in hs]
    groupings = [[g] for g in GROUPS] + [list(c) for c in itertools.combinations(GROUPS, 2)]
    groupings += [["pit", "table", "dealer", "shift"], ["dealer", "game", "day", "hour"]]
    plan = ShiftPlan((0, 8, 16))
    rollup, rows = FloorStats(floor, shifts=plan), FloorStats(floor, shifts=plan, rollup=False)
    checked = 0
    for start, end in ranges(rng):
        expected_hands = sum(1 for h, f in facts if f is not None and start <= h.recorded_at < end)
        for by in groupings:
            for where in (
                {},
                {"pit": "P1"},
                {"table_id": "BJ-3"},
                {"pit": "P2", "table_id": "UTH-1"},
            ):
                got = rollup.stats(start, end, by, **where)
                assert got == rows.stats(start, end, by, **where), (start, end, by, where)
                pure = aggregate(
                    [
                        f
                        for h, f in facts
                        if f is not None
                        and start <= h.recorded_at < end
                        and f.pit == where.get("pit", f.pit)
                        and f.table_id == where.get("table_id", f.table_id)
                    ],
                    by,
                    plan,
                )
                assert got == pure, (start, end, by, where)
                checked += len(got)
        assert sum(r.hands for r in rollup.stats(start, end, ["table"])) == expected_hands
    assert checked > 1000
    # the ranges did use the rollup and the edges both
    assert any(whole_hours(s, e) is not None and s < whole_hours(s, e)[0] for s, e in ranges(rng))  # type: ignore[index]


def test_whole_hours_of_a_range() -> None:
    h = T0.replace(minute=0, second=0, microsecond=0)
    assert whole_hours(h, h + timedelta(hours=2)) == (h, h + timedelta(hours=2))
    assert whole_hours(h + timedelta(microseconds=1), h + timedelta(hours=2, minutes=5)) == (
        h + timedelta(hours=1),
        h + timedelta(hours=2),
    )
    assert whole_hours(h + timedelta(minutes=1), h + timedelta(minutes=59)) is None
    assert whole_hours(h + timedelta(minutes=1), h + timedelta(hours=1, minutes=1)) is None


def test_a_dealer_the_search_columns_refuse_is_unknown_on_both_sides(floor_db: FloorDb) -> None:
    rng = random.Random(9)
    hands = chain("UTH-1", "uth", 200, rng, dealers=("D-1", "", "x" * 65, 42, None))
    with Floor(floor_db.url) as floor:
        floor.register("UTH-1", "uth", pit="P1")
        assert floor.ingest("UTH-1", hands).stored == 200
        start, end = T0 + timedelta(minutes=17, seconds=3), T0 + timedelta(hours=9, seconds=1)
        got = FloorStats(floor).stats(start, end, ["dealer", "hour"])
    facts = [
        f for h in hands if (f := hand_fact(h, "P1")) is not None and start <= h.recorded_at < end
    ]
    assert got == aggregate(facts, ["dealer", "hour"])
    assert {r.value("dealer") for r in got} == {"D-1", "-"}
