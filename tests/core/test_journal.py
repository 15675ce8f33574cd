"""The hand journal on real SQLite files and the real PostgreSQL server."""

from __future__ import annotations

import itertools
import sqlite3
import threading
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic.config import Config
from alembic.script import ScriptDirectory

import dealer_assist.storage.journal as journal_module
from dealer_assist.errors import JournalError
from dealer_assist.ports import HandEntry, StoredHand
from dealer_assist.storage import GENESIS_HASH, Journal, canonical_json, chain_hash
from dealer_assist.storage.engine import MIGRATIONS_DIR
from tests.fixtures.journal_fixtures import (
    BACKENDS,
    EVENTS,
    RECORD,
    SETTLEMENT,
    Backend,
    as_utc,
    make_backend,
    make_entry,
)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    yield from make_backend(request.param, tmp_path)


@pytest.fixture
def journal(backend: Backend) -> Iterator[Journal]:
    with Journal(backend.url) as j:
        yield j


def fill(journal: Journal, n: int) -> None:
    for i in range(n):
        journal.append_hand(make_entry(i, hand_uid=f"h{i}"))


# -- round trip --------------------------------------------------------------------------------


RECORDED_AT = datetime(2026, 12, 31, 23, 59, 30, 250000, tzinfo=UTC)


def test_round_trip_keeps_every_field_and_returns_utc(backend: Backend) -> None:
    entry = make_entry(1, hand_uid="uth3-0001")
    with Journal(backend.url, clock=lambda: RECORDED_AT) as journal:
        stored = journal.append_hand(entry)
        read = journal.get_hand(stored.hand_id)
    _check_round_trip(entry, stored, read)


def _check_round_trip(entry: HandEntry, stored: StoredHand, read: StoredHand) -> None:
    assert read == stored
    assert read.hand_id == 1 and read.hand_uid == "uth3-0001"
    assert (read.table_id, read.game, read.status, read.void_reason) == (
        "UTH-3",
        "uth",
        "settled",
        None,
    )
    # Same instant, to the microsecond, now expressed in UTC.
    assert read.started_at == entry.started_at and read.started_at.tzinfo == UTC
    assert read.started_at.replace(tzinfo=None) == as_utc(entry.started_at).replace(tzinfo=None)
    assert read.ended_at == entry.ended_at and read.ended_at.microsecond == 123463
    assert read.recorded_at.tzinfo == UTC
    assert read.recorded_at == RECORDED_AT  # the journal's clock, to the microsecond
    assert read.record == RECORD and read.settlement == SETTLEMENT
    assert read.events[0] == {
        "kind": "card",
        "source": "serial",
        "at": "2026-03-02T02:15:08.000001+00:00",
        "deck_id": "D1",
        "index": 1,
        "card": "As",
        "manual": False,
    }
    assert read.events[1]["card"] is None and read.events[2]["code"] == "JAM"
    assert len(read.events) == len(EVENTS)
    assert read.extra == {"n": 1, "operator": "Zoë ♠"}
    assert read.prev_hash == GENESIS_HASH
    assert read.hash == chain_hash(GENESIS_HASH, read.content())


def test_void_hand_round_trip(journal: Journal) -> None:
    entry = make_entry(0, status="void", void_reason="misdeal: 3 cards to seat 2", settlement=None)
    read = journal.get_hand(journal.append_hand(entry).hand_id)
    assert (read.status, read.void_reason, read.settlement) == (
        "void",
        "misdeal: 3 cards to seat 2",
        None,
    )


def test_hashes_chain_and_ids_are_consecutive(journal: Journal) -> None:
    assert journal.last_hand() is None and journal.count() == 0
    fill(journal, 4)
    hands = list(journal.iter_hands())
    assert [h.hand_id for h in hands] == [1, 2, 3, 4]
    assert hands[0].prev_hash == GENESIS_HASH
    for before, after in itertools.pairwise(hands):
        assert after.prev_hash == before.hash
        assert after.hash == chain_hash(before.hash, after.content())
    assert len({h.hash for h in hands}) == 4
    last = journal.last_hand()
    assert last is not None and last.hand_id == 4 and journal.count() == 4
    assert [h.hand_id for h in journal.iter_hands(start=3)] == [3, 4]


