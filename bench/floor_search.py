"""The pit boss's hand search on the floor and on one table's journal (a filtered
hand search p95 <= 50 ms on 30 tables, 10,000,000 hands; the same over one table's journal).

The floor is filled through the product's own code: each table's hands are appended to a
SQLite journal per table by :class:`~dealer_assist.storage.Journal` (the seven-seat sample of
``journal_hand.json`` as ``journal_append.py`` makes it, varied per hand: the seats dealt in,
each seat's net with a rare large payout, 1 % voids with a reason, a manual card now and then,
camera-read cards at every third table, two games), then forwarded by
:class:`~dealer_assist.storage.floor.Pusher` (what the forwarder and ``floor sync`` run), two
processes at a time. The floor is a schema in the PostgreSQL database of ``--floor`` (default
the local server's ``test``): a fresh one dropped at the end, or with ``--keep`` the schema
``bench_floor_search`` and the journals in ``--journals`` kept and topped up when run again.

Timed: :meth:`~dealer_assist.storage.floor.search.FloorSearch.search` (50 rows a page) with
filters drawn at random per kind (table + date range; game + pot above an amount; voids with a
reason; a table and a seat; manual cards; a table's camera cards; page 11 sorted by amount
staked), ``--runs`` each; p50 / p95 / max per kind and overall; one draw per kind EXPLAINed (its
scans) and the slowest kind's plan in full. The EXPLAIN plans with the values (a custom plan);
psycopg prepares a statement run five times on a connection and PostgreSQL may then use a
generic plan, which can differ: ``--custom-plans`` shows the searches without generic plans.
Then :class:`~dealer_assist.storage.search.JournalSearch` over the first
table's journal with the same kinds (its first search reads the journal: timed apart).

    python bench/floor_search.py [--tables 30] [--hands 60000] [--runs 40] [--keep]

The issue's size is ``--tables 30 --hands 10000000``: built by ``floor_fill.py`` (in memory
through the journal's code, straight to the floor's ingest; this fill would take hours), then
searched as it is with ``--existing bench_floor_search`` (ANALYZEd first), with two more kinds
when the floor records dealers (a table and a dealer; a dealer over 30 days).
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import json
import multiprocessing
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))
from journal_append import SAMPLE, entry, percentile

from dealer_assist.games import GAME_CODES, POT_GAME_CODES
from dealer_assist.pitboss.filters import HandFilter, HandSource, Sort
from dealer_assist.storage import HandEntry, Journal
from dealer_assist.storage.floor import Floor, Pusher
from dealer_assist.storage.floor.migration import migrate_floor
from dealer_assist.storage.floor.search import FloorSearch
from dealer_assist.storage.search import JournalSearch

DEFAULT_FLOOR = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
KEPT_SCHEMA = "bench_floor_search"
GAMES = tuple(c for c in GAME_CODES if c not in POT_GAME_CODES)  # the banked games
REASONS = ("misdeal: card exposed", "shoe fault: card not read", "dealer error", "seat dispute")
BIG = 200_000  # a payout at least this is rare (0.5 % of hands): "pot above an amount"


def table_ids(tables: int) -> list[str]:
    return [f"T{i + 1:02d}" for i in range(tables)]


def game_of(i: int) -> str:
    return GAMES[i % len(GAMES)]


def vary(n: int, base: HandEntry, camera: bool, rng: random.Random) -> HandEntry:
    """Hand ``n`` of a table from the sample ``base``: a random set of seats, their nets, a
    void, a manual card or camera-read cards."""
    seats = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
    record = copy.deepcopy(base.record)
    record["players"] = [p for p in record["players"] if p["seat"] in seats]
    events = [dict(e, source="camera" if camera else "serial") for e in base.events]
    if rng.random() < 0.02:
        events[rng.randrange(len(events))]["manual"] = True
    if rng.random() < 0.01:
        return dataclasses.replace(
            base,
            status="void",
            record=record,
            settlement=None,
            void_reason=rng.choice(REASONS),
            events=events,
        )
    settlement = copy.deepcopy(base.settlement or {})
    template = settlement["seats"][0]
    settlement["seats"] = []
    for s in seats:
        big = rng.random() < 0.005 / len(seats)
        net = rng.randint(BIG, 5 * BIG) if big else rng.choice((-3500, -2500, 0, 1000, 2500))
        settlement["seats"].append(dict(copy.deepcopy(template), seat=s, net=net))
    return dataclasses.replace(base, record=record, settlement=settlement, events=events)


def _no_fsync(dbapi_conn: Any, record: Any, proxy: Any) -> None:
    """The journals' writes not flushed to disk (``--fsync`` keeps them): what is timed here is
    the search, and the machine's disk would bound the fill at tens of hands a second."""
    if type(dbapi_conn).__module__.startswith("sqlite3"):
        dbapi_conn.execute("PRAGMA synchronous=OFF")


