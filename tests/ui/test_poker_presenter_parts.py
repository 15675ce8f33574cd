"""The poker presenter's collaborators, each alone: the commands in flight, the double-tap
guard, the amount keys, the changes between hands and the card keypad, driven through a small
console of the shape :class:`ui.poker.desk.Console` asks for (no presenter, no service); the
keypad's cards go into a real keypad source."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from dealer_assist.cards import parse_card
from dealer_assist.config import load_table_config
from dealer_assist.engine.state import Position
from drivers.manual import ManualSource
from ui.kit.commands import Command, Confirm
from ui.kit.format import CHIPS
from ui.kit.outbox import Outbox
from ui.poker.amount_keys import AmountKeys
from ui.poker.card_taps import CardTaps
from ui.poker.commands import Act, Leave, SeatPlayer, Undo
from ui.poker.desk import DOUBLE_TAP_S, Screen, TapGuard
from ui.poker.seat_taps import SeatTaps
from ui.poker.snapshot import Legal, PokerSnapshot, SeatSnap
from ui.poker.views import Message


class FakeConsole:
    """The presenter's face to its collaborators: a settable step, the commands sent."""

    def __init__(self, step: str = "between", snap: PokerSnapshot | None = None) -> None:
        self.screen = Screen(snap=snap or PokerSnapshot())
        self.at = step
        self.busy = False
        self.sent: list[Command] = []
        self.redrawn = 0
        self.doubles: set[str] = set()  # keys taken for the second tap of a double tap

    def step(self) -> str:
        return self.at

    def double(self, key: str) -> bool:
        return key in self.doubles

    def changed(self) -> None:
        self.redrawn += 1

    def say(self, message: Message) -> None:
        self.screen.message = message
        self.changed()

    def command(self, make: Callable[[int], Command]) -> None:
        self.sent.append(make(len(self.sent) + 1))


def test_outbox_numbers_and_forgets_what_a_snapshot_answers() -> None:
    out = Outbox()
    first = out.number(partial(Act, seat=3, action="call"))
    second = out.number(Undo)
    assert first == Act(1, seat=3, action="call") and first.kind == "act"
    assert second == Undo(2) and out.busy
    out.answered(1)
    assert out.waiting == {2: Undo} and out.busy
    out.answered(5)  # a later snapshot answers every earlier command
    assert not out.busy and out.seq == 2


def test_tap_guard_takes_one_tap_of_a_double_tap_and_none_as_the_table_moves() -> None:
    now = [10.0]
    guard = TapGuard(lambda: now[0])
    assert not guard.double("act:call")
    now[0] += DOUBLE_TAP_S / 2
    assert guard.double("act:check")  # any button: the finger's second tap
    now[0] += DOUBLE_TAP_S
    assert not guard.double("act:check")
    now[0] += 1.0
    guard.moved()  # another street: the button under the finger means something else
    now[0] += DOUBLE_TAP_S / 2
    assert guard.double("act:check")
    now[0] += DOUBLE_TAP_S
    assert not guard.double("act:check")


def test_amount_keys_type_whole_units_and_keep_a_fixed_limits_one_total() -> None:
    config = load_table_config(game="holdem")
    console = FakeConsole("betting")
    keys = AmountKeys(console, config)
    for key in "125":
        keys.digit(key)
    assert keys.amount == 12500  # EUR 125.00
    keys.digit("back")
    assert keys.amount == 1200 and keys.typed == "12"
    keys.chip(500)  # a chip: a digit now starts a new number
    assert keys.amount == 1700 and keys.typed is None
    keys.digit("3")
    assert keys.amount == 300
    chips = AmountKeys(console, replace(config, currency=CHIPS))
    chips.digit("7")
    assert chips.amount == 7  # a tournament's chips are whole
    console.screen.message = Message("below_min", (200,))
    fixed = Legal(
        seat=2,
        kinds=("fold", "call", "raise"),
        minimum=400,
        maximum=400,
        fixed_limit=True,
        all_in=False,
    )
    console.screen.snap = PokerSnapshot(legal=fixed, actor=2, in_hand=True)
    keys.new_turn(console.screen.snap)
    assert keys.amount == 400  # keyed already: the one total there is
    keys.chip(2500)
    assert keys.amount == 400 and console.screen.message is None
    keys.minimum()
    keys.pot()  # no pot-sized total offered: nothing changes
    assert keys.amount == 400


