"""Crash safety: the table dies at a step, a new table resumes from the journal's step log.

The "death" is a real SQLite journal whose process stops (an exception nothing catches) just
before or just after the n-th durable step, with its TCRP/1 link closed as a dead process's
would be; the emulator runs on in its own process over a real pty, as a device does. Real
``kill -9`` of a table process is in ``test_soak.py``.
"""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import Card, parse_card
from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.views import Phase
from dealer_assist.errors import HandStateError
from dealer_assist.events import CardRead, DeckShuffled, DeviceHello
from dealer_assist.players import PlayerModel
from dealer_assist.ports import PendingStep
from dealer_assist.storage.journal import Journal
from dealer_assist.table.crosscheck import cross_check, read_dealt_log
from dealer_assist.table.driving import HeadlessTable, play_hand
from dealer_assist.table.recovery import assess_history, sort_pending
from drivers.emulator.process import EmulatorProcess
from drivers.factory import open_source
from drivers.tcrp.device import TcrpDevice
from drivers.transport.serial_port import SerialTransport
from tests.conftest import close_at_teardown

FAST = ["--shuffle-time", "0.01", "--card-interval", "0.001"]
SEATS = [1, 2, 3]


class Crash(BaseException):
    """The table process dies here (nothing in the product catches a BaseException)."""


class CrashingJournal(Journal):
    """A real journal whose process dies at the ``at``-th step write: ``before`` it is written
    (the previous step took effect) or right after (written, not yet applied)."""

    def __init__(self, path: str, at: int, before: bool) -> None:
        super().__init__(path)
        self.at, self.before, self.writes = at, before, 0

    def write_step(self, *args: Any, **kwargs: Any) -> Any:
        self.writes += 1
        if self.writes == self.at and self.before:
            raise Crash
        step = super().write_step(*args, **kwargs)
        if self.writes == self.at:
            raise Crash
        return step


class Table:
    """A table process: journal, TCRP/1 link to the emulator, runner, player model."""

    def __init__(self, where: str, journal: Journal, config: TableConfig, seed: int) -> None:
        self.journal = close_at_teardown(journal)  # also when the test fails before die()
        journal.open()
        self.source = close_at_teardown(open_source(where, name="serial"))
        self.source.open()
        self.runner = HeadlessTable(config, self.source, journal, card_timeout=2.0)
        self.model = PlayerModel(config, seed)
        self.started: list[str] = []

    def play(self, hands: int, hand: BankedHand | None = None) -> BankedHand | None:
        for _ in range(hands):
            if hand is None or hand.phase in (Phase.SETTLED, Phase.VOID):
                hand = None
            hand = play_hand(
                self.runner,
                self.model,
                SEATS,
                hand,
                by="soak",
                ready_timeout=10.0,
                street_as_one_step=False,
            )
            self.started.append(hand.hand_uid)
            hand = None
        return self.runner.hand

    def die(self) -> None:
        """The process is gone: the link goes silent, nothing is closed cleanly."""
        self.source.close()
        self.journal.close()


def snapshot(hand: BankedHand) -> tuple[dict[int, dict[str, int]], dict[int, list[str]], list[str]]:
    bets = {s: dict(st.bets) for s, st in hand.seats.items()}
    actions = {s: [a.label() for a in st.actions] for s, st in hand.seats.items()}
    return bets, actions, [f"{p.position} {p.card}" for p in hand.cards]