def test_iter_hands_pages_through_everything(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(journal_module, "_PAGE", 2)
    fill(journal, 5)
    assert [h.hand_id for h in journal.iter_hands()] == [1, 2, 3, 4, 5]
    assert [h.extra["n"] for h in journal.iter_hands(start=2)] == [1, 2, 3, 4]


def test_hash_is_sha256_of_prev_hash_and_canonical_json(journal: Journal) -> None:
    import hashlib

    hand = journal.append_hand(make_entry(0))
    text = canonical_json(hand.content())
    assert '"operator":"Zoë ♠"' in text  # ensure_ascii=False, no spaces
    expected = hashlib.sha256((GENESIS_HASH + text).encode("utf-8")).hexdigest()
    assert hand.hash == expected


def test_get_unknown_hand_raises(journal: Journal) -> None:
    fill(journal, 1)
    with pytest.raises(JournalError, match="no hand 2"):
        journal.get_hand(2)


# -- idempotent uid and bad entries ------------------------------------------------------------


def test_same_hand_uid_is_stored_once(journal: Journal) -> None:
    first = journal.append_hand(make_entry(0, hand_uid="u-1"))
    again = journal.append_hand(make_entry(5, hand_uid="u-1", status="void", void_reason="x"))
    assert again == first and journal.count() == 1
    assert journal.append_hand(make_entry(1, hand_uid="u-2")).hand_id == 2
    assert journal.verify().ok


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"started_at": datetime(2026, 1, 1, 12, 0)}, "without timezone"),
        ({"status": "done"}, "status"),
        ({"status": "void", "void_reason": None}, "void_reason"),
        ({"void_reason": "why"}, "void_reason"),
        ({"table_id": ""}, "table_id"),
        ({"ended_at": datetime(2020, 1, 1, tzinfo=UTC)}, "ended_at"),
        ({"record": {"x": float("nan")}}, "JSON"),
        ({"extra": {"when": datetime(2026, 1, 1, tzinfo=UTC)}}, "JSON"),
    ],
)
def test_bad_entry_is_refused_and_nothing_stored(
    journal: Journal, changes: dict[str, object], message: str
) -> None:
    with pytest.raises(JournalError, match=message):
        journal.append_hand(make_entry(0, **changes))
    assert journal.count() == 0 and journal.verify().ok


# -- verify and tampering ----------------------------------------------------------------------


def test_verify_passes_on_empty_and_filled_journal(journal: Journal) -> None:
    empty = journal.verify()
    assert (empty.ok, empty.hands_checked, empty.first_bad_hand) == (True, 0, None)
    fill(journal, 5)
    result = journal.verify()
    assert (result.ok, result.hands_checked, result.first_bad_hand) == (True, 5, None)
    last = journal.last_hand()
    assert last is not None and result.head_hash == last.hash


TAMPERING = {
    "record": ("UPDATE hands SET record = replace(record, '1000', '9000') WHERE hand_id = 3", ""),
    "settlement": ("UPDATE hands SET settlement = NULL WHERE hand_id = 3", ""),
    "events": ("UPDATE hands SET events = '[]' WHERE hand_id = 3", ""),
    "table_id": ("UPDATE hands SET table_id = 'UTH-4' WHERE hand_id = 3", ""),
    "status": ("UPDATE hands SET status = 'void', void_reason = 'x' WHERE hand_id = 3", ""),
    "hand_uid": ("UPDATE hands SET hand_uid = 'other' WHERE hand_id = 3", ""),
    "hash": ("UPDATE hands SET hash = ? WHERE hand_id = 3", "f" * 64),
    "prev_hash": ("UPDATE hands SET prev_hash = ? WHERE hand_id = 3", "0" * 64),
}


@pytest.mark.parametrize("column", sorted(TAMPERING))
def test_verify_names_the_edited_hand(journal: Journal, backend: Backend, column: str) -> None:
    fill(journal, 5)
    sql, param = TAMPERING[column]
    backend.raw(sql, (param,) if param else ())
    result = journal.verify()
    assert not result.ok and result.first_bad_hand == 3 and result.hands_checked == 2
    assert "hash" in result.reason or "link" in result.reason


def test_verify_catches_an_edited_timestamp(journal: Journal, backend: Backend) -> None:
    fill(journal, 4)
    (stored,) = backend.raw("SELECT started_at FROM hands WHERE hand_id = 2")[0]
    # Same type the driver gave us, one second later: SQLite text or PostgreSQL timestamptz.
    if isinstance(stored, str):
        later = stored.replace(":07.", ":08.")
    else:
        later = stored.replace(second=stored.second + 1)
    assert later != stored
    backend.raw("UPDATE hands SET started_at = ? WHERE hand_id = 2", (later,))
    result = journal.verify()
    assert (result.ok, result.first_bad_hand) == (False, 2)
    assert result.reason == "content does not match its hash"


def test_verify_catches_a_deleted_hand(journal: Journal, backend: Backend) -> None:
    fill(journal, 5)
    backend.raw("DELETE FROM hands WHERE hand_id = 3")
    result = journal.verify()
    assert (result.ok, result.first_bad_hand, result.hands_checked) == (False, 3, 2)
    assert "missing" in result.reason


