"""The banked presenter's collaborators, each alone: the pit boss's badge and PIN, the commands
in flight, the payout walk, the card keypad and the pit boss's forms, driven through a small
console of the shape :class:`ui.console.desk.Console` asks for (no presenter, no service)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from dealer_assist.cards import Card, parse_card
from dealer_assist.engine.rules import Action, BoxResult, SeatSettlement, Settlement
from dealer_assist.engine.state import Position
from dealer_assist.engine.views import Phase
from dealer_assist.errors import CardError
from ui.console.card_taps import CardTaps
from ui.console.commands import Act, Correct, DealerStep, MarkPaid, SignOff, Undo
from ui.console.desk import Screen
from ui.console.pit_boss import PitBossForms
from ui.console.snapshot import TableSnapshot
from ui.console.view import Step
from ui.console.walk import PayoutWalk
from ui.kit.commands import Command
from ui.kit.outbox import Outbox
from ui.kit.pin_entry import PitBossEntry
from ui.kit.status import CommandError

SEAT1, SEAT2 = Position("seat", 1, seat=1), Position("seat", 1, seat=2)


class FakeConsole:
    """The presenter's face to its collaborators: a settable step, the commands sent."""

    def __init__(self, step: Step = Step.SETTLEMENT) -> None:
        self.screen = Screen()
        self.at = step
        self.busy = False
        self.sent: list[Command] = []
        self.redrawn = 0

    def step(self) -> Step:
        return self.at

    def changed(self) -> None:
        self.redrawn += 1

    def command(self, make: Callable[[int], Command]) -> int:
        self.sent.append(make(len(self.sent) + 1))
        return len(self.sent)


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def settled(*seats: int, waiting: tuple[int, ...] = ()) -> TableSnapshot:
    rows = tuple(
        SeatSettlement(s, "win", None, (BoxResult("ante", 100, "win", 100),)) for s in seats
    )
    settlement = Settlement("uth", None, None, rows)
    return TableSnapshot(
        phase=Phase.SETTLED, hand_uid="h1", settlement=settlement, signoff_waiting=waiting
    )


def test_pit_boss_entry_takes_twelve_digits_and_forgets_on_take() -> None:
    pins = PitBossEntry()
    for key in "1234567890123":
        pins.key("badge", key)
    pins.key("pin", "4")
    pins.key("pin", "x")  # not a key of the pad
    pins.key("card", "5")  # the identify pad's card field takes no digit
    assert (pins.badge, pins.pin) == ("123456789012", "4")
    pins.key("badge", "back")
    assert pins.take() == ("12345678901", "4") and (pins.badge, pins.pin) == ("", "")


def test_outbox_numbers_and_forgets_what_a_snapshot_answers() -> None:
    out = Outbox(free=(Act,))  # as the banked presenter's
    first = out.number(lambda seq: Act(seq, seat=2, action=Action("preflop", "check")))
    assert first.seq == 1 and not out.busy  # a decision does not hold the dealer's buttons
    assert out.waits(first.seq) and not out.waits(None)  # ... but holds its own seat
    out.number(DealerStep)
    assert out.busy and out.has(DealerStep)
    out.answered(1)
    assert out.busy and list(out.waiting) == [2] and not out.waits(first.seq)
    out.answered(2)
    assert not out.busy and out.waiting == {}


def test_walk_pays_in_order_and_a_double_tap_skips_no_seat() -> None:
    console, clock = FakeConsole(), Clock()
    walk = PayoutWalk(console, PitBossEntry(), clock, tap_guard=0.4)
    console.screen.snap = settled(7, 4, 1)
    walk.settle()
    assert walk.cursor == 0
    walk.next_seat()
    assert walk.paid == [7] and walk.cursor == 1
    clock.now += 0.1
    walk.next_seat()  # the second tap of a double tap: seat 4 was not seen yet
    assert walk.paid == [7] and walk.cursor == 1
    clock.now += 1
    walk.next_seat()
    walk.back()
    assert walk.cursor == 1 and [c.seat for c in console.sent if isinstance(c, MarkPaid)] == [7, 4]


