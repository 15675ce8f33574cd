"""What the dealer reads off the poker console between the taps: the pot total before the flop,
the winning hand named as it is called ("pair of kings", "kings full of fives") with the
winners' names, the "resumed" notice only until the hand moves on, a player left at 0 chips
prompted to top up or leave, one Italian word for the dealer. Real service and SQLite journal,
the window offscreen (pytest-qt)."""

from __future__ import annotations

import os
import re

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from dealer_assist.cards import parse_cards
from dealer_assist.engine.voids import FAULT_TEXTS, REASON_TEXTS
from dealer_assist.evaluator import evaluate
from tests.conftest import REPO
from tests.fixtures.poker_table import PLAYERS, Table, deck_for, play_side_pot
from ui.kit.format import set_language
from ui.poker.commands import PlaceButton, SeatPlayer
from ui.poker.window import PokerWindow

ROME = timezone(timedelta(hours=1))


def plain(widget: Any) -> str:
    """A widget's text with the money's no-break spaces as spaces."""
    return str(widget.text()).replace("\xa0", " ")


def window(t: Table, qtbot: Any) -> PokerWindow:
    set_language("en")  # the money's separators: an Italian test before may have set them
    win = PokerWindow(t.p, t.config, "en")
    qtbot.addWidget(win)
    win.show()
    win.resize(1280, 800)
    return win


def named(cards: str) -> str:
    from ui.poker.awards import hand_name

    v = evaluate(parse_cards(cards[i : i + 2] for i in range(0, len(cards), 2)))
    return hand_name(v.category.code, v.best_five)


def test_the_winning_hand_is_named_as_the_dealer_calls_it() -> None:
    assert named("KsKd9c5d3sJh2c") == "pair of kings"
    assert named("KsKdKc5d5sJh2c") == "kings full of fives"
    assert named("5s5dKc5hKsJh2c") == "fives full of kings"
    assert named("AsAd7c7h3sJh2c") == "two pair, aces and sevens"
    assert named("9s8d7c6h5sJh2c") == "straight, nine high"
    assert named("As2d3c4h5sJh9c") == "straight, five high"  # the wheel
    assert named("QsQdQcQh3sJh2c") == "four queens"
    assert named("AsJs9s5s3sKh2c") == "flush, ace high"
    assert named("AsJd9c5h3sKh2c") == "ace high"


def test_awards_name_the_players_and_their_hands(tmp_path: Path, qtbot: Any) -> None:
    t = Table(tmp_path)
    try:
        win = window(t, qtbot)
        t.seat_all()
        play_side_pot(t)
        text = win.side.awards.text()
        # Anna's kings win the side pot over Carla's queens, Dario's trip aces the main pot
        assert "pair of kings" in text and "three aces" in text, text
        assert "Anna (seat 1)" in text and "Dario (seat 7)" in text, text
        assert "Seat 5: €" in text.replace("\xa0", " ")  # the stacks after, by seat
    finally:
        t.close()


def test_the_pot_total_is_shown_before_the_flop(tmp_path: Path, qtbot: Any) -> None:
    t = Table(tmp_path)
    try:
        win = window(t, qtbot)
        t.seat_all()
        t.p.tap_new_hand()
        t.deal({})
        assert t.p.snap.street == "preflop" and not t.p.snap.pots  # the blinds are bets yet
        assert win.felt.pots.isVisible()
        assert "Pot total: € 3.00" in plain(win.felt.pots)
    finally:
        t.close()


def test_the_resumed_notice_goes_once_the_hand_moves_on(tmp_path: Path, qtbot: Any) -> None:
    first = Table(tmp_path)
    first.seat_all()
    first.p.tap_new_hand()
    first.deal({})
    first.close()  # the console stops mid-hand
    t = Table(tmp_path)  # started again on the same journal
    try:
        win = window(t, qtbot)
        t.deal({})
        assert t.p.snap.resumed and t.p.snap.in_hand
        win.show_view(t.p.view())
        assert win.side.resumed.isVisible()
        t.p.tap_action("call")
        t.deal({})
        assert t.p.snap.resumed  # the service still says so: the screen has moved on
        assert not win.side.resumed.isVisible()
    finally:
        t.close()


