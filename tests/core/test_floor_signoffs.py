"""The floor's sign-off requests (revision f0004) on the real PostgreSQL, a
schema per test: a request posted once however often the table posts it, the first to close it
wins (a confirmation or the console's cancel), the relay thread posting, cancelling and
picking up confirmations, and, with the floor cut by a TCP relay, a request held until the
floor is back or never sent when the console signed it meanwhile."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime

import pytest

from dealer_assist.pitboss.roles import PermissionDeniedError, Role
from dealer_assist.pitboss.signoffs import (
    CANCELLED,
    CONFIRMED,
    WAITING,
    SignoffError,
    SignoffRequest,
    check_may_confirm,
    may_confirm,
)
from dealer_assist.storage.floor import Floor
from dealer_assist.storage.floor.signoff_relay import SignoffRelay
from dealer_assist.storage.floor.signoffs import FloorSignoffs
from tests.conftest import Closer
from tests.core.test_floor_hourly import alembic
from tests.fixtures.floor_fixtures import FloorDb, TcpProxy, make_floor_db

pytestmark = pytest.mark.postgres
T = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
FAST = {"poll_interval": 0.05, "min_backoff": 0.05, "max_backoff": 0.3}


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.fixture
def desk(floor_db: FloorDb, closer: Closer) -> FloorSignoffs:
    floor = closer.add(Floor(floor_db.url))
    floor.open()
    return FloorSignoffs(floor)


def request(seat: int = 3, hand: str = "UTH-01-h7", amount: int = 250_000) -> SignoffRequest:
    return SignoffRequest("UTH-01", hand, 7, seat, amount, ("As", "Kd"), "pit_boss", T)


def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("not in time")
        time.sleep(0.02)


def test_who_may_confirm_which_tier() -> None:
    assert may_confirm(Role.PIT_BOSS, "pit_boss") and may_confirm(Role.SHIFT_MANAGER, "pit_boss")
    assert may_confirm(Role.SHIFT_MANAGER, "shift_manager")
    assert not may_confirm(Role.PIT_BOSS, "shift_manager")
    assert not may_confirm(Role.AUDITOR, "pit_boss") and not may_confirm(Role.DEALER, "pit_boss")
    with pytest.raises(PermissionDeniedError, match="auditor changes nothing"):
        check_may_confirm(Role.AUDITOR, "pit_boss")
    with pytest.raises(PermissionDeniedError, match="shift_manager's sign-off"):
        check_may_confirm(Role.PIT_BOSS, "shift_manager")
    with pytest.raises(SignoffError, match="role"):
        SignoffRequest("UTH-01", "h", 1, 1, 10, (), "dealer", T)
    with pytest.raises(SignoffError, match="time zone"):
        SignoffRequest("UTH-01", "h", 1, 1, 10, (), "pit_boss", datetime(2026, 12, 1))


def test_posted_once_the_first_confirmation_wins_and_a_cancel_after_it_changes_the_state(
    desk: FloorSignoffs, floor_db: FloorDb
) -> None:
    first = desk.post(request())
    again = desk.post(request())  # a retry, a restart: the same row
    assert again.id == first.id and again.state == WAITING
    assert again.request == request() and again.request.cards == ("As", "Kd")
    other = desk.post(request(seat=5))
    assert [r.id for r in desk.waiting()] == [first.id, other.id]
    won = desk.confirm(first.id, "PB-1", "pit_boss", T)
    assert won.won and won.row.state == CONFIRMED and won.row.confirmed_by == "PB-1"
    late = desk.confirm(first.id, "SM-1", "shift_manager", T)
    assert not late.won and late.row.confirmed_by == "PB-1"  # the first stays
    assert [r.id for r in desk.waiting()] == [other.id]
    assert [r.id for r in desk.confirmed("UTH-01")] == [first.id]
    desk.taken(first.id)
    assert desk.confirmed("UTH-01") == [] and desk.get(first.id).taken_at is not None
    # taken: a cancel no longer touches it
    assert desk.cancel(request().key, "4711", "x") is not None
    assert desk.get(first.id).state == CONFIRMED
    # signed at the console first: cancelled, and a confirmation then changes nothing
    gone = desk.cancel(request(seat=5).key, "4711", "signed at the console by 4711")
    assert gone is not None and gone.state == CANCELLED and gone.cancelled_by == "4711"
    nothing = desk.confirm(other.id, "PB-1", "pit_boss", T)
    assert not nothing.won and nothing.row.state == CANCELLED and nothing.row.confirmed_by is None
    assert desk.cancel(request(seat=6).key, None, "x") is None  # never posted
    with pytest.raises(SignoffError, match="#999"):
        desk.confirm(999, "PB-1", "pit_boss", T)
    rows = floor_db.sql("SELECT state, count(*) FROM floor_signoffs GROUP BY state ORDER BY 1")
    assert rows == [("cancelled", 1), ("confirmed", 1)]


def test_the_migration_goes_down_to_f0003_and_up_again(floor_db: FloorDb) -> None:
    tables = "SELECT count(*) FROM information_schema.tables WHERE table_name = 'floor_signoffs'"
    schema_tables = tables + " AND table_schema = current_schema()"
    assert floor_db.sql(schema_tables) == [(1,)]
    alembic(floor_db, "downgrade", "f0003")
    assert floor_db.sql(schema_tables) == [(0,)]
    alembic(floor_db, "upgrade", "head")
    assert floor_db.sql(schema_tables) == [(1,)]


def test_the_relay_posts_picks_up_and_cancels(
    desk: FloorSignoffs, floor_db: FloorDb, closer: Closer
) -> None:
    relay = closer.add(SignoffRelay(floor_db.url, "UTH-01", **FAST))
    relay.start()
    relay.offer(request(3))
    relay.offer(request(5))
    relay.offer(request(3))  # offered again: once
    until(lambda: len(desk.waiting()) == 2)
    three, five = desk.waiting()
    assert relay.confirmations() == []
    desk.confirm(three.id, "PB-1", "pit_boss", T)
    got: list[int] = []

    def picked() -> bool:
        got.extend(r.id for r in relay.confirmations())
        return got == [three.id]

    until(picked)
    relay.taken(desk.get(three.id))
    relay.withdraw(five.key, "4711", "signed at the console by 4711")
    until(lambda: desk.get(five.id).state == CANCELLED and desk.get(three.id).taken_at is not None)
    assert relay.confirmations() == []  # each confirmation handed over once
    assert relay.status().reachable and relay.status().pending == 0


def test_floor_down_the_request_waits_or_is_dropped_then_goes_when_the_floor_is_back(
    desk: FloorSignoffs, floor_db: FloorDb, closer: Closer
) -> None:
    proxy = closer.add(TcpProxy())
    relay = closer.add(SignoffRelay(floor_db.url_via(proxy.port), "UTH-01", **FAST))
    proxy.down()
    relay.start()
    relay.offer(request(3))
    relay.offer(request(5))
    until(lambda: relay.rounds >= 2 and not relay.status().reachable)
    assert relay.status().pending == 2 and relay.status().last_error
    relay.withdraw(request(5).key, "4711", "signed at the console by 4711")  # never posted
    assert relay.status().pending == 1
    proxy.up()
    until(lambda: relay.status().reachable and relay.status().pending == 0, timeout=20)
    rows = desk.waiting()
    assert [r.request.seat for r in rows] == [3]
    assert floor_db.sql("SELECT seat FROM floor_signoffs ORDER BY seat") == [(3,)]
