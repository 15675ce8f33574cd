"""Store and forward: the forwarder's thread follows a dealing table's journal
to the floor; the floor down or unreachable, the table keeps dealing and the forwarder catches up
when it is back, nothing lost or duplicated. Real PostgreSQL, a real TCP relay cut and restored,
real ``pg_terminate_backend``."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from dealer_assist.storage import Journal
from dealer_assist.storage.floor import Floor, Forwarder, ForwardStatus
from tests.conftest import Closer
from tests.fixtures.floor_fixtures import FloorDb, TcpProxy, fill, make_floor_db, rewrite_and_rehash

pytestmark = pytest.mark.postgres

FAST = {"poll_interval": 0.05, "min_backoff": 0.05, "max_backoff": 0.5}


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.fixture
def journal(tmp_path: Path, closer: Closer) -> Journal:
    j = closer.add(Journal(str(tmp_path / "table.db")))
    j.open()
    return j


def wait_for(
    check: Callable[[ForwardStatus], bool], fwd: Forwarder, timeout: float
) -> ForwardStatus:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status = fwd.status()
        if check(status):
            return status
        time.sleep(0.02)
    raise AssertionError(f"not reached in {timeout} s: {fwd.status()}")


def floor_positions(db: FloorDb) -> tuple[int, int, int]:
    """count, distinct positions, highest position on the floor."""
    row = db.sql(
        "SELECT count(*), count(DISTINCT position), coalesce(max(position), 0) FROM floor_records"
    )[0]
    return int(row[0]), int(row[1]), int(row[2])


def test_the_forwarder_follows_the_journal_on_its_own_thread(
    floor_db: FloorDb, journal: Journal, closer: Closer
) -> None:
    fill(journal, 5)
    fwd = closer.add(Forwarder(journal, floor_db.url, pit="A", **FAST))
    assert fwd.status().state == "stopped"
    fwd.start()
    assert fwd.wait_caught_up(15)
    assert fwd._thread is not None and fwd._thread is not threading.current_thread()
    fill(journal, 5, start=5)
    fwd.wake()
    assert fwd.wait_caught_up(15)
    status = fwd.status()
    assert (status.table_id, status.local_position, status.floor_position, status.lag) == (
        "UTH-3",
        10,
        10,
        0,
    )
    assert status.last_error is None and status.last_forwarded_at is not None
    assert status.sentence() == "floor (UTH-3): caught up at position 10"
    fwd.stop()
    assert fwd.status().state == "stopped"
    assert floor_positions(floor_db) == (10, 10, 10)
    with Floor(floor_db.url) as floor:
        assert floor.tables()[0].pit == "A"
        assert floor.verify("UTH-3").ok


def test_floor_down_while_the_table_deals_then_everything_arrives_once(
    floor_db: FloorDb, journal: Journal, closer: Closer
) -> None:
    proxy = closer.add(TcpProxy())
    fwd = closer.add(Forwarder(journal, floor_db.url_via(proxy.port), **FAST))
    fill(journal, 20)
    fwd.start()
    assert fwd.wait_caught_up(15)
    proxy.down()
    slowest = 0.0
    for i in range(20, 50):  # the table deals on: each hand journaled at local speed
        t0 = time.monotonic()
        fill(journal, 1, start=i)
        slowest = max(slowest, time.monotonic() - t0)
        fwd.wake()
    assert slowest < 1.0
    status = wait_for(lambda s: s.state == "floor unreachable", fwd, 20)
    assert status.last_error is not None and status.last_error.startswith("cannot ")
    assert status.floor_position == 20
    status = wait_for(lambda s: s.lag == 30 and s.local_position == 50, fwd, 5)
    assert "floor unreachable" in status.sentence() and "30 record(s) behind" in status.sentence()
    assert floor_positions(floor_db) == (20, 20, 20)
    proxy.up()
    assert fwd.wait_caught_up(30)
    assert floor_positions(floor_db) == (50, 50, 50)
    assert fwd.status().last_error is None
    with Floor(floor_db.url) as floor:
        assert floor.alerts() == []
        assert floor.verify("UTH-3").ok
        assert floor.head("UTH-3") == (50, journal.get_hand(50).hash)


def test_backends_terminated_while_dealing_lose_and_duplicate_nothing(
    floor_db: FloorDb, journal: Journal, closer: Closer
) -> None:
    fwd = closer.add(Forwarder(journal, floor_db.url, batch=20, **FAST))
    fwd.start()
    stop = threading.Event()
    closer.callback(stop.set)

    def deal() -> None:
        for i in range(300):
            if stop.is_set():
                return
            fill(journal, 1, start=i)
            fwd.wake()

    dealer = threading.Thread(target=deal)
    dealer.start()
    closer.callback(dealer.join, 30)
    killed = 0
    while dealer.is_alive():
        killed += floor_db.terminate_backends()
        time.sleep(0.03)
    dealer.join()
    assert killed > 0
    assert fwd.wait_caught_up(60)
    assert floor_positions(floor_db) == (300, 300, 300)
    with Floor(floor_db.url) as floor:
        assert floor.alerts() == []
        assert floor.verify("UTH-3").ok


def test_an_unreachable_floor_is_a_sentence_and_stop_is_prompt(
    journal: Journal, closer: Closer
) -> None:
    fill(journal, 3)
    fwd = closer.add(
        Forwarder(
            journal,
            "postgresql+psycopg://postgres@127.0.0.1:1/test",
            poll_interval=0.05,
            min_backoff=5.0,
            max_backoff=30.0,
        )
    )
    fwd.start()
    status = wait_for(lambda s: s.state == "floor unreachable", fwd, 15)
    assert status.last_error is not None and "cannot open the floor database" in status.last_error
    assert status.retry_in == 5.0 and "next try in 5 s" in status.sentence()
    t0 = time.monotonic()
    fwd.stop()
    assert time.monotonic() - t0 < 2.0
    assert fwd.status().state == "stopped"


def test_a_forwarder_by_path_waits_for_the_journal_to_exist(
    floor_db: FloorDb, tmp_path: Path, closer: Closer
) -> None:
    path = tmp_path / "later.db"
    fwd = closer.add(Forwarder(str(path), floor_db.url, **FAST))
    fwd.start()
    status = wait_for(lambda s: s.state == "error", fwd, 10)
    assert status.last_error is not None and "no journal database" in status.last_error
    with Journal(str(path)) as journal:
        fill(journal, 4)
    assert fwd.wait_caught_up(15)
    assert floor_positions(floor_db) == (4, 4, 4)


def test_a_tampered_journal_stops_forwarding_with_the_reason(
    floor_db: FloorDb, tmp_path: Path, closer: Closer
) -> None:
    path = tmp_path / "table.db"
    with Journal(str(path)) as journal:
        fill(journal, 6)
    fwd = closer.add(Forwarder(str(path), floor_db.url, **FAST))
    fwd.start()
    assert fwd.wait_caught_up(15)
    fwd.stop()
    rewrite_and_rehash(path, 2, {"n": 1, "operator": "nobody"})
    with Journal(str(path), supervise=False) as journal:
        fill(journal, 2, start=6)
    fwd = closer.add(Forwarder(str(path), floor_db.url, **FAST))
    fwd.start()
    status = wait_for(lambda s: s.state == "refused", fwd, 15)
    assert status.last_error is not None and "position 2" in status.last_error
    assert "alert #" in status.last_error
    assert floor_positions(floor_db) == (6, 6, 6)


def test_a_journal_rewritten_while_forwarding_is_caught_at_the_next_round(
    floor_db: FloorDb, tmp_path: Path, closer: Closer
) -> None:
    path = tmp_path / "table.db"
    with Journal(str(path)) as journal:
        fill(journal, 6)
    fwd = closer.add(Forwarder(str(path), floor_db.url, **FAST))
    fwd.start()
    assert fwd.wait_caught_up(15)
    rewrite_and_rehash(path, 5, {"n": 4, "operator": "nobody"})
    fwd.wake()
    status = wait_for(lambda s: s.state == "refused", fwd, 15)
    assert status.last_error is not None and status.last_error.startswith("position 5: ")
    assert status.sentence().startswith("floor (UTH-3): refused: position 5: the table's copy")
    with Floor(floor_db.url) as floor:
        assert [(a.kind, a.position) for a in floor.alerts()] == [("tampered", 5)]
