"""The floor's dealer column and hourly rollup (revision f0003): ingest keeps
``floor_hourly`` exactly the sums of the stored hands, a resent batch never counted twice, and
the migration's backfill gives the same rows as ingest; on the real PostgreSQL."""

from __future__ import annotations

import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from alembic import command
from alembic.config import Config

from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage import GENESIS_HASH, chain_hash
from dealer_assist.storage.floor import Floor
from dealer_assist.storage.floor.engine import MIGRATIONS_DIR, floor_url, make_floor_engine
from dealer_assist.storage.floor.schema import SCHEMA_HEAD
from tests.fixtures.floor_fixtures import FloorDb
from tests.fixtures.journal_fixtures import RECORD, _pg_admin

pytestmark = pytest.mark.postgres

T0 = datetime(2026, 11, 1, 5, 37, 11, 250000, tzinfo=UTC)
ROLLUP_SQL = (
    "SELECT table_id, hour, started_hour, game, dealer, hands, wagered, house_net,"
    " first_started, last_ended FROM floor_hourly ORDER BY 1, 2, 3, 4, 5"
)
# what the rollup must hold: the records' own sums, by the same keys
REFERENCE_SQL = (
    "SELECT table_id, date_trunc('hour', recorded_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',"
    " date_trunc('hour', started_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', game,"
    " coalesce(dealer, ''), count(*), coalesce(sum(wagered), 0), coalesce(sum(house_net), 0),"
    " min(started_at), max(ended_at) FROM floor_records WHERE status <> 'table'"
    " GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5"
)


def floor_at_head() -> Iterator[FloorDb]:
    """:func:`make_floor_db` migrated to the revision this program reads (``SCHEMA_HEAD``), not
    to the newest script in the folder (another one may be on its way there)."""
    admin, dsn = _pg_admin()
    user = dsn.split("//", 1)[1].split("@", 1)[0]
    schema = f"ft_{uuid.uuid4().hex[:16]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    db = FloorDb(user, schema, admin, f"floor_test_{schema}")
    try:
        alembic(db, "upgrade", SCHEMA_HEAD)
        yield db
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from floor_at_head()


@pytest.fixture
def floor(floor_db: FloorDb) -> Iterator[Floor]:
    with Floor(floor_db.url) as f:
        yield f


def settlement(stake: int, net: int) -> dict[str, Any]:
    """A banked settlement of one seat: drop ``stake``, the house wins ``-net``."""
    return {
        "game": "uth",
        "seats": [
            {
                "seat": 1,
                "net": net,
                "bets": [
                    {
                        "box": "ante",
                        "stake": stake,
                        "outcome": "win" if net > 0 else "lose",
                        "net": net,
                    }
                ],
            }
        ],
    }


def chain(
    table_id: str,
    game: str,
    n: int,
    rng: random.Random,
    start: datetime = T0,
    dealers: tuple[Any, ...] = ("D-101", "D-102", None),
) -> list[StoredHand]:
    """``n`` chained entries of ``table_id``, a hand every 20..200 s, recorded 1..90 s after it
    ends (so hour boundaries fall between start and record), some void, some table records,
    some without a dealer or with one the search columns refuse (not a string)."""
    out: list[StoredHand] = []
    prev, t = GENESIS_HASH, start
    for i in range(1, n + 1):
        t += timedelta(seconds=rng.randint(20, 200), microseconds=rng.randint(0, 999_999))
        ended = t + timedelta(seconds=rng.randint(30, 150))
        recorded = ended + timedelta(seconds=rng.randint(1, 90), microseconds=rng.randint(0, 9))
        kind = rng.random()
        status = TABLE_RECORD if kind < 0.05 else "void" if kind < 0.1 else "settled"
        stake = rng.randint(1, 50) * 500
        extra: dict[str, Any] = {"n": i}
        dealer = rng.choice(dealers)
        if dealer is not None:
            extra["dealer"] = dealer
        hand = StoredHand(
            hand_id=i,
            hand_uid=f"{table_id}-{i}",
            table_id=table_id,
            game=game,
            started_at=t,
            ended_at=ended,
            status=status,
            void_reason="misdeal" if status == "void" else None,
            record=RECORD if status != TABLE_RECORD else {"kind": "fill"},
            settlement=settlement(stake, rng.randint(-3, 3) * stake)
            if status == "settled"
            else None,
            events=[],
            extra=extra,
            recorded_at=recorded,
            prev_hash=prev,
            hash="",
        )
        digest = chain_hash(prev, hand.content())
        hand = StoredHand(**{**hand.__dict__, "hash": digest})
        out.append(hand)
        prev = digest
        t = ended
    return out


