"""The poker-room console: service and presenter without a window, and a hand
played by clicking the window's buttons (pytest-qt, offscreen).

The hands run on the real PeerRunner with a real SQLite journal; the cards are typed into the
keypad source (ManualSource) from a stacked deck, so the pots are known.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import itertools
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK, Card, parse_card
from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.storage.journal import Journal
from drivers.manual import ManualSource
from tests.fixtures.console_conftest import card_patterns, widget_strings
from ui.kit.commands import Command, Tick
from ui.poker.commands import Act
from ui.poker.presenter import DOUBLE_TAP_S, PokerPresenter, amount_issue
from ui.poker.service import PokerService
from ui.poker.snapshot import Legal, PokerSnapshot

PLAYERS = ((1, "Anna", 40000), (3, "Bruno", 10000), (5, "Carla", 20000), (7, "Dario", 8000))
# side pot: Dario all-in wins the main pot with aces, Anna's kings beat Carla's queens
SIDE = ({1: "KsKd", 3: "7c2d", 5: "QsQd", 7: "AsAd"}, "Ah9c5d3sJh")


def cfg() -> TableConfig:
    return load_table_config(game="holdem")


def deck_for(holes: dict[int, str], board: str) -> dict[str, Card]:
    out = {f"seat {s} card {n}": parse_card(t[2 * n - 2 : 2 * n]) for s, t in holes.items()
           for n in (1, 2)}  # fmt: skip
    out.update({f"board {n}": parse_card(board[2 * n - 2 : 2 * n]) for n in range(1, 6)})
    return out


class Table:
    """A service with a journal, driven by a presenter whose commands run at once."""

    def __init__(self, tmp: Path) -> None:
        self.config = cfg()
        self.service = PokerService(self.config, ManualSource, Journal(str(tmp / "j.db")))
        self.now = itertools.count(0.0, 1.0)
        self.p = PokerPresenter(self.config, self.run, clock=lambda: next(self.now))
        self.sent: list[Command] = []
        self.entered: set[tuple[str, str]] = set()
        self.rest: dict[str, Iterator[Card]] = {}
        self.snaps: list[PokerSnapshot] = []
        self.p.start()

    def run(self, cmd: Command) -> None:
        self.sent.append(cmd)
        self.feed(self.service.execute(cmd))

    def feed(self, snap: PokerSnapshot) -> None:
        self.snaps.append(snap)
        self.p.on_snapshot(snap)

    def seat_all(self) -> None:
        for seat, name, stack in PLAYERS:
            self.p.tap_seat(seat)
            self.p.set_name(name)
            self.p.amount = stack
            self.p.tap_seat_player()
            assert self.p.snap.error is None, self.p.snap.error
        self.p.tap_seat(1)
        self.p.tap_seat_change("button")

    def deal(self, cards: dict[str, Card]) -> None:
        """Type every pending card until the table waits for a person."""
        for _ in range(60):
            snap = self.service.tick(0.02)
            self.feed(snap)
            if not snap.pending:
                return
            rest = self.rest.setdefault(
                snap.hand_uid, iter([c for c in FULL_DECK if c not in cards.values()])
            )
            for pos in snap.pending:
                if (snap.hand_uid, pos) not in self.entered:
                    self.entered.add((snap.hand_uid, pos))
                    self.service.enter_card(cards.get(pos) or next(rest))
        raise AssertionError("the deal did not finish")

    def close(self) -> None:
        self.service.close()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


def act(t: Table, kind: str, to: int | None = None, cards: dict[str, Card] | None = None) -> None:
    if to is not None:
        t.p.tap_clear()
        t.p.amount = to
    t.p.tap_action(kind)
    assert t.p.snap.error is None, t.p.snap.error
    t.deal(cards or {})


def play_side_pot(t: Table) -> None:
    cards = deck_for(*SIDE)
    t.p.tap_new_hand()
    t.deal(cards)
    legal = t.p.snap.legal
    assert legal is not None and legal.seat == 7
    act(t, "raise", legal.maximum, cards)  # Dario all-in 8000
    act(t, "call", None, cards)  # Anna
    act(t, "fold", None, cards)  # Bruno
    act(t, "call", None, cards)  # Carla (big blind)
    assert t.p.snap.seat(5) is not None and t.p.snap.actor == 5  # the flop: Carla first
    act(t, "bet", 2500, cards)
    act(t, "call", None, cards)
    while t.p.snap.in_hand:
        legal = t.p.snap.legal
        assert legal is not None
        act(t, "check", None, cards)


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
    console = PokerConsole(config, ManualSource, Journal(str(tmp_path / "gui.db")), lang="en")
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


# -- round 2: what a dealer needs at a real table -------------------------------------------------

TS = Path(__file__).parent.resolve().parents[1] / "ui" / "i18n" / "console_it.ts"


def english_leftovers(texts: list[str]) -> list[str]:
    """The visible texts holding an English source text of the catalogue whose Italian differs
    (its fixed part before the first ``%``, at least 6 characters)."""
    import xml.etree.ElementTree as ET

    fixed = set()
    for msg in ET.parse(TS).getroot().iter("message"):
        source, it = msg.findtext("source") or "", msg.findtext("translation") or ""
        head = source.split("%", 1)[0].strip()
        if len(head) >= 6 and head not in it:
            fixed.add(head)
    return [f"{t!r} has {h!r}" for t in texts for h in fixed
            if re.search(rf"(?<!\w){re.escape(h)}(?!\w)", t)]  # fmt: skip


def test_the_italian_catalogue_has_no_disambiguation_comment() -> None:
    # lupdate takes a literal 2nd argument of trf() as a comment: tr() then misses the message
    import xml.etree.ElementTree as ET

    commented = [m.findtext("source") for m in ET.parse(TS).getroot().iter("message")
                 if m.find("comment") is not None]  # fmt: skip
    assert commented == []


def visible_texts(root: Any) -> list[str]:
    from PySide6.QtWidgets import QAbstractButton, QLabel

    out = []
    for w in root.findChildren(QLabel) + root.findChildren(QAbstractButton):
        if w.isVisible() and w.text():
            out.append(w.text())
    return out


def cut_buttons(root: Any) -> list[str]:
    """Visible buttons whose text (each line) does not fit their inside."""
    from PySide6.QtWidgets import QPushButton

    out = []
    for b in root.findChildren(QPushButton):
        text = b.text()
        if not b.isVisible() or not text:
            continue
        m = b.fontMetrics()
        lines = text.split("\n")
        widest = max(m.horizontalAdvance(x) for x in lines)
        tall = m.height() * len(lines)
        if widest > b.width() - 10 or tall > b.height() - 4:
            out.append(f"{text!r}: needs {widest}x{tall}, has {b.width()}x{b.height()}")
    return out


def overlaps(widgets: list[Any], win: Any) -> list[str]:
    """Pairs of visible widgets whose rectangles (window coordinates) overlap."""
    from PySide6.QtCore import QRect

    rects = []
    for w in widgets:
        if w.isVisible():
            top_left = w.mapTo(win, w.rect().topLeft())
            rects.append((w, QRect(top_left, w.size())))
    out = []
    for i, (a, ra) in enumerate(rects):
        for b, rb in rects[i + 1 :]:
            if ra.intersects(rb) and a.parent() is not b and b.parent() is not a:
                out.append(f"{a.objectName() or a.text()!r} over {b.objectName() or b.text()!r}")
    return out


def layout_faults(win: Any, size: tuple[int, int], lang: str) -> list[str]:
    """Everything wrong with the window's layout now (empty: nothing)."""
    from PySide6.QtWidgets import QPushButton

    from tests.ui.test_console_text_fit import cut_texts
    from ui.kit.chip import ChipButton

    faults = []
    if (win.width(), win.height()) != size:
        faults.append(f"window {win.width()}x{win.height()}, not {size}")
    faults += cut_texts(win) + cut_buttons(win)
    side = win.side
    faults += overlaps(side.findChildren(QPushButton), win)
    felt = win.felt
    for s, tile in felt.tiles.items():
        for label in (felt.marks[s], felt.bets[s]):
            if label.isVisible() and label.geometry().intersects(tile.geometry()):
                faults.append(f"seat {s}: {label.text()!r} over its tile")
    from PySide6.QtGui import QFontMetrics

    for chip in side.keypad.chips:
        assert isinstance(chip, ChipButton)
        if chip.isVisible():
            width = QFontMetrics(chip.label_font()).horizontalAdvance(chip.text())
            if width > chip.inner_rect().width():
                faults.append(f"chip {chip.text()!r} label {width}px in {chip.inner_rect()}")
    if lang == "it":
        faults += english_leftovers(visible_texts(win))
    return faults


