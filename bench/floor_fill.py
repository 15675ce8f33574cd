"""A floor of 30 tables and 10,000,000 hands built fast, through the product's own code
(the size at which the search, statistics, ingest and lag goals are stated).

``floor_search.py`` fills through a SQLite journal per table and the pusher (380–700 hands/s:
10,000,000 would take 4–7 hours). Here each table's entries are made in memory exactly as
:meth:`~dealer_assist.storage.Journal.append_hand` makes them — checked by
:func:`~dealer_assist.storage.model.validate_entry`, chained by
:func:`~dealer_assist.storage.chain.chain_hash` over :meth:`StoredHand.content`, the hash signed
by the table's Ed25519 :class:`~dealer_assist.storage.signing.Signer` (its key in a
:class:`~dealer_assist.storage.signing.KeyStore` folder, public key registered with the floor) —
and handed to :meth:`~dealer_assist.storage.floor.Floor.ingest` (what the pusher calls: the
chain checked, each hash recomputed, COPY) in batches of ``--batch``. At start the builder is
checked against the journal itself (the first entry appended to a temporary journal must give
the same stored hand and hash): the journal's JSON round trip of the parts is skipped because
the parts made here are JSON already.

Hands vary as ``floor_search.py`` varies them (1–7 seats, each seat's net, 0.5 % large payouts,
1 % voids with a reason, 2 % with a manual card, camera-read cards at every third table, games
``uth``/``thb`` by table), start every ``--days`` × 86400 × tables / ``--hands`` seconds from
``--start`` (so the target size spans ``--days`` days; a fill stopped short spans less), and
carry ``extra["dealer"]``: a badge of a pool of 60, changing every 40 minutes per table. Tables
``T01``..``T30`` in pits of 10 (``P1`` = T01–T10, ...). Tables advance together, one batch each
per round, so at any stop every table is at the same time.

Resumable: each table continues from the floor's own head (position and hash), the hands being
a function of (table, position); run it again with the same ``--hands``/``--days``/``--start``.
``--until HH:MM`` (UTC) stops after the batch in progress at that time. Each batch's ingest time
is appended to ``--log`` (JSON lines) and the median rate printed.

    nice -n 10 python bench/floor_fill.py [--hands 10000000] [--tables 30] [--batch 2000]
        [--schema bench_floor_search] [--fresh] [--until 20:40] [--keys DIR] [--log FILE]
    python bench/floor_fill.py --stats [--runs 20]   # a month of pit P1, as the floor is
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import multiprocessing
import os
import pickle
import random
import signal
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, TextIO

import sqlalchemy as sa

sys.path.insert(0, str(Path(__file__).parent))
from floor_search import BIG, DEFAULT_FLOOR, KEPT_SCHEMA, REASONS, game_of, table_ids
from journal_append import SAMPLE, percentile

from dealer_assist.events import iso_utc
from dealer_assist.ports import HandEntry, StoredHand
from dealer_assist.storage import Journal
from dealer_assist.storage.chain import GENESIS_HASH, chain_hash
from dealer_assist.storage.floor import Floor
from dealer_assist.storage.floor.migration import migrate_floor
from dealer_assist.storage.model import validate_entry
from dealer_assist.storage.signing import KeyStore, Signer

START = datetime(2026, 9, 1, tzinfo=UTC)
BADGES = tuple(f"B{k:03d}" for k in range(1, 61))  # the floor's dealers
ROTATION = timedelta(minutes=40)  # a dealer's stint at a table
PIT_SIZE = 10


def pit_of(index: int) -> str:
    """The pit of the table at ``index`` (0-based): 10 tables a pit."""
    return f"P{index // PIT_SIZE + 1}"


def dealer_at(index: int, started: datetime, start: datetime = START) -> str:
    """The badge at table ``index`` when a hand starts: a new dealer every 40 minutes; the 30
    tables' dealers of one stint are distinct (7 is prime to 60, so each table sees all 60)."""
    stint = int((started - start) / ROTATION)
    return BADGES[(index + 7 * stint) % len(BADGES)]


