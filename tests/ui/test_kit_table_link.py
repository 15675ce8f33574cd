"""The service parts both consoles share, each alone over real things: the table link
(:class:`ui.kit.table_link.TableLink`: a real SQLite journal, the keypad source, a serial path
that is not there), the storage fault and its banner (:class:`ui.kit.storage_faults.StorageFaults`
on a real ResilientJournal), the floor relay (:class:`ui.kit.floor_relay.FloorRelay`: the real
relay thread over a real PostgreSQL floor) and the headless wait loop."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.errors import StorageBusyError
from dealer_assist.events import SourceSwitched
from dealer_assist.pitboss.signoffs import (
    CANCELLED,
    WAITING,
    SignoffKey,
    SignoffRequest,
    SignoffRow,
)
from dealer_assist.storage.faults import ResilientJournal, StorageNotice
from dealer_assist.storage.floor import Floor
from dealer_assist.storage.floor.signoff_relay import SignoffRelay
from dealer_assist.storage.floor.signoffs import FloorSignoffs
from dealer_assist.storage.journal import Journal
from dealer_assist.table.banked_runner import BankedRunner
from drivers.factory import open_source
from drivers.manual import ManualSource
from tests.conftest import Closer
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db
from ui.console.service import TableService
from ui.kit.card_source import Timeouts
from ui.kit.floor_relay import FloorRelay
from ui.kit.service_parts import ServiceParts
from ui.kit.sources import WAIT_STEP
from ui.kit.status import CommandError
from ui.kit.storage_faults import StorageFaults
from ui.kit.storage_notice import BUSY, LOW, RECOVERED
from ui.kit.table_link import TableLink, wait_idle

T = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
FAST = {"poll_interval": 0.05, "min_backoff": 0.05, "max_backoff": 0.3}


def until(check: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError("not in time")
        time.sleep(0.02)


# -- the storage fault ---------------------------------------------------------------------------
def test_storage_latches_a_fault_and_shows_notices_only_without_one(tmp_path: Path) -> None:
    journal = ResilientJournal(f"sqlite:///{tmp_path / 'j.db'}")
    heard: list[StorageNotice] = []
    journal.on_notice = heard.append
    storage = StorageFaults("T1")
    storage.watch(journal)
    assert journal.on_notice is not None
    low = StorageNotice("low_space", "low", free_bytes=10 << 20, refuse_bytes=5 << 20)
    journal.on_notice(low)
    assert heard == [low]  # the caller's own listener still hears it
    assert storage.banner is not None and storage.banner.text == LOW
    assert not storage.banner.fault and storage.banner.number == 1
    error = storage.refused(StorageBusyError("database is locked"))
    assert error.code == "journal" and storage.fault is not None
    assert storage.banner.text == BUSY and storage.banner.fault and storage.banner.number == 2
    journal.on_notice(low)  # a notice while the fault is shown: the fault stays on screen
    assert storage.banner.text == BUSY and storage.banner.number == 2
    journal.open()
    try:
        storage.probe(journal)  # the journal takes the write
    finally:
        journal.close()
    storage.opened()
    assert storage.fault is None and storage.banner.text == RECOVERED
    assert not storage.banner.fault and storage.banner.number == 3
    storage.opened()  # no fault: the banner is not replaced
    assert storage.banner.number == 3


def test_a_probe_writes_nothing_that_stays(tmp_path: Path) -> None:
    journal = Journal(str(tmp_path / "j.db"))
    journal.open()
    try:
        StorageFaults("T1").probe(journal)
        assert journal.pending_steps("T1") == []  # written and cleared at once
        StorageFaults("T1").probe(None)  # no journal: nothing to ask
    finally:
        journal.close()


# -- the link: journal and source opened in order, closed twice safely ---------------------------
def test_the_link_opens_the_journal_then_the_source_and_closes_both(tmp_path: Path) -> None:
    config = load_table_config(game="uth")
    journal = Journal(str(tmp_path / "j.db"))
    link = TableLink(config.table_id, ManualSource, journal, Timeouts(card=1.0, slow_card=60.0))
    source = link.connect()
    assert isinstance(source, ManualSource) and link.card_source.active is source
    assert link.device.open_error == "" and link.storage.fault is None
    assert journal.count() == 0  # the journal is open: it answers
    assert link.change_dealer(config, None, "1042") == CommandError("state", "not connected")
    link.close(None)
    link.close(None)  # twice: nothing raised
    assert link.card_source.source is None


def test_a_journal_that_cannot_open_is_a_storage_fault_until_it_opens(tmp_path: Path) -> None:
    config = load_table_config(game="uth")
    folder = tmp_path / "not-yet"
    journal = ResilientJournal(f"sqlite:///{folder / 'j.db'}")
    link = TableLink(config.table_id, ManualSource, journal)
    refused = link.connect()
    assert isinstance(refused, CommandError) and refused.code == "journal"
    assert link.storage.fault is not None and link.storage.banner is not None
    assert link.storage.banner.fault and link.card_source.source is None  # the source waits
    folder.mkdir()
    assert isinstance(link.connect(), ManualSource)
    assert link.storage.fault is None and link.storage.banner.text == RECOVERED
    link.close(None)


def test_a_source_that_cannot_open_is_said_in_the_device_status(tmp_path: Path) -> None:
    config = load_table_config(game="uth")
    missing = str(tmp_path / "no-such-tty")
    link = TableLink(config.table_id, lambda: open_source(missing), Journal(str(tmp_path / "j.db")))
    refused = link.connect()
    assert isinstance(refused, CommandError) and refused.code == "device"
    assert link.device.open_error == refused.message
    assert link.device_status(None).error == refused.message
    link.close(None)


def test_a_failover_switch_becomes_the_notice_and_the_runner_gets_the_keypad_timeouts(
    tmp_path: Path,
) -> None:
    config = load_table_config(game="uth")
    journal = Journal(str(tmp_path / "j.db"))
    link = TableLink(
        config.table_id, ManualSource, journal, Timeouts(card=1.0, shuffle=9.0, slow_card=60.0)
    )
    source = link.connect()
    assert isinstance(source, ManualSource)
    runner = BankedRunner(config, source, journal, card_timeout=1.0, shuffle_timeout=9.0)
    link.on_event(
        SourceSwitched(from_source="shuffler", to_source="manual", reason="link lost"), runner
    )
    assert link.card_source.notice is not None and link.card_source.notice.number == 1
    assert runner.card_timeout == 60.0  # the keypad is slow to give each card
    link.close(runner)


def test_a_stop_signal_forgets_a_hand_only_opened_and_nothing_else(tmp_path: Path) -> None:
    config = load_table_config(game="uth")

    def pending(db: str) -> set[str]:
        journal = Journal(db)
        journal.open()
        try:
            assert journal.count() == 0  # never voided: no hand record
            return {s.hand_uid for s in journal.pending_steps(config.table_id)}
        finally:
            journal.close()

    for stop, db in ((False, str(tmp_path / "kept.db")), (True, str(tmp_path / "gone.db"))):
        service = TableService(ServiceParts(config, ManualSource, Journal(db)))
        assert service.open().error is None and service.hand is not None  # its bets open
        uid = service.hand.hand_uid
        service.link.stop_signal = stop  # SIGTERM: an ordinary stop
        service.close()
        assert pending(db) == (set() if stop else {uid})  # forgotten, or parked to resume


# -- the headless wait -----------------------------------------------------------------------------
def test_wait_idle_ticks_until_nothing_is_awaited() -> None:
    asked: list[float] = []
    seen: list[int] = []

    def tick(timeout: float) -> int:
        asked.append(timeout)
        return len(asked)

    snap = wait_idle(tick, lambda: len(asked) < 3, 60.0, seen.append)
    assert snap == 3 and seen == [1, 2, 3]
    assert asked == [0.0, WAIT_STEP, WAIT_STEP]  # the first tick takes no time
    assert wait_idle(tick, lambda: True, 0.0) == 4  # no time left: the first snapshot


# -- the floor relay -------------------------------------------------------------------------------
@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.fixture
def desk(floor_db: FloorDb, closer: Closer) -> FloorSignoffs:
    floor = closer.add(Floor(floor_db.url))
    floor.open()
    return FloorSignoffs(floor)


def request(seat: int) -> SignoffRequest:
    return SignoffRequest("UTH-01", "UTH-01-h7", 7, seat, 250_000, ("As", "Kd"), "pit_boss", T)


@pytest.mark.postgres
def test_the_floor_relay_offers_applies_and_withdraws(
    floor_db: FloorDb, desk: FloorSignoffs, closer: Closer
) -> None:
    floor = FloorRelay()
    floor.reconcile(dict, lambda row: True, lambda key: None, "ended")  # no relay: nothing
    floor.relay = closer.add(SignoffRelay(floor_db.url, "UTH-01", **FAST))
    wanted: dict[SignoffKey, SignoffRequest] = {request(s).key: request(s) for s in (3, 5)}
    applied: list[SignoffRow] = []
    console: dict[SignoffKey, str] = {}

    def apply(row: SignoffRow) -> bool:  # the table signs as the floor confirmed
        applied.append(row)
        wanted.pop(row.key)
        return True

    def reconcile() -> None:
        floor.reconcile(lambda: dict(wanted), apply, console.get, "the walk ended without it")

    reconcile()
    until(lambda: len(desk.waiting()) == 2)  # offered once each
    reconcile()
    assert len(desk.waiting()) == 2
    three = next(r for r in desk.waiting() if r.request.seat == 3)
    assert desk.confirm(three.id, "PB-1", "pit_boss", T).won

    def taken() -> bool:
        reconcile()
        return bool(applied) and desk.confirmed("UTH-01") == []

    until(taken)  # applied once, reported taken
    assert [r.request.seat for r in applied] == [3] and list(wanted) == [request(5).key]
    console[request(5).key] = "4711"  # seat 5 signed at the console first
    wanted.clear()
    reconcile()
    until(lambda: desk.waiting() == [])
    rows = floor_db.sql("SELECT seat, state, cancelled_by FROM floor_signoffs ORDER BY seat")
    assert rows == [(3, "confirmed", None), (5, CANCELLED, "4711")]
    assert WAITING not in {state for _, state, _ in rows}
    floor.stop()
