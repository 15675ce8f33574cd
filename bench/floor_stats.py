"""Statistics of a month of one pit on the floor (p95 <= 500 ms).

The floor is filled through the product's own code: each table's hands are appended to a
SQLite journal per table by :class:`~dealer_assist.storage.Journal` (the seven-seat sample of
``journal_hand.json`` as ``journal_append.py`` makes it, its start times spread over 31 days,
each recorded by the journal's clock 2 s after it ended, and dealt by a dealer rotation:
a new badge at each table every 40 minutes, the floor's dealers moving from table to table),
then forwarded by :class:`~dealer_assist.storage.floor.Pusher` (what the forwarder and ``floor
sync`` run; ingest keeps the hourly rollup). Tables are split over ``--pits`` pits. The floor is
a fresh schema in the PostgreSQL database of ``--floor`` (default the local server's
``test``), dropped at the end.

Timed: :meth:`~dealer_assist.storage.floor.stats.FloorStats.stats` of pit ``P1`` over a month
that starts and ends off the hour (``MONTH_START`` + 3 h 17 min 13 s, 30 days: the whole
hours from ``floor_hourly``, the two part hours from ``floor_records``), grouped by table, by
shift, by day and game, by dealer, by dealer and hour; ``--runs`` times each, the rollup and
the row path (every record summed, ``rollup=False``: the reference and the figure before
revision f0003) taking turns; p50 and p95 in ms, their ratio, and whether both gave the same
rows.

    python bench/floor_stats.py [--tables 8] [--hands 15000] [--pits 2] [--runs 20] [--explain]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import shutil
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))
from journal_append import SAMPLE, entry, percentile

from dealer_assist.games import DEFAULT_GAME
from dealer_assist.storage import Journal
from dealer_assist.storage.floor import Floor, Pusher
from dealer_assist.storage.floor.migration import migrate_floor
from dealer_assist.storage.floor.stats import FloorStats

DEFAULT_FLOOR = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
MONTH_START = datetime(2026, 1, 1, tzinfo=UTC)
ROTATION = timedelta(minutes=40)
GROUPINGS = (("table",), ("shift",), ("day", "game"), ("dealer",), ("dealer", "hour"))


def dealer_at(table: int, tables: int, when: datetime) -> str:
    """The badge dealing at table number ``table`` at ``when``: every 40 minutes each table
    takes the next dealer of a crew of ``tables + tables // 3 + 1`` (some are on their
    break), so a dealer moves on to another table."""
    crew = tables + tables // 3 + 1
    slot = (when - MONTH_START) // ROTATION
    return f"D{(table + slot) % crew + 1:03d}"


def make_journal(job: tuple[str, str, int, int, int]) -> tuple[str, float]:
    """``hands`` hands of the table in its journal, spread over 31 days; (table, seconds)."""
    path, table_id, number, tables, hands = job
    sample = json.dumps({**json.loads(SAMPLE.read_text(encoding="utf-8")), "table_id": table_id})
    step = timedelta(days=31) / hands
    recorded = [MONTH_START]
    t0 = time.perf_counter()
    with Journal(path, supervise=False, clock=lambda: recorded[0]) as journal:
        for n in range(journal.count(), hands):
            start = MONTH_START + step * n
            recorded[0] = start + timedelta(seconds=92)
            e = entry(n, sample)
            journal.append_hand(
                dataclasses.replace(
                    e,
                    started_at=start,
                    ended_at=start + timedelta(seconds=90),
                    extra={"dealer": dealer_at(number, tables, start)},
                    hand_uid=f"{table_id}-{n}",
                )
            )
    return table_id, time.perf_counter() - t0


def push(job: tuple[str, str, str, str]) -> tuple[int, float]:
    """The journal forwarded to the floor by the product's pusher; (sent, seconds)."""
    url, path, table_id, pit = job
    with Journal(path, create=False, supervise=False) as journal, Floor(url) as floor:
        floor.register(table_id, DEFAULT_GAME, pit=pit)  # the sample hands' game
        t0 = time.perf_counter()
        sent = Pusher(journal, floor, batch=1000).push().sent
        return sent, time.perf_counter() - t0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--hands", type=int, default=15_000, help="hands per table")
    parser.add_argument("--pits", type=int, default=2)
    parser.add_argument("--runs", type=int, default=20, help="queries timed per grouping")
    parser.add_argument("--floor", default=DEFAULT_FLOOR, help="PostgreSQL database URL")
    parser.add_argument("--explain", action="store_true", help="print the by-table query's plan")
    parser.add_argument("--keep-journals", metavar="DIR", help="keep (and reuse) the journals")
    args = parser.parse_args()

    folder = Path(args.keep_journals) if args.keep_journals else Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    tables = [f"UTH-{i + 1:02d}" for i in range(args.tables)]
    pits = {t: f"P{i % args.pits + 1}" for i, t in enumerate(tables)}
    paths = {t: str(folder / f"{t}.db") for t in tables}
    t0 = time.perf_counter()
    with multiprocessing.Pool(2) as pool:
        jobs = [(paths[t], t, i, args.tables, args.hands) for i, t in enumerate(tables)]
        pool.map(make_journal, jobs)
    made = args.tables * args.hands
    print(f"journals: {made:,} hands in {args.tables} journals, {time.perf_counter() - t0:.0f} s")

    admin = sa.create_engine(args.floor, isolation_level="AUTOCOMMIT")
    schema = f"bench_stats_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in args.floor else "?"
    url = f"{args.floor}{sep}options=-csearch_path%3D{schema}"
    try:
        migrate_floor(Floor(url))
        t0 = time.perf_counter()
        with multiprocessing.Pool(2) as pool:
            sent = sum(s for s, _ in pool.map(push, [(url, paths[t], t, pits[t]) for t in tables]))
        wall = time.perf_counter() - t0
        print(f"forwarded: {sent:,} records in {wall:.0f} s ({sent / wall:,.0f}/s, 2 processes)")
        with admin.connect() as conn:
            conn.exec_driver_sql(f'VACUUM ANALYZE "{schema}".floor_records')
            conn.exec_driver_sql(f'VACUUM ANALYZE "{schema}".floor_hourly')
            hourly = conn.exec_driver_sql(f'SELECT count(*) FROM "{schema}".floor_hourly').scalar()
        in_pit = sum(1 for t in tables if pits[t] == "P1") * args.hands
        start = MONTH_START + timedelta(hours=3, minutes=17, seconds=13)
        end = start + timedelta(days=30)
        print(
            f"pit P1: {in_pit:,} hands of {sum(p == 'P1' for p in pits.values())} tables; "
            f"floor_hourly {hourly:,} rows; {args.runs} runs per grouping and path"
        )
        with Floor(url) as floor:
            paths_ = {"rollup": FloorStats(floor), "rows": FloorStats(floor, rollup=False)}
            for by in GROUPINGS:
                samples: dict[str, list[float]] = {k: [] for k in paths_}
                results = {k: s.stats(start, end, by, pit="P1") for k, s in paths_.items()}
                for _ in range(args.runs):  # taking turns: both see the same machine
                    for key, stats in paths_.items():
                        t = time.perf_counter()
                        stats.stats(start, end, by, pit="P1")
                        samples[key].append((time.perf_counter() - t) * 1000)
                rows = results["rollup"]
                same = "same rows" if rows == results["rows"] else "ROWS DIFFER"
                p = {
                    k: (percentile(sorted(v), 50), percentile(sorted(v), 95))
                    for k, v in samples.items()
                }
                print(
                    f"  by {','.join(by):<11} {len(rows):5d} rows, {sum(r.hands for r in rows):,}"
                    f" hands: rollup p50 {p['rollup'][0]:6.1f} ms p95 {p['rollup'][1]:6.1f} ms;"
                    f" rows p50 {p['rows'][0]:6.1f} ms p95 {p['rows'][1]:6.1f} ms;"
                    f" p95 ratio {p['rows'][1] / p['rollup'][1]:5.1f}x; {same}"
                )
            if args.explain:
                query = paths_["rollup"].query(start, end, ("table",), pit="P1")
                text = str(
                    query.compile(dialect=admin.dialect, compile_kwargs={"literal_binds": True})
                )
                with admin.connect() as conn:
                    conn.exec_driver_sql(f'SET search_path TO "{schema}"')
                    for (line,) in conn.exec_driver_sql(f"EXPLAIN (ANALYZE, BUFFERS) {text}"):
                        print("   ", line)
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()
        if not args.keep_journals:
            shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