def test_verify_catches_a_deleted_last_hand(journal: Journal, backend: Backend) -> None:
    fill(journal, 5)
    backend.raw("DELETE FROM hands WHERE hand_id = 5")
    result = journal.verify()
    assert (result.ok, result.first_bad_hand) == (False, 5)
    assert "missing" in result.reason


def test_verify_catches_reordered_hands(journal: Journal, backend: Backend) -> None:
    fill(journal, 4)
    for sql in (
        "UPDATE hands SET hand_id = 100 WHERE hand_id = 2",
        "UPDATE hands SET hand_id = 2 WHERE hand_id = 3",
        "UPDATE hands SET hand_id = 3 WHERE hand_id = 100",
    ):
        backend.raw(sql)
    result = journal.verify()
    assert (result.ok, result.first_bad_hand) == (False, 2)


def test_verify_catches_a_rewritten_chain_head(journal: Journal, backend: Backend) -> None:
    fill(journal, 3)
    backend.raw("UPDATE chain_head SET last_hand_id = 2")
    result = journal.verify()
    assert (result.ok, result.first_bad_hand) == (False, 3)


def test_verify_catches_unreadable_json(journal: Journal, backend: Backend) -> None:
    fill(journal, 3)
    backend.raw("UPDATE hands SET extra = '{broken' WHERE hand_id = 2")
    result = journal.verify()
    assert (result.ok, result.first_bad_hand) == (False, 2)
    assert "not valid JSON" in result.reason


