"""Ingest speed of the floor database: hands/s stored by the floor (goal >= 2,000/s).

Each table's records are made by the product's own journal code: ``--hands`` full hands per
table (the seven-seat sample of ``journal_hand.json``, as ``journal_append.py`` appends it) are
appended to a SQLite journal per table (WAL, synchronous=FULL) in a temporary folder (or kept
with ``--keep-journals DIR``, reused when run again). The floor is a fresh schema in the
PostgreSQL database of ``--floor`` (default the local server's ``test``), dropped at the end.

Two figures, each over every table at once (one process per table, as each table forwards
from its own process):

- **floor ingest**: the hands already read from the journals, only the floor's work: the chain
  check (each hash recomputed), the search columns, the batched insert, one transaction per
  ``--batch`` records;
- **the database's share**: the same rows prepared beforehand, only their COPY and commit (what
  the PostgreSQL server does when the check runs in each table's own process);
- **forwarding**: what ``floor sync`` does from the journal files: read the journal, push.

    python bench/floor_ingest.py [--hands 5000] [--tables 2] [--batch 500] [--floor URL]

``--lag-tables N`` measures instead the forward lag (``recorded_at`` in the journal to
``received_at`` on the floor) while N tables deal at once, one thread and one
:class:`~dealer_assist.storage.floor.Forwarder` each, a hand every ``--interval`` s:

    python bench/floor_ingest.py --lag-tables 30 [--lag-hands 30] [--interval 1.0]
        [--schema bench_floor_search]

With ``--schema`` the lag tables deal into that existing floor (the 10,000,000 hands
``floor_fill.py`` builds) instead of a fresh one, and their rows are deleted at the end.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))
from journal_append import SAMPLE, entry

from dealer_assist.ports import StoredHand
from dealer_assist.storage import Journal
from dealer_assist.storage.floor import Floor, Pusher
from dealer_assist.storage.floor.migration import migrate_floor

DEFAULT_FLOOR = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def make_journal(path: Path, table_id: str, hands: int) -> float:
    """``hands`` hands of ``table_id`` in the journal at ``path`` (those missing appended);
    returns the seconds spent appending."""
    sample = json.dumps({**json.loads(SAMPLE.read_text(encoding="utf-8")), "table_id": table_id})
    with Journal(str(path), supervise=False) as journal:
        have = journal.count()
        t0 = time.perf_counter()
        for n in range(have, hands):
            journal.append_hand(entry(n, sample))
        return time.perf_counter() - t0 if have < hands else 0.0


def read_all(path: Path, hands: int) -> list[StoredHand]:
    with Journal(str(path), create=False, supervise=False) as journal:
        return [h for h in journal.iter_hands() if h.hand_id <= hands]


def ingest_job(
    url: str, path: Path, table_id: str, hands: int, batch: int, ready: Any
) -> tuple[int, float, float]:
    """The floor's work alone: the hands read first, then stored; (stored, seconds)."""
    rows = read_all(path, hands)
    with Floor(url) as floor:
        ready.wait()
        t0 = time.time()
        stored = 0
        for i in range(0, len(rows), batch):
            stored += floor.ingest(table_id, rows[i : i + batch]).stored
        return stored, t0, time.time()


def copy_job(
    url: str, path: Path, table_id: str, hands: int, batch: int, ready: Any
) -> tuple[int, float, float]:
    """The database's share of ingest alone: rows prepared first (checked, summarized,
    serialized), then only their COPY and commit timed; (rows, seconds)."""
    from dealer_assist.events import utc_now
    from dealer_assist.storage.chain import canonical_json
    from dealer_assist.storage.floor.ingest import _copy_rows, _values

    now = utc_now()
    rows = [_values(h, canonical_json(h.content()), now, None) for h in read_all(path, hands)]
    engine = sa.create_engine(url)
    try:
        ready.wait()
        t0 = time.time()
        for i in range(0, len(rows), batch):
            with engine.begin() as conn:
                _copy_rows(conn, rows[i : i + batch])
        return len(rows), t0, time.time()
    finally:
        engine.dispose()


def forward_job(
    url: str, path: Path, table_id: str, hands: int, batch: int, ready: Any
) -> tuple[int, float, float]:
    """What ``floor sync`` does: the journal read and pushed; (sent, seconds)."""
    with Journal(str(path), create=False, supervise=False) as journal, Floor(url) as floor:
        ready.wait()
        t0 = time.time()
        return Pusher(journal, floor, batch=batch).push().sent, t0, time.time()


