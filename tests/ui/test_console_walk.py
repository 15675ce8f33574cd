"""The payout walk at the presenter, over the real table service, the real serial emulator and real
SQLite journals (no window): a payout walk that cannot skip a seat (double taps, Back, a tap on
a seat, the chips to pay, the cards read), the paid seats kept across a restart (and a real
``kill -9`` of a console process during the payouts), the hand history with the pit boss's PIN,
and the corrections (last chip, a decision, the exposed card, the armed void, the alarm's
guard, draft bets repeated after a void while bets were open)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.config import load_table_config
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.record import settle_record
from dealer_assist.storage.journal import Journal
from tests.conftest import close_at_teardown
from tests.ui.test_console_presenter import FAST, Table
from tests.ui.test_console_sources import NO_DEVICE, with_sources
from ui.console.dispatch import execute
from ui.console.presenter import ConsolePresenter
from ui.console.service import TableService
from ui.console.view import Step
from ui.kit.boot import source_factory
from ui.kit.card_source import Timeouts
from ui.kit.pitboss import PitBossRoster
from ui.kit.service_parts import ServiceParts
from ui.money import chip_breakdown

pytestmark = pytest.mark.integration
REPO = Path(__file__).parent.resolve().parents[1]


class Clock:
    """A hand-moved monotonic clock (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += seconds


def walk_table(
    tmp_path: Path,
    *,
    seed: int = 3,
    game: str = "uth",
    name: str = "j.db",
    roster: PitBossRoster | None = None,
) -> tuple[Table, Clock]:
    """A :class:`Table` whose presenter has the real guards on a clock of the test's own."""
    clock = Clock()
    t = Table(game, f"emulator://?seed={seed}&{FAST}", tmp_path / name)
    t.service.roster = roster
    t.p = ConsolePresenter(t.config, t._send, clock=clock)
    t.p.subscribe(t.views.append)
    t.p.start()
    return t, clock


def play_to_reveal(t: Table, clock: Clock, seats: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7)) -> None:
    """Bets on ``seats`` (Ante 10 + Trips 5), every seat checks to the river and plays 1x."""
    for seat in seats:
        t.bet(seat, ante=1000, trips=500)
    big(t, clock)  # rien ne va plus
    for street in ("preflop", "flop"):
        assert t.view().step is Step.DECISIONS
        for seat in seats:
            t.p.decide(seat, Action(street, "check"))
        big(t, clock)
    for seat in seats:
        t.p.decide(seat, Action("river", "play", 1))
    big(t, clock)  # the dealer's cards: settled and journaled
    assert t.view().step is Step.REVEAL


def big(t: Table, clock: Clock) -> None:
    """One tap on the big button, after the guard (a deliberate tap)."""
    clock.wait(1.0)
    t.p.dealer_button()