def alembic(floor_db: FloorDb, action: str, revision: str) -> None:
    """``alembic upgrade|downgrade revision`` on the test's floor schema."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR).replace("%", "%%"))
    engine = make_floor_engine(floor_url(floor_db.url))
    try:
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            getattr(command, action)(config, revision)
    finally:
        engine.dispose()


def test_ingest_keeps_the_rollup_exact_and_a_resend_counts_once(
    floor: Floor, floor_db: FloorDb
) -> None:
    rng = random.Random(16)
    hands = chain("UTH-1", "uth", 300, rng)
    for i in range(0, 300, 37):
        result = floor.ingest("UTH-1", hands[i : i + 37])
        assert result.refused is None
    # resends: a whole batch again, and one overlapping the head
    again = floor.ingest("UTH-1", hands[100:150])
    assert (again.stored, again.duplicates) == (0, 50)
    assert floor.ingest("UTH-1", hands[290:300]).stored == 0
    rollup = floor_db.sql(ROLLUP_SQL)
    assert rollup == floor_db.sql(REFERENCE_SQL)
    played = [h for h in hands if h.status != TABLE_RECORD]
    assert sum(r[5] for r in rollup) == len(played) and len(played) < 300
    # the hands that started in one hour and were recorded in the next have their own rows
    assert any(r[1] != r[2] for r in rollup)
    # the dealer column is the search columns' rule: a string badge, else NULL
    dealers = dict(floor_db.sql("SELECT position, dealer FROM floor_records"))
    for h in hands:
        expected = h.extra.get("dealer") if h.status != TABLE_RECORD else None
        assert dealers[h.hand_id] == expected
    assert {r[4] for r in rollup} == {"D-101", "D-102", ""}


def test_a_batch_refused_part_way_counts_only_what_was_stored(
    floor: Floor, floor_db: FloorDb
) -> None:
    hands = chain("BJ-2", "blackjack", 40, random.Random(3))
    broken = [*hands[:20], hands[25], *hands[26:]]  # a gap at 21
    result = floor.ingest("BJ-2", broken)
    assert result.stored == 20 and result.refused is not None
    assert floor_db.sql(ROLLUP_SQL) == floor_db.sql(REFERENCE_SQL)
    stored = sum(1 for h in hands[:20] if h.status != TABLE_RECORD)
    assert floor_db.sql("SELECT sum(hands) FROM floor_hourly")[0][0] == stored


def test_the_migration_backfills_dealer_and_rollup_as_ingest_writes_them(
    floor: Floor, floor_db: FloorDb
) -> None:
    rng = random.Random(7)
    odd = ("D-7", None, 42, "", "x" * 65, "Zoë ♠")  # 42, "" and 65 characters: no dealer
    for table_id, game in (("UTH-1", "uth"), ("TCP-4", "three_card")):
        assert floor.ingest(table_id, chain(table_id, game, 150, rng, dealers=odd)).stored == 150
    by_ingest = floor_db.sql(ROLLUP_SQL)
    dealers = floor_db.sql("SELECT table_id, position, dealer FROM floor_records ORDER BY 1, 2")
    assert {d for _, _, d in dealers} == {"D-7", "Zoë ♠", None}
    floor.close()
    alembic(floor_db, "downgrade", "f0002")
    columns = [
        r[0]
        for r in floor_db.sql(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = %s"
            " AND table_name = 'floor_records'",
            (floor_db.schema,),
        )
    ]
    assert "dealer" not in columns
    assert not floor_db.sql(
        "SELECT 1 FROM pg_tables WHERE schemaname = %s AND tablename = 'floor_hourly'",
        (floor_db.schema,),
    )
    alembic(floor_db, "upgrade", SCHEMA_HEAD)
    assert floor_db.sql(ROLLUP_SQL) == by_ingest
    assert (
        floor_db.sql("SELECT table_id, position, dealer FROM floor_records ORDER BY 1, 2")
        == dealers
    )
    index = floor_db.sql(
        "SELECT indexdef FROM pg_indexes WHERE schemaname = %s AND indexname ="
        " 'ix_floor_records_dealer_recorded'",
        (floor_db.schema,),
    )
    assert "(dealer, recorded_at)" in index[0][0]