def _child(job: Callable[..., tuple[int, float, float]], args: tuple[Any, ...], out: Any) -> None:
    out.put(job(*args))


def in_processes(
    job: Callable[..., tuple[int, float, float]], jobs: list[tuple[Any, ...]]
) -> tuple[int, float]:
    """One process per table (each table forwards from its own process), all started together
    once each has read what it needs; (records, wall s from the first start to the last end)."""
    out: Any = multiprocessing.Queue()
    ready = multiprocessing.Barrier(len(jobs))
    procs = [multiprocessing.Process(target=_child, args=(job, (*a, ready), out)) for a in jobs]
    for p in procs:
        p.start()
    results = [out.get(timeout=3600) for _ in procs]
    for p in procs:
        p.join()
    if any(p.exitcode for p in procs):
        raise SystemExit("a bench process failed")
    return sum(r[0] for r in results), max(r[2] for r in results) - min(r[1] for r in results)


def lag_run(
    url: str, folder: Path, tables: int, hands: int, interval: float, prefix: str = "LAG"
) -> int:
    """``tables`` tables dealing at once (one thread each, a hand every ``interval`` s with a
    random phase), each with its :class:`Forwarder` polling its journal (no ``wake()``: the
    worst case of polling); prints the forward lag, recorded_at to the floor's received_at, of
    the tables ``{prefix}-1``.. only (the floor may hold others: ``--schema``)."""
    import random

    from dealer_assist.storage.floor import Forwarder

    sample = SAMPLE.read_text(encoding="utf-8")
    names = [f"{prefix}-{i + 1}" for i in range(tables)]
    journals = [Journal(str(folder / f"{name}.db"), supervise=False) for name in names]
    forwarders = []
    for journal in journals:
        journal.open()
        forwarders.append(Forwarder(journal, url))
    for f in forwarders:
        f.start()

    def deal(i: int) -> None:
        rng = random.Random(i)
        text = json.dumps({**json.loads(sample), "table_id": names[i]})
        time.sleep(rng.uniform(0, interval))
        for n in range(hands):
            journals[i].append_hand(entry(n, text))
            time.sleep(interval)

    dealers = [threading.Thread(target=deal, args=(i,)) for i in range(tables)]
    t0 = time.perf_counter()
    for d in dealers:
        d.start()
    for d in dealers:
        d.join()
    dealt = time.perf_counter() - t0
    caught = all(f.wait_caught_up(60) for f in forwarders)
    for f in forwarders:
        f.stop()
    for journal in journals:
        journal.close()
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        row = conn.exec_driver_sql(
            "SELECT count(*), percentile_cont(ARRAY[0.5, 0.9, 0.99]) WITHIN GROUP (ORDER BY "
            "extract(epoch FROM received_at - recorded_at)), max(extract(epoch FROM "
            "received_at - recorded_at)) FROM floor_records WHERE table_id = ANY(%(t)s)",
            {"t": names},
        ).one()
    engine.dispose()
    p50, p90, p99 = row[1]
    print(
        f"forward lag, {tables} tables dealing a hand every {interval:g} s for {dealt:.0f} s "
        f"({row[0]} hands): p50 {p50:.3f} s, p90 {p90:.3f} s, p99 {p99:.3f} s, "
        f"max {float(row[2]):.3f} s; caught up: {'yes' if caught else 'NO'}"
    )
    return 0 if caught and row[0] == tables * hands else 1