def make_journal(job: tuple[str, str, int, int, bool]) -> tuple[int, float]:
    """The table's journal topped up to ``hands`` hands; (appended, seconds)."""
    path, table_id, index, hands, fsync = job
    if not fsync:
        sa.event.listen(sa.pool.Pool, "checkout", _no_fsync)
    sample = json.loads(SAMPLE.read_text(encoding="utf-8"))
    text = json.dumps({**sample, "table_id": table_id, "game": game_of(index)})
    t0 = time.perf_counter()
    with Journal(path, supervise=False) as journal:
        have = journal.count()
        for n in range(have, hands):
            rng = random.Random(f"{table_id}-{n}")
            e = dataclasses.replace(entry(n, text), hand_uid=f"{table_id}-{n}")
            journal.append_hand(vary(n, e, index % 3 == 2, rng))
    return hands - have, time.perf_counter() - t0


def push(job: tuple[str, str, str, str]) -> tuple[int, float]:
    """The journal forwarded to the floor by the product's pusher; (sent, seconds)."""
    url, path, table_id, game = job
    with Journal(path, create=False, supervise=False) as journal, Floor(url) as floor:
        floor.register(table_id, game, pit="P1")
        t0 = time.perf_counter()
        sent = Pusher(journal, floor, batch=1000).push().sent
        return sent, time.perf_counter() - t0


Case = tuple[HandFilter, Sort, int]


def kinds(
    tables: list[str],
    first: datetime,
    last: datetime,
    rng: random.Random,
    dealers: list[tuple[str, str]] | None = None,
) -> dict[str, Callable[[], Case]]:
    """Each kind of search a pit boss makes, as a draw of its filter: (filter, sort, offset).
    With ``dealers`` ((table, badge) pairs seen on the floor) the two dealer kinds too."""
    span = last - first

    def window(frac: float) -> tuple[datetime, datetime]:
        since = first + span * rng.uniform(0, 1 - frac)
        return since, since + span * frac + timedelta(seconds=1)

    newest = Sort()

    def table_dates() -> Case:
        since, until = window(0.1)
        return HandFilter(table_id=rng.choice(tables), since=since, until=until), newest, 0

    def game_pot() -> Case:
        return (
            HandFilter(game=rng.choice(GAMES), min_amount=rng.randint(BIG, 2 * BIG)),
            Sort("top_amount"),
            0,
        )

    def voids() -> Case:
        since, until = window(0.5)
        return (
            HandFilter(since=since, until=until, void_reason=rng.choice(REASONS)[:6]),
            newest,
            0,
        )

    def seat() -> Case:
        return HandFilter(table_id=rng.choice(tables), seat=rng.randint(1, 7)), newest, 0

    def manual() -> Case:
        return HandFilter(flags=("manual_card",)), newest, 0

    def camera() -> Case:
        cams = [t for i, t in enumerate(tables) if i % 3 == 2] or tables
        return HandFilter(table_id=rng.choice(cams), flags=("camera_card",)), newest, 0

    def paged() -> Case:
        since, until = window(0.2)
        return (
            HandFilter(table_id=rng.choice(tables), since=since, until=until),
            Sort("wagered"),
            500,
        )

    def table_dealer() -> Case:
        table, badge = rng.choice(dealers or [])
        return HandFilter(table_id=table, dealer=badge), newest, 0

    def dealer_month() -> Case:
        month = timedelta(days=30)
        since = first + max(span - month, timedelta(0)) * rng.random()
        badge = rng.choice(dealers or [])[1]
        return HandFilter(dealer=badge, since=since, until=since + month), newest, 0

    out = {
        "table+dates": table_dates,
        "game+pot>=": game_pot,
        "voids+reason": voids,
        "table+seat": seat,
        "manual cards": manual,
        "camera cards": camera,
        "page 11 by staked": paged,
    }
    if dealers:
        out |= {"table+dealer": table_dealer, "dealer+month": dealer_month}
    return out


