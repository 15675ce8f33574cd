"""What a dealer hit playing the poker console in a real window (Xvfb, xdotool), each checked
here: double taps that landed on the button that appeared under the finger, an armed void that
stayed armed, buttons moved by the message line, chips drawn as ovals, bets and shown hands
hidden by the board, unreadable shown hands, last hand's leftovers between hands, a greyed New
hand without a reason, the void reason's nested English, "BANCO" at a poker table, a previous
street's action shown on the next."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.engine.voids import VoidReason
from tests.fixtures.poker_table import (
    PLAYERS,
    SIDE,
    Table,
    act,
    deck_for,
    play_side_pot,
    seat_two,
    start_window,
)
from ui.poker.presenter import DOUBLE_TAP_S

__all__ = ["table"]  # the fixture, shared with tests/ui/test_poker_console.py


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now

    def wait(self, seconds: float = DOUBLE_TAP_S + 0.1) -> None:
        self.now += seconds


def kinds(t: Table) -> list[str]:
    return [c.kind for c in t.sent]


def test_a_double_tap_on_new_hand_does_not_arm_the_void(table: Table) -> None:
    t, clock = table, Clock()
    t.seat_all()
    t.p.clock = clock
    clock.wait()
    t.p.tap_new_hand()
    t.deal({})
    clock.wait(0.08)  # the second tap lands on "Void hand", now where "New hand" was
    t.p.tap_void()
    assert not t.p.void_armed and t.p.message is None
    clock.wait()
    t.p.tap_void()  # a real tap later arms it
    assert t.p.void_armed


def test_a_double_tap_on_the_call_that_closes_a_round_does_not_check_next(table: Table) -> None:
    t, clock = table, Clock()
    cards = deck_for(*SIDE)
    t.seat_all()
    t.p.clock = clock
    t.p.tap_new_hand()
    t.deal(cards)
    clock.wait()
    act(t, "raise", 400, cards)  # Dario
    for kind in ("call", "fold"):  # Anna calls, Bruno folds
        clock.wait()
        act(t, kind, None, cards)
    clock.wait()
    act(t, "call", None, cards)  # Carla, the big blind, calls: the flop comes
    assert t.p.snap.street == "flop" and t.p.snap.actor == 5
    acts = kinds(t).count("act")
    clock.wait(0.08)  # the second tap: "Check" sits where "Call" was
    t.p.tap_action("check")
    assert kinds(t).count("act") == acts and t.p.snap.actor == 5
    clock.wait()
    t.p.tap_action("check")
    assert kinds(t).count("act") == acts + 1


def test_a_double_tap_on_next_does_not_start_a_hand(table: Table) -> None:
    t, clock = table, Clock()
    t.seat_all()
    play_side_pot(t)
    t.p.clock = clock
    clock.wait()
    assert t.p.step() == "settled"
    t.p.tap_done()
    assert t.p.step() == "between"
    clock.wait(0.08)  # "New hand" is where "Next" was
    t.p.tap_new_hand()
    assert "new_hand" not in kinds(t)[-3:] and not t.p.snap.in_hand
    clock.wait()
    t.p.tap_new_hand()
    assert t.p.snap.in_hand


def test_an_armed_void_is_disarmed_by_any_other_tap(table: Table) -> None:
    t, clock = table, Clock()
    t.seat_all()
    t.p.clock = clock
    t.p.tap_new_hand()
    t.deal({})
    clock.wait()
    t.p.tap_void()
    assert t.p.void_armed and t.p.message is not None
    clock.wait()
    t.p.tap_action("call")
    assert not t.p.void_armed and t.p.message is None
    clock.wait()
    t.p.tap_void()
    clock.wait()
    t.p.tap_chip(500)  # keying an amount disarms too
    assert not t.p.void_armed
    clock.wait()
    t.p.tap_void()  # arms again: the next tap would void, not this one
    assert t.p.void_armed and "void" not in kinds(t)


def _spots(win: Any) -> dict[str, tuple[int, int]]:
    side = win.side
    buttons = {
        **side.bar.buttons,
        "undo": side.bar.undo,
        "void": side.bar.void,
        "all_in": side.keypad.all_in,
        "new": side.new_btn,
    }
    return {
        k: (b.mapTo(win, b.rect().topLeft()).y(), b.height())
        for k, b in buttons.items()
        if b.isVisible()
    }


def test_a_message_moves_no_button(qtbot: Any, tmp_path: Path) -> None:
    console = start_window(qtbot, tmp_path)
    p, win = console.presenter, console.window
    try:
        seat_two(console, qtbot)
        p.tap_seat(5)
        qtbot.wait(50)
        quiet = _spots(win)
        p.amount = 100  # below the buy-in: refused with a message
        p.tap_seat_player()
        qtbot.wait(50)
        assert win.side.message.isVisible() and _spots(win) == quiet
        p.tap_seat(5)
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.snap.legal is not None or p.step() == "manual", timeout=5000)
        qtbot.wait(50)
        before = _spots(win)
        p.tap_void()  # "Tap Void hand again": the confirming tap must find the button there
        qtbot.wait(50)
        assert win.side.message.isVisible() and _spots(win) == before
    finally:
        console.close()


def test_the_chips_stay_round_on_every_page(qtbot: Any, tmp_path: Path) -> None:
    console = start_window(qtbot, tmp_path)
    p, win = console.presenter, console.window
    try:
        seat_two(console, qtbot)
        for size in ((1280, 800), (1920, 1080)):
            win.resize(*size)
            p.tap_new_hand()  # the keypad moves to the hand's page...
            qtbot.waitUntil(lambda: p.snap.in_hand, timeout=5000)
            qtbot.wait(50)
            shapes = {(c.width(), c.height()) for c in win.side.keypad.chips}
            assert len(shapes) == 1 and all(w == h >= 64 for w, h in shapes), shapes
            p.tap_void()
            p.tap_void()
            qtbot.waitUntil(lambda: p.step() == "void", timeout=5000)
            p.clock = lambda: 10.0**9
            p.tap_ack()  # ...and back between hands
            qtbot.waitUntil(lambda: p.step() == "between", timeout=5000)
            qtbot.wait(50)
            shapes = {(c.width(), c.height()) for c in win.side.keypad.chips}
            assert len(shapes) == 1 and all(w == h >= 64 for w, h in shapes), shapes
            p.clock = iter(float(x) for x in range(10**6)).__next__
    finally:
        console.close()


def test_bets_and_shown_hands_are_clear_of_the_board_and_readable(
    qtbot: Any, tmp_path: Path
) -> None:
    from ui.kit.boot import qt_app
    from ui.poker.widgets.felt import Felt

    qt_app()
    t = Table(tmp_path)
    try:
        felt = Felt(9, "EUR", lambda _s: None)
        qtbot.addWidget(felt)
        felt.resize(860, 728)  # the felt of a 1280x800 window
        felt.show()
        t.seat_all()
        cards = deck_for(*SIDE)
        t.p.tap_new_hand()
        t.deal(cards)
        act(t, "raise", 8000, cards)  # Dario (seat 7, at the side) all-in
        felt.show_view(t.p.view())
        board = felt.board_box.geometry()
        for s, bet in felt.bets.items():
            if bet.isVisible():
                assert not bet.geometry().intersects(board), (s, bet.geometry(), board)
        for kind in ("call", "fold", "call"):
            act(t, kind, None, cards)
        act(t, "bet", 2500, cards)
        act(t, "call", None, cards)
        while t.p.snap.in_hand and t.p.snap.phase != "showdown":
            act(t, "check", None, cards)
        while t.p.snap.in_hand:  # all-in: the hands are turned up by themselves
            t.p.tap_show(True)
        felt.show_view(t.p.view())
        assert t.p.step() == "settled"
        shown = [s for s, box in felt.shown.items() if box.isVisible()]
        assert sorted(shown) == [1, 5, 7]
        for s in shown:
            assert not felt.shown[s].geometry().intersects(board)
            assert all(c.width() >= 40 for c in felt.shown_cards[s])  # was 25 px in the tile
            assert not any(c.isVisible() for c in felt.tiles[s].cards)  # not twice
        # between hands nothing of the last hand is left on the felt
        t.p.tap_done()
        felt.show_view(t.p.view())
        assert t.p.step() == "between"
        assert all(c._face == "empty" for c in felt.board)
        assert not any(b.isVisible() for b in felt.shown.values())
        states = {tile.state.text() for tile in felt.tiles.values()}
        assert not states & {"Folded", "Mucked", "All-in"} and not any(
            s.startswith("+") for s in states
        )
        assert not any(c.isVisible() for tile in felt.tiles.values() for c in tile.cards)
    finally:
        t.close()


def test_a_mucked_hand_shows_no_cards(table: Table) -> None:
    from ui.poker.widgets.felt import Felt

    t = table
    felt = Felt(9, "EUR", lambda _s: None)
    felt.resize(860, 728)
    t.seat_all()
    cards = deck_for({1: "AcKd", 3: "2h3d", 5: "QcJd", 7: "4h5d"}, "5c6d7h8s9c")
    t.p.tap_new_hand()
    t.deal(cards)
    for kind in ("call", "call", "call"):
        act(t, kind, None, cards)
    act(t, "check", None, cards)
    while t.p.snap.phase != "showdown":
        act(t, "check", None, cards)
    mucked = None
    while t.p.snap.in_hand:
        legal = t.p.snap.legal
        assert legal is not None
        if "muck" in legal.kinds and mucked is None:
            mucked = legal.seat
            t.p.tap_show(False)
        else:
            t.p.tap_show(True)
    assert mucked is not None
    felt.show_view(t.p.view())
    assert not any(c.isVisible() for c in felt.tiles[mucked].cards)


def test_new_hand_says_why_it_is_off(table: Table) -> None:
    from ui.poker.widgets.panel import PokerPanel

    t = table
    panel = PokerPanel(t.p, (100, 500), "EUR")
    panel.resize(420, 728)
    panel.show_view(t.p.view())
    assert not panel.new_btn.isEnabled() and "two players" in panel.hint.text()
    for seat, name, stack in PLAYERS[:2]:
        t.p.tap_seat(seat)
        t.p.set_name(name)
        t.p.amount = stack
        t.p.tap_seat_player()
    t.p.tap_seat(PLAYERS[1][0])  # unselect
    panel.show_view(t.p.view())
    assert t.p.selected is None
    assert not panel.new_btn.isEnabled() and "button" in panel.hint.text()
    t.p.tap_seat(1)
    t.p.tap_seat_change("button")
    t.p.tap_seat(1)
    panel.show_view(t.p.view())
    assert panel.new_btn.isEnabled() and "Place the button" not in panel.hint.text()


def test_the_void_alarm_gives_the_reason_without_the_cores_nested_detail() -> None:
    from ui.poker.widgets.alarm import reason_text

    inner = VoidReason("restart", "the shuffler restarted (HELLO seq 0)")
    nested = VoidReason(
        "restart", f"the device lost the deck while the table was down: {inner.text('en')}"
    )
    what_to_do = "Wait until the shuffler is ready, then start a new hand"
    assert reason_text(nested, "restart", "en") == f"Restart during the hand\n{what_to_do}"
    assert reason_text(nested, "restart", "it").startswith("Riavvio durante la mano\n")
    assert "HELLO" not in reason_text(nested, "restart", "it")
    jam = VoidReason("device_fault", "JAM")
    assert reason_text(jam, "device_fault", "en") == (
        "Shuffler fault\nCards jammed in the shuffler: clear the jam on the shuffler"
    )


def test_the_poker_felt_names_the_dealer_as_a_poker_room_does(qtbot: Any) -> None:
    from ui.kit.boot import qt_app
    from ui.kit.i18n import install_language
    from ui.kit.translate import tr
    from ui.poker.widgets.felt import Felt

    app = qt_app()
    translators = install_language(app, "it")
    try:
        felt = Felt(9, "EUR", lambda _s: None)
        qtbot.addWidget(felt)
        assert felt.dealer.text() == "CROUPIER"  # the one Italian word, not the banked "BANCO"
        assert tr("DEALER") == "BANCO"  # the banked console keeps its word
    finally:
        for tr_ in translators:
            app.removeTranslator(tr_)


def test_a_seats_last_action_is_shown_only_on_its_street(table: Table) -> None:
    t = table
    cards = deck_for(*SIDE)
    t.seat_all()
    t.p.tap_new_hand()
    t.deal(cards)
    act(t, "call", None, cards)  # Dario
    assert t.p.snap.seat(7) is not None and t.p.snap.seat(7).last == "call"  # type: ignore[union-attr]
    for kind in ("call", "fold", "check"):
        act(t, kind, None, cards)
    s = t.p.snap
    assert s.street == "flop"
    seven, one = s.seat(7), s.seat(1)
    assert seven is not None and one is not None and seven.last == "" and one.last == ""
    act(t, "check", None, cards)  # Carla checks on the flop
    five = t.p.snap.seat(5)
    assert five is not None and five.last == "check"