@dataclasses.dataclass
class Table:
    """One table's generator: its id, index, game, signer and the sample's parts."""

    table_id: str
    index: int
    game: str
    signer: Signer
    step: timedelta
    start: datetime
    sample: dict[str, Any]

    def entry(self, n: int) -> HandEntry:
        """Hand ``n`` (0-based) of the table, a function of (table, n): the sample varied as
        ``floor_search.vary`` varies it (parts shared between hands are never mutated)."""
        rng = random.Random(f"{self.table_id}-{n}")
        started = self.start + timedelta(seconds=int(self.step.total_seconds() * n))
        ended = started + max(timedelta(seconds=20), min(timedelta(seconds=90), self.step * 0.8))
        source = "camera" if self.index % 3 == 2 else "serial"
        events = [
            {
                "kind": "card",
                "at": at,
                "source": source,
                "deck_id": f"D{n}",
                "index": i + 1,
                "card": "As",
                "manual": False,
            }
            for i, at in enumerate(_seconds(started, 20))
        ]
        seats = sorted(rng.sample(range(1, 8), rng.randint(1, 7)))
        base = self.sample
        players = [p for p in base["record"]["players"] if p["seat"] in seats]
        record = {**base["record"], "game": self.game, "players": players}
        if rng.random() < 0.02:
            k = rng.randrange(len(events))
            events[k] = {**events[k], "manual": True}
        extra = {"dealer": dealer_at(self.index, started, self.start)}
        common = dict(
            table_id=self.table_id,
            game=self.game,
            started_at=started,
            ended_at=ended,
            record=record,
            events=events,
            extra=extra,
            hand_uid=f"{self.table_id}-{n}",
        )
        if rng.random() < 0.01:
            return HandEntry(status="void", void_reason=rng.choice(REASONS), **common)  # type: ignore[arg-type]
        template = base["settlement"]["seats"][0]
        out = []
        for s in seats:
            big = rng.random() < 0.005 / len(seats)
            net = rng.randint(BIG, 5 * BIG) if big else rng.choice((-3500, -2500, 0, 1000, 2500))
            out.append({**template, "seat": s, "net": net})
        settlement = {**base["settlement"], "game": self.game, "seats": out}
        return HandEntry(status="settled", settlement=settlement, **common)  # type: ignore[arg-type]

    def stored(
        self, entry: HandEntry, position: int, prev_hash: str, recorded_at: datetime | None = None
    ) -> StoredHand:
        """``entry`` as the journal stores it at ``position`` after ``prev_hash``: checked,
        recorded (default a second after its end), chained and signed (append_hand's steps)."""
        validate_entry(entry)
        fields = {f.name: getattr(entry, f.name) for f in dataclasses.fields(entry)}
        when = entry.ended_at + timedelta(seconds=1) if recorded_at is None else recorded_at
        hand = StoredHand(
            hand_id=position, recorded_at=when, prev_hash=prev_hash, hash="", **fields
        )
        digest = chain_hash(prev_hash, hand.content())
        return dataclasses.replace(
            hand, hash=digest, signature=self.signer.sign_hash(digest), key_id=self.signer.key_id
        )


def _seconds(started: datetime, count: int) -> list[str]:
    """:func:`iso_utc` of ``started`` + 0, 1, ... ``count - 1`` seconds (``count`` <= 60), the
    text formatted once a minute (datetime formatting was a fifth of the generator's time)."""
    first = iso_utc(started)
    second = int(first[17:19])
    if started.microsecond or count > 60:
        return [iso_utc(started + timedelta(seconds=i)) for i in range(count)]
    minute, tail = first[:17], first[19:]
    out = [f"{minute}{second + i:02d}{tail}" for i in range(min(count, 60 - second))]
    if len(out) < count:
        minute = iso_utc(started + timedelta(seconds=60 - second))[:17]
        out += [f"{minute}{i:02d}{tail}" for i in range(count - len(out))]
    return out


def check_builder(table: Table) -> None:
    """The builder against the journal itself: the table's first entry appended to a real
    (temporary) journal by :meth:`Journal.append_hand` must be the hand built here, the same
    fields and hash (the journal's own signature aside); and our signature must verify."""
    entry = table.entry(0)
    with tempfile.TemporaryDirectory() as tmp, Journal(str(Path(tmp) / "check.db")) as journal:
        theirs = journal.append_hand(entry)
    ours = table.stored(entry, 1, GENESIS_HASH, recorded_at=theirs.recorded_at)
    same = dataclasses.replace(ours, signature=theirs.signature, key_id=theirs.key_id)
    if same != theirs or not table.signer.public.verify_hash(ours.hash, ours.signature or ""):
        raise SystemExit("the fill's entries differ from the journal's: not filling")


def signer(store: KeyStore, table_id: str) -> Signer:
    """The table's key from the key folder (made the first time)."""
    return store.load(table_id) if store.has_key(table_id) else store.generate(table_id)