def time_searches(
    source: HandSource, draws: dict[str, Callable[[], Case]], runs: int
) -> dict[str, list[float]]:
    """``runs`` searches per kind, interleaved; ms per kind."""
    out: dict[str, list[float]] = {k: [] for k in draws}
    for _ in range(runs):
        for name, draw in draws.items():
            where, sort, offset = draw()
            t = time.perf_counter()
            source.search(where, sort, offset, 50)
            out[name].append((time.perf_counter() - t) * 1000)
    return out


def report(samples: dict[str, list[float]]) -> str:
    """Prints p50/p95/max per kind and overall; returns the kind with the worst p95."""
    for name, ms in [*samples.items(), ("overall", [m for v in samples.values() for m in v])]:
        ms = sorted(ms)
        print(
            f"  {name:<18} n={len(ms):<4} p50 {percentile(ms, 50):8.1f} ms  "
            f"p95 {percentile(ms, 95):8.1f} ms  max {ms[-1]:8.1f} ms"
        )
    return max(samples, key=lambda k: percentile(sorted(samples[k]), 95))


def explain(search: FloorSearch, admin: sa.Engine, schema: str, case: Case) -> list[str]:
    """EXPLAIN (ANALYZE, BUFFERS) of the exact SQL the search sends for ``case``: its lines."""
    seen: list[tuple[str, Any]] = []

    def grab(conn: Any, cursor: Any, statement: str, params: Any, *rest: Any) -> None:
        if "floor_records" in statement and "ORDER BY" in statement:
            seen.append((statement, params))

    sa.event.listen(sa.engine.Engine, "before_cursor_execute", grab)
    try:
        search.search(case[0], case[1], case[2], 50)
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", grab)
    statement, params = seen[-1]
    with admin.connect() as conn:
        conn.exec_driver_sql(f'SET search_path TO "{schema}"')
        rows = conn.exec_driver_sql(f"EXPLAIN (ANALYZE, BUFFERS) {statement}", params)
        return [line for (line,) in rows]


def scans(plan: list[str]) -> str:
    """The plan's scans (which index, or a sequential scan) and its execution time."""
    nodes = [line.strip().lstrip("-> ").split("  (")[0] for line in plan if "Scan" in line]
    took = [line.strip() for line in plan if line.startswith("Execution Time")]
    return "; ".join(nodes + took)


def schema_url(floor: str, schema: str, custom_plans: bool) -> str:
    """The floor's URL with ``schema`` as its search_path (and no generic plans if asked)."""
    sep = "&" if "?" in floor else "?"
    url = f"{floor}{sep}options=-csearch_path%3D{schema}"
    if custom_plans:  # every search planned with its values (no generic plan)
        url += "%20-cplan_cache_mode%3Dforce_custom_plan"
    return url


def dealer_pairs(admin: sa.Engine, schema: str) -> list[tuple[str, str]]:
    """(table, dealer badge) pairs recorded on the floor, from a sample of its pages (empty
    when the floor has no dealer column or no dealer)."""
    with admin.connect() as conn:
        has = conn.exec_driver_sql(
            "SELECT 1 FROM information_schema.columns WHERE table_schema = %(s)s AND "
            "table_name = 'floor_records' AND column_name = 'dealer'",
            {"s": schema},
        ).first()
        if has is None:
            return []
        rows = conn.exec_driver_sql(
            f'SELECT DISTINCT table_id, dealer FROM "{schema}".floor_records '
            "TABLESAMPLE SYSTEM (0.2) WHERE dealer IS NOT NULL"
        ).all()
    return sorted((str(t), str(d)) for t, d in rows)