def test_the_local_time_is_in_the_top_bar(tmp_path: Path, qtbot: Any) -> None:
    t = Table(tmp_path)
    try:
        now = datetime(2026, 12, 2, 8, 41, tzinfo=UTC)
        win = PokerWindow(t.p, t.config, "en", clock=lambda: now.astimezone(ROME))
        qtbot.addWidget(win)
        win.show()
        win.resize(1280, 800)
        win.top.refresh_device()
        assert win.top.time.isVisible() and win.top.time.text() == "09:41"  # local, not UTC
    finally:
        t.close()


def test_a_player_seated_without_a_name_is_the_seat_and_the_stack(
    tmp_path: Path, qtbot: Any
) -> None:
    t = Table(tmp_path)
    try:
        win = window(t, qtbot)
        t.run(SeatPlayer(901, seat=7, name="", amount=10_000))
        t.run(SeatPlayer(902, seat=2, name="Bruno", amount=10_000))
        t.p.tap_seat(7)
        assert plain(win.side.seat_line) == "Seat 7 · € 100.00"
        t.p.tap_seat(2)
        assert plain(win.side.seat_line) == "Seat 2 — Bruno · € 100.00"
    finally:
        t.close()


def test_a_player_at_zero_chips_is_prompted_to_top_up_or_leave(tmp_path: Path, qtbot: Any) -> None:
    t = Table(tmp_path)
    try:
        win = window(t, qtbot)
        for seat, name, stack in (PLAYERS[0], PLAYERS[1]):  # Anna 400.00, Bruno 100.00
            t.run(SeatPlayer(900 + seat, seat=seat, name=name, amount=stack))
        t.run(PlaceButton(950, seat=1))
        cards = deck_for({1: "AsAh", 3: "7c2d"}, "AdAc9s5h3d")
        t.p.tap_new_hand()
        t.deal(cards)
        legal = t.p.snap.legal
        assert legal is not None and legal.seat == 1
        t.p.amount = legal.maximum or 0
        t.p.tap_action("raise")
        t.deal(cards)
        t.p.tap_action("call")  # Bruno all-in, and he loses it all
        t.deal(cards)
        assert t.p.step() == "settled" and dict(t.p.snap.after)[3] == 0
        t.p.tap_done()
        assert t.p.step() == "between"
        assert "Bruno (seat 3) has no chips" in win.side.hint.text()
        assert "Top up" in win.side.hint.text() and "Leave" in win.side.hint.text()
        assert win.felt.tiles[3].state.text() == "No chips"
        t.p.tap_seat(3)
        assert "No chips: top up" in win.side.hint.text()
    finally:
        t.close()


def test_one_italian_word_for_the_dealer() -> None:
    import xml.etree.ElementTree as ET

    root = ET.parse(REPO / "ui/i18n/console_it.ts").getroot()
    italian = [(m.findtext("translation") or "").lower() for m in root.iter("message")]
    # the void alarm's reasons are Italian in the core, not in the catalogue
    italian += [it.lower() for it, _ in (*REASON_TEXTS.values(), *FAULT_TEXTS.values())]
    assert not [t for t in italian if "mazzier" in t or re.search(r"\bdealer\b", t)]
    assert any("croupier" in t for t in italian)


def test_the_button_is_drawn_at_its_seat_when_the_window_shows_after_the_view(
    tmp_path: Path, qtbot: Any
) -> None:
    # a console started again between hands draws its first view before the window is shown:
    # the button was placed only while visible, and stayed in the felt's corner
    first = Table(tmp_path)
    first.seat_all()  # the button on seat 1
    first.close()
    t = Table(tmp_path)
    try:
        set_language("en")
        win = PokerWindow(t.p, t.config, "en")
        qtbot.addWidget(win)
        t.deal({})
        assert t.p.step() == "between" and t.p.snap.button == 1
        win.resize(1280, 800)
        win.show()
        qtbot.waitUntil(win.felt.button.isVisible)
        felt = win.felt
        spot = felt.seat_point(1 + 0.42, 0.2)
        centre = felt.button.geometry().center()
        assert abs(centre.x() - spot.x()) < 40 and abs(centre.y() - spot.y()) < 40, (centre, spot)
    finally:
        t.close()
