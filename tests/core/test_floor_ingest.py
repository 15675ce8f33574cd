"""The floor's chain check as records arrive: idempotent by table and
position, never a gap, a break or a changed copy refused with an alert; on the real PostgreSQL."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.storage import Journal, canonical_json, chain_hash
from dealer_assist.storage.floor import Floor, FloorError, Pusher
from dealer_assist.storage.floor.ingest import content_hash
from dealer_assist.storage.floor.migration import migrate_floor
from dealer_assist.storage.floor.schema import SCHEMA_HEAD
from dealer_assist.storage.search_columns import search_columns
from tests.fixtures.floor_fixtures import FloorDb, fill, make_floor_db, rewrite_and_rehash
from tests.fixtures.journal_fixtures import make_entry

pytestmark = pytest.mark.postgres


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.fixture
def floor(floor_db: FloorDb) -> Iterator[Floor]:
    with Floor(floor_db.url) as f:
        yield f


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    with Journal(str(tmp_path / "table.db")) as j:
        yield j


def test_a_floor_without_its_schema_is_named_and_migrate_is_idempotent(floor_db: FloorDb) -> None:
    floor_db.sql("DROP TABLE floor_alembic_version")
    with pytest.raises(FloorError, match="floor migrate"):
        Floor(floor_db.url).open()
    floor_db.sql(
        "DROP TABLE floor_alerts, floor_heads, floor_records, floor_tables, floor_hourly, "
        "floor_signoffs, floor_checkpoints"
    )
    assert migrate_floor(Floor(floor_db.url)) == SCHEMA_HEAD
    assert migrate_floor(Floor(floor_db.url)) == SCHEMA_HEAD
    with Floor(floor_db.url) as floor:
        assert floor.tables() == []


def test_not_postgres_is_refused() -> None:
    with pytest.raises(FloorError, match="must be PostgreSQL"):
        Floor("sqlite:///tmp/floor.db")


def test_pushed_twice_the_floor_holds_each_position_once(
    floor: Floor, floor_db: FloorDb, journal: Journal
) -> None:
    fill(journal, 12)
    first = Pusher(journal, floor).push()
    assert (first.sent, first.first, first.last, first.floor_position) == (12, 1, 12, 12)
    again = Pusher(journal, floor).push()
    assert again.sent == 0 and again.refused is None
    assert "nothing to send" in again.sentence()
    rows = floor_db.sql("SELECT position, hash FROM floor_records ORDER BY position")
    assert [r[0] for r in rows] == list(range(1, 13))
    assert [r[1] for r in rows] == [h.hash for h in journal.iter_hands()]
    # a resend of stored records (a retry after a lost commit answer) is harmless
    result = floor.ingest("UTH-3", list(journal.iter_hands(5)))
    assert (result.stored, result.duplicates, result.refused) == (0, 8, None)
    assert floor_db.sql("SELECT count(*) FROM floor_records")[0][0] == 12
    # the floor's copy is the journal's entry, byte for byte, and verifies
    assert floor.get_record("UTH-3", 7) == journal.get_hand(7)
    assert floor.verify("UTH-3").ok
    assert floor.alerts() == []
    table = floor.tables()[0]
    assert (table.table_id, table.game, table.position) == ("UTH-3", "uth", 12)
    assert table.hash == journal.get_hand(12).hash
    heads = floor.heads("UTH-3")
    assert [(h.position, h.hash) for h in heads] == [(12, journal.get_hand(12).hash)]


def test_a_missing_record_is_refused_and_nothing_past_it_stored(
    floor: Floor, floor_db: FloorDb, journal: Journal
) -> None:
    fill(journal, 6)
    hands = list(journal.iter_hands())
    assert floor.ingest("UTH-3", hands[:2]).stored == 2
    result = floor.ingest("UTH-3", [hands[3], hands[4]])
    assert result.stored == 0 and result.refused is not None
    assert result.refused.kind == "gap" and result.refused.position == 4
    assert "expects 3" in result.refused.reason
    # out of order inside one batch: stored up to the gap
    result = floor.ingest("UTH-3", [hands[2], hands[4]])
    assert (result.stored, result.head_position) == (1, 3)
    assert result.refused is not None and result.refused.position == 5
    assert [r[0] for r in floor_db.sql("SELECT position FROM floor_records")] == [1, 2, 3]
    # the same refusal again raises no second alert
    assert [a.kind for a in floor.alerts()] == ["gap", "gap"]
    floor.ingest("UTH-3", [hands[4]])
    assert len(floor.alerts()) == 2
    assert Pusher(journal, floor).push().floor_position == 6  # in order, everything is taken


def test_a_chain_break_raises_an_alert_and_stops_there(
    floor: Floor, floor_db: FloorDb, journal: Journal
) -> None:
    fill(journal, 5)
    hands = list(journal.iter_hands())
    unlinked = dataclasses.replace(hands[2], prev_hash="f" * 64)
    result = floor.ingest("UTH-3", [hands[0], hands[1], unlinked, hands[3]])
    assert result.stored == 2 and result.refused is not None
    assert (result.refused.kind, result.refused.position) == ("chain_break", 3)
    assert "does not link to position 2" in result.refused.reason
    # content changed, hash left: the floor recomputes it
    edited = dataclasses.replace(hands[2], extra={"n": 999})
    result = floor.ingest("UTH-3", [edited])
    assert result.refused is not None and "does not match its hash" in result.refused.reason
    assert floor.head("UTH-3") == (2, hands[1].hash)
    alerts = floor.alerts(table_id="UTH-3")
    assert [(a.kind, a.position) for a in alerts] == [("chain_break", 3)]  # one per position
    assert alerts[0].sentence().startswith(f"#{alerts[0].id} chain_break UTH-3 position 3")
    done = floor.acknowledge(alerts[0].id, "pit boss Rossi")
    assert done.acknowledged_by == "pit boss Rossi" and done.acknowledged_at is not None
    assert floor.alerts() == [] and len(floor.alerts(open_only=False)) == 1
    with pytest.raises(FloorError, match="no alert #999999"):
        floor.acknowledge(999999, "x")


def test_a_rewritten_and_rehashed_journal_is_caught_at_the_first_changed_position(
    floor: Floor, floor_db: FloorDb, tmp_path: Path
) -> None:
    path = tmp_path / "table.db"
    with Journal(str(path)) as journal:
        fill(journal, 10)
        Pusher(journal, floor).push()
    rewrite_and_rehash(path, 4, {"n": 3, "operator": "someone else"})
    # (the table's own verify may catch it too, by its signatures: the floor does without)
    with Journal(str(path), supervise=False) as journal:
        fill(journal, 2, start=10)
        result = Pusher(journal, floor).push()
    assert result.sent == 0 and result.refused is not None
    assert (result.refused.kind, result.refused.position) == ("tampered", 4)
    assert "changed after it was forwarded" in result.refused.reason
    assert [(a.kind, a.position) for a in floor.alerts()] == [("tampered", 4)]
    assert floor.head("UTH-3") is not None and floor.head("UTH-3")[0] == 10  # type: ignore[index]
    assert floor.get_record("UTH-3", 4).extra == {"n": 3, "operator": "Zoë ♠"}  # the original
    assert floor.verify("UTH-3").ok


def test_a_replaced_journal_behind_the_floor_is_an_alert(floor: Floor, tmp_path: Path) -> None:
    with Journal(str(tmp_path / "a.db")) as journal:
        fill(journal, 5)
        Pusher(journal, floor).push()
    with Journal(str(tmp_path / "b.db")) as journal:
        fill(journal, 3)
        result = Pusher(journal, floor).push()
    assert result.refused is not None and result.refused.kind == "journal_behind"
    assert "ends at position 3" in result.refused.reason


def test_another_tables_record_in_the_chain_is_refused(floor: Floor, journal: Journal) -> None:
    fill(journal, 2)
    journal.append_hand(make_entry(7, table_id="THB-1"))
    result = Pusher(journal, floor).push()  # the tip names THB-1: its chain starts with UTH-3's
    assert result.refused is not None and result.refused.kind == "foreign_record"
    assert result.refused.position == 1


def test_two_pushers_at_once_store_each_position_once(floor_db: FloorDb, journal: Journal) -> None:
    fill(journal, 300)
    errors: list[BaseException] = []

    def push() -> None:
        try:
            with Floor(floor_db.url) as floor:
                Pusher(journal, floor, batch=7).push()
        except BaseException as e:
            errors.append(e)

    threads = [threading.Thread(target=push) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert errors == []
    assert floor_db.sql(
        "SELECT count(*), count(DISTINCT position), max(position) FROM floor_records"
    )[0] == (300, 300, 300)
    assert floor_db.sql("SELECT count(*) FROM floor_alerts")[0][0] == 0


def test_register_never_pins_a_key_and_alerts_on_another_than_the_enrolled(
    floor: Floor,
) -> None:
    floor.register("UTH-3", "uth", pit="A", public_key="ab" * 32)
    assert floor.tables()[0].public_key is None  # only an enrolment pins a key
    floor.enrol("UTH-3", "uth", "ab" * 32, "SM-1")
    floor.register("UTH-3", "uth", public_key="ab" * 32)
    assert floor.alerts() == []
    floor.register("UTH-3", "uth", public_key="cd" * 32)
    table = floor.tables()[0]
    assert (table.pit, table.public_key, table.open_alerts) == ("A", "ab" * 32, 1)
    assert floor.alerts()[0].kind == "key_changed"


def test_search_columns_of_a_settled_uth_hand(journal: Journal) -> None:
    fill(journal, 1)
    columns = search_columns(journal.get_hand(1))
    settlement = journal.get_hand(1).settlement
    assert settlement is not None
    nets = [s["net"] for s in settlement["seats"]]
    stakes = [b["stake"] for s in settlement["seats"] for b in s["bets"]]
    assert columns["wagered"] == sum(stakes)
    assert columns["top_amount"] == max(0, *nets)
    assert columns["house_net"] == -sum(nets)
    assert columns["seats"] == sorted(p["seat"] for p in journal.get_hand(1).record["players"])
    assert set(columns["flags"]) == {"device_fault", "manual_card"}


def test_the_floors_hash_is_the_chains(journal: Journal) -> None:
    fill(journal, 3)
    for hand in journal.iter_hands():
        text = canonical_json(hand.content())
        assert content_hash(hand.prev_hash, text) == chain_hash(hand.prev_hash, hand.content())
        assert content_hash(hand.prev_hash, text) == hand.hash


def test_the_migration_creates_the_tables_the_code_writes(floor_db: FloorDb) -> None:
    from dealer_assist.storage.floor.schema import metadata

    for table in metadata.sorted_tables:
        rows = floor_db.sql(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = %s "
            "AND table_name = %s ORDER BY ordinal_position",
            (floor_db.schema, table.name),
        )
        assert [r[0] for r in rows] == [c.name for c in table.columns], table.name
    indexes = {
        r[0]
        for r in floor_db.sql(
            "SELECT indexname FROM pg_indexes WHERE schemaname = %s", (floor_db.schema,)
        )
    }
    assert {
        "ix_floor_records_recorded",
        "ix_floor_records_table_recorded",
        "ix_floor_records_game_recorded",
        "ix_floor_records_void_recorded",
        "ix_floor_records_top_amount",
        "ix_floor_records_flags",
    } <= indexes


def test_signed_only_holds_back_an_entry_not_signed_yet(
    floor: Floor, floor_db: FloorDb, journal: Journal
) -> None:
    import sqlite3

    fill(journal, 6)
    path = str(journal.url_or_path)
    with sqlite3.connect(path) as con:  # journaled while the notary was away
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL WHERE hand_id >= 5")
    held = Pusher(journal, floor, signed_only=True).push()
    assert (held.sent, held.floor_position, held.local_position) == (4, 4, 6)
    assert floor_db.sql("SELECT count(*) FROM floor_records WHERE signature IS NULL")[0][0] == 0