def settled_layout_faults(app: Any, win: Any, size: tuple[int, int], lang: str) -> list[str]:
    """:func:`layout_faults` of ``win`` resized to ``size`` once its layout settled (up to 1 s):
    under load a snapshot still on its way (a status line about to go) is not the step."""
    win.resize(*size)
    for _ in range(20):
        app.processEvents()
        faults = layout_faults(win, size, lang)
        if not faults:
            break
        time.sleep(0.05)
        win.resize(*size)
    return faults


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
        console = PokerConsole(cfg(), ManualSource, Journal(str(tmp_path / f"{lang}.db")),
                               lang=lang)  # fmt: skip
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


def start_window(qtbot: Any, tmp_path: Path, name: str = "w.db", **kw: Any) -> Any:
    from ui.kit.boot import qt_app
    from ui.poker.app import PokerConsole

    qt_app()
    make = kw.pop("make_source", ManualSource)
    config = kw.pop("config", None) or cfg()
    console = PokerConsole(config, make, Journal(str(tmp_path / name)), lang="en", **kw)
    qtbot.addWidget(console.window)
    console.window.resize(1280, 800)
    console.window.show()
    console.start()
    console.presenter.clock = itertools.count(0.0, 1.0).__next__
    qtbot.waitUntil(lambda: console.presenter.snap.device.connected, timeout=10000)
    return console