def seated(*seats: tuple[int, int]) -> PokerSnapshot:
    return PokerSnapshot(seats=tuple(SeatSnap(seat, f"P{seat}", stack) for seat, stack in seats))


def test_seat_taps_check_the_buy_in_and_send_the_change() -> None:
    config = load_table_config(game="holdem")
    low, high = config.poker.buy_in
    console = FakeConsole(snap=seated((5, high - 1000)))
    keys = AmountKeys(console, config)
    taps = SeatTaps(console, config, keys, has_button=False)
    taps.tap_seat_player()
    assert console.screen.message == Message("select_seat", error=False) and not console.sent
    taps.tap_seat(3)
    taps.set_name("  Anna ")
    keys.amount = low - 1
    taps.tap_seat_player()
    assert console.screen.message == Message("buy_in_bounds", (low, high)) and not console.sent
    keys.amount = low
    taps.tap_seat_player()
    assert console.sent[-1] == SeatPlayer(1, seat=3, name="Anna", amount=low)
    assert taps.name == "" and keys.amount == 0
    taps.tap_seat(3)  # again: unselected
    assert console.screen.selected is None
    taps.tap_seat(5)
    keys.amount = 2000  # the stack would pass the maximum buy-in
    taps.tap_top_up()
    assert console.screen.message == Message("top_up_max", (1000, high))
    taps.tap_seat_change("button")  # a game without a button: nothing
    assert len(console.sent) == 1
    taps.tap_seat_change("leave")
    assert console.sent[-1] == Leave(2, seat=5) and console.screen.selected is None
    console.doubles.add("sit_out")
    taps.tap_seat(5)
    taps.tap_seat_change("sit_out")  # the second tap of a double tap: nothing sent
    assert len(console.sent) == 2


def test_card_taps_hand_a_typed_card_to_the_source_and_never_name_a_taken_one() -> None:
    source = ManualSource()
    source.open()
    try:
        where = Position("seat", 1, seat=1)
        snap = PokerSnapshot(hand_uid="h1", in_hand=True, manual_source=True, awaiting=(where,))
        console = FakeConsole("manual", snap)
        taps = CardTaps(console, source.enter)
        taps.on_snapshot(PokerSnapshot(), snap)
        entry = taps.entry("manual")
        assert entry is not None and (entry.number, entry.total, entry.waiting) == (1, 1, False)
        taps.card_entered(parse_card("Kh"))
        entry = taps.entry("manual")
        assert entry is not None and entry.waiting  # until the deal takes it
        taps.on_snapshot(snap, replace(snap, awaiting=(where,), hand_uid="h1"))
        console.screen.snap = replace(snap, hand_uid="h2")
        taps.on_snapshot(snap, console.screen.snap)  # another hand: the keypad types again
        taps.card_entered(parse_card("Kh"))  # already in this deck
        assert console.screen.message == Message("card_taken")
        assert "K" not in repr(console.screen.message)
    finally:
        source.close()


def test_card_taps_pit_boss_pad_badge_then_pin_then_the_card() -> None:
    where = Position("board", 1)
    snap = PokerSnapshot(
        in_hand=True, identifying=True, ident_position=where, ident_entered=True, pin_required=True
    )
    console = FakeConsole("identify", snap)
    taps = CardTaps(console, None)
    card = parse_card("As")
    taps.card_entered(card)
    assert console.screen.message == Message("pit_boss_missing") and not console.sent
    for key in ("1", "0", "4", "2", "next", "7", "7", "back", "1", "next"):
        taps.pin_key(key)
    entry = taps.entry("identify")
    assert entry is not None and (entry.mode, entry.badge, entry.pin_len) == ("confirm", "1042", 2)
    assert taps.unreadable.pad.field == "card"
    taps.card_entered(card)
    assert console.sent == [Confirm(1, card=card, badge="1042", pin="71")]
    entry = taps.entry("identify")
    assert entry is not None and entry.pin_len == 0  # the PIN left with the command
    taps.clear_pad()
    assert (taps.unreadable.pad.badge, taps.unreadable.pad.field) == ("", "badge")
