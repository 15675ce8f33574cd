"""The journal's search columns (revision 0004, ``hand_search``) and the SQL search over them
: the same hands, in the same order, as the in-memory search of
``HandFilter.matches``; written with each hand (one by one or in a batch, byte for byte alike),
backfilled by the migration, outside the hashed content."""

from __future__ import annotations

import dataclasses
import itertools
import random
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from dealer_assist.errors import JournalError
from dealer_assist.pitboss.filters import FLAGS, SORT_KEYS, HandFilter, HandRow, Sort, row_of
from dealer_assist.ports import HandEntry, StoredHand
from dealer_assist.storage import Journal
from dealer_assist.storage.hand_index import IX_VOIDS, flag_index
from dealer_assist.storage.search import JournalSearch
from dealer_assist.storage.search_columns import search_columns
from dealer_assist.storage.search_sql import MIN_BUDGET, SORT_INDEX
from tests.fixtures.journal_fixtures import BACKENDS, Backend, make_backend, make_entry

T0 = datetime(2026, 6, 1, 12, tzinfo=UTC)
TABLES = ("UTH-1", "UTH-2")
DEALERS = ("D-1", "D-2", "D-3", "Dé-4")
REASONS = ("Misdeal: card EXPOSED", "shoe fault", "Ritirata: è caduta una carta")


