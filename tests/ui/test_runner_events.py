"""The event-driven runner: steps return at once, events and the clock move the hand on, nothing
blocks; closing the console's service during a deal returns at once and the hand resumes."""

from __future__ import annotations

import time
from pathlib import Path

from dealer_assist.cards import FULL_DECK
from dealer_assist.config import load_table_config
from dealer_assist.engine.operations import BetsPlaced, DealRequested
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.events import DeckShuffled
from dealer_assist.storage.journal import Journal
from dealer_assist.table.banked_runner import BankedRunner
from drivers.manual import ManualSource
from tests.conftest import close_at_teardown
from ui.console.service import TableService
from ui.kit.card_source import Timeouts
from ui.kit.service_parts import ServiceParts

BETS = {"ante": 1000, "blind": 1000}


def _runner(tmp_path: Path, **kw: float) -> tuple[BankedRunner, ManualSource, Journal]:
    journal = Journal(str(tmp_path / "j.db"))
    journal.open()
    close_at_teardown(journal)
    source = ManualSource()
    source.open()
    close_at_teardown(source)
    return BankedRunner(load_table_config(game="uth"), source, journal, **kw), source, journal


def test_steps_return_at_once_and_events_deal_the_cards(tmp_path: Path) -> None:
    runner, source, _ = _runner(tmp_path, card_timeout=0.5)
    hand = runner.new_hand()
    hand.place_bets(3, BETS)
    started = time.monotonic()
    runner.close_bets()  # the SHUFFLED has not been handled yet: the deal waits for it
    assert time.monotonic() - started < 0.2
    assert runner.waiting and hand.phase is Phase.DEALING and len(hand.pending_deal) == 9
    assert not any(isinstance(op, DealRequested) for op in _steps(runner))
    event = source.next_event(1.0)
    assert isinstance(event, DeckShuffled)
    runner.handle(event)  # the deck: now the DEAL goes out
    assert any(isinstance(op, DealRequested) for op in _steps(runner))
    for card in FULL_DECK[:9]:
        runner.handle(source.enter(card))
        source.next_event(0)  # the same event, already handled
    assert hand.phase is Phase.DECISIONS and not runner.waiting


def test_the_clock_voids_a_deal_whose_cards_do_not_come(tmp_path: Path) -> None:
    runner, source, journal = _runner(tmp_path, card_timeout=0.5)
    hand = runner.new_hand()
    hand.place_bets(1, BETS)
    runner.close_bets()
    runner.poll(0.5)
    runner.handle(source.enter(FULL_DECK[0]))
    runner.tick(time.monotonic() + 0.1)
    assert hand.phase is Phase.DEALING  # not late yet
    runner.tick(time.monotonic() + 5.0)
    assert hand.phase is Phase.VOID and hand.void_reason is not None
    assert hand.void_reason.code == "missing_cards"
    stored = journal.last_hand()
    assert stored is not None and stored.status == "void" and not runner.waiting


def test_no_shuffled_in_time_voids_the_hand(tmp_path: Path) -> None:
    runner, _, _ = _runner(tmp_path, shuffle_timeout=0.2)
    hand = runner.new_hand()
    hand.place_bets(1, BETS)
    runner.close_bets()  # the SHUFFLED stays unread in the source
    runner.tick(time.monotonic() + 1.0)
    assert hand.void_reason is not None and hand.void_reason.detail == "no SHUFFLED from the device"


def _steps(runner: BankedRunner) -> list[object]:
    journal = runner.journal
    assert journal is not None
    from dealer_assist.engine.operations import operation_from_json

    steps = journal.pending_steps(runner.config.table_id)
    return [operation_from_json(s.kind, s.payload) for s in steps if "#" not in s.hand_uid]


def test_closing_the_service_during_a_deal_returns_at_once_and_the_hand_resumes(
    tmp_path: Path,
) -> None:
    config = load_table_config(game="uth")
    db = str(tmp_path / "j.db")
    first = TableService(
        ServiceParts(config, ManualSource, Journal(db), timeouts=Timeouts(slow_card=120.0))
    )
    close_at_teardown(first)
    first.open(1)
    first.deal({2: BETS}, 2)
    snap = first.wait(2.0)  # the keypad waits for the dealer: the deal cannot finish
    assert snap.phase is Phase.DEALING and snap.manual_entry and len(snap.awaiting) == 9
    first.enter_card(FULL_DECK[0])
    first.wait(0.3)
    uid = snap.hand_uid
    started = time.monotonic()
    first.close()  # the console closes while the deal waits for 8 cards
    assert time.monotonic() - started < 1.0
    with Journal(db) as journal:
        assert journal.count() == 0  # not journaled as void for missing cards
        steps = journal.pending_steps(config.table_id)
        assert [s.kind for s in steps][:3] == ["open", BetsPlaced.kind, "deck"]
    second = TableService(
        ServiceParts(config, ManualSource, Journal(db), timeouts=Timeouts(slow_card=120.0))
    )
    close_at_teardown(second)
    again = second.open(1)
    assert again.hand_uid == uid and again.phase is Phase.DEALING
    assert again.placed == 1 and again.error is None


def test_one_deal_however_many_operations_come_before_the_deck(tmp_path: Path) -> None:
    runner, _, _ = _runner(tmp_path)
    hand = runner.new_hand()
    hand.place_bets(3, BETS)
    runner.close_bets()
    runner.record_exposed(position="seat 3")  # another operation while the deck is on its way
    runner.poll(0.5)  # the SHUFFLED
    deals = [op for op in _steps(runner) if isinstance(op, DealRequested)]
    assert [d.n for d in deals] == [9]


def test_a_replay_that_voids_counts_the_hand_once(tmp_path: Path) -> None:
    journal = Journal(str(tmp_path / "j.db"))
    journal.open()
    close_at_teardown(journal)
    config = load_table_config(game="uth")
    uid = f"{config.table_id}-x"
    steps = [
        ("open", {"started_at": "2026-12-01T10:00:00+00:00", "device": {}, "acks": []}),
        ("bets", {"seats": {"2": BETS}}),
        ("act", {"seat": 6, "street": "preflop", "action": "check"}),
    ]
    for no, (kind, payload) in enumerate(steps):
        journal.write_step(config.table_id, uid, no, kind, payload)
    source = ManualSource()
    source.open()
    close_at_teardown(source)
    runner = BankedRunner(config, source, journal)
    hand = runner.resume()
    assert hand is not None and hand.void_reason is not None and hand.void_reason.code == "restart"
    assert journal.count() == 1 and runner.session is not None and runner.session.hands == 1


def test_a_new_hand_held_by_a_busy_device_opens_in_the_end(tmp_path: Path) -> None:
    """A device whose last STATE said DEALING (it died mid-deal, the keypad took over) holds the
    next hand at most ``shuffle_timeout``; then the hand opens and the SHUFFLE decides."""
    from dealer_assist.events import DeviceStateChanged

    config = load_table_config(game="uth")
    service = TableService(ServiceParts(config, ManualSource, Journal(str(tmp_path / "j.db"))))
    close_at_teardown(service)
    first = service.open(1)
    assert first.phase is Phase.BETS_OPEN and service.runner is not None
    service.void(VoidReason("dealer_void"), 2)
    service.runner.handle(DeviceStateChanged(source="manual", state="DEALING"))
    assert service.runner.device_busy
    snap = service.acknowledge_void(3)
    assert snap.error is None and service.busy  # deferred, not refused
    started = time.monotonic()
    snap = service.wait(10.0)
    assert snap.phase is Phase.BETS_OPEN and snap.hand_uid != first.hand_uid
    assert time.monotonic() - started < 5.0