def seat_two(console: Any, qtbot: Any) -> None:
    p = console.presenter
    for seat, name, stack in PLAYERS[:2]:
        p.tap_seat(seat)
        p.set_name(name)
        p.amount = stack
        p.tap_seat_player()
        qtbot.waitUntil(lambda s=seat: p.snap.seat(s) is not None, timeout=5000)
    p.tap_seat(1)
    p.tap_seat_change("button")
    qtbot.waitUntil(lambda: p.snap.button == 1, timeout=5000)


def test_manual_entry_on_the_card_keypad_echoes_no_card_and_names_no_duplicate(
    qtbot: Any, tmp_path: Path
) -> None:
    from tests.fixtures.console_conftest import tap, type_card

    console = start_window(qtbot, tmp_path)
    p, win = console.presenter, console.window
    try:
        seat_two(console, qtbot)
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.step() == "manual", timeout=5000)
        page = win.side.entry
        keys = page.manual_keys
        assert keys.isVisible() and page.position.text() == "Seat 3 — card 1"
        assert not keys.preview.isVisible()
        holes = [parse_card(c) for c in ("As", "Kd", "Qh", "Jc")]
        typed: list[Card] = []
        for card in holes:
            before = len(p.snap.awaiting)
            tap(qtbot, keys.rank_buttons[str(card)[0]])
            tap(qtbot, keys.suit_buttons[str(card)[1]])
            assert keys.preview.text() == "—"  # the chosen card is not echoed
            tap(qtbot, keys.confirm_button)
            typed.append(card)
            qtbot.waitUntil(lambda b=before: len(p.snap.awaiting) < b or p.step() != "manual",
                            timeout=5000)  # fmt: skip
            strings = widget_strings(win)
            for c in typed:
                assert not any(x.search(t) for x in card_patterns(c) for t in strings), c
            if len(typed) == 2:  # a hole card typed again: refused, not named, not shown
                type_card(qtbot, keys, typed[0])
                qtbot.waitUntil(lambda: p.message is not None, timeout=3000)
                assert p.message is not None and p.message.code == "card_taken"
                text = win.side.message.text()
                assert text.startswith("That card is already in this deck")  # as the keypad
                assert not any(x.search(text) for x in card_patterns(typed[0]))
        qtbot.waitUntil(lambda: p.step() == "betting", timeout=5000)
        assert all(not s.shown for s in p.snap.seats)
        stored = console.service.runner.hand
        assert stored is not None and stored.view("dealer").pending == ()
    finally:
        console.close()