def measure(
    url: str, admin: sa.Engine, schema: str, tables: list[str], runs: int
) -> tuple[datetime, datetime]:
    """ANALYZE, then the searches timed per kind, their plans; returns the floor's time range."""
    with admin.connect() as conn:
        conn.exec_driver_sql(f'ANALYZE "{schema}".floor_records')
        count, first, last, size = conn.exec_driver_sql(
            f"SELECT count(*), min(recorded_at), max(recorded_at), "
            f"pg_total_relation_size('\"{schema}\".floor_records') "
            f'FROM "{schema}".floor_records'
        ).one()
    dealers = dealer_pairs(admin, schema)
    print(
        f"floor: {count:,} records of {len(tables)} tables, {size / 2**20:,.0f} MiB with "
        f"indexes, {first:%Y-%m-%d} to {last:%Y-%m-%d}; {runs} searches per kind, 50 rows a "
        f"page; {len({d for _, d in dealers})} dealers seen"
    )
    rng = random.Random(16)
    draws = kinds(tables, first, last, rng, dealers)
    search = FloorSearch(url)
    search.open()
    try:
        time_searches(search, draws, 2)  # warm the pool and the cache
        worst = report(time_searches(search, draws, runs))
        print("  plans (EXPLAIN ANALYZE of one draw per kind):")
        for name, draw in draws.items():
            print(f"    {name:<18} {scans(explain(search, admin, schema, draw()))}")
        case = draws[worst]()
        print(f"  the slowest kind, {worst}: {case[0]}, {case[1]}, offset {case[2]}:")
        for line in explain(search, admin, schema, case):
            print("   ", line)
    finally:
        search.close()
    return first, last


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--hands", type=int, default=60_000, help="hands on the floor, in all")
    parser.add_argument("--runs", type=int, default=40, help="searches timed per kind")
    parser.add_argument("--floor", default=DEFAULT_FLOOR, help="PostgreSQL database URL")
    keep = f"keep the schema {KEPT_SCHEMA} and the journals; reuse them"
    parser.add_argument("--keep", action="store_true", help=keep)
    parser.add_argument(
        "--journals",
        metavar="DIR",
        help="the journals' folder (with --keep: default /tmp/bench_floor_search)",
    )
    parser.add_argument(
        "--fsync",
        action="store_true",
        help="journals synchronous=FULL as the product writes them (slow fill)",
    )
    custom = "the floor's sessions with plan_cache_mode=force_custom_plan"
    parser.add_argument("--custom-plans", action="store_true", help=custom)
    existing = "search this floor as it is (no fill, no journal, kept; floor_fill.py's)"
    parser.add_argument("--existing", metavar="SCHEMA", help=existing)
    args = parser.parse_args()

    tables = table_ids(args.tables)
    if args.existing:
        admin = sa.create_engine(args.floor, isolation_level="AUTOCOMMIT")
        try:
            measure(
                schema_url(args.floor, args.existing, args.custom_plans),
                admin,
                args.existing,
                tables,
                args.runs,
            )
        finally:
            admin.dispose()
        return 0
    per_table = args.hands // args.tables
    default = "/tmp/bench_floor_search" if args.keep else tempfile.mkdtemp()
    folder = Path(args.journals or default)
    folder.mkdir(parents=True, exist_ok=True)
    paths = {t: str(folder / f"{t}.db") for t in tables}
    t0 = time.perf_counter()
    with multiprocessing.Pool(2) as pool:
        jobs = [(paths[t], t, i, per_table, args.fsync) for i, t in enumerate(tables)]
        made = sum(a for a, _ in pool.map(make_journal, jobs))
    wall = time.perf_counter() - t0
    print(
        f"journals: {per_table * args.tables:,} hands in {args.tables} journals; {made:,} "
        f"appended in {wall:.0f} s ({made / wall:,.0f}/s, 2 processes)"
    )

    admin = sa.create_engine(args.floor, isolation_level="AUTOCOMMIT")
    schema = KEPT_SCHEMA if args.keep else f"bench_search_{uuid.uuid4().hex[:10]}"
    with admin.connect() as conn:
        conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    url = schema_url(args.floor, schema, args.custom_plans)
    try:
        migrate_floor(Floor(url))
        t0 = time.perf_counter()
        pushes = [(url, paths[t], t, game_of(i)) for i, t in enumerate(tables)]
        with multiprocessing.Pool(2) as pool:
            sent = sum(s for s, _ in pool.map(push, pushes))
        wall = time.perf_counter() - t0
        print(f"forwarded: {sent:,} records in {wall:.0f} s ({sent / wall:,.0f}/s, 2 processes)")
        first, last = measure(url, admin, schema, tables, args.runs)
        journal = JournalSearch(paths[tables[0]])
        journal.open()
        try:
            t = time.perf_counter()
            journal.search(HandFilter(), Sort(), 0, 50)
            print(
                f"journal of {tables[0]}: {per_table:,} hands; first search (reads the "
                f"journal) {time.perf_counter() - t:.1f} s; then:"
            )
            draws = kinds(tables[:1], first, last, random.Random(16))
            report(time_searches(journal, draws, max(args.runs // 4, 5)))
        finally:
            journal.close()
    finally:
        if not args.keep:
            with admin.connect() as conn:
                conn.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
        admin.dispose()
    return 0


if __name__ == "__main__":
    sys.exit(main())