def time_stats(floor_db: str, schema: str, runs: int) -> int:
    """:meth:`FloorStats.stats` of pit ``P1`` over the last 30 whole days of the floor, grouped
    by table, shift, day + game and dealer, ``runs`` each (the first untimed); p50 / p95 ms. Also
    without the hourly rollup when this FloorStats has the switch (every record summed)."""
    import inspect

    from floor_search import schema_url

    from dealer_assist.storage.floor.stats import FloorStats

    url = schema_url(floor_db, schema, False)
    admin = sa.create_engine(floor_db, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        last = conn.exec_driver_sql(
            f'SELECT max(recorded_at) FROM "{schema}".floor_records'
        ).scalar_one()
    admin.dispose()
    end = last.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    start = end - timedelta(days=30)
    ways = (
        {"rollup": {}}
        if "rollup" not in inspect.signature(FloorStats).parameters
        else {"rollup": {"rollup": True}, "every record": {"rollup": False}}
    )
    with Floor(url) as floor:
        for way, options in ways.items():
            stats = FloorStats(floor, **options)  # type: ignore[arg-type]
            print(f"pit P1, {start:%Y-%m-%d} to {end:%Y-%m-%d} (30 days), {way}:")
            for by in (("table",), ("shift",), ("day", "game"), ("dealer",)):
                stats.stats(start, end, by, pit="P1")  # warm the pool and the cache
                count = runs if way == "rollup" else max(3, runs // 5)
                samples = []
                for _ in range(count):
                    t = time.perf_counter()
                    rows = stats.stats(start, end, by, pit="P1")
                    samples.append((time.perf_counter() - t) * 1000)
                samples.sort()
                print(
                    f"  by {','.join(by):<9} {len(rows):5d} rows, "
                    f"{sum(r.hands for r in rows):,} hands, n={count}: p50 "
                    f"{percentile(samples, 50):8.1f} ms  p95 {percentile(samples, 95):8.1f} ms  "
                    f"max {samples[-1]:8.1f} ms",
                    flush=True,
                )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000_000, help="target, all tables")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--batch", type=int, default=2000, help="records per floor ingest")
    parser.add_argument("--days", type=float, default=91.0, help="days the target spans")
    parser.add_argument("--start", default=START.date().isoformat(), help="first day (UTC)")
    parser.add_argument("--floor", default=DEFAULT_FLOOR, help="PostgreSQL database URL")
    parser.add_argument("--schema", default=KEPT_SCHEMA)
    parser.add_argument("--fresh", action="store_true", help="drop and recreate the schema")
    parser.add_argument("--until", metavar="HH:MM", help="stop after this time (UTC, today)")
    parser.add_argument("--keys", default="/tmp/bench_floor_fill_keys", help="key folder")
    parser.add_argument("--log", default="/tmp/bench_floor_fill.jsonl", help="batch log")
    parser.add_argument(
        "--stats",
        action="store_true",
        help="instead: time the statistics of a month of pit P1 on the floor as it is",
    )
    parser.add_argument("--runs", type=int, default=20, help="--stats: runs per grouping")
    args = parser.parse_args()

    start = datetime.fromisoformat(args.start).replace(tzinfo=UTC)
    until = None
    if args.until:
        hh, mm = (int(x) for x in args.until.split(":"))
        until = datetime.now(UTC).replace(hour=hh, minute=mm, second=0, microsecond=0)
    if args.stats:
        return time_stats(args.floor, args.schema, args.runs)
    admin = sa.create_engine(args.floor, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        if args.fresh:
            conn.exec_driver_sql(f'DROP SCHEMA IF EXISTS "{args.schema}" CASCADE')
            Path(args.log).unlink(missing_ok=True)
        conn.exec_driver_sql(f'CREATE SCHEMA IF NOT EXISTS "{args.schema}"')
    admin.dispose()
    sep = "&" if "?" in args.floor else "?"
    url = f"{args.floor}{sep}options=-csearch_path%3D{args.schema}"
    migrate_floor(Floor(url))

    sample = json.loads(SAMPLE.read_text(encoding="utf-8"))
    step = timedelta(days=args.days) * args.tables / args.hands
    store = KeyStore(args.keys)
    per_table = args.hands // args.tables
    tables = [
        Table(t, i, game_of(i), signer(store, t), step, start, sample)
        for i, t in enumerate(table_ids(args.tables))
    ]
    check_builder(tables[0])
    with Floor(url) as floor:
        heads: dict[str, tuple[int, str]] = {}
        for t in tables:
            floor.enrol(t.table_id, t.game, t.signer.public.hex, "bench", pit=pit_of(t.index))
            heads[t.table_id] = floor.head(t.table_id) or (0, GENESIS_HASH)
        have = sum(p for p, _ in heads.values())
        print(
            f"floor {args.schema}: {have:,} hands; target {per_table * args.tables:,} "
            f"({per_table:,} a table, a hand every {step.total_seconds():.1f} s per table, "
            f"from {start.date()})",
            flush=True,
        )
        with open(args.log, "a", encoding="utf-8") as log:
            stored = fill(floor, tables, heads, per_table, args.batch, until, log)
    total = have + stored
    print(f"stopped at {total:,} hands ({total / (per_table * args.tables):.1%} of the target)")
    return 0


Batch = tuple[str, bytes, float]  # table id, the pickled StoredHands, seconds generating


def generate(
    tables: list[Table],
    heads: dict[str, tuple[int, str]],
    per_table: int,
    batch_size: int,
    until: datetime | None,
    out: Any,
) -> None:
    """The generator's process: each table topped up to ``per_table`` hands (or until
    ``until``), a batch of each in turn, put on ``out`` in chain order; ``None`` at the end."""
    try:
        while until is None or datetime.now(UTC) < until:
            behind = [t for t in tables if heads[t.table_id][0] < per_table]
            if not behind:
                break
            for t in behind:
                position, prev = heads[t.table_id]
                t0 = time.perf_counter()
                batch = []
                for n in range(position, min(position + batch_size, per_table)):
                    hand = t.stored(t.entry(n), n + 1, prev)
                    batch.append(hand)
                    prev = hand.hash
                data = pickle.dumps(batch, protocol=pickle.HIGHEST_PROTOCOL)
                out.put((t.table_id, data, time.perf_counter() - t0))
                heads[t.table_id] = (batch[-1].hand_id, prev)
                if until is not None and datetime.now(UTC) >= until:
                    break
    finally:
        out.put(None)


def fill(
    floor: Floor,
    tables: list[Table],
    heads: dict[str, tuple[int, str]],
    per_table: int,
    batch_size: int,
    until: datetime | None,
    log: TextIO,
) -> int:
    """Generation in a child process, ingest here (:meth:`Floor.ingest`, the server's share on
    the other core); returns the hands stored. Each batch's ingest time goes to ``log``."""
    work: Any = multiprocessing.get_context("fork").Queue(3)
    child = multiprocessing.get_context("fork").Process(
        target=generate, args=(tables, heads, per_table, batch_size, until, work), daemon=True
    )
    child.start()
    games = {t.table_id: t.game for t in tables}
    t_start, gen_s, ingest_s, stored, last_print = time.perf_counter(), 0.0, 0.0, 0, 0.0
    rates: list[float] = []
    try:
        while (item := work.get(timeout=600)) is not None:
            table_id, data, took = item
            batch: list[StoredHand] = pickle.loads(data)
            t0 = time.perf_counter()
            result = floor.ingest(table_id, batch, game=games[table_id])
            spent = time.perf_counter() - t0
            if result.refused is not None or result.stored != len(batch):
                raise SystemExit(f"{table_id}: the floor refused: {result.refused}")
            stored += result.stored
            gen_s, ingest_s = gen_s + took, ingest_s + spent
            rates.append(len(batch) / spent)
            line = {
                "at": datetime.now(UTC).isoformat(),
                "table": table_id,
                "last": result.last,
                "hands": len(batch),
                "gen_s": round(took, 4),
                "ingest_s": round(spent, 4),
            }
            log.write(json.dumps(line) + "\n")
            wall = time.perf_counter() - t_start
            if wall - last_print >= 60:
                last_print = wall
                log.flush()
                print(
                    f"{datetime.now(UTC):%H:%M:%S} this run {stored:,} stored in {wall:.0f} s "
                    f"({stored / wall:,.0f}/s; generating {gen_s:.0f} s, ingest "
                    f"{ingest_s:.0f} s, median batch {statistics.median(rates):,.0f} "
                    "hands/s)",
                    flush=True,
                )
    finally:
        if child.is_alive() and child.pid is not None:
            os.kill(child.pid, signal.SIGTERM)
        child.join()
    wall = time.perf_counter() - t_start
    print(
        f"this run: {stored:,} hands in {wall:.0f} s ({stored / wall:,.0f}/s); ingest per "
        f"batch: median {statistics.median(rates or [0]):,.0f} hands/s over {len(rates)} "
        f"batches of {batch_size}"
    )
    return stored


if __name__ == "__main__":
    sys.exit(main())