def test_an_unreadable_card_is_entered_by_the_dealer_and_confirmed_by_a_pit_boss(
    qtbot: Any, tmp_path: Path, card_log: Path
) -> None:
    import dataclasses

    from dealer_assist.table.crosscheck import read_dealt_log
    from drivers.factory import open_source
    from tests.fixtures.console_conftest import emulator_url, tap, type_card
    from ui.kit.pitboss import PitBossRoster

    roster = PitBossRoster(tmp_path / "pit_bosses.json")
    roster.add("4711", "2468")
    config = dataclasses.replace(cfg(), unreadable_card="dealer_identifies")
    dealt_log = card_log
    url = emulator_url(21, f"unreadable_at=2&dealt_log={dealt_log}")
    console = start_window(qtbot, tmp_path, config=config, roster=roster,
                           make_source=lambda: open_source(url))  # fmt: skip
    p, win = console.presenter, console.window
    try:
        seat_two(console, qtbot)
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.step() == "identify", timeout=10000)
        page = win.side.entry
        assert page.title.text() == "Unreadable card" and page.ident_keys.isVisible()
        runner = console.service.runner
        ident = runner.identification
        assert ident is not None
        actual = parse_card(read_dealt_log(dealt_log)[(ident.deck_id, ident.index)])
        type_card(qtbot, page.ident_keys, actual)
        qtbot.waitUntil(lambda: p.view().entry is not None and p.view().entry.mode == "confirm",
                        timeout=5000)  # fmt: skip
        assert not any(x.search(t) for x in card_patterns(actual) for t in widget_strings(win))
        for digit in "4711":
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        for digit in "1111":  # a wrong PIN: nothing changes
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        type_card(qtbot, page.ident_keys, actual)
        qtbot.waitUntil(lambda: p.message is not None and p.message.code == "pit_boss",
                        timeout=5000)  # fmt: skip
        assert runner.identification is not None
        for digit in "4711":
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        for digit in "2468":
            tap(qtbot, page.pinpad.keys[digit])
        tap(qtbot, page.pinpad.keys["next"])
        type_card(qtbot, page.ident_keys, actual)
        qtbot.waitUntil(lambda: p.step() == "betting", timeout=10000)
        assert runner.identification is None
        assert all(not s.shown for s in p.snap.seats)
    finally:
        console.close()


def test_device_not_ready_bar_source_notice_and_the_held_off_acknowledgement(
    qtbot: Any, tmp_path: Path
) -> None:
    from PySide6.QtCore import QRect

    from dealer_assist.events import SourceSwitched
    from tests.fixtures.console_conftest import tap
    from ui.kit.status import DeviceStatus
    from ui.poker.presenter import ACK_HOLD_S

    console = start_window(qtbot, tmp_path)
    p, win = console.presenter, console.window
    try:
        seat_two(console, qtbot)
        # a failover to another source: the amber notice until the dealer taps OK
        console.bridge.send(Tick(0))  # a tick on the worker
        console.service.runner.handle(SourceSwitched(from_source="usb", to_source="manual",
                                                     reason="link lost"))  # fmt: skip
        qtbot.waitUntil(lambda: win.notice.isVisible(), timeout=5000)
        assert "usb → manual" in win.notice.text.text()
        assert (
            win.notice.reason.text() == "Reason: Shuffler cable disconnected or shuffler "
            "switched off: plug the cable back in and switch it on"
        )
        tap(qtbot, win.notice.ok)
        assert not win.notice.isVisible()
        # the device not ready between hands: the red bar, and New hand waits
        sick = DeviceStatus(connected=True, ready=False, faults=("JAM",), source="usb",
                            source_kind="device", why_not_ready="fault JAM")  # fmt: skip
        p.on_snapshot(replace_device(p.snap, sick))
        assert win.not_ready.isVisible() and "Cards jammed" in win.not_ready.text.text()
        assert p.view().not_ready
        well = DeviceStatus(connected=True, ready=True, source="manual", source_kind="manual")
        p.on_snapshot(replace_device(p.snap, well))
        assert not win.not_ready.isVisible()
        # the void alarm: "Acknowledged" away from every button tapped to void, held off
        clock = iter(float(x) for x in range(1000, 2000))
        p.clock = lambda: next(clock)
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.snap.in_hand, timeout=5000)

        def spots() -> list[QRect]:  # the buttons tapped now: void, confirm, New hand
            shown = [b for b in (win.side.bar.void, win.side.void2, win.side.entry.void,
                                 win.side.new_btn) if b.isVisible()]  # fmt: skip
            return [QRect(b.mapTo(win, b.rect().topLeft()), b.size()) for b in shown]

        taps = spots()
        assert taps
        p.tap_void()
        p.tap_void()
        qtbot.waitUntil(lambda: p.step() == "void", timeout=5000)
        ack = win.alarm.ack
        assert win.alarm.isVisible()
        where = QRect(ack.mapTo(win, ack.rect().topLeft()), ack.size())
        assert not any(where.intersects(s) for s in taps)
        sent = len([c for c in console.presenter.outbox.waiting])
        p.clock = lambda: 1000.0 + 1.5  # before the hold-off has passed since the alarm
        p._alarm_at = 1001.0
        p.tap_ack()
        assert p.step() == "void" and len(p.outbox.waiting) == sent
        p.clock = lambda: 1001.0 + ACK_HOLD_S + 0.1
        p.on_snapshot(p.snap)
        tap(qtbot, ack)
        qtbot.waitUntil(lambda: p.step() == "between", timeout=5000)
        assert win.side.new_btn.isVisible() and not any(where.intersects(s) for s in spots())
    finally:
        console.close()