def lag_in(floor: str, schema: str, tables: int, hands: int, interval: float) -> int:
    """:func:`lag_run` into the existing floor ``schema`` with tables of their own (``LAG``
    and a run id), whose rows are deleted afterwards (records, heads, alerts, rollup, table)."""
    sep = "&" if "?" in floor else "?"
    url = f"{floor}{sep}options=-csearch_path%3D{schema}"
    prefix = f"LAG{uuid.uuid4().hex[:6]}"
    names = [f"{prefix}-{i + 1}" for i in range(tables)]
    admin = sa.create_engine(floor, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            count = conn.exec_driver_sql(
                f"SELECT reltuples::bigint FROM pg_class WHERE oid = '\"{schema}\".floor_records'"
                "::regclass"
            ).scalar_one()
        print(f"floor {schema}: about {count:,} records already; lag tables {prefix}-1..{tables}")
        return lag_run(url, Path(tempfile.mkdtemp()), tables, hands, interval, prefix)
    finally:
        with admin.connect() as conn:
            rollup = conn.exec_driver_sql(
                "SELECT to_regclass(%(t)s) IS NOT NULL", {"t": f'"{schema}".floor_hourly'}
            ).scalar_one()
            kept = ["floor_records", "floor_heads", "floor_alerts", "floor_tables"]
            for table in (["floor_hourly"] if rollup else []) + kept:
                conn.exec_driver_sql(
                    f'DELETE FROM "{schema}".{table} WHERE table_id = ANY(%(t)s)', {"t": names}
                )
        admin.dispose()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="hands per table")
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--batch", type=int, default=500, help="records per floor transaction")
    parser.add_argument("--floor", default=DEFAULT_FLOOR, help="PostgreSQL database URL")
    parser.add_argument("--keep-journals", metavar="DIR", help="keep (and reuse) the journals")
    parser.add_argument(
        "--lag-tables",
        type=int,
        default=0,
        metavar="N",
        help="instead: the forward lag of N tables dealing at once",
    )
    parser.add_argument("--lag-hands", type=int, default=30, help="hands per table (--lag-tables)")
    parser.add_argument(
        "--interval", type=float, default=1.0, help="seconds between a table's hands (--lag-tables)"
    )
    into = "--lag-tables into this existing floor (floor_fill.py's); its lag tables removed after"
    parser.add_argument("--schema", help=into)
    args = parser.parse_args()
    if args.schema:
        if not args.lag_tables:
            parser.error("--schema goes with --lag-tables")
        return lag_in(args.floor, args.schema, args.lag_tables, args.lag_hands, args.interval)

    folder = Path(args.keep_journals) if args.keep_journals else Path(tempfile.mkdtemp())
    folder.mkdir(parents=True, exist_ok=True)
    tables = [f"BENCH-{i + 1}" for i in range(args.tables)]
    paths = {t: folder / f"{t}.db" for t in tables}
    made = args.hands * args.tables
    if not args.lag_tables:
        spent = sum(make_journal(paths[t], t, args.hands) for t in tables)
        if spent:
            print(f"journals: {made} hands appended in {spent:.1f} s ({made / spent:,.0f}/s)")

    admin = sa.create_engine(args.floor, isolation_level="AUTOCOMMIT")
    schema = f"bench_floor_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
    sep = "&" if "?" in args.floor else "?"
    url = f"{args.floor}{sep}options=-csearch_path%3D{schema}"
    try:
        migrate_floor(Floor(url))
        if args.lag_tables:
            lag_folder = Path(tempfile.mkdtemp())
            return lag_run(url, lag_folder, args.lag_tables, args.lag_hands, args.interval)
        jobs = [(url, paths[t], t, args.hands, args.batch) for t in tables]
        stored, wall = in_processes(ingest_job, jobs)
        print(
            f"floor ingest: {stored} hands from {args.tables} table(s) in {wall:.2f} s = "
            f"{stored / wall:,.0f} hands/s (batch {args.batch}, one process per table)"
        )
        with admin.connect() as conn:
            conn.exec_driver_sql(
                f'TRUNCATE "{schema}".floor_records, "{schema}".floor_tables, '
                f'"{schema}".floor_heads'
            )
        with admin.connect() as conn:
            conn.exec_driver_sql(f'TRUNCATE "{schema}".floor_records')
        copied, wall = in_processes(copy_job, jobs)
        print(
            f"the database's share (COPY and commit of prepared rows): {copied} rows in "
            f"{wall:.2f} s = {copied / wall:,.0f} rows/s"
        )
        with admin.connect() as conn:
            conn.exec_driver_sql(f'TRUNCATE "{schema}".floor_records')
        sent, wall = in_processes(forward_job, jobs)
        print(
            f"forwarding (journal read + push): {sent} hands in {wall:.2f} s = "
            f"{sent / wall:,.0f} hands/s"
        )
        with admin.connect() as conn:
            size = conn.exec_driver_sql(
                f"SELECT pg_total_relation_size('\"{schema}\".floor_records')"
            ).scalar_one()
        print(f"floor_records: {size / max(sent, 1) / 1024:.1f} KiB per hand with its indexes")
        ok = stored == sent == made
        print("every hand stored once: " + ("yes" if ok else "NO"))
        return 0 if ok else 1
    finally:
        with admin.connect() as conn:
            conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()


if __name__ == "__main__":
    sys.exit(main())
