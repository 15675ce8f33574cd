"""The poker-room console: service and presenter without a window, a hand played by clicking
the window's buttons, and every demo step's layout at both sizes in both languages (pytest-qt,
offscreen).

The hands run on the real PeerRunner with a real SQLite journal; the cards are typed into the
keypad source (ManualSource) from a stacked deck, so the pots are known.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.storage.journal import Journal
from drivers.manual import ManualSource
from tests.fixtures.console_conftest import card_patterns, widget_strings
from tests.fixtures.layout_checks import TS, settled_layout_faults
from tests.fixtures.poker_table import (
    PLAYERS,
    SIDE,
    Table,
    act,
    cfg,
    deck_for,
    play_side_pot,
)
from ui.kit.commands import Command
from ui.kit.service_parts import ServiceParts
from ui.poker.commands import Act
from ui.poker.presenter import DOUBLE_TAP_S, PokerPresenter, amount_issue
from ui.poker.snapshot import Legal, PokerSnapshot


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


def test_a_side_pot_hand_is_awarded_side_pots_first_and_journaled(table: Table) -> None:
    t = table
    t.seat_all()
    play_side_pot(t)
    s = t.p.snap
    assert s.phase == "settled" and s.journaled
    assert [a.index for a in s.awards] == [1, 0]  # side pot first, the main pot last
    side, main = s.awards
    assert side.eligible == (1, 5) and [w.seat for w in side.winners] == [1]
    assert side.amount == 2 * 2500
    assert main.eligible == (1, 5, 7) and [w.seat for w in main.winners] == [7]
    assert main.amount == 3 * 8000 + 100  # and Bruno's small blind
    after = dict(s.after)
    assert after == {1: 40000 - 8000 - 2500 + 5000, 3: 9900, 5: 20000 - 10500, 7: 24100}
    assert sum(after.values()) == sum(p[2] for p in PLAYERS)
    assert t.p.step() == "settled"
    t.p.tap_done()
    assert t.p.step() == "between"
    stored = t.service.journal.last_hand() if t.service.journal else None
    assert stored is not None and stored.status == "settled" and stored.settlement is not None
    assert {x["seat"]: x["stack"] for x in stored.settlement["seats"]} == after


def test_pots_on_the_felt_show_each_pot_with_its_eligible_seats(table: Table) -> None:
    t = table
    t.seat_all()
    cards = deck_for(*SIDE)
    t.p.tap_new_hand()
    t.deal(cards)
    act(t, "raise", t.p.snap.legal.maximum if t.p.snap.legal else 0, cards)
    act(t, "call", None, cards)
    act(t, "fold", None, cards)
    act(t, "call", None, cards)
    act(t, "bet", 2500, cards)
    act(t, "call", None, cards)  # the turn: the flop bets went in as a side pot
    pots = [(p.index, p.amount, p.eligible) for p in t.p.snap.pots]
    assert pots == [(0, 24100, (1, 5, 7)), (1, 5000, (1, 5))]


def test_no_hole_card_in_any_dealer_snapshot_before_the_showdown(table: Table) -> None:
    t = table
    t.seat_all()
    play_side_pot(t)
    hidden = [s for s in t.snaps if s.in_hand and s.phase != "showdown"]
    assert hidden, "no snapshot taken during the hand"
    for s in hidden:
        for seat in s.seats:
            assert seat.shown == (), f"seat {seat.seat} shows a card in phase {s.phase}"
    # and once the hand is over every hand at the all-in showdown is turned up
    final = t.p.snap
    assert final.seat(7) is not None and len(final.seat(7).shown) == 2  # type: ignore[union-attr]


def test_illegal_amounts_are_refused_with_the_rule(table: Table) -> None:
    t = table
    t.seat_all()
    t.p.tap_new_hand()
    t.deal({})
    legal = t.p.snap.legal
    assert legal is not None and legal.minimum == 400 and legal.maximum == 8000
    assert legal.to_call == 200
    sent = len(t.sent)
    for amount, code in ((300, "below_min"), (9000, "above_max"), (450, "off_step"),
                         (0, "no_amount")):  # fmt: skip
        t.p.amount = amount
        t.p.tap_action("raise")
        assert t.p.message is not None and t.p.message.code == code
        assert len(t.sent) == sent, f"{amount} was sent"
    t.p.tap_action("check")  # not legal: there is a bet to call
    assert t.p.message is not None and t.p.message.code == "not_legal"
    assert len(t.sent) == sent
    # the core's own refusal, should a command get through, is shown from the snapshot
    t.run(Act(99, seat=legal.seat, action="raise", to=300))
    assert t.p.snap.error is not None and "minimum" in t.p.snap.error.message
    # with its rule's code: the screen says it in the dealer's language (test_poker_refusals)
    assert t.p.message is not None and t.p.message.code == "rule"
    assert t.p.message.rule == "below_minimum" and t.p.message.text == t.p.snap.error.message


def test_amount_issue_allows_exactly_the_rule() -> None:
    legal = Legal(7, ("fold", "call", "raise"), 200, 400, 7950, 100)
    assert amount_issue(legal, 400) is None
    assert amount_issue(legal, 7950) is None  # the all-in, not whole chips above the minimum
    assert amount_issue(legal, 7900) is None
    assert amount_issue(legal, 7920) is not None
    assert amount_issue(Legal(7, ("fold", "call")), 400) is not None


def test_a_double_tap_acts_once(tmp_path: Path) -> None:
    t = Table(tmp_path)
    try:
        t.seat_all()
        t.p.tap_new_hand()
        t.deal({})
        now = [100.0]
        t.p.clock = lambda: now[0]
        first = t.p.snap.actor
        t.p.tap_action("call")
        now[0] += 0.1
        t.p.tap_action("call")  # the same button again at once: nothing
        acts = [c for c in t.sent if c.kind == "act"]
        assert len(acts) == 1 and acts[0].seat == first
        assert t.p.snap.actor != first
        now[0] += DOUBLE_TAP_S + 0.1
        t.p.tap_action("call")  # later: the next seat's call
        assert len([c for c in t.sent if c.kind == "act"]) == 2
    finally:
        t.close()


def test_an_action_waits_for_the_answer_of_the_last(tmp_path: Path) -> None:
    config = cfg()
    sent: list[Command] = []
    p = PokerPresenter(config, sent.append, clock=itertools.count(0.0, 5.0).__next__)
    snap = PokerSnapshot(seq=0, hand_uid="h", phase="in_play", in_hand=True, actor=3,
                         legal=Legal(3, ("fold", "call", "raise"), 200, 400, 8000))  # fmt: skip
    p.on_snapshot(snap)
    p.tap_action("call")
    p.tap_action("fold")  # not answered yet: ignored
    assert [c.action for c in sent] == ["call"]


def test_undo_only_while_the_runner_allows_it(table: Table) -> None:
    t = table
    t.seat_all()
    t.p.tap_new_hand()
    t.deal({})
    assert not t.p.snap.can_undo  # no action yet
    t.p.tap_undo()
    assert not [c for c in t.sent if c.kind == "undo"]
    seat = t.p.snap.actor
    act(t, "call")
    assert t.p.snap.can_undo
    t.p.tap_undo()
    assert t.p.snap.actor == seat and t.p.snap.error is None
    for _ in range(4):  # everybody calls or checks: the flop is dealt
        legal = t.p.snap.legal
        assert legal is not None
        act(t, "call" if "call" in legal.kinds else "check")
        if t.p.snap.street != t.snaps[0].street and t.p.snap.board:
            break
    assert len(t.p.snap.board) == 3
    assert not t.p.snap.can_undo  # a card came after the last action


def test_void_needs_a_confirmation_and_an_acknowledgement(table: Table) -> None:
    t = table
    t.seat_all()
    t.p.tap_new_hand()
    t.deal({})
    t.p.tap_void()
    assert t.p.void_armed and not [c for c in t.sent if c.kind == "void"]
    t.p.tap_void()
    assert t.p.step() == "void" and t.p.snap.alarm == "dealer_void"
    t.p.tap_ack()
    assert t.p.step() == "between" and not t.p.snap.alarm
    assert {s.seat: s.stack for s in t.p.snap.seats} == {s: st for s, _, st in PLAYERS}


def test_between_hands_changes_and_their_bounds(table: Table) -> None:
    t = table
    t.p.tap_seat(2)
    t.p.amount = 5000  # below the EUR 80 minimum
    t.p.tap_seat_player()
    assert t.p.message is not None and t.p.message.code == "buy_in_bounds"
    assert not [c for c in t.sent if c.kind == "seat_player"]
    t.seat_all()
    t.p.tap_seat(3)
    t.p.amount = 40000  # the stack would pass the maximum
    t.p.tap_top_up()
    assert t.p.message is not None and t.p.message.code == "top_up_max"
    t.p.amount = 5000
    t.p.tap_top_up()
    assert t.p.snap.seat(3).stack == 15000  # type: ignore[union-attr]
    t.p.tap_seat_change("sit_out")
    assert t.p.snap.seat(3).sitting_out  # type: ignore[union-attr]
    t.p.tap_new_hand()
    t.deal({})
    assert not t.p.snap.seat(3).in_hand  # type: ignore[union-attr]
    t.p.tap_seat(3)  # no change during a hand
    assert t.p.selected is None


# -- the window -----------------------------------------------------------------------------------


def test_a_hand_played_by_clicking_the_buttons(qtbot: Any, tmp_path: Path) -> None:
    from PySide6.QtCore import Qt

    from ui.kit.boot import qt_app
    from ui.poker.app import PokerConsole

    qt_app()
    config = cfg()
    console = PokerConsole(
        ServiceParts(config, ManualSource, Journal(str(tmp_path / "gui.db"))), lang="en"
    )
    win = console.window
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    console.start()
    p = console.presenter
    p.clock = itertools.count(0.0, 1.0).__next__

    def click(button: Any) -> None:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)

    try:
        qtbot.waitUntil(lambda: p.snap.device.connected, timeout=10000)
        side = win.side
        for seat, name, stack in PLAYERS[:2]:
            qtbot.mouseClick(win.felt.tiles[seat], Qt.MouseButton.LeftButton)
            qtbot.keyClicks(side.name, name)
            for chip in side.keypad.chips:
                if chip.value == 10000:
                    for _ in range(stack // 10000):
                        click(chip)
            click(side.seat_btn)
            qtbot.waitUntil(lambda s=seat: p.snap.seat(s) is not None, timeout=5000)
        qtbot.mouseClick(win.felt.tiles[1], Qt.MouseButton.LeftButton)
        click(side.changes["button"])
        qtbot.waitUntil(lambda: p.snap.button == 1, timeout=5000)
        assert p.snap.seat(1).name == "Anna" and p.snap.seat(1).stack == 40000  # type: ignore[union-attr]
        click(side.new_btn)
        holes = {1: "AsAh", 3: "7c2d"}
        cards = deck_for(holes, "AdAc9s5h3d")
        rest = iter(c for c in FULL_DECK if c not in cards.values())
        typed: set[str] = set()

        def typing() -> bool:
            for pos in p.snap.pending:
                if pos not in typed:
                    typed.add(pos)
                    console.service.enter_card(cards.get(pos) or next(rest))
            return p.snap.in_hand and not p.snap.pending and p.snap.legal is not None

        qtbot.waitUntil(typing, timeout=10000)
        # heads-up: the button (seat 1) posts the small blind and acts first preflop
        assert p.snap.actor == 1
        assert all(not s.shown for s in p.snap.seats)
        assert not any(any(x.search(t) for x in card_patterns(c)) for c in cards.values()
                       for t in widget_strings(win))  # fmt: skip
        bar = side.bar
        assert bar.buttons["call"].isEnabled() and not bar.buttons["check"].isVisible()
        for chip in side.keypad.chips:
            if chip.value == 100:
                click(chip)  # EUR 1: below the minimum raise
        # never offered: Raise greyed without the amount, the hint says why
        assert not bar.buttons["raise"].isEnabled() and "1.00" not in bar.buttons["raise"].text()
        assert "Below the minimum" in side.hint.text() and "€" in side.hint.text()
        click(side.keypad.all_in)
        click(bar.buttons["raise"])  # Anna all-in
        qtbot.waitUntil(lambda: p.snap.actor == 3 and not p.view().busy, timeout=5000)
        click(bar.buttons["call"])  # Bruno calls all-in: the board runs out

        def settled() -> bool:
            typing()  # the board runs out: type its cards as the table asks for them
            return p.snap.phase == "settled" and p.snap.journaled

        qtbot.waitUntil(settled, timeout=10000)
        assert p.step() == "settled" and side.pages.currentIndex() == 2
        assert "Main pot" in side.awards.text()
        assert dict(p.snap.after) == {1: 50000, 3: 0}
        stored = console.service.journal.last_hand() if console.service.journal else None
        assert stored is not None and stored.status == "settled"
        win.grab().save(str(tmp_path / "settled.png"))
        click(side.next_btn)
        assert p.step() == "between"
    finally:
        console.close()


def test_the_italian_catalogue_has_no_disambiguation_comment() -> None:
    # lupdate takes a literal 2nd argument of trf() as a comment: tr() then misses the message
    import xml.etree.ElementTree as ET

    commented = [m.findtext("source") for m in ET.parse(TS).getroot().iter("message")
                 if m.find("comment") is not None]  # fmt: skip
    assert commented == []


def test_every_demo_step_fits_at_both_sizes_in_both_languages(qtbot: Any, tmp_path: Path) -> None:
    from ui.kit.boot import qt_app
    from ui.poker.app import PokerConsole
    from ui.poker.demo import SIZES, PokerDemo

    app = qt_app()
    found: list[str] = []
    steps: set[str] = set()

    class Checking(PokerDemo):
        def shot(self, name: str) -> None:
            win = self.c.window
            steps.add(self.p.step())
            for size in SIZES:
                faults = settled_layout_faults(self.app, win, size, self.lang)
                found.extend(f"{self.lang} {size} {name}: {f}" for f in faults)

    for lang in ("it", "en"):
        parts = ServiceParts(cfg(), ManualSource, Journal(str(tmp_path / f"{lang}.db")))
        console = PokerConsole(parts, lang=lang)
        console.window.resize(1280, 800)
        console.window.show()
        console.start()
        try:
            Checking(app, console, None, lang).run(4)
        finally:
            console.close()
            console.window.deleteLater()
            app.processEvents()
    assert {"between", "manual", "betting", "showdown", "settled", "void"} <= steps
    assert found == [], "\n".join(found)
