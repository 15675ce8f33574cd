"""The pit boss's hand search over one table's SQLite journal of 1,000,000 hands
(the floor's p95 <= 50 ms, "also the same search over one table's SQLite journal").

The journal is built through the product's :class:`~dealer_assist.storage.Journal`
(:meth:`~dealer_assist.storage.Journal.append_hands`, batches of ``--batch``; chained, signed
and with its search columns as a table writes them): ``--varied`` hands (10,000) made from the
seven-seat sample of ``journal_hand.json`` by ``floor_search.vary`` (seats, nets, rare large
payouts, 1 % voids, manual cards; camera-read cards on every third run of 1,000), appended in
turn, each with its own uid and times, a dealer change every 40 hands (12 dealers), recorded
two minutes apart (``clock``: 1,000,000 hands are about four years of one table). Written
with ``synchronous=OFF`` as ``floor_search.py`` does.
``--keep`` keeps it in ``/tmp/bench_journal_search`` and tops it up when run again.

Timed: :meth:`~dealer_assist.storage.search.JournalSearch.search` (50 rows a page, read-only
open as the pit-boss application opens a journal) over the seven kinds of ``floor_search.py``
(``kinds``) and a dealer over 5 % of the time, ``--runs`` each, interleaved; p50 / p95 / max.
Before them, with ``--migration``, the migration 0003 -> 0004 of the same journal: its
``hand_search`` dropped and the revision set back to 0003 (0004 only adds that table), then
the writable open that upgrades it timed (every hand read, its columns computed, the indexes
built); the searches then run on what the migration made.

    nice python bench/journal_search.py [--hands 1000000] [--runs 40] [--keep] [--migration]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))
from floor_search import Case, _no_fsync, game_of, kinds, report, time_searches, vary
from journal_append import SAMPLE, entry

from dealer_assist.pitboss.filters import HandFilter, Sort
from dealer_assist.storage import HandEntry, Journal
from dealer_assist.storage.search import JournalSearch

TABLE = "T01"
DEALERS = tuple(f"D-{100 + i}" for i in range(12))
START = datetime(2026, 1, 1, tzinfo=UTC)
STEP = timedelta(minutes=2)


def dealer_of(n: int) -> str:
    return DEALERS[(n // 40) % len(DEALERS)]


def varied(kinds_of: int) -> list[HandEntry]:
    """``kinds_of`` hands made by ``floor_search.vary`` (its deep copies are most of the
    time of a fill: the journal reuses them in turn, each with its own uid, times, dealer)."""
    sample = json.loads(SAMPLE.read_text(encoding="utf-8"))
    text = json.dumps({**sample, "table_id": TABLE, "game": game_of(0)})
    return [
        vary(n, entry(n, text), (n // 1000) % 3 == 2, random.Random(f"{TABLE}-{n}"))
        for n in range(kinds_of)
    ]


def build(path: Path, hands: int, batch: int, kinds_of: int) -> None:
    """The journal at ``path`` topped up to ``hands`` entries; prints the rate."""
    sa.event.listen(sa.pool.Pool, "checkout", _no_fsync)
    have = 0
    if path.exists():  # read-only: a journal left at 0003 is upgraded by --migration, timed
        with Journal(str(path), create=False, read_only=True) as probe:
            have = probe.count()
    if have >= hands:
        return
    pool = varied(min(kinds_of, hands))
    ticks = iter(START + STEP * i for i in range(have, hands + 1))
    t0 = time.perf_counter()
    with Journal(str(path), supervise=False, clock=lambda: next(ticks)) as journal:
        for lo in range(have, hands, batch):
            entries = []
            for n in range(lo, min(hands, lo + batch)):
                start = START + STEP * n - timedelta(seconds=100)
                e = dataclasses.replace(
                    pool[n % len(pool)],
                    hand_uid=f"{TABLE}-{n}",
                    started_at=start,
                    ended_at=start + STEP / 2,
                    extra={"dealer": dealer_of(n)},
                )
                entries.append(e)
            journal.append_hands(entries)
            if (lo // batch) % 50 == 0:
                rate = (lo + len(entries) - have) / (time.perf_counter() - t0)
                print(f"  {lo + len(entries):,} hands ({rate:,.0f}/s)", flush=True)
    wall = time.perf_counter() - t0
    print(
        f"built: {hands - have:,} hands appended in {wall:.0f} s "
        f"({(hands - have) / wall:,.0f}/s, batches of {batch}; {len(pool):,} varied hands "
        f"in turn)"
    )


def sizes(path: Path) -> str:
    with sqlite3.connect(path) as con:
        rows = dict(
            con.execute(
                "SELECT CASE WHEN name LIKE '%hand_search%' THEN 'search' ELSE 'rest' END, "
                "sum(pgsize) FROM dbstat GROUP BY 1"
            ).fetchall()
        )
    mib = {k: v / 2**20 for k, v in rows.items()}
    return (
        f"{path.stat().st_size / 2**20:,.0f} MiB file; hand_search with its indexes "
        f"{mib.get('search', 0):,.0f} MiB"
    )


def draws(first: datetime, last: datetime, rng: random.Random) -> dict[str, Callable[[], Case]]:
    """The floor bench's kinds over this one table, and the dealer's."""
    out = kinds([TABLE], first, last, rng)
    span = last - first

    def dealer() -> Case:
        since = first + span * rng.uniform(0, 0.95)
        until = since + span * 0.05
        return HandFilter(dealer=rng.choice(DEALERS), since=since, until=until), Sort(), 0

    out["dealer+dates"] = dealer
    return out


def timed(path: Path, runs: int, rng: random.Random) -> None:
    t = time.perf_counter()
    search = JournalSearch(path)
    search.open()  # the whole journal verified, its index rebuilt in memory
    try:
        opened = time.perf_counter() - t
        t = time.perf_counter()
        first = search.search(HandFilter(), Sort(descending=False), 0, 1).rows[0].recorded_at
        last = search.search(HandFilter(), Sort(), 0, 1).rows[0].recorded_at
        print(
            f"  open (verify {search.index.position:,} entries, rebuild the index) "
            f"{opened:.1f} s; first searches {1000 * (time.perf_counter() - t):.1f} ms; "
            f"{runs} searches per kind, 50 rows a page"
        )
        kinds_now = draws(first, last, rng)
        time_searches(search, kinds_now, 2)  # the page cache
        report(time_searches(search, kinds_now, runs))
    finally:
        search.close()


def migration(path: Path) -> None:
    """Back to 0003 (``hand_search`` dropped), then the writable open that upgrades, timed."""
    with sqlite3.connect(path) as con:
        con.execute("DROP TABLE IF EXISTS hand_search")
        con.execute("UPDATE alembic_version SET version_num = '0003'")
        hands = con.execute("SELECT max(hand_id) FROM hands").fetchone()[0]
    t = time.perf_counter()
    with Journal(str(path), supervise=False) as journal:
        revision = journal.schema_revision
    wall = time.perf_counter() - t
    print(f"migration 0003 -> {revision}: {hands:,} hands in {wall:.0f} s ({hands / wall:,.0f}/s)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=40, help="searches timed per kind")
    parser.add_argument("--batch", type=int, default=1000, help="hands per append_hands")
    parser.add_argument("--varied", type=int, default=10_000, help="distinct vary() hands")
    parser.add_argument("--keep", action="store_true", help="keep and reuse the journal")
    parser.add_argument("--migration", action="store_true", help="time 0003 -> 0004 too")
    args = parser.parse_args()
    folder = Path("/tmp/bench_journal_search" if args.keep else tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "journal.db"
    build(path, args.hands, args.batch, args.varied)
    if args.migration:
        migration(path)
    print(f"journal: {args.hands:,} entries of {TABLE}; {sizes(path)}")
    timed(path, args.runs, random.Random(16))
    return 0


if __name__ == "__main__":
    sys.exit(main())