def test_walk_a_large_payout_waits_for_the_pit_boss() -> None:
    console, pins = FakeConsole(), PitBossEntry()
    walk = PayoutWalk(console, pins, Clock())
    console.screen.snap = settled(5, 2, waiting=(5,))
    walk.settle()
    walk.next_seat()
    assert walk.paid == [] and console.screen.message is not None
    assert console.screen.message.code == "signoff_required"
    for key in ("2", "0", "next", "9", "9", "next"):
        walk.signoff_key(key)
    assert console.sent == [SignOff(1, seat=5, badge="20", pin="99")]
    assert (pins.badge, pins.pin, walk.field) == ("", "", "badge")


def test_walk_a_new_hand_starts_afresh_and_a_refused_mark_comes_off() -> None:
    console = FakeConsole()
    walk = PayoutWalk(console, PitBossEntry(), Clock())
    old = settled(3, 1)
    walk.on_snapshot(TableSnapshot(), old)
    walk.paid.append(3)  # ticked on screen, the journal then refuses it
    walk.on_snapshot(old, replace(old, error=_error("journal")))
    assert walk.paid == []
    resumed = replace(settled(3, 1), hand_uid="h2", walk=True, resumed=True, paid=(3,))
    console.screen.snap = resumed  # the presenter's screen holds the new snapshot first
    walk.on_snapshot(old, resumed)
    assert walk.paid == [3] and walk.cursor == 1  # after a restart: back at the first unpaid


def _error(code: str) -> CommandError:
    return CommandError(code, "refused")


def test_card_taps_hold_a_typed_card_until_the_window_passes() -> None:
    console, clock = FakeConsole(Step.MANUAL), Clock()
    entered: list[Card] = []
    cards = CardTaps(console, PitBossEntry(), entered.append, clock, reenter_window=3.0)
    snap = TableSnapshot(
        phase=Phase.DEALING, hand_uid="h1", manual_entry=True, awaiting=(SEAT1, SEAT2)
    )
    cards.on_snapshot(TableSnapshot(), snap)
    console.screen.snap = snap
    ace, king = parse_card("As"), parse_card("Kd")
    cards.card_entered(ace)
    assert entered == [] and cards.held == ace
    cards.reenter()  # mistyped: dropped before it reaches the deal
    assert cards.held is None and console.screen.message is not None
    cards.card_entered(king)
    clock.now += 2.9
    cards.expire()
    assert entered == []
    clock.now += 0.1
    cards.expire()
    assert entered == [king] and cards.held is None and cards.typed == [king]


def test_card_taps_a_card_the_source_refuses_is_named_taken() -> None:
    def refuse(card: Card) -> None:
        raise CardError("already dealt")

    console = FakeConsole(Step.MANUAL)
    cards = CardTaps(console, PitBossEntry(), refuse, Clock(), reenter_window=0)
    console.screen.snap = TableSnapshot(phase=Phase.DEALING, manual_entry=True, awaiting=(SEAT1,))
    cards.card_entered(parse_card("2c"))
    assert console.screen.message is not None and console.screen.message.code == "card_taken"
    assert cards.typed == []


def test_forms_a_correction_needs_a_roster_then_badge_and_pin() -> None:
    console, pins = FakeConsole(Step.DECISIONS), PitBossEntry()
    forms = PitBossForms(console, pins)
    fold, call = Action("preflop", "fold"), Action("preflop", "check")
    snap = TableSnapshot(phase=Phase.DECISIONS, hand_uid="h1", correctable=((3, (fold, call)),))
    console.screen.snap = snap
    forms.undo_or_correct(3)
    assert forms.correcting is None and console.screen.message is not None  # no roster
    console.screen.snap = replace(snap, pin_required=True)
    forms.undo_or_correct(3)
    forms.choose_correction(fold)
    for key in ("4", "next", "1", "2", "next"):
        forms.correction_key(key)
    assert console.sent == [Correct(1, 3, fold, "4", "12")] and forms.correcting is None
    console.screen.snap = replace(snap, undoable=(3,))
    forms.undo_or_correct(3)
    assert console.sent[-1] == Undo(2, seat=3)
