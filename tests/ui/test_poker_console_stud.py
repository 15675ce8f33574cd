"""The Seven Card Stud dealer console: the poker console of Hold'em on a stud
table (``config/stud.toml``), service and presenter without a window, then the window's widgets
(pytest-qt, offscreen).

The hands run on the real PeerRunner with a real SQLite journal; the cards are typed into the
keypad source (ManualSource) from a stacked deck, so the hands are known.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import itertools
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK, RANK_NAMES, Card, parse_card
from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.record import settle_record
from dealer_assist.storage.journal import Journal
from drivers.manual import ManualSource
from tests.fixtures.console_conftest import card_patterns, widget_strings
from tests.fixtures.poker_table import Table
from ui.kit.service_parts import ServiceParts
from ui.poker.commands import Reshuffle
from ui.poker.snapshot import PokerSnapshot

BUY_IN = {1: 40000, 2: 20000, 3: 20000, 4: 20000, 5: 4000, 6: 20000, 7: 20000, 8: 20000}
# seat 4 has the lowest door card (2c) and folds the bring-in, seat 7 (2d) posts it, seat 8
# completes; seats 3, 7 and 8 hold straights to the nine (cards in deal order: 2 down, door,
# 4th-6th up, 7th down)
BRING_IN_HAND = {
    1: "????Ts", 2: "????Jc", 3: "5s6hQh7d8c9d4c", 4: "????2c", 5: "????4h", 6: "????Th",
    7: "5h6s2d7c8d9h3s", 8: "5d6cKd7s8h9s3c",
}  # fmt: skip


def cfg() -> TableConfig:
    return load_table_config(game="stud")


def stacked(holes: dict[int, str], board: str = "") -> dict[str, Card]:
    """Position -> card (``??``: left to the deck)."""
    out = {}
    for where, text in [*((f"seat {s} card", t) for s, t in holes.items()), ("board", board)]:
        for n in range(1, len(text) // 2 + 1):
            part = text[2 * n - 2 : 2 * n]
            if part != "??":
                out[f"{where} {n}"] = parse_card(part)
    return out


class StudTable(Table):
    """tests/fixtures/poker_table.py's table at the shipped Stud table (or ``config``): its
    players seated without a button, each card typed as the stud hand asks for it."""

    def __init__(self, tmp: Path, config: TableConfig | None = None) -> None:
        super().__init__(tmp, config or cfg())

    def seat_all(self) -> None:
        for seat, stack in BUY_IN.items():
            self.p.tap_seat(seat)
            self.p.set_name(f"P{seat}")
            self.p.amount = stack
            self.p.tap_seat_player()
            assert self.p.snap.error is None, self.p.snap.error

    def deal(self, cards: dict[str, Card]) -> None:
        """Type every pending card until the table waits for a person (or a new deck)."""
        uid = self.p.snap.hand_uid
        rest = iter([c for c in reversed(FULL_DECK) if c not in cards.values()])
        for _ in range(200):
            snap = self.service.tick(0.02)
            self.feed(snap)
            if not snap.pending or snap.new_deck:
                return
            source = self.service.active_source
            assert isinstance(source, ManualSource)
            for pos in snap.pending:
                if (snap.hand_uid, pos) not in self.entered and source.expected > 0:
                    self.entered.add((snap.hand_uid, pos))
                    self.service.enter_card(cards.get(pos) or self._next(rest, uid))
        raise AssertionError("the deal did not finish")

    def _next(self, rest: Iterator[Card], uid: str) -> Card:
        hand = self.service.runner.hand if self.service.runner else None
        dealt = {p.card for p in hand.cards} if hand is not None else set()
        return next(c for c in rest if c not in dealt)

    def act(self, kind: str, cards: dict[str, Card]) -> None:
        self.p.tap_action(kind)
        assert self.p.snap.error is None, self.p.snap.error
        self.deal(cards)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[StudTable]:
    t = StudTable(tmp_path)
    yield t
    t.close()


def down_cards(t: StudTable) -> set[Card]:
    """The face-down cards dealt so far (read from the core, never from the console)."""
    runner = t.service.runner
    assert runner is not None and runner.hand is not None
    hand = runner.hand
    return {c for s in hand.setup.seats for c, up in zip(hand.holes[s], hand.faces[s], strict=True)
            if not up}  # fmt: skip


def to_seventh(t: StudTable, check: Any = None) -> None:
    """Everyone posts, calls and checks until the deck runs short on seventh street."""
    t.p.tap_new_hand()
    t.deal({})
    for _ in range(200):
        s = t.p.snap
        if check is not None:
            check(s)
        if s.new_deck:
            return
        legal = s.legal
        assert legal is not None, s.phase
        kind = next(k for k in ("bring_in", "check", "call") if k in legal.kinds)
        t.act(kind, {})
    raise AssertionError("seventh street not reached")


def test_the_stud_table_has_no_button_and_no_blind_marks(table: StudTable) -> None:
    t = table
    t.seat_all()
    view = t.p.view()
    assert not view.has_button and t.p.snap.button is None
    t.p.tap_seat(1)
    t.p.tap_seat_change("button")  # ignored: a stud table has none
    assert not any(c.kind == "button" for c in t.sent)
    t.p.tap_seat(1)
    t.p.tap_new_hand()
    assert t.p.snap.error is None and t.p.snap.in_hand and t.p.snap.button is None
    assert all(s.posts == ("ante",) for s in t.p.snap.seats)


def test_the_bring_in_folds_passes_on_and_the_completion_is_the_fixed_small_bet(
    table: StudTable,
) -> None:
    t = table
    cards = stacked(BRING_IN_HAND)
    t.seat_all()
    t.p.tap_new_hand()
    t.deal(cards)
    s = t.p.snap
    assert s.legal is not None and s.legal.seat == 4 and s.legal.kinds == ("bring_in", "fold")
    assert s.opening == "lowest door card: 2c" and s.opener == 4 and s.forced == ((4, ""),)
    door = s.seat(4)
    assert door is not None and door.hole == (None, None, parse_card("2c"))
    t.act("fold", cards)
    s = t.p.snap
    assert s.legal is not None and s.legal.seat == 7 and s.legal.kinds == ("bring_in", "fold")
    assert s.forced == ((4, "fold"), (7, ""))
    clock = [1000.0]
    t.p.clock = lambda: clock[0]
    sent = len(t.sent)
    t.p.tap_action("bring_in")
    clock[0] += 0.1  # the same finger again: the table has moved on to seat 8
    t.p.tap_action("bring_in")
    t.p.tap_action("call")
    assert [c.action for c in t.sent[sent:]] == ["bring_in"]
    clock[0] += 5
    s = t.p.snap
    seven = s.seat(7)
    assert seven is not None and seven.bet == 50 and seven.last == "bring_in"
    assert s.forced == ((4, "fold"), (7, "bring_in"))
    legal = s.legal
    assert legal is not None and legal.seat == 8 and "complete" in legal.kinds
    assert legal.only == 200 and t.p.amount == 200  # fixed limit: the total comes keyed
    t.p.tap_chip(100)  # nothing else to key
    assert t.p.amount == 200
    t.act("complete", cards)
    eight = t.p.snap.seat(8)
    assert eight is not None and eight.bet == 200 and eight.last == "complete 200"


def test_no_down_card_reaches_a_dealer_snapshot_before_the_showdown(table: StudTable) -> None:
    t = table
    t.seat_all()
    seen: list[PokerSnapshot] = []
    to_seventh(t, seen.append)
    hidden = down_cards(t)
    assert len(hidden) == 16  # two down cards each for eight players
    for snap in t.snaps + seen:
        text = repr(snap)
        for card in hidden:
            assert f"Card({card})" not in text, f"{card} in a {snap.phase} snapshot"
    last = t.p.snap
    for seat in last.seats:  # the up cards are there, in deal order
        assert len(seat.hole) == 6 and seat.hole[:2] == (None, None)
        assert all(c is not None for c in seat.hole[2:])


def test_the_shortage_prompt_reshuffles_once_then_the_community_card_settles(
    table: StudTable,
) -> None:
    t = table
    t.seat_all()
    to_seventh(t)
    s = t.p.snap
    assert t.p.step() == "new_deck" and s.pending == ("board 1",)
    assert s.shortage == ("stub 1 card + 3 burns = 4, 8 players need 8: shuffle the burns, "
                          "turn one community card")  # fmt: skip
    before = len(t.sent)
    t.p.tap_reshuffle()
    t.p.tap_reshuffle()  # a double tap: once
    assert [c.kind for c in t.sent[before:]] == ["reshuffle"]
    runner = t.service.runner
    assert runner is not None and runner.hand is not None
    hand = runner.hand
    allowed = hand.reshuffle_cards()
    # the service never asks twice, even when a second command gets through
    t.feed(t.service.execute(Reshuffle(999)))
    assert t.p.snap.error is None
    for _ in range(100):
        t.feed(t.service.tick(0.02))
        if not t.p.snap.new_deck:
            break
    assert t.p.step() == "manual" and t.p.snap.awaiting == (hand.pending_deal[0],)
    community = sorted(allowed, key=str)[0]
    t.service.enter_card(community)
    for _ in range(100):
        t.feed(t.service.tick(0.02))
        if not t.p.snap.pending:
            break
    assert t.p.snap.board == (community,)
    while t.p.snap.in_hand:
        legal = t.p.snap.legal
        assert legal is not None
        if "show" in legal.kinds:
            t.p.tap_show(True)
        else:
            t.act("check", {})
    s = t.p.snap
    assert s.phase == "settled" and s.journaled
    stored = runner.stored
    assert stored is not None and stored.record["community"] == str(community)
    assert settle_record(stored.record) == stored.settlement
    assert dict(s.after) == {r["seat"]: r["stack"] for r in stored.settlement["seats"]}
    assert sum(stack for _, stack in s.after) == sum(BUY_IN.values())
    for seat in s.seats:  # the stacks on the felt are the settlement's
        assert seat.stack == dict(s.after)[seat.seat]
    assert t.journal.verify().ok


def test_the_odd_chips_go_by_the_highest_card_by_suit(table: StudTable) -> None:
    t = table
    cards = stacked(BRING_IN_HAND)
    t.seat_all()
    t.p.tap_new_hand()
    t.deal(cards)
    script = {4: "fold", 7: "bring_in", 8: "complete", 1: "fold", 2: "fold", 3: "call",
              5: "fold", 6: "fold"}  # fmt: skip
    while t.p.snap.in_hand:
        legal = t.p.snap.legal
        assert legal is not None
        if "show" in legal.kinds:
            t.p.tap_show(True)
            continue
        kind = script.pop(legal.seat, "") if t.p.snap.street == "third" else ""
        t.act(kind or next(k for k in ("check", "call") if k in legal.kinds), cards)
    (award,) = t.p.snap.awards
    assert award.amount == 800 and award.category == "straight"
    # three straights to the nine: 2.50 each and two odd chips, to the K♦ then the Q♥
    assert [(w.seat, w.amount, w.odd_chip) for w in award.winners] == [
        (8, 275, True), (3, 275, True), (7, 250, False)]  # fmt: skip


def test_the_core_words_are_said_in_italian() -> None:
    from ui.kit.boot import qt_app
    from ui.kit.i18n import install_language
    from ui.poker.texts import _RANK_WORDS, opening_text, shortage_text

    assert {r: words[0] for r, words in _RANK_WORDS.items()} == RANK_NAMES
    app = qt_app()
    assert opening_text("highest board: pair of kings") == "Highest board: pair of kings"
    translators = install_language(app, "it")
    try:
        assert opening_text("lowest door card: 2c") == "Carta scoperta più bassa: 2♣"
        assert (
            opening_text("highest board: pair of kings") == "Mano scoperta più alta: coppia di re"
        )
        assert opening_text("highest board: two pair, aces and sixes") == (
            "Mano scoperta più alta: doppia coppia, assi e sei"
        )
        assert opening_text("highest board: three nines").endswith("tris di nove")
        assert opening_text("highest board: four queens").endswith("poker di donne")
        assert opening_text("highest board: ace-king high").endswith("carte alte asso-re")
        assert shortage_text("stub 1 card + 3 burns = 4, 8 players need 8: shuffle the burns, "
                             "turn one community card") == (
            "Mazzo 1 + bruciate 3 = 4 carte, 8 giocatori ne chiedono 8: mescola le bruciate e "
            "scopri una carta comune (vela)")  # fmt: skip
        assert opening_text("something new") == "something new"  # as the core wrote it
    finally:
        for tr_ in translators:
            app.removeTranslator(tr_)


# -- the window --------------------------------------------------------------------------------


def start_window(qtbot: Any, tmp_path: Path, lang: str = "en") -> Any:
    from ui.kit.boot import qt_app
    from ui.poker.app import PokerConsole

    qt_app()
    console = PokerConsole(
        ServiceParts(cfg(), ManualSource, Journal(str(tmp_path / "w.db"))), lang=lang
    )
    qtbot.addWidget(console.window)
    console.window.resize(1280, 800)
    console.window.show()
    console.start()
    console.presenter.clock = itertools.count(0.0, 1.0).__next__
    qtbot.waitUntil(lambda: console.presenter.snap.device.connected, timeout=10000)
    return console


def type_deal(console: Any, qtbot: Any, cards: dict[str, Card], typed: set[str]) -> None:
    """Type the pending cards until the deal is out (or a new deck is due)."""
    p = console.presenter
    rest = [c for c in reversed(FULL_DECK) if c not in cards.values()]
    for _ in range(300):
        s = p.snap
        if not s.pending or s.new_deck:
            return
        hand = console.service.runner.hand
        dealt = {x.card for x in hand.cards}
        source = console.service.active_source
        for pos in s.pending:
            if pos not in typed and source.expected > 0:
                typed.add(pos)
                card = cards.get(pos) or next(c for c in rest if c not in dealt)
                console.service.enter_card(card)
                dealt.add(card)
        qtbot.wait(20)
    raise AssertionError("the deal did not finish")


def test_the_window_shows_up_cards_the_bring_in_and_why_and_never_a_down_card(
    qtbot: Any, tmp_path: Path
) -> None:
    from ui.poker.widgets.felt import Felt

    console = start_window(qtbot, tmp_path)
    p, win = console.presenter, console.window
    felt: Felt = win.felt
    try:
        for seat, stack in BUY_IN.items():
            p.tap_seat(seat)
            p.amount = stack
            p.tap_seat_player()
            qtbot.waitUntil(lambda s=seat: p.snap.seat(s) is not None, timeout=5000)
        assert not win.side.changes["button"].isVisible()
        p.tap_seat(8)  # unselect
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.snap.in_hand, timeout=5000)
        cards = stacked(BRING_IN_HAND)
        typed: set[str] = set()
        type_deal(console, qtbot, cards, typed)
        qtbot.waitUntil(lambda: p.step() == "betting", timeout=10000)
        facts = win.side.facts.text()
        assert "First: seat 4 · Lowest door card: 2♣" in facts
        assert win.side.bar.buttons["bring_in"].isVisible()
        assert win.side.bar.buttons["bring_in"].text() == "Bring-in\n€\u00a00.50"
        assert not felt.board_box.isVisible()  # no board in stud until a community card
        # each seat's up card drawn face up after two backs, in deal order
        for seat in BUY_IN:
            faces = [c.face for c in felt.shown_cards[seat] if c.isVisible()]
            door = cards.get(f"seat {seat} card 3") or p.snap.seat(seat).hole[2]
            assert faces == ["back", "back", door], seat
        assert felt.marks[4].isVisible() and felt.marks[4].text() == "BI"
        assert not any(felt.marks[s].isVisible() for s in BUY_IN if s != 4)  # no ante marks
        hidden = {cards[f"seat {s} card {n}"] for s in (3, 7, 8) for n in (1, 2)}
        strings = widget_strings(win)
        for card in hidden | down_cards_of(console):
            assert not any(pat.search(x) for pat in card_patterns(card) for x in strings), card
        # the bring-in folded (a double tap acts once), passed on to seat 7
        before = p.outbox.seq
        p.tap_action("fold")
        p.tap_action("fold")
        qtbot.waitUntil(lambda: p.snap.legal is not None and p.snap.legal.seat == 7, timeout=5000)
        assert p.outbox.seq == before + 1
        qtbot.wait(50)
        assert "Bring-in folded: seat 4" in win.side.facts.text()
        assert win.side.title.text() == "Seat 7: Bring-in or fold"
        p.clock = itertools.count(100.0, 1.0).__next__
        win.side.bar.buttons["bring_in"].click()
        qtbot.waitUntil(lambda: p.snap.legal is not None and p.snap.legal.seat == 8, timeout=5000)
        qtbot.wait(50)
        assert felt.marks[7].text() == "BI" and not felt.marks[4].isVisible()
        assert felt.tiles[7].state.text() == "Bring-in"
        complete = win.side.bar.buttons["complete"]
        assert complete.isVisible() and complete.isEnabled()
        assert complete.text().replace(" \n", "\n") == "Complete to\n€\u00a02.00"
        assert "Bring-in: seat 7 · folded: seat 4" in win.side.facts.text()
        for card in down_cards_of(console):
            strings = widget_strings(win)
            assert not any(pat.search(x) for pat in card_patterns(card) for x in strings), card
    finally:
        console.close()


def down_cards_of(console: Any) -> set[Card]:
    hand = console.service.runner.hand
    return {c for s in hand.setup.seats for c, up in zip(hand.holes[s], hand.faces[s], strict=True)
            if not up}  # fmt: skip


def test_the_window_shows_the_shortage_and_its_button_then_the_community_card(
    qtbot: Any, tmp_path: Path
) -> None:
    console = start_window(qtbot, tmp_path, lang="it")
    p, win = console.presenter, console.window
    try:
        for seat, stack in BUY_IN.items():
            p.tap_seat(seat)
            p.amount = stack
            p.tap_seat_player()
            qtbot.waitUntil(lambda s=seat: p.snap.seat(s) is not None, timeout=5000)
        p.tap_seat(8)
        p.tap_new_hand()
        qtbot.waitUntil(lambda: p.snap.in_hand, timeout=5000)
        typed: set[str] = set()
        for _ in range(200):
            type_deal(console, qtbot, {}, typed)
            if p.snap.new_deck:
                break
            qtbot.waitUntil(lambda: p.snap.legal is not None and not p.view().busy, timeout=5000)
            kinds = p.snap.legal.kinds
            p.clock = itertools.count(p.clock() + 10, 1.0).__next__
            p.tap_action(next(k for k in ("bring_in", "check", "call") if k in kinds))
            qtbot.waitUntil(lambda: not p.view().busy, timeout=5000)
        qtbot.waitUntil(lambda: p.step() == "new_deck", timeout=5000)
        side = win.side
        assert "vela" in side.shortage.text() and "Mazzo 1 + bruciate 3" in side.shortage.text()
        assert side.reshuffle_btn.isVisible() and side.reshuffle_btn.isEnabled()
        assert side.reshuffle_btn.text() == "Bruciate caricate:\nmescola"
        p.clock = itertools.count(p.clock() + 10, 1.0).__next__
        side.reshuffle_btn.click()
        qtbot.waitUntil(lambda: p.step() == "manual", timeout=5000)
        hand = console.service.runner.hand
        card = sorted(hand.reshuffle_cards(), key=str)[0]
        console.service.enter_card(card)
        qtbot.waitUntil(lambda: p.snap.board == (card,), timeout=5000)
        qtbot.waitUntil(lambda: p.step() == "betting", timeout=5000)
        qtbot.wait(50)
        assert win.felt.board_box.isVisible()
        visible = [c.face for c in win.felt.board if c.isVisible()]
        assert visible == [card]
    finally:
        console.close()


def test_every_stud_demo_step_fits_at_both_sizes_in_both_languages(
    qtbot: Any, tmp_path: Path
) -> None:
    from tests.fixtures.layout_checks import settled_layout_faults
    from ui.kit.boot import qt_app
    from ui.poker.app import PokerConsole
    from ui.poker.demo import SIZES, PokerDemo

    app = qt_app()
    found: list[str] = []
    steps: set[str] = set()
    results: dict[str, list[str]] = {}

    class Checking(PokerDemo):
        def shot(self, name: str) -> None:
            win = self.c.window
            steps.add(self.p.step())
            for size in SIZES:
                faults = settled_layout_faults(self.app, win, size, self.lang)
                found.extend(f"{self.lang} {size} {name}: {f}" for f in faults)
                felt = win.felt
                for s, row in felt.shown.items():
                    if row.isVisible() and row.geometry().intersects(felt.board_box.geometry()) \
                            and felt.board_box.isVisible():  # fmt: skip
                        found.append(f"{self.lang} {size} {name}: seat {s}'s cards over the board")

    for lang in ("it", "en"):
        parts = ServiceParts(cfg(), ManualSource, Journal(str(tmp_path / f"{lang}.db")))
        console = PokerConsole(parts, lang=lang)
        console.window.resize(1280, 800)
        console.window.show()
        console.start()
        try:
            results[lang] = Checking(app, console, None, lang).run(3)
        finally:
            console.close()
            console.window.deleteLater()
            app.processEvents()
    assert {"between", "manual", "betting", "new_deck", "showdown", "settled"} <= steps
    assert found == [], "\n".join(found)
    assert results["it"] == results["en"]
    assert results["en"][0].startswith("bring_in: pot 0: [(8, 275), (3, 275), (7, 250)]")
    assert "pot 1: [(8, 5050)]; pot 0: [(5, 11875)]" in results["en"][2]