def replace_device(snap: PokerSnapshot, device: Any) -> PokerSnapshot:
    import dataclasses

    return dataclasses.replace(snap, device=device, seq=snap.seq)


def test_a_console_abandoned_mid_hand_resumes_it_with_every_stack_right(
    qtbot: Any, tmp_path: Path
) -> None:
    cards = deck_for(*SIDE)
    first = Table(tmp_path)
    first.seat_all()
    first.p.tap_new_hand()
    first.deal(cards)
    act(first, "raise", first.p.snap.legal.maximum if first.p.snap.legal else 0, cards)
    act(first, "call", None, cards)  # Dario all-in, Anna calls: then the process dies
    before = first.p.snap
    uid, actor = before.hand_uid, before.actor
    put_in = {s.seat: s.put_in for s in before.seats}
    # nothing is closed: a new console on the same journal file
    again = Table(tmp_path)
    try:
        snap = again.p.snap
        assert snap.resumed and snap.in_hand and snap.hand_uid == uid and snap.actor == actor
        assert {s.seat: s.put_in for s in snap.seats} == put_in
        assert {s.seat: s.stack for s in snap.seats} == {s.seat: s.stack for s in before.seats}
        again.entered |= {(uid, f"seat {s} card {n}") for s in (1, 3, 5, 7) for n in (1, 2)}
        act(again, "fold", None, cards)  # Bruno
        act(again, "call", None, cards)  # Carla
        act(again, "bet", 2500, cards)
        act(again, "call", None, cards)
        while again.p.snap.in_hand:
            act(again, "check", None, cards)
        final = again.p.snap
        assert final.phase == "settled" and final.journaled and not final.resumed
        after = dict(final.after)
        assert after == {1: 34500, 3: 9900, 5: 9500, 7: 24100}
        assert sum(after.values()) == sum(p[2] for p in PLAYERS)
        stored = again.service.journal.last_hand() if again.service.journal else None
        assert stored is not None and stored.extra.get("resumed") == 1
    finally:
        again.close()


def test_the_window_says_the_hand_was_resumed_after_a_restart(qtbot: Any, tmp_path: Path) -> None:
    first = start_window(qtbot, tmp_path, name="r.db")
    p = first.presenter
    seat_two(first, qtbot)
    p.tap_new_hand()
    qtbot.waitUntil(lambda: p.step() == "manual", timeout=5000)
    uid = p.snap.hand_uid
    first.bridge.shutdown()  # the worker stops: the step log holds the hand, as after kill -9
    first.window.close()
    second = start_window(qtbot, tmp_path, name="r.db")
    try:
        q, win = second.presenter, second.window
        qtbot.waitUntil(lambda: q.snap.hand_uid == uid and q.snap.resumed, timeout=10000)
        label = win.side.resumed
        assert label.isVisible() and label.text() == "Resumed after a restart: the hand goes on"
    finally:
        second.close()
