"""Misdeal detector: the rules on their own, then every void reason triggered by the emulator
over a real pseudo-terminal and journaled with its cause, texts and the dealer's acknowledgement."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from dealer_assist.cards import Card, parse_card
from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import FAULT_TEXTS, REASON_TEXTS, VoidReason
from dealer_assist.errors import CardError, DeviceError, HandStateError
from dealer_assist.events import (
    CardRead,
    DeckShuffled,
    DeviceFault,
    DeviceHello,
    DeviceStateChanged,
    FaultCleared,
    IdentityChanged,
    LinkLost,
    LinkRestored,
)
from dealer_assist.storage.journal import Journal
from dealer_assist.table.crosscheck import cross_check, read_dealt_log
from dealer_assist.table.device_status import ReadinessTracker
from dealer_assist.table.driving import HeadlessTable
from dealer_assist.table.misdeal import DealWatch, MisdealDetector
from drivers.emulator.settings import FAULT_CODES
from drivers.emulator.source import EmulatorSource
from drivers.factory import open_source
from tests.conftest import close_at_teardown

FAST = "shuffle_time=0.01&card_interval=0.001"
BETS = {
    1: {"ante": 1000, "blind": 1000, "trips": 500},
    2: {"ante": 500, "blind": 500},
    3: {"ante": 2000, "blind": 2000, "trips": 1000},
}


def card(deck: str, index: int, text: str | None) -> CardRead:
    return CardRead(deck_id=deck, index=index, card=parse_card(text) if text else None)


# -- the rules on their own ------------------------------------------------------------------------


def test_every_reason_and_fault_code_has_italian_and_english_text() -> None:
    for code, (it, en) in REASON_TEXTS.items():
        assert it and en and it != en, code
        reason = VoidReason(code, "x")
        assert reason.text("it") == f"{it} (x)" and reason.text("en") == f"{en} (x)"
    assert set(FAULT_TEXTS) == set(FAULT_CODES)
    jam = VoidReason("device_fault", "JAM").to_json()
    assert jam["text_en"] == "Shuffler fault: cards jammed (JAM)"
    assert jam["text_it"] == "Guasto della miscelatrice: carte inceppate (JAM)"


def test_detector_sequence_rules() -> None:
    d = MisdealDetector()
    assert d.on_event(DeckShuffled(deck_id="D1", count=52), expecting_card=False) is None
    assert d.on_event(card("D1", 1, "As"), expecting_card=True) is None
    checks = [
        (card("D1", 3, "Ks"), "index_gap"),
        (card("D1", 1, "Ks"), "index_repeat"),
        (card("D2", 2, "Ks"), "wrong_deck"),
        (card("D1", 2, "As"), "duplicate_card"),
        (card("D1", 2, None), "unreadable_card"),
        (DeckShuffled(deck_id="D9", count=52), "deck_reshuffled"),
        (DeviceFault(code="MISREAD"), "device_fault"),
        (DeviceStateChanged(state="DOOR_OPEN"), "device_fault"),
        (LinkLost(reason="silence"), "link_lost"),
        (IdentityChanged(expected="a/1", got="a/2"), "identity_changed"),
        (DeviceHello(model="m", firmware="f", serial="s", restarted=True), "restart"),
    ]
    for event, code in checks:
        reason = d.check(event, expecting_card=True)
        assert reason is not None and reason.code == code, (event, reason)
        assert reason.causes in ((event,), ())
    # check() changed nothing: the next good card still passes
    assert d.on_event(card("D1", 2, "Kd"), expecting_card=True) is None
    extra = d.on_event(card("D1", 3, "Qd"), expecting_card=False)
    assert extra is not None and extra.code == "extra_card"
    assert d.on_event(DeviceHello(model="m", firmware="f", serial="s"), expecting_card=True) is None


def test_deck_count_and_unreadable_policy() -> None:
    d = MisdealDetector("dealer_identifies")
    short = d.on_event(DeckShuffled(deck_id="D1", count=51), expecting_card=False)
    assert short is not None and short.code == "shuffle_count" and d.deck_id == "D1"
    assert d.on_event(card("D1", 1, None), expecting_card=True) is None  # the dealer identifies
    assert d.last_index == 1
    assert d.accept_identified(Card(14, "s")) is None
    dup = d.accept_identified(Card(14, "s"))
    assert dup is not None and dup.code == "duplicate_card"


def test_deal_watch_waits_then_shortens_when_the_device_is_done() -> None:
    w = DealWatch(3, card_timeout=2.0, now=0.0, grace=0.5)
    assert w.expired(1.9, pending=3) is None
    w.on_card(1.9)
    assert w.expired(3.8, pending=2) is None
    w.on_card(3.8)  # next deadline 5.8
    ready = DeviceStateChanged(state="READY")
    w.on_state("READY", 4.0, ready)  # no DEALING seen yet: not the end of this deal
    assert w.expired(5.0, pending=2) is None
    w.on_state("DEALING", 5.0)
    w.on_state("READY", 5.0, ready)  # done dealing: 0.5 s of grace, not 0.8
    assert w.expired(5.4, pending=2) is None
    reason = w.expired(5.6, pending=2)
    assert reason is not None and reason.code == "missing_cards" and reason.causes == (ready,)
    assert w.expired(5.6, pending=0) is None


def test_readiness_needs_every_fault_cleared_and_the_link() -> None:
    t = ReadinessTracker()
    t.update(DeviceFault(code="JAM"))
    t.update(DeviceFault(code="DOOR_OPEN"))
    t.update(FaultCleared(code="JAM"))
    assert not t.ready and "DOOR_OPEN" in t.why_not_ready()
    t.update(FaultCleared(code="DOOR_OPEN"))
    assert t.ready
    t.update(LinkLost(reason="x"))
    assert not t.ready
    t.update(LinkRestored())
    t.update(IdentityChanged(expected="a", got="b"))
    assert t.why_not_ready().startswith("another device")


# -- every void reason from the emulator over a real pty ------------------------------------------


@contextmanager
def table(
    tmp_path: Path, query: str, *, policy: str = "void", **opts: float
) -> Iterator[tuple[HeadlessTable, Journal]]:
    config = replace(load_table_config(game="uth"), unreadable_card=policy)
    journal = close_at_teardown(Journal(str(tmp_path / "j.db")))
    journal.open()
    source = close_at_teardown(open_source(f"emulator://?{FAST}&{query}", name="serial", **opts))
    source.open()
    try:
        yield HeadlessTable(config, source, journal, card_timeout=2.0), journal
    finally:
        source.close()
        journal.close()


def play(runner: HeadlessTable) -> BankedHand:
    """One hand with fixed bets; every seat takes its first legal decision."""
    hand = runner.new_hand()
    for seat, bets in BETS.items():
        hand.place_bets(seat, bets)
    runner.close_bets()
    return play_on(runner, hand)


def play_on(runner: HeadlessTable, hand: BankedHand) -> BankedHand:
    """Decisions (each seat's first legal one), reveal and settlement."""
    while hand.phase is Phase.DECISIONS:
        for seat in hand.seats_to_act:
            legal = hand.legal_actions(seat)
            if legal:  # empty once a late event voided the hand
                runner.act(seat, legal[0])
        runner.advance()
    if hand.phase is Phase.SHOWDOWN:
        runner.reveal()
    if hand.phase is Phase.REVEALED:
        runner.settle()
    return hand


REASONS = [
    ("seed=2&jam_at=4", "device_fault", "fault", {}),
    ("seed=2&stall_at=6", "missing_cards", "state", {}),
    ("seed=2&extra_at=13", "extra_card", "card", {}),
    ("seed=2&skip_index_at=5", "index_gap", "card", {}),
    ("seed=2&repeat_index_at=5", "index_repeat", "card", {}),
    ("seed=2&duplicate_at=8", "duplicate_card", "card", {}),
    ("seed=2&unreadable_at=6", "unreadable_card", "card", {}),
    ("seed=2&silence_after=14", "link_lost", "link_lost", {"heartbeat_timeout": 0.6}),
    ("seed=2&swap_at=5", "identity_changed", "identity_changed", {}),
    ("seed=2&restart_at=5", "restart", "hello", {}),
    ("seed=2&deck_count=51", "shuffle_count", "shuffled", {}),
    ("seed=2&wrong_deck_at=5", "wrong_deck", "card", {}),
    ("seed=2&reshuffle_at=5", "deck_reshuffled", "shuffled", {}),
]


@pytest.mark.parametrize(("query", "code", "cause", "opts"), REASONS, ids=[r[1] for r in REASONS])
def test_void_reason_from_the_emulator(
    tmp_path: Path, query: str, code: str, cause: str, opts: dict[str, float]
) -> None:
    with table(tmp_path, query, **opts) as (runner, journal):
        hand = play(runner)
        assert hand.phase is Phase.VOID and hand.void_reason is not None
        assert hand.void_reason.code == code, hand.void_reason
        stored = journal.last_hand()
        assert stored is not None and stored.status == "void" and stored.hand_uid == hand.hand_uid
        assert stored.settlement is not None
        boxes = [b for s in stored.settlement["seats"] for b in s["bets"]]
        assert {b["box"] for b in boxes} >= {"ante", "blind", "trips"}  # side bets returned too
        assert all(b["net"] == 0 and b["outcome"] == "push" for b in boxes)
        void = stored.extra["void"]
        assert void["code"] == code and void["text_it"] and void["text_en"]
        assert void["text_it"] != void["text_en"]
        assert cause in {c["kind"] for c in void["causes"]}, void
        assert all(c in stored.events for c in void["causes"])  # the causes are in the hand
        # the dealer must acknowledge before the next hand
        assert runner.void_alarm is not None and runner.void_alarm.reason.code == code
        with pytest.raises(HandStateError, match="acknowledged"):
            runner.new_hand()
        assert runner.acknowledge_void("dealer 7") and runner.void_alarm is None
        assert not runner.acknowledge_void()
        assert journal.verify().ok


def test_dealer_void_and_exposed_card(tmp_path: Path) -> None:
    with table(tmp_path, "seed=5") as (runner, journal):
        hand = runner.new_hand()
        for seat, bets in BETS.items():
            hand.place_bets(seat, bets)
        runner.close_bets()
        assert hand.phase is Phase.DECISIONS
        exposed = hand.seats[2].hole[1]
        runner.record_exposed(exposed, position="seat 2 card 1", note="dropped face up")
        assert hand.phase is Phase.DECISIONS  # not a misdeal: play goes on
        runner.act(1, Action("preflop", "play", 4))
        runner.void(VoidReason("dealer_void", "pit boss decision"))
        stored = journal.last_hand()
        assert stored is not None and stored.extra["void"]["code"] == "dealer_void"
        assert stored.extra["exposed_cards"][0]["card"] == str(exposed)
        assert stored.extra["exposed"] == [f"{exposed} seat 2 card 1 dropped face up"]
        assert stored.settlement is not None
        seat1 = next(s for s in stored.settlement["seats"] if s["seat"] == 1)
        assert {b["box"]: b["stake"] for b in seat1["bets"]}["play"] == 4000
        runner.acknowledge_void()
        hand = play(runner)  # an exposed card in a hand that settles
        assert hand.phase is Phase.SETTLED
        with pytest.raises(HandStateError):
            runner.record_exposed(exposed)


def test_fault_blocks_the_next_hand_until_it_clears(tmp_path: Path) -> None:
    with table(tmp_path, "seed=2&jam_at=4&jam_clear_after=1.0") as (runner, _):
        assert play(runner).phase is Phase.VOID
        runner.acknowledge_void()
        status = runner.device_status
        assert not status.ready and status.faults == ("JAM",) and "JAM" in status.why_not_ready
        with pytest.raises(DeviceError, match="not ready"):
            runner.new_hand()
        assert runner.wait_device_ready(5.0)
        assert runner.device_ready and runner.device_status.faults == ()
        assert runner.new_hand().phase is Phase.BETS_OPEN


def test_link_loss_blocks_until_the_link_is_back(tmp_path: Path) -> None:
    # Silent until the test plugs the cable back in (RESUME), so no step below races a timer.
    with table(tmp_path, "seed=2&silence_after=14", heartbeat_timeout=0.6) as (runner, journal):
        hand = play(runner)
        assert hand.void_reason is not None and hand.void_reason.code == "link_lost"
        runner.acknowledge_void()
        assert not runner.device_ready
        with pytest.raises(DeviceError, match="link lost"):
            runner.new_hand()
        assert not runner.device_ready
        source = runner.runner.source
        assert isinstance(source, EmulatorSource)
        source.resume()
        assert runner.wait_device_ready(8.0)
        assert play(runner).phase is Phase.SETTLED
        assert journal.count() == 2 and journal.verify().ok


def test_unreadable_card_identified_by_the_dealer_and_confirmed(
    tmp_path: Path, card_log: Path
) -> None:
    dealt_log = card_log
    query = f"seed=3&unreadable_at=6&dealt_log={dealt_log}"
    with table(tmp_path, query, policy="dealer_identifies") as (runner, journal):
        hand = runner.new_hand()
        for seat, bets in BETS.items():
            hand.place_bets(seat, bets)
        runner.close_bets()  # returns at the unreadable card, the rest of the deal held back
        ident = runner.identification
        assert hand.phase is Phase.DEALING and ident is not None and ident.index == 6
        dealt = read_dealt_log(dealt_log)
        actual = parse_card(dealt[(ident.deck_id, 6)])
        with pytest.raises(HandStateError, match="not entered"):
            runner.confirm_identification(pit_boss="PB1")
        with pytest.raises(CardError, match="already dealt"):
            runner.identify_card(hand.board[0], dealer="D7")  # a card already on the table
        out = {v for (deck, _), v in dealt.items() if deck == ident.deck_id}
        wrong = next(
            c for c in (Card(r, s) for r in range(2, 15) for s in "shdc") if str(c) not in out
        )
        runner.identify_card(wrong, dealer="D7")
        runner.confirm_identification(pit_boss="PB1", accept=False)  # the pit boss disagrees
        runner.identify_card(actual, dealer="D7")
        runner.confirm_identification(pit_boss="PB1")
        assert runner.identification is None and hand.phase is Phase.DECISIONS
        play_on(runner, hand)
        stored = journal.last_hand()
        assert stored is not None and stored.status == "settled"
        marked = [c for c in stored.extra["cards"] if c.get("identified_by")]
        assert marked == [
            dict(
                marked[0],
                card=str(actual),
                index=6,
                manual=True,
                identified_by="D7",
                confirmed_by="PB1",
            )
        ]
        assert [c["index"] for c in stored.extra["cards"]] == list(range(1, 14))
        check = cross_check(journal, read_dealt_log(dealt_log), started=[hand.hand_uid])
        assert check.ok and check.cards == 13, check