def test_a_double_tap_cannot_skip_a_seat_and_back_reopens_one(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    play_to_reveal(t, clock)
    t.p.dealer_button()  # a double tap on "Turn the dealer's cards": not "Settle"
    assert t.view().step is Step.REVEAL
    big(t, clock)  # settle
    t.p.dealer_button()  # a double tap on "Settle": not "Next"
    view = t.view()
    assert view.step is Step.SETTLEMENT
    assert [r.state for r in view.settlement][:2] == ["current", "pending"]
    order = [r.seat for r in view.settlement]
    assert order == [7, 6, 5, 4, 3, 2, 1]
    big(t, clock)  # next: seat 7 paid
    t.p.dealer_button()  # double tap on Next: seat 6 is NOT skipped
    clock.wait(0.2)
    t.p.dealer_button()  # still within the guard of the first tap: nothing
    view = t.view()
    assert [r.seat for r in view.settlement if r.state == "current"] == [6]
    assert [r.seat for r in view.settlement if r.paid] == [7]
    assert [c.seat for c in t.sent if c.kind == "paid"] == [7]
    big(t, clock)  # seat 6 paid
    t.p.back()  # reopens seat 6 (already paid)
    assert [r.seat for r in t.view().settlement if r.state == "current"] == [6]
    t.p.open_row(7)  # a tap on seat 7 in the list reopens it
    assert [r.seat for r in t.view().settlement if r.state == "current"] == [7]
    assert t.view().can_back is False
    big(t, clock)  # 7 again: paid already, nothing written twice; on to the first unpaid
    assert [r.seat for r in t.view().settlement if r.state == "current"] == [5]
    assert [c.seat for c in t.sent if c.kind == "paid"] == [7, 6]
    # the chips to pay each box, from the table's chip set; the cards read, after the reveal
    hand = t.service.hand
    assert hand is not None
    for row in t.view().settlement:
        nets = {b.box: b.net for b in row.boxes}
        for box, counts, rest in row.pay:
            assert (list(counts), rest) == chip_breakdown(nets[box], t.config.chips)
            assert sum(v * n for v, n in counts) + rest == nets[box]
        assert {b for b, _, _ in row.pay} == {b for b, n in nets.items() if n > 0}
        seat = hand.seats[row.seat]
        assert row.hole == tuple(seat.hole[n] for n in sorted(seat.hole))
    while t.view().action is not None and t.view().action.kind == "next":  # type: ignore[union-attr]
        big(t, clock)
    assert [c.seat for c in t.sent if c.kind == "paid"] == order[:2] + order[2:]
    assert all(r.paid for r in t.view().settlement)
    assert t.view().action.kind == "new_hand"  # type: ignore[union-attr]


def test_a_double_tap_queued_behind_a_slow_redraw_is_still_one_tap(tmp_path: Path) -> None:
    """The second tap of a double tap may wait in the event queue while the first one's screen
    is drawn (seven rows on a slow panel): the guard counts from the end of that work."""
    t, clock = walk_table(tmp_path)
    play_to_reveal(t, clock, seats=(1, 2, 3))
    t.p.subscribe(lambda _view: clock.wait(0.3))  # every redraw takes 0.3 s
    big(t, clock)  # settle: its redraw ends 0.3 s later, the queued second tap comes then
    t.p.dealer_button()
    assert [r.state for r in t.view().settlement] == ["current", "pending", "pending"]
    assert [c.kind for c in t.sent].count("paid") == 0


def test_paid_seats_survive_a_restart_and_the_screen_says_so(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    play_to_reveal(t, clock, seats=(2, 4, 6))
    uid = t.p.snap.hand_uid
    big(t, clock)  # settle
    big(t, clock)  # seat 6 paid
    big(t, clock)  # seat 4 paid
    expected = settle_record(t.service.hand.to_hand_record().to_json())  # type: ignore[union-attr]
    t.service.close()  # the console goes away here (a crash: nothing else is written)
    t2, _ = walk_table(tmp_path)  # the same journal, a new process's service and presenter
    view = t2.view()
    assert t2.p.snap.hand_uid == uid and t2.p.snap.resumed and view.resumed
    assert view.step is Step.SETTLEMENT
    assert [(r.seat, r.paid, r.state) for r in view.settlement] == [
        (6, True, "done"),
        (4, True, "done"),
        (2, False, "current"),
    ]
    nets = [r.net for r in view.settlement]
    assert nets == [s["net"] for s in expected["seats"]]
    assert t2.service.journal.count() == 1  # type: ignore[union-attr]  # not journaled twice


def test_kill_9_during_the_payouts(tmp_path: Path) -> None:
    """A real console process (service + presenter) killed with SIGKILL after paying two
    seats: a restart shows them ticked and the rest to pay."""
    db = tmp_path / "k.db"
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from pathlib import Path
        import tests.ui.test_console_presenter as tp
        tp.close_at_teardown = lambda obj: obj  # no pytest here: the kill closes everything
        from tests.ui.test_console_walk import walk_table, play_to_reveal, big
        t, clock = walk_table(Path({str(tmp_path)!r}), name="k.db")
        play_to_reveal(t, clock, seats=(1, 3, 5, 7))
        big(t, clock); big(t, clock); big(t, clock)  # settle, seat 7 paid, seat 5 paid
        print("PAID", t.p.snap.hand_uid, flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.startswith("PAID"), line
        os.killpg(proc.pid, signal.SIGKILL)  # the console and its emulator
        proc.wait(10)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    uid = line.split()[1]
    t, _ = walk_table(tmp_path, name="k.db", seed=4)
    view = t.view()
    assert db.exists() and t.p.snap.hand_uid == uid and view.resumed
    assert [(r.seat, r.paid) for r in view.settlement] == [
        (7, True),
        (5, True),
        (3, False),
        (1, False),
    ]
    assert [r.seat for r in view.settlement if r.state == "current"] == [3]


def test_hand_history_hole_cards_only_after_a_pit_boss_pin(tmp_path: Path) -> None:
    roster = PitBossRoster(tmp_path / "roster.json")
    roster.add("4711", "2468")
    t, clock = walk_table(tmp_path, roster=roster)
    play_to_reveal(t, clock, seats=(1, 3))
    big(t, clock)  # settle
    while t.view().action.kind == "next":  # type: ignore[union-attr]
        big(t, clock)
    big(t, clock)  # new hand
    assert t.view().step is Step.BETS and t.view().can_history
    t.p.open_history()
    hist = t.view().history
    assert hist is not None and len(hist) == 1 and not t.view().history_holes
    past = hist[0]
    stored = t.service.journal.last_hand()  # type: ignore[union-attr]
    assert stored is not None and past.hand_id == stored.hand_id
    assert [s.seat for s in past.seats] == [3, 1]
    assert [s.net for s in past.seats] == [s["net"] for s in stored.settlement["seats"]]  # type: ignore[index]
    assert len(past.board) == 5 and len(past.dealer) == 2
    assert all(s.hole == () for s in past.seats)  # no hole card without the pit boss
    for key in ("cards", "4", "7", "1", "1", "next", "1", "1", "1", "1", "next"):
        t.p.history_key(key)  # a wrong PIN
    assert t.view().message is not None and t.view().message.code == "pit_boss"  # type: ignore[union-attr]
    assert not t.view().history_holes and all(s.hole == () for s in t.view().history[0].seats)  # type: ignore[index]
    for key in ("cards", "4", "7", "1", "1", "next", "2", "4", "6", "8", "next"):
        t.p.history_key(key)
    view = t.view()
    assert view.history_holes
    holes = {p["seat"]: p["hole"] for p in stored.record["players"]}
    assert {s.seat: [str(c) for c in s.hole] for s in view.history[0].seats} == holes  # type: ignore[index]
    t.p.close_history()
    assert t.view().history is None and t.p.snap.history is None


def test_corrections_last_chip_decision_and_exposed_card(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    t.p.tap_seat(2)
    for chip in (1000, 500, 100):
        t.p.tap_chip(chip)
    t.p.undo_chip()
    assert t.p.book.amount(2, "ante") == 1500
    t.p.undo_chip()
    t.p.undo_chip()
    assert t.p.book.amount(2, "ante") == 0 and not t.view().can_undo_chip
    t.bet(2, ante=1000)
    t.bet(5, ante=1000)
    big(t, clock)
    t.p.decide(2, Action("preflop", "check"))  # mis-tapped: the player played 3x
    assert t.view().undoable == (2,)
    assert [s.undoable for s in t.view().seats if s.seat == 2] == [True]
    t.p.undo_decision(2)
    assert t.service.hand.seats[2].actions == []  # type: ignore[union-attr]
    t.p.decide(2, Action("preflop", "play", 3))
    t.p.decide(5, Action("preflop", "check"))
    assert t.view().undoable == (2, 5)
    big(t, clock)  # the flop is turned: the preflop decisions stand
    assert t.view().undoable == ()
    t.p.undo_decision(5)
    assert [c.kind for c in t.sent].count("undo") == 1
    # the exposed card: another card than the reader's is refused, nothing recorded
    hand = t.service.hand
    assert hand is not None
    mine = hand.seats[5].hole[1]
    other = next(c for c in hand.dealer_cards)
    t.p.open_exposed()
    t.p.choose_exposed("seat 5")
    t.p.record_exposed(other)
    assert t.p.snap.error is not None and t.p.snap.error.code == "exposed_mismatch"
    assert str(other) not in t.p.snap.error.message and str(mine) not in t.p.snap.error.message
    assert t.view().expose is not None and t.view().expose.position == "seat 5"  # the form again
    assert t.p.snap.exposed == 0 and hand.exposed == []
    t.p.record_exposed(mine)
    assert t.p.snap.error is None and t.p.snap.exposed == 1


def test_void_disarms_after_a_timeout_or_any_other_tap(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    t.bet(1, ante=1000)
    t.bet(3, ante=1000)
    big(t, clock)
    t.p.void_hand()
    assert t.view().void_armed and t.view().message.code == "confirm_void"  # type: ignore[union-attr]
    clock.wait(6.0)  # armed and forgotten
    t.p.expire()
    assert not t.view().void_armed and t.view().message is None
    t.p.void_hand()
    clock.wait(6.0)
    t.p.void_hand()  # a late tap arms again, it does not void
    assert t.p.snap.phase is Phase.DECISIONS and t.view().void_armed
    t.p.decide(1, Action("preflop", "check"))  # any other tap disarms
    assert not t.view().void_armed
    t.p.void_hand()
    t.p.void_hand()  # two taps in time: void
    assert t.p.snap.phase is Phase.VOID and [c.kind for c in t.sent].count("void") == 1


def test_alarm_guard_and_drafts_repeated_after_a_void_while_bets_were_open(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    t.bet(1, ante=1000, trips=500)
    t.bet(6, ante=2500)
    drafts = t.p.book.ready()
    # a device fault while the bets are still open (the runner voids the hand)
    t.p.on_snapshot(t.service.void(VoidReason("device_fault", "JAM"), t.p.snap.seq))
    assert t.view().step is Step.VOID
    t.p.dealer_button()  # a tap meant for "Rien ne va plus" as the alarm comes up
    t.p.acknowledge_void()
    assert "ack" not in [c.kind for c in t.sent]
    clock.wait(1.5)
    t.p.acknowledge_void()
    assert t.view().step is Step.BETS
    assert t.p.book.ready() == {}  # returned to the players with the rest: not drawn
    t.p.repeat_last()  # ...and put back with one tap when the players leave them out
    assert t.p.book.ready() == drafts
    big(t, clock)  # and dealt
    assert t.p.snap.phase is Phase.DECISIONS
    assert {s.seat: dict(s.stakes) for s in t.p.snap.seats}[6] == {"ante": 2500, "blind": 2500}
    # a void after the bets were locked returns them: the next hand starts empty
    t.p.void_hand()
    t.p.void_hand()
    clock.wait(1.5)
    t.p.acknowledge_void()
    assert t.view().step is Step.BETS and t.p.book.ready() == {}


def test_a_hand_resumed_mid_hand_says_so(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    t.bet(4, ante=1000)
    big(t, clock)
    t.p.decide(4, Action("preflop", "check"))
    uid = t.p.snap.hand_uid
    assert not t.view().resumed
    t.service.close()
    t2, _ = walk_table(tmp_path)
    # a new emulator has another deck: the hand resumes and is voided "restart" at once
    assert t2.p.snap.hand_uid == uid and t2.p.snap.resumed
    assert t2.p.snap.phase in (Phase.DECISIONS, Phase.VOID)
    assert [s.actions for s in t2.p.snap.seats] == [(Action("preflop", "check"),)]


def test_a_mistyped_keypad_card_is_typed_again_before_the_next_card(tmp_path: Path) -> None:
    """With the keypad as the card source, the last typed card is held for REENTER_WINDOW (or
    until the next card is typed): *Re-enter the last card* drops it before it reaches the deal;
    a card already typed in this deck is refused at once, without naming it."""
    config = with_sources(load_table_config(game="uth"), NO_DEVICE)
    service = TableService(
        ServiceParts(
            config,
            source_factory(config),
            Journal(str(tmp_path / "m.db")),
            timeouts=Timeouts(card=0.4, slow_card=30.0),
        )
    )
    close_at_teardown(service)
    clock = Clock()

    def run(cmd: Any) -> None:
        p.on_snapshot(execute(service, cmd))

    def settle_ticks() -> None:
        for _ in range(20):
            p.on_snapshot(service.tick(0.02))

    p = ConsolePresenter(config, run, enter=service.enter_card, clock=clock)
    p.start()
    p.tap_seat(4)
    for chip in (500,):
        p.tap_chip(chip)
    clock.wait(1.0)
    p.dealer_button()  # rien ne va plus: the keypad deals
    settle_ticks()
    assert p.view().step is Step.MANUAL
    deck = list(FULL_DECK[30:39])  # board 5, seat 4's two, the dealer's two
    wrong = FULL_DECK[0]
    p.card_entered(wrong)  # mistyped
    entry = p.view().entry
    assert entry is not None and entry.held and entry.number == 2
    p.reenter()
    assert p.view().entry.held is False and p.view().message.code == "reenter"  # type: ignore[union-attr]
    for i, card in enumerate(deck):
        if i == 3:
            p.card_entered(deck[1])  # typed twice: refused at once, nothing dealt
            assert p.view().message is not None and p.view().message.code == "card_taken"  # type: ignore[union-attr]
        p.card_entered(card)
        settle_ticks()
        assert service.hand is not None and len(service.hand.cards) == i  # held, not dealt yet
    clock.wait(3.5)  # the last one: nothing re-entered in time, it goes to the deal
    p.expire()
    settle_ticks()
    hand = service.hand
    assert hand is not None and hand.phase is Phase.DECISIONS
    assert [c.card for c in hand.cards] == deck and wrong not in [c.card for c in hand.cards]
    assert all(c.manual for c in hand.cards)


def test_a_pit_boss_corrects_a_decision_after_the_next_card(tmp_path: Path) -> None:
    roster = PitBossRoster(tmp_path / "roster.json")
    roster.add("4711", "2468")
    t, clock = walk_table(tmp_path, roster=roster)
    t.bet(2, ante=1000)
    t.bet(5, ante=1000)
    big(t, clock)
    t.p.decide(2, Action("preflop", "check"))  # mis-tapped: the player played 4x
    t.p.decide(5, Action("preflop", "play", 4))
    big(t, clock)  # the flop is turned: "Change" alone no longer takes it back
    view = t.view()
    assert view.undoable == () and [s.seat for s in view.seats if s.correctable] == [2, 5]
    t.p.undo_or_correct(2)
    form = t.view().correct
    assert form is not None and Action("preflop", "play", 4) in form.choices
    t.p.choose_correction(Action("preflop", "play", 4))
    for key in ("4", "7", "1", "1", "next", "1", "1", "1", "1", "next"):  # a wrong PIN
        t.p.correction_key(key)
    assert t.p.snap.error is not None and t.p.snap.error.code == "pit_boss"
    hand = t.service.hand
    assert hand is not None and hand.seats[2].actions == [Action("preflop", "check")]
    t.p.undo_or_correct(2)
    t.p.choose_correction(Action("preflop", "play", 4))
    for key in ("4", "7", "1", "1", "next", "2", "4", "6", "8", "next"):
        t.p.correction_key(key)
    assert t.p.snap.error is None
    assert (
        hand.seats[2].actions == [Action("preflop", "play", 4)] and hand.stakes(2)["play"] == 4000
    )
    assert 2 not in t.p.snap.to_act and t.view().correct is None
    steps = t.service.journal.pending_steps(t.config.table_id)  # type: ignore[union-attr]
    fixes = [s.payload for s in steps if s.kind == "correct"]
    assert [(f["seat"], f["action"], f["multiple"], f["pit_boss"]) for f in fixes] == [
        (2, "play", 4, "4711")
    ]
