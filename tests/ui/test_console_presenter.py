"""The console's view-model without a window: bet entry and limits, the presenter driven by the
real table service over the real serial emulator (commands run synchronously here), privacy of
snapshots and views, settlement amounts against ``settle``, void and THB."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import Card
from dealer_assist.config import load_table_config
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.record import settle_record
from dealer_assist.storage.journal import Journal
from drivers.factory import open_source
from tests.conftest import close_at_teardown
from ui.console.bets import BetBook
from ui.console.dispatch import execute
from ui.console.presenter import ConsolePresenter
from ui.console.service import TableService
from ui.console.snapshot import TableSnapshot
from ui.console.view import ConsoleView, Step
from ui.kit.card_source import Timeouts
from ui.kit.commands import Command
from ui.kit.service_parts import ServiceParts

FAST = "shuffle_time=0.05&card_interval=0.01"


class Table:
    """Presenter + real service + real emulator; commands run as soon as they are sent."""

    def __init__(self, game: str, url: str, journal: Path | None) -> None:
        self.config = load_table_config(game=game)
        src = self.config.sources[0]
        self.service = TableService(
            ServiceParts(
                self.config,
                lambda: open_source(url, pin_model=src.pin_model, pin_serial=src.pin_serial),
                Journal(str(journal)) if journal else None,
                timeouts=Timeouts(card=3.0),
            )
        )
        close_at_teardown(self.service)  # also when the test fails before service.close()
        self.sent: list[Command] = []
        self.snapshots: list[TableSnapshot] = []
        self.views: list[ConsoleView] = []
        # commands run at once here: the double-tap guards are tested with a clock of their own
        self.p = ConsolePresenter(self.config, self._send, tap_guard=0.0, alarm_guard=0.0)
        self.p.subscribe(self.views.append)
        self._queue: list[Command] = []
        self._running = False

    def _send(self, cmd: Command) -> None:
        self.sent.append(cmd)
        self._queue.append(cmd)
        if self._running:
            return  # a command sent from a listener runs after the current one
        self._running = True
        try:
            while self._queue:
                self._run(self._queue.pop(0))
        finally:
            self._running = False

    def _run(self, c: Command) -> None:
        snap = execute(self.service, c)  # what the worker thread runs
        self.snapshots.append(snap)
        self.p.on_snapshot(snap)
        if self.service.busy:  # the worker's ticks, until the device has done its part
            snap = self.service.wait()
            self.snapshots.append(snap)
            self.p.on_snapshot(snap)

    def open_bets(self, tries: int = 20) -> None:
        """Connect and open the first hand as the dealer does: while the console still
        connects (a loaded machine can make the emulator answer late, or not READY yet), wait
        for the device, then tap retry; bets open or the test fails naming the last refusal."""
        self.p.start()
        for _ in range(tries):
            if self.view().step is not Step.CONNECTING:
                return
            runner = self.service.runner
            if runner is not None:
                runner.wait_device_ready(3.0)
            self.p.dealer_button()  # the CONNECTING step's button: retry
        raise AssertionError(f"the console never connected: {self.snapshots[-1].error}")

    def view(self) -> ConsoleView:
        return self.p.view()

    def bet(self, seat: int, **boxes: int) -> None:
        self.p.tap_seat(seat)
        for box, amount in boxes.items():
            self.p.select_box(box)
            for chip in _chips(amount, self.config.chips):
                self.p.tap_chip(chip)


def _chips(amount: int, chips: tuple[int, ...]) -> list[int]:
    out = []
    for c in sorted(chips, reverse=True):
        while amount >= c:
            out.append(c)
            amount -= c
    if amount:
        raise AssertionError("amount not payable in chips")
    return out


@pytest.fixture
def make_table(tmp_path: Path) -> Iterator[Any]:
    made: list[Table] = []

    def make(game: str = "uth", seed: int = 3, extra: str = "", journal: bool = True) -> Table:
        url = f"emulator://?seed={seed}&{FAST}" + (f"&{extra}" if extra else "")
        t = Table(game, url, tmp_path / f"j{len(made)}.db" if journal else None)
        made.append(t)
        t.open_bets()
        return t

    yield make
    for t in made:
        t.service.close()


def cards_in(obj: Any) -> set[Card]:
    """Every Card reachable from a snapshot or view (dataclasses, tuples, mappings)."""
    found: set[Card] = set()

    def walk(x: Any) -> None:
        if isinstance(x, Card):
            found.add(x)
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            for f in dataclasses.fields(x):
                walk(getattr(x, f.name))
        elif isinstance(x, dict) or hasattr(x, "items"):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, tuple | list | set | frozenset):
            for v in x:
                walk(v)

    walk(obj)
    return found


def hidden_cards(t: Table) -> set[Card]:
    hand = t.service.hand
    assert hand is not None
    hidden = {c for st in hand.seats.values() for c in st.hole.values()}
    hidden |= set(hand.board[len(hand.board_visible()) :])
    if not hand.dealer_visible():
        hidden |= set(hand.dealer_cards)
    return hidden


# -- bets ------------------------------------------------------------------------------------
def test_bet_book_limits_and_blind_follows_ante() -> None:
    config = load_table_config(game="uth")  # ante 500..50000, trips 100..10000
    book = BetBook(config)
    assert book.entry_boxes == ("ante", "trips")
    assert book.add_chip(1, "ante", 100) is None
    issue = book.issue(1)
    assert issue is not None and (issue.code, issue.box, issue.limit) == ("below_min", "ante", 500)
    book.add_chip(1, "ante", 400)
    assert book.issue(1) is None
    assert book.seat_bets(1) == {"ante": 500, "blind": 500}
    refused = book.add_chip(1, "trips", 10000)
    assert refused is None
    refused = book.add_chip(1, "trips", 100)
    assert refused is not None and (refused.code, refused.limit) == ("above_max", 10000)
    assert book.amount(1, "trips") == 10000  # the refused chip was not added
    book.add_chip(2, "trips", 500)
    missing = book.issue(2)
    assert missing is not None and (missing.code, missing.box) == ("missing", "ante")
    book.clear_seat(2)
    assert book.ready() == {1: {"ante": 500, "blind": 500, "trips": 10000}}
    book.clear_box(1, "blind")  # the Blind follows the Ante: clearing it clears the Ante
    assert book.ready() == {1: {"trips": 10000}}


def test_rien_ne_va_plus_refused_with_the_reason(make_table: Any) -> None:
    t = make_table(journal=False)
    assert t.view().step is Step.BETS
    t.p.rien_ne_va_plus()
    assert t.view().message is not None and t.view().message.code == "no_bets"
    t.bet(4, ante=300)
    sent = len(t.sent)
    t.p.rien_ne_va_plus()
    msg = t.view().message
    assert msg is not None and msg.code == "bet_issue" and msg.seat == 4
    assert msg.issue is not None and msg.issue.code == "below_min"
    assert len(t.sent) == sent  # nothing went to the device
    assert t.view().action is not None and t.view().action.enabled


# -- a full UTH hand ------------------------------------------------------------------------------
def test_uth_hand_privacy_and_settlement_match_settle(make_table: Any) -> None:
    t = make_table("uth", seed=11)
    t.bet(1, ante=1000, trips=500)
    t.bet(4, ante=2500)
    t.bet(7, ante=500)
    view = t.view()
    assert [s.status for s in view.seats] == [
        "bet",
        "empty",
        "empty",
        "bet",
        "empty",
        "empty",
        "bet",
    ]
    assert view.on_table == 2 * (1000 + 2500 + 500) + 500
    t.p.rien_ne_va_plus()
    assert t.sent[-1].bets == {
        1: {"ante": 1000, "blind": 1000, "trips": 500},
        4: {"ante": 2500, "blind": 2500},
        7: {"ante": 500, "blind": 500},
    }
    steps_seen = []
    plan = {
        "preflop": {1: Action("preflop", "play", 4)},
        "flop": {4: Action("flop", "play", 2)},
        "river": {7: Action("river", "fold")},
    }
    while True:
        view = t.view()
        steps_seen.append((view.step, view.street))
        # privacy: nothing hidden is in the snapshot or the view, and no qualification yet
        if view.step in (Step.DECISIONS, Step.SHOWDOWN):
            hidden = hidden_cards(t)
            assert hidden, "there are hidden cards during play"
            assert not cards_in(t.p.snap) & hidden
            assert not cards_in(view) & hidden
            assert view.qualifies is None and view.dealer_category is None
            assert all(s.result is None and s.category is None for s in view.seats)
        if view.step is Step.DECISIONS:
            assert (
                view.action is not None
                and view.action.kind
                == {"preflop": "flop", "flop": "river", "river": "dealer"}[view.street or ""]
            )
            for seat in view.seats:
                if not seat.legal:
                    continue
                action = plan[view.street or ""].get(seat.seat, seat.legal[-1])
                if view.street == "river" and seat.seat != 7:
                    action = seat.legal[0]  # play 1x
                assert not t.view().action.enabled  # seats still to act
                t.p.decide(seat.seat, action)
            assert t.view().action.enabled
            t.p.dealer_button()
        elif view.step is Step.REVEAL:
            break
        else:
            raise AssertionError(f"unexpected step {view.step}: {view.message}")
    assert [s for s, _ in steps_seen] == [Step.DECISIONS] * 3 + [Step.REVEAL]
    assert [st for _, st in steps_seen[:3]] == ["preflop", "flop", "river"]
    hand = t.service.hand
    assert hand is not None and hand.phase is Phase.SETTLED
    expected = settle_record(hand.to_hand_record().to_json())
    view = t.view()
    assert view.qualifies == expected["dealer"]["qualifies"]
    assert view.dealer_category == expected["dealer"]["hand"]["category"]
    assert all(isinstance(c, Card) for c in view.dealer)
    assert view.settlement == ()  # the list comes with the "Settle" step
    t.p.dealer_button()
    rows = t.view().settlement
    assert [r.seat for r in rows] == expected["settlement_order"] == [7, 4, 1]
    for row, seat in zip(rows, expected["seats"], strict=True):
        assert row.net == seat["net"]
        assert row.result == seat["result"]
        assert [(b.box, b.stake, b.outcome, b.net) for b in row.boxes] == [
            (b["box"], b["stake"], b["outcome"], b["net"]) for b in seat["bets"]
        ]
    # Next walks the seats in settlement order, highlighting each on the table
    highlighted = []
    while t.view().action.kind == "next":
        v = t.view()
        highlighted.append([s.seat for s in v.seats if s.highlighted])
        assert [r.state for r in v.settlement].count("current") == 1
        t.p.dealer_button()
    assert highlighted == [[7], [4], [1]]
    assert t.service.runner is not None and t.service.runner.stored is not None
    assert t.service.runner.stored.settlement == expected
    t.p.dealer_button()  # new hand
    assert t.view().step is Step.BETS and t.view().can_repeat
    t.p.repeat_last()
    assert t.p.book.ready() == {
        1: {"ante": 1000, "blind": 1000, "trips": 500},
        4: {"ante": 2500, "blind": 2500},
        7: {"ante": 500, "blind": 500},
    }


def test_only_legal_decisions_reach_the_service(make_table: Any) -> None:
    t = make_table("uth", seed=5, journal=False)
    t.bet(2, ante=500)
    t.p.rien_ne_va_plus()
    seat = t.view().seats[1]
    assert [a.label() for a in seat.legal] == ["play 4x", "play 3x", "check"]
    sent = len(t.sent)
    t.p.decide(2, Action("preflop", "play", 2))  # not a preflop option
    t.p.decide(3, Action("preflop", "check"))  # seat 3 is not in the hand
    t.p.dealer_button()  # everyone must decide first
    assert len(t.sent) == sent
    t.p.decide(2, Action("preflop", "check"))
    assert t.view().seats[1].status == "acted"
    assert t.view().seats[1].legal == ()


# -- void -----------------------------------------------------------------------------------
def test_void_from_a_jammed_shuffler_returns_every_wager(make_table: Any) -> None:
    t = make_table("uth", seed=2, extra="jam_at=4&jam_clear_after=0.3")
    t.bet(3, ante=1000, trips=200)
    t.bet(5, ante=700)
    t.p.rien_ne_va_plus()
    view = t.view()
    assert view.step is Step.VOID
    assert view.void_reason is not None and view.void_reason.code == "device_fault"
    assert "JAM" in view.void_reason.text("it") and "Guasto" in view.void_reason.text("it")
    assert view.void_returns == (
        (5, (("ante", 700), ("blind", 700))),
        (3, (("ante", 1000), ("blind", 1000), ("trips", 200))),
    )
    assert view.action is not None and view.action.kind == "ack"
    stored = t.service.runner.stored
    assert stored is not None and stored.status == "void"
    assert all(b["net"] == 0 for s in stored.settlement["seats"] for b in s["bets"])
    t.p.acknowledge_void()
    view = t.view()
    if view.step is Step.IDLE:  # the jam had not cleared yet: the dealer retries
        assert view.message is not None and view.message.code == "device_not_ready"
        import time

        assert view.not_ready and not view.action.enabled  # blocked until the jam clears
        time.sleep(0.5)
        t.p.on_snapshot(t.service.tick())  # the worker's tick reaches the presenter
        t.p.dealer_button()
    assert t.view().step is Step.BETS


def test_dealer_voids_with_two_taps(make_table: Any) -> None:
    t = make_table("uth", seed=9, journal=False)
    assert t.view().step is Step.BETS  # connected: bets open
    t.bet(1, ante=500)
    t.p.rien_ne_va_plus()
    assert t.view().step is Step.DECISIONS and t.view().can_void
    t.p.void_hand()
    assert t.view().void_armed and t.view().step is Step.DECISIONS
    t.p.void_hand()
    view = t.view()
    assert view.step is Step.VOID and view.void_reason is not None
    assert view.void_reason.code == "dealer_void"


# -- THB ------------------------------------------------------------------------------------
def test_thb_hand_bonus_first_and_amounts_match_settle(make_table: Any) -> None:
    t = make_table("thb", seed=21)
    t.bet(1, ante=1000, bonus=500)
    t.bet(6, ante=500, bonus=100)
    t.bet(3, ante=2000)
    t.p.rien_ne_va_plus()
    kinds = []
    while t.view().step in (Step.DECISIONS, Step.SHOWDOWN):
        view = t.view()
        assert not cards_in(view) & hidden_cards(t)
        for seat in view.seats:
            if seat.legal:
                t.p.decide(seat.seat, seat.legal[0])  # always bet: everyone stays in
        kinds.append(t.view().action.kind)
        t.p.dealer_button()
    assert kinds == ["flop", "turn", "river", "dealer"]
    assert t.view().qualifies is None  # THB: the dealer needs no qualification
    t.p.dealer_button()
    hand = t.service.hand
    assert hand is not None
    expected = settle_record(hand.to_hand_record().to_json())
    rows = t.view().settlement
    assert [r.seat for r in rows] == [6, 3, 1]
    for row, seat in zip(rows, expected["seats"], strict=True):
        boxes = [b.box for b in row.boxes]
        assert boxes == [b["box"] for b in seat["bets"]]
        if row.seat in (1, 6):
            assert boxes[0] == "bonus"
        assert row.net == seat["net"]


def test_restart_mid_hand_shows_the_interrupted_hand_void(tmp_path: Path) -> None:
    """The console process dies during the decisions; the next console on the same journal
    resumes the hand (the runner's step log); the emulator restarted with a new deck, so the
    hand is void ("restart") and the alarm lists its wagers until the dealer acknowledges."""
    url = f"emulator://?seed=3&{FAST}"
    first = Table("uth", url, tmp_path / "journal.db")
    first.p.start()
    first.bet(2, ante=1000)
    first.bet(5, ante=500, trips=100)
    first.p.rien_ne_va_plus()
    uid = first.p.snap.hand_uid
    first.p.decide(2, Action("preflop", "check"))
    first.service.close()  # no settlement, no void: as if the process had died
    second = Table("uth", url, tmp_path / "journal.db")
    try:
        second.p.start()
        view = second.view()
        assert view.step is Step.VOID and second.p.snap.void_uid == uid
        assert view.void_reason is not None and view.void_reason.code == "restart"
        assert view.void_returns == (
            (5, (("ante", 500), ("blind", 500), ("trips", 100))),
            (2, (("ante", 1000), ("blind", 1000))),
        )
        second.p.acknowledge_void()
        assert second.view().step is Step.BETS
        assert second.p.snap.hand_uid != uid
        assert second.view().hand_no == 2  # the void hand is hand 1 in the journal
    finally:
        second.service.close()