def clock(start: datetime = T0, step_s: float = 7.0) -> Callable[[], datetime]:
    """A clock for ``Journal(clock=)``: ``step_s`` later each call, but every ninth call
    repeats the last time (so sorts meet ties)."""
    times = iter(start + timedelta(seconds=step_s * (i - i // 9)) for i in itertools.count(1))
    return lambda: next(times)


def random_entry(n: int, rng: random.Random) -> HandEntry:
    """A varied hand: its table, game, seats, nets (or a shape the search cannot read),
    void, flags from its events, dealer; now and then a table record."""
    table = rng.choice(TABLES)
    base = make_entry(n, table_id=table, game=rng.choice(("uth", "thb")), hand_uid=f"h{n}")
    if rng.random() < 0.03:
        return dataclasses.replace(
            base, status="table", record={"kind": "buy_in"}, settlement=None, events=[], extra={}
        )
    seats = sorted(rng.sample(range(1, 8), rng.randint(0, 4)))
    events: list[dict[str, Any]] = []
    for _ in range(rng.randint(0, 3)):
        kind = rng.choice(("card", "card", "fault", "link_lost", "source_switched", "other"))
        events.append(
            {
                "kind": kind,
                "source": rng.choice(("serial", "camera", "Camera-2")),
                "manual": rng.random() < 0.2,
            }
        )
    extra: dict[str, Any] = {"n": n}
    if rng.random() < 0.8:
        extra["dealer"] = rng.choice(DEALERS)
    if rng.random() < 0.05:
        extra["resumed"] = [1]
    record = {"players": [{"seat": s} for s in seats]}
    if rng.random() < 0.12:
        return dataclasses.replace(
            base,
            status="void",
            void_reason=rng.choice(REASONS),
            settlement=None,
            record=record,
            events=events,
            extra=extra,
        )
    nets = [rng.choice((-2000, 0, 500, 1500, 12000, 90000)) for _ in seats]
    settlement: dict[str, Any] = {
        "seats": [
            {"seat": s, "net": net, "bets": [{"box": "ante", "stake": rng.randint(1, 9) * 500}]}
            for s, net in zip(seats, nets, strict=True)
        ]
    }
    if seats and rng.random() < 0.1:
        del settlement["seats"][0]["net"]  # a shape the search cannot read: amounts unknown
    return dataclasses.replace(
        base, record=record, settlement=settlement, events=events, extra=extra
    )


def rows_of(hands: list[StoredHand]) -> list[HandRow]:
    """Every hand's search row, as the in-memory search makes it."""
    return [row_of(h, search_columns(h)) for h in hands if h.status != "table"]


def reference(every: list[HandRow], where: HandFilter, sort: Sort) -> list[HandRow]:
    """The in-memory answer: ``HandFilter.matches`` over ``every`` row, in the floor's
    order (key, table, position in one direction; unknown keys last)."""
    rows = [r for r in every if where.matches(r)]
    known = [r for r in rows if getattr(r, sort.key) is not None]
    known.sort(
        key=lambda r: (getattr(r, sort.key), r.table_id, r.position), reverse=sort.descending
    )
    unknown = sorted(
        (r for r in rows if getattr(r, sort.key) is None),
        key=lambda r: (r.table_id, r.position),
        reverse=sort.descending,
    )
    return known + unknown


def random_filter(rng: random.Random, first: datetime, last: datetime) -> HandFilter:
    span = (last - first).total_seconds()
    fields: dict[str, Any] = {}

    def pick(p: float) -> bool:
        return rng.random() < p

    if pick(0.3):
        fields["table_id"] = rng.choice((*TABLES, "NONE"))
    if pick(0.3):
        fields["since"] = first + timedelta(seconds=rng.uniform(-10, span))
    if pick(0.3):
        since = fields.get("since", first - timedelta(seconds=10))
        fields["until"] = since + timedelta(seconds=rng.choice((7, 60, span / 10, span)))
    if pick(0.2):
        fields["game"] = rng.choice(("uth", "thb"))
    if pick(0.2):
        fields["seat"] = rng.randint(1, 8)
    if pick(0.2):
        fields["outcome"] = rng.choice(("settled", "void"))
    if pick(0.2):
        fields["min_amount"] = rng.choice((0, 1, 1500, 12000, 90000, 10**9))
    if pick(0.15):
        fields["void_reason"] = rng.choice(("", "CARD", "è", "fault", "nothing"))
    if pick(0.3):
        fields["flags"] = tuple(rng.sample(FLAGS, rng.randint(1, 2)))
    if pick(0.25):
        fields["dealer"] = rng.choice((*DEALERS, "D-9"))
    return HandFilter(**fields)


@pytest.fixture(scope="module")
def journal_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real journal of 3,000 random hands and table records (in batches of random size)."""
    db = tmp_path_factory.mktemp("search") / "journal.db"
    rng = random.Random(4)
    with Journal(str(db), clock=clock()) as j:
        n = 0
        while n < 3000:
            size = rng.randint(1, 400)
            j.append_hands([random_entry(n + i, rng) for i in range(size)])
            n += size
    return db


@pytest.fixture(params=[MIN_BUDGET, 300], ids=["budget", "small-budget"])
def search(journal_file: Path, request: pytest.FixtureRequest) -> Iterator[JournalSearch]:
    """The search, with the product's budget (3,000 hands: it reads and sorts every access)
    and a small one, so indexes are walked in the sort's order too."""
    js = JournalSearch(journal_file, least_budget=request.param)
    js.open()
    yield js
    js.close()


def test_the_sql_search_finds_what_the_in_memory_search_finds(
    search: JournalSearch, journal_file: Path
) -> None:
    with Journal(str(journal_file), create=False, read_only=True) as j:
        hands = list(j.iter_hands())
    first, last = hands[0].recorded_at, hands[-1].recorded_at
    every = rows_of(hands)
    rng = random.Random(16)
    nonempty = 0
    for i in range(400):
        where = random_filter(rng, first, last)
        sort = Sort(rng.choice(SORT_KEYS), rng.random() < 0.6)
        expected = reference(every, where, sort)
        nonempty += bool(expected)
        limit = rng.choice((1, 7, 50, 100))
        offsets = {0, rng.randint(0, len(expected) + 2), max(0, len(expected) - limit + 1)}
        for offset in offsets:
            page = search.search(where, sort, offset, limit)
            assert list(page.rows) == expected[offset : offset + limit], (i, where, sort, offset)
            assert page.more == (offset + limit < len(expected)) and page.offset == offset
    assert nonempty > 250  # the filters find hands, not only nothing


def test_every_page_of_a_whole_walk_follows_on(search: JournalSearch, journal_file: Path) -> None:
    with Journal(str(journal_file), create=False, read_only=True) as j:
        hands = list(j.iter_hands())
    for sort in (Sort("wagered", False), Sort("top_amount", True), Sort("position", False)):
        seen: list[HandRow] = []
        while True:
            page = search.search(HandFilter(), sort, len(seen), 333)
            seen += page.rows
            if not page.more:
                break
        assert seen == reference(rows_of(hands), HandFilter(), sort)
        assert seen[-1].top_amount is None or sort.key == "position"  # unknown amounts last


def test_the_indexes_the_search_names_exist(journal_file: Path) -> None:
    with sqlite3.connect(journal_file) as con:
        names = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        sql = (
            "EXPLAIN QUERY PLAN SELECT * FROM hand_search INDEXED BY ix_hand_search_flag_"
            "manual_card WHERE instr(flags, ',manual_card,') > 0 ORDER BY recorded_at DESC"
        )
        plan = " ".join(str(r) for r in con.execute(sql))
    wanted = {i for i in SORT_INDEX.values() if i} | {IX_VOIDS} | {flag_index(f) for f in FLAGS}
    assert wanted <= names
    assert "TEMP B-TREE" not in plan  # the partial index gives the order: no sort


def test_an_index_walked_in_the_sorts_order_is_not_sorted_again(journal_file: Path) -> None:
    """Filters too common to read and sort (more than the budget, small here): the page comes
    from an index in the sort's order, read until it is full; SQLite sorts nothing (a table
    filter written as an equality would make it sort the rest of the order by)."""
    search = JournalSearch(journal_file, least_budget=300)
    search.open()
    sent: list[tuple[str, Any]] = []

    def grab(conn: Any, cursor: Any, statement: str, params: Any, *rest: Any) -> None:
        if "ORDER BY" in statement and "FROM hand_search" in statement:
            sent.append((statement, params))

    cases = [
        (HandFilter(table_id="UTH-1", since=T0), Sort("wagered")),
        (HandFilter(table_id="UTH-1"), Sort("top_amount")),
        (HandFilter(table_id="UTH-2", seat=3), Sort()),
        (HandFilter(table_id="UTH-2"), Sort("table_id", False)),
        (HandFilter(outcome="settled", since=T0), Sort("status")),
        (HandFilter(game="uth"), Sort("game")),
    ]
    sa.event.listen(sa.engine.Engine, "before_cursor_execute", grab)
    try:
        for where, sort in cases:
            search.search(where, sort, 0, 50)
    finally:
        sa.event.remove(sa.engine.Engine, "before_cursor_execute", grab)
        search.close()
    assert len(sent) == len(cases)
    with sqlite3.connect(journal_file) as con:
        for statement, params in sent:
            plan = " ".join(str(r) for r in con.execute(f"EXPLAIN QUERY PLAN {statement}", params))
            assert "INDEXED BY" in statement and "TEMP B-TREE" not in plan, (statement, plan)


def test_the_floor_view_of_the_sql_journal_is_the_in_memory_one(
    search: JournalSearch, journal_file: Path, tmp_path: Path
) -> None:
    old = tmp_path / "old.db"
    shutil.copy(journal_file, old)
    as_0003(old)
    legacy = JournalSearch(old)
    legacy.open()
    try:
        now = T0 + timedelta(hours=5)
        snap, ref = search.snapshot(now), legacy.snapshot(now)
        assert snap == ref and len(snap.tables) == 2 and len(snap.alerts) > 100
        assert {t.hands_last_hour for t in snap.tables} != {0}
        where, sort = HandFilter(dealer="D-2", seat=3), Sort("wagered")
        assert search.search(where, sort, 5, 20) == legacy.search(where, sort, 5, 20)
    finally:
        legacy.close()


def as_0003(db: Path) -> None:
    """Make ``db`` the journal a release before revision 0004 wrote (0004 only adds the
    table: its hands, chain and signatures are those of 0003)."""
    with sqlite3.connect(db) as con:
        con.execute("DROP TABLE hand_search")
        con.execute("UPDATE alembic_version SET version_num = '0003'")


def dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the journal's tables, as stored."""
    with sqlite3.connect(db) as con:
        return {
            t: con.execute(f"SELECT * FROM {t} ORDER BY 1").fetchall()
            for t in ("hands", "chain_head", "hand_search", "alembic_version")
        }


def test_a_batch_stores_byte_for_byte_what_single_appends_store(tmp_path: Path) -> None:
    rng = random.Random(2)
    entries = [random_entry(n, rng) for n in range(60)]
    entries.insert(30, entries[5])  # a retried hand inside the batch: stored once
    keys = tmp_path / "keys"  # one key for both, so the signatures can be alike
    one, batch = tmp_path / "one.db", tmp_path / "batch.db"
    with Journal(str(one), keys=keys, clock=clock()) as j:
        singles = [j.append_hand(e) for e in entries]
    with Journal(str(batch), keys=keys, clock=clock()) as j:
        stored = j.append_hands(entries[:40])
        stored += j.append_hands([entries[3]]) + j.append_hands(entries[40:])
        assert j.verify().ok and j.verify().signatures_checked == len(dump(batch)["hands"])
    assert stored == [*singles[:40], singles[3], *singles[40:]]
    assert stored[30] == stored[5]
    assert dump(batch) == dump(one)
    assert len(dump(one)["hand_search"]) == sum(
        1 for h in singles[:40] + singles[41:] if h.status != "table"
    )


def test_a_bad_entry_in_a_batch_writes_nothing_and_is_named(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    rng = random.Random(3)
    good = [random_entry(n, rng) for n in range(3)]
    bad = dataclasses.replace(good[1], status="void", void_reason=None, hand_uid="bad")
    with Journal(str(db)) as j:
        with pytest.raises(JournalError, match=r"entry 2: void_reason"):
            j.append_hands([good[0], good[1], bad])
        assert j.count() == 0
        with pytest.raises(JournalError, match=r"^void_reason"):
            j.append_hand(bad)
        assert j.append_hands([]) == [] and j.count() == 0


def test_the_migration_fills_the_search_columns_and_verify_ignores_them(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    rng = random.Random(5)
    with Journal(str(db), clock=clock()) as j:
        j.append_hands([random_entry(n, rng) for n in range(700)])
    written = dump(db)
    as_0003(db)
    with Journal(str(db), create=False, read_only=True) as j:  # read as it is: not upgraded
        assert j.schema_revision == "0003" and j.verify().ok
    old = JournalSearch(db)
    old.open()
    try:
        assert len(old.search(HandFilter(outcome="void"), Sort(), 0, 1000).rows) > 50
    finally:
        old.close()
    with Journal(str(db)) as j:  # a writable open upgrades
        assert j.schema_revision == "0004" and j.verify().ok
    assert dump(db) == written  # the same rows as the appends wrote
    with sqlite3.connect(db) as con:  # the side table is not hashed: a change there is no break
        con.execute("UPDATE hand_search SET top_amount = 10 WHERE hand_id = 9")
    with Journal(str(db), create=False, read_only=True) as j:
        assert j.verify().ok
    with sqlite3.connect(db) as con:  # a rewritten hand still is, search columns or not
        con.execute("UPDATE hands SET void_reason = 'x' WHERE hand_id = 12")
    with Journal(str(db), create=False, read_only=True) as j:
        result = j.verify()
    assert not result.ok and result.first_bad_hand == 12


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    yield from make_backend(request.param, tmp_path)


def test_both_backends_write_the_search_columns_with_the_hand(backend: Backend) -> None:
    rng = random.Random(6)
    with Journal(backend.url) as j:
        j.append_hands([random_entry(n, rng) for n in range(40)])
        j.append_hand(random_entry(40, rng))
        hands = [h for h in j.iter_hands() if h.status != "table"]
    rows = backend.raw("SELECT hand_id, seats, flags, dealer FROM hand_search ORDER BY hand_id")
    assert [r[0] for r in rows] == [h.hand_id for h in hands]
    for (_, seats, flags, dealer), h in zip(rows, hands, strict=True):
        cols = search_columns(h)
        assert (seats or None) == (
            f",{','.join(map(str, cols['seats']))}," if cols["seats"] else None
        )
        assert flags == (f",{','.join(cols['flags'])}," if cols["flags"] else None)
        assert dealer == cols["dealer"]
    # a hand deleted behind the journal's back takes its search row along (no foreign key
    # error on PostgreSQL, which enforces it): verify names the gap
    backend.raw("DELETE FROM hands WHERE hand_id = 7")
    with Journal(backend.url, create=False, read_only=True) as j:
        assert not j.verify().ok


def test_the_journals_indexes_are_the_ones_the_live_code_names(tmp_path: Path) -> None:
    """Revision 0004 keeps a frozen copy of the search indexes; the live code has one source
    (hand_index.INDEXES and the search flags), which the pit boss's verified index builds too:
    a migrated journal and that index hold exactly those, with those columns."""
    from dealer_assist.storage.hand_index import INDEXES
    from dealer_assist.storage.verified_index import _private_schema

    db = tmp_path / "journal.db"
    with Journal(str(db), clock=clock()):
        pass
    wanted = {name: tuple(cols) for name, cols in INDEXES.items()}
    wanted |= {IX_VOIDS: ("recorded_at", "table_id")}
    wanted |= {flag_index(f): ("recorded_at", "table_id") for f in FLAGS}
    with sqlite3.connect(db) as con:
        names = [
            r[0]
            for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type='index' AND tbl_name='hand_search' "
                "AND name NOT LIKE 'sqlite_%'"
            )
        ]
        migrated = {n: tuple(r[2] for r in con.execute(f"PRAGMA index_info('{n}')")) for n in names}
    assert migrated == wanted
    _meta, search_table, _hashes = _private_schema()
    built = {ix.name: tuple(c.name for c in ix.columns) for ix in search_table.indexes}
    assert built == wanted