def test_undecodable_row_is_a_journal_error(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(str(path)) as journal:
        fill(journal, 3)
    Backend("sqlite", str(path), sqlite_path=path).raw(
        "UPDATE hands SET started_at = 'garbage' WHERE hand_id = 2"
    )
    with Journal(str(path)) as journal:
        result = journal.verify()
        assert (result.ok, result.first_bad_hand, result.hands_checked) == (False, 2, 1)
        with pytest.raises(JournalError, match="unreadable"):
            journal.get_hand(2)
        with pytest.raises(JournalError, match="unreadable"):
            list(journal.iter_hands())
        assert journal.get_hand(3).hand_id == 3


# -- pending steps -----------------------------------------------------------------------------


def test_steps_are_pending_until_the_hand_is_appended(journal: Journal) -> None:
    journal.write_step("UTH-3", "u-7", 1, "card", {"seat": 1, "card": "As"})
    journal.write_step("UTH-3", "u-7", 2, "bet", {"seat": 1, "box": "ante", "amount": 1000})
    journal.write_step("UTH-9", "u-8", 1, "card", {"seat": 2, "card": "Kd"})
    steps = journal.pending_steps("UTH-3")
    assert [(s.hand_uid, s.step_no, s.kind) for s in steps] == [
        ("u-7", 1, "card"),
        ("u-7", 2, "bet"),
    ]
    assert steps[1].payload == {"seat": 1, "box": "ante", "amount": 1000}
    assert steps[0].written_at.tzinfo == UTC
    journal.append_hand(make_entry(0, hand_uid="u-7"))
    assert journal.pending_steps("UTH-3") == []
    assert [s.hand_uid for s in journal.pending_steps("UTH-9")] == ["u-8"]
    assert journal.clear_steps("UTH-9", "u-8") == 1
    assert journal.pending_steps("UTH-9") == []


def test_writing_a_step_twice(journal: Journal) -> None:
    first = journal.write_step("UTH-3", "u-1", 1, "card", {"card": "As"})
    assert journal.write_step("UTH-3", "u-1", 1, "card", {"card": "As"}) == first
    with pytest.raises(JournalError, match="already written"):
        journal.write_step("UTH-3", "u-1", 1, "card", {"card": "Kd"})
    assert len(journal.pending_steps("UTH-3")) == 1


def test_failed_append_keeps_the_steps(journal: Journal) -> None:
    # The set is only refused while building the hand, after the steps were deleted in the
    # same transaction: the rollback must bring them back.
    journal.write_step("UTH-3", "u-1", 1, "card", {"card": "As"})
    with pytest.raises(JournalError, match="JSON"):
        journal.append_hand(make_entry(0, hand_uid="u-1", extra={"bad": {1, 2}}))
    assert [s.step_no for s in journal.pending_steps("UTH-3")] == [1]
    assert journal.count() == 0


# -- lifecycle, migrations, backend settings ---------------------------------------------------


def test_open_close_idempotent_and_closed_journal_refuses(backend: Backend) -> None:
    j = Journal(backend.url)
    with pytest.raises(JournalError, match="not open"):
        j.count()
    j.open()
    j.open()
    assert j.is_open
    j.append_hand(make_entry(0))
    j.close()
    j.close()
    with pytest.raises(JournalError, match="not open"):
        j.append_hand(make_entry(1))
    with Journal(backend.url) as again:  # reopening migrates nothing and keeps the hands
        assert again.count() == 1 and again.verify().ok


def test_schema_is_at_alembic_head(journal: Journal, backend: Backend) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    head = ScriptDirectory.from_config(config).get_current_head()
    assert backend.raw("SELECT version_num FROM alembic_version") == [(head,)]


def test_newer_schema_is_refused(backend: Backend) -> None:
    with Journal(backend.url):
        pass
    backend.raw("UPDATE alembic_version SET version_num = '9999_from_the_future'")
    with pytest.raises(JournalError, match="upgraded"):
        Journal(backend.url).open()


def test_create_false_refuses_a_database_without_journal(backend: Backend) -> None:
    with pytest.raises(JournalError, match=r"no .*journal"):
        Journal(backend.url, create=False).open()
    if backend.sqlite_path is not None:
        assert not backend.sqlite_path.exists()


def test_sqlite_without_journal_tables_is_refused_with_create_false(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE t (x)")
    con.close()
    with pytest.raises(JournalError, match="no dealer-assist journal"):
        Journal(str(path), create=False).open()


def test_not_a_database_file(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("this is not sqlite " * 100)
    with pytest.raises(JournalError):
        Journal(str(path)).open()


def test_sqlite_connections_use_wal_and_full_sync(tmp_path: Path) -> None:
    with Journal(str(tmp_path / "j.db")) as j:
        engine = j._engine  # the pool's connections are what we need to inspect
        assert engine is not None
        with engine.connect() as c1, engine.connect() as c2:
            for c in (c1, c2):
                assert c.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
                assert c.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL


def test_sqlite_url_and_path_are_the_same_journal(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    with Journal(str(path)) as j:
        j.append_hand(make_entry(0))
    with Journal(f"sqlite:///{path}") as j:
        assert j.count() == 1


def test_unreachable_postgres_is_a_journal_error() -> None:
    with pytest.raises(JournalError, match="cannot open the journal"):
        Journal("postgresql+psycopg://postgres@127.0.0.1:1/test").open()


def test_sqlite_in_a_missing_folder_names_the_path(tmp_path: Path) -> None:
    path = tmp_path / "nodir" / "x.db"
    with pytest.raises(JournalError) as err:
        Journal(str(path)).open()
    assert str(err.value) == (
        f"cannot create the journal {path}: the folder {path.parent} does not exist"
    )
    assert not path.parent.exists()


def test_sqlite_under_a_file_names_the_path(tmp_path: Path) -> None:
    (tmp_path / "afile").write_text("not a folder")
    path = tmp_path / "afile" / "x.db"
    with pytest.raises(JournalError, match=f"the folder {tmp_path / 'afile'} is a file"):
        Journal(str(path)).open()


def test_sqlite_that_cannot_be_opened_names_the_path(tmp_path: Path) -> None:
    with pytest.raises(JournalError, match=f"cannot open the journal {tmp_path}: unable to open"):
        Journal(str(tmp_path)).open()  # a folder, not a file


def test_unsupported_url() -> None:
    with pytest.raises(JournalError, match="unsupported"):
        Journal("mysql://u@h/db").open()


def test_returned_hand_does_not_share_callers_dicts(journal: Journal) -> None:
    record = {**RECORD, "board": list(RECORD["board"])}
    stored = journal.append_hand(replace(make_entry(0), record=record))
    record["board"].append("Xx")
    assert stored.record["board"] == RECORD["board"]
    assert journal.verify().ok


def test_raw_sql_sees_canonical_json(journal: Journal, backend: Backend) -> None:
    journal.append_hand(make_entry(0))
    ((text,),) = backend.raw("SELECT record FROM hands WHERE hand_id = 1")
    assert text == canonical_json(RECORD)
    assert sa.__version__  # SQLAlchemy Core is what wrote it (no ORM imports in storage)


def test_opening_a_new_journal_waits_for_another_process_holding_it(tmp_path: Path) -> None:
    # switching a new file to WAL needs it to itself; while another connection holds the write
    # lock, SQLite says "database is locked" at once instead of waiting its busy timeout (it
    # would deadlock): two processes opening a new journal together once failed so
    path = tmp_path / "journal.db"
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("CREATE TABLE t (x)")
    other.execute("BEGIN IMMEDIATE")
    release = threading.Timer(0.3, lambda: other.execute("COMMIT"))
    release.start()
    try:
        with Journal(str(path)) as journal:
            assert journal.verify().ok
    finally:
        release.join()
        other.close()
    mode = sqlite3.connect(path).execute("PRAGMA journal_mode").fetchone()[0]
    assert mode == "wal"