@pytest.fixture(scope="module")
def emulator(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    dealt = tmp_path_factory.mktemp("emu") / "dealt.jsonl"
    emu = EmulatorProcess([*FAST, "--seed", "3", "--dealt-log", str(dealt)])
    where = emu.start()
    yield where, dealt
    emu.stop()


CRASHES = [
    (g, n, b)
    for g, points in (
        ("uth", (1, 3, 4, 5, 9, 17, 18, 21, 24, 27, 30)),
        ("thb", (4, 10, 14, 16, 19, 23, 27, 30)),
    )
    for n in points
    for b in (n % 2 == 0,)
]


@pytest.mark.parametrize(("game", "at", "before"), CRASHES)
def test_crash_at_a_step_then_resume(
    emulator: tuple[str, Path], tmp_path: Path, game: str, at: int, before: bool
) -> None:
    where, dealt = emulator
    config = load_table_config(game=game)
    db = str(tmp_path / "j.db")
    first = Table(where, CrashingJournal(db, at, before), config, seed=at)
    with pytest.raises(Crash):
        first.play(3)
    crashed = first.runner.hand
    assert crashed is not None
    was = snapshot(crashed)
    first.die()

    second = Table(where, Journal(db), config, seed=at + 100)
    resumed = second.runner.resume()
    if resumed is None:  # died writing the hand's first step: the hand never existed
        assert crashed.phase is Phase.BETS_OPEN and not crashed.seats and before
        second.play(1)
        check = cross_check(second.journal, read_dealt_log(dealt), started=first.started)
        assert check.ok and check.resumed == 0 and check.hands == len(first.started) + 1, check
        second.die()
        return
    assert resumed.hand_uid == crashed.hand_uid
    now = snapshot(resumed)
    if resumed.phase is not Phase.BETS_OPEN:  # bets not yet locked are not kept
        assert now[0] == was[0] or not was[0]
        assert all(now[1][s][: len(a)] == a for s, a in was[1].items() if s in now[1])
        assert now[2][: len(was[2])] == was[2]  # the cards it had, where they were
    second.play(1, resumed)
    second.play(1)
    assert resumed.phase is Phase.SETTLED, resumed.void_reason
    stored = second.journal.last_hand()
    assert stored is not None
    check = cross_check(
        second.journal, read_dealt_log(dealt), started=[*first.started, crashed.hand_uid]
    )
    assert check.ok, check
    assert check.resumed == 1 and check.resumed_settled == 1 and check.void == 0
    assert second.journal.pending_steps(config.table_id) == []
    second.die()


def test_cards_dealt_while_down_come_from_the_device_history(
    emulator: tuple[str, Path], tmp_path: Path
) -> None:
    where, dealt = emulator
    config = load_table_config(game="uth")
    db = str(tmp_path / "j.db")
    first = Table(where, CrashingJournal(db, 5, before=True), config, seed=1)  # before card 1
    with pytest.raises(Crash):
        first.play(1)
    first.die()
    time.sleep(1.5)  # every unacknowledged frame has been retransmitted 5 times by now
    second = Table(where, Journal(db), config, seed=2)
    hand = second.runner.resume()
    assert hand is not None and hand.phase is Phase.DECISIONS and len(hand.cards) == 13
    assert second.source.stats.resend_requests >= 1
    second.play(1, hand)
    check = cross_check(second.journal, read_dealt_log(dealt), started=[hand.hand_uid])
    assert check.ok and check.resumed_settled == 1, check
    second.die()


def test_crash_during_the_recovery_itself(emulator: tuple[str, Path], tmp_path: Path) -> None:
    where, dealt = emulator
    config = load_table_config(game="thb")
    db = str(tmp_path / "j.db")
    first = Table(where, CrashingJournal(db, 12, before=False), config, seed=4)
    with pytest.raises(Crash):
        first.play(1)
    first.die()
    second = Table(where, CrashingJournal(db, 1, before=False), config, seed=5)
    with pytest.raises(Crash):
        second.runner.resume()  # dies at its own first step (the "resume" mark)
    second.die()
    third = Table(where, Journal(db), config, seed=6)
    hand = third.runner.resume()
    assert hand is not None
    third.play(1, hand)
    stored = third.journal.last_hand()
    assert stored is not None and stored.extra["resumed"] == 2 and stored.status == "settled"
    assert cross_check(third.journal, read_dealt_log(dealt), started=[hand.hand_uid]).ok
    third.die()


def test_resume_voids_when_the_device_reshuffled_meanwhile(
    emulator: tuple[str, Path], tmp_path: Path
) -> None:
    where, dealt = emulator
    config = load_table_config(game="thb")
    db = str(tmp_path / "j.db")
    first = Table(where, CrashingJournal(db, 16, before=True), config, seed=7)
    with pytest.raises(Crash):
        first.play(1)
    crashed = first.runner.hand
    assert crashed is not None and crashed.cards
    first.die()
    other = close_at_teardown(TcrpDevice(SerialTransport(where), name="other"))
    other.open()
    other.shuffle()  # someone shuffles a new deck while the table is down
    time.sleep(0.2)
    other.close()
    second = Table(where, Journal(db), config, seed=8)
    hand = second.runner.resume()
    assert hand is not None and hand.phase is Phase.VOID and hand.void_reason is not None
    assert hand.void_reason.code == "restart", hand.void_reason
    stored = second.journal.last_hand()
    assert stored is not None and stored.status == "void" and len(stored.extra["cards"]) >= 1
    assert "shuffled" in {c["kind"] for c in stored.extra["void"]["causes"]}
    assert second.runner.void_alarm is not None
    assert cross_check(second.journal, read_dealt_log(dealt), started=[hand.hand_uid]).ok
    second.die()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_resume_voids_when_the_device_restarted_meanwhile(tmp_path: Path) -> None:
    port = _free_port()
    dealt = tmp_path / "dealt.jsonl"
    args = [*FAST, "--dealt-log", str(dealt)]
    emu = EmulatorProcess([*args, "--seed", "9"], tcp_port=port)
    where = emu.start()
    config = load_table_config(game="uth")
    db = str(tmp_path / "j.db")
    try:
        first = Table(where, CrashingJournal(db, 20, before=True), config, seed=9)
        with pytest.raises(Crash):
            first.play(1)
        first.die()
        emu.stop()  # the device loses power with the table; its deck is gone
        emu = EmulatorProcess([*args, "--seed", "10"], tcp_port=port)
        assert emu.start() == where
        second = Table(where, Journal(db), config, seed=10)
        hand = second.runner.resume()
        assert hand is not None and hand.void_reason is not None
        assert hand.void_reason.code == "restart"
        assert "restarted" in hand.void_reason.detail
        second.runner.acknowledge_void()
        second.play(1)  # the fresh device deals the next hand
        check = cross_check(second.journal, read_dealt_log(dealt), started=first.started)
        assert check.ok and check.voids == {"restart": 1} and check.settled == 1, check
        second.die()
    finally:
        emu.stop()


def test_void_alarm_and_acknowledgement_survive_restarts(tmp_path: Path) -> None:
    dealt = tmp_path / "dealt.jsonl"
    emu = EmulatorProcess(
        [
            *FAST,
            "--seed",
            "2",
            "--jam-at",
            "4",
            "--jam-clear-after",
            "0.2",
            "--dealt-log",
            str(dealt),
        ]
    )
    where = emu.start()
    config = load_table_config(game="uth")
    db = str(tmp_path / "j.db")
    try:
        first = Table(where, Journal(db), config, seed=1)
        voided = first.play(1)
        assert voided is not None and voided.phase is Phase.VOID
        first.die()  # dies before the dealer acknowledged
        second = Table(where, Journal(db), config, seed=2)
        assert second.runner.resume() is None
        alarm = second.runner.void_alarm
        assert alarm is not None and alarm.hand_uid == voided.hand_uid
        with pytest.raises(HandStateError, match="acknowledged"):
            second.runner.new_hand()
        second.runner.acknowledge_void("dealer 3")
        second.die()  # dies after the acknowledgement, before the next hand
        third = Table(where, Journal(db), config, seed=3)
        third.runner.resume()
        assert third.runner.void_alarm is None
        assert third.runner.wait_device_ready(3.0)
        nxt = third.play(1)  # jams again: a void that carries the acknowledgement
        assert nxt is not None
        stored = third.journal.last_hand()
        assert stored is not None
        acks = stored.extra["void_acknowledgements"]
        assert [(a["hand_uid"], a["by"]) for a in acks] == [(voided.hand_uid, "dealer 3")]
        pending = third.journal.pending_steps(config.table_id)
        assert [p.hand_uid for p in pending] == [f"{nxt.hand_uid}#ack"]  # only the new alarm
        third.die()
    finally:
        emu.stop()


def test_unreadable_card_awaiting_identification_survives_a_restart(tmp_path: Path) -> None:
    dealt = tmp_path / "dealt.jsonl"
    emu = EmulatorProcess([*FAST, "--seed", "4", "--unreadable-at", "6", "--dealt-log", str(dealt)])
    where = emu.start()
    config = replace(load_table_config(game="uth"), unreadable_card="dealer_identifies")
    db = str(tmp_path / "j.db")
    try:
        first = Table(where, Journal(db), config, seed=1)
        hand = first.runner.new_hand()
        for seat in SEATS:
            hand.place_bets(seat, first.model.bets())
        first.runner.close_bets()
        ident = first.runner.identification
        assert ident is not None and ident.index == 6
        first.die()
        second = Table(where, Journal(db), config, seed=2)
        resumed = second.runner.resume()
        assert resumed is not None and resumed.phase is Phase.DEALING
        again = second.runner.identification
        assert again is not None and (again.deck_id, again.index) == (ident.deck_id, 6)
        actual = read_dealt_log(dealt)[(ident.deck_id, 6)]
        second.runner.identify_card(parse_card(actual), dealer="D1")
        second.runner.confirm_identification(pit_boss="PB")
        assert resumed.phase is Phase.DECISIONS and len(resumed.cards) == 13
        second.play(1, resumed)
        check = cross_check(second.journal, read_dealt_log(dealt), started=[resumed.hand_uid])
        assert check.ok and check.settled == 1, check
        second.die()
    finally:
        emu.stop()


# -- the pure parts --------------------------------------------------------------------------------


def test_assess_history_places_the_last_recorded_card() -> None:
    def c(deck: str, i: int) -> CardRead:
        return CardRead(deck_id=deck, index=i, card=Card.from_index(i))

    old = DeckShuffled(deck_id="D1", count=52)
    hist = [old, c("D1", 1), c("D1", 2), c("D1", 3), c("D1", 4)]
    v = assess_history(hist, "D1", 2)
    assert v.anchored and not v.lost and v.after == hist[3:]
    assert assess_history(hist, "D1", 0).after == hist[1:]  # after the deck's SHUFFLED
    # the recorded card aged out of the history but the next one is there: all of it is after
    assert assess_history(hist[3:], "D1", 2).after == hist[3:]
    # cards after the recorded one aged out too: they cannot be recovered
    lost = assess_history(hist[4:], "D1", 2)
    assert "3..3" in lost.lost and lost.after == []
    # the deck is older than the history: everything in it came later (a restart, a reshuffle)
    restarted = DeviceHello(model="m", firmware="f", serial="s", restarted=True)
    later = [restarted, DeckShuffled(deck_id="D2", count=52)]
    v = assess_history(later, "D1", 7)
    assert not v.anchored and not v.lost and v.after == later


def test_sort_pending_separates_hands_alarms_and_acknowledgements() -> None:
    at = datetime(2026, 12, 31, 23, 59, 30, tzinfo=UTC)
    steps = [
        PendingStep("T", "h1#ack", 0, "void_alarm", {"code": "link_lost"}, at),
        PendingStep("T", "h2", 1, "bets", {}, at),
        PendingStep("T", "h2", 0, "open", {}, at),
        PendingStep("T", "h0#ack", 0, "void_alarm", {"code": "restart"}, at),
        PendingStep("T", "h0#ack", 1, "void_ack", {"by": "d"}, at),
    ]
    work = sort_pending(steps)
    assert [(u, [s.kind for s in st]) for u, st in work.hands] == [("h2", ["open", "bets"])]
    assert list(work.alarms) == ["h1"] and list(work.acks) == ["h0"]
