"""The consoles' Dealer control, pytest-qt offscreen over the real table services:
the banked console (real serial emulator) and the poker-room console (the keypad source), each
with a real SQLite journal. Between hands the incoming dealer taps the top bar's dealer chip,
types a badge on the pad and takes the box: a ``dealer_change`` record is journaled, the chip
shows the badge, the next hand carries it, a restarted console shows it again. During a hand the
chip is disabled and the table refuses the change whoever sends it. Screenshots at 1280x800 in
both languages go to /tmp/dealer_shots (looked at by hand)."""

from __future__ import annotations

import dataclasses
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from dealer_assist.engine.views import Phase
from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage.access import LocalUsers
from dealer_assist.storage.journal import Journal
from dealer_assist.table.dealers import DEALER_CHANGE
from tests.fixtures.console_conftest import tap
from tests.fixtures.poker_table import SIDE, Table, act, deck_for, start_window
from tests.ui.test_console_presenter import Table as BankedTable
from tests.ui.test_console_walk import Clock, big, play_to_reveal, walk_table
from ui.console.service import TableService
from ui.console.view import Step
from ui.console.window import ConsoleWindow
from ui.kit import theme
from ui.kit.commands import ChangeDealer
from ui.kit.dealer_box import DealerControl
from ui.kit.i18n import install_language
from ui.kit.service_parts import ServiceParts
from ui.poker.service import PokerService
from ui.poker.window import PokerWindow

SHOTS = Path("/tmp/dealer_shots")


def last(db: Path) -> list[StoredHand]:
    j = Journal(str(db))
    j.open()
    try:
        return list(j.iter_hands(1))
    finally:
        j.close()


def badge_in(qtbot: QtBot, chip: DealerControl, badge: str) -> None:
    """Tap the chip, the badge's digits on the pad, then Take the box."""
    tap(qtbot, chip)
    assert chip.pad.isVisible()
    for key in badge:
        tap(qtbot, chip.pad.keys[key])
    assert chip.pad.badge.text() == badge
    tap(qtbot, chip.pad.ok)


def clear_of_seats(win: Any, tiles: Any) -> list[str]:
    """The seats' tiles the Dealer change button covers, at both screen sizes (none wanted)."""
    out = []
    for size in ((1280, 800), (1920, 1080)):
        win.resize(*size)
        QApplication.processEvents()
        button = QRect(win.dealer.mapTo(win, QPoint(0, 0)), win.dealer.size())
        for seat, tile in tiles.items():
            if tile.isVisible() and button.intersects(
                QRect(tile.mapTo(win, QPoint(0, 0)), tile.size())
            ):
                out.append(f"{size}: seat {seat}")
    win.resize(1280, 800)
    QApplication.processEvents()
    return out


def walk_to_bets(t: BankedTable, clock: Clock) -> None:
    for _ in range(20):
        if t.view().step is Step.BETS:
            return
        big(t, clock)
    raise AssertionError("the walk did not end in a new hand")


def test_banked_console_dealer_changes_between_hands_only(qtbot: QtBot, tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    win = ConsoleWindow(t.p, t.config, "en")
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    chip = win.dealer
    assert t.p.snap.phase is Phase.BETS_OPEN and chip.status.text() == "No dealer logged in"
    assert not chip.isVisible()  # bets open: a hand the dealer on the box opened
    refused = t.service.change_dealer("1042")
    assert refused.error is not None and refused.error.code == "dealer_in_hand"
    assert refused.on_box == ""
    play_to_reveal(t, clock)  # settled and journaled: between hands
    assert chip.isVisible() and chip.isEnabled() and chip.height() >= 64
    assert clear_of_seats(win, win.table.tiles) == []
    badge_in(qtbot, chip, "1042")
    assert not chip.pad.isVisible() and chip.status.text() == "Dealer 1042"
    assert chip.isVisible()  # still between hands
    rows = last(tmp_path / "j.db")
    change = rows[-1]
    assert change.status == TABLE_RECORD and change.record["kind"] == DEALER_CHANGE
    assert change.record["dealer"] == "1042" and change.record["previous"] is None
    assert rows[-2].extra.get("dealer") is None  # dealt before
    # the same dealer again: said on the pad, nothing sent
    tap(qtbot, chip)
    chip.pad.badge.setText("1042")
    sent = len(t.sent)
    tap(qtbot, chip.pad.ok)
    assert chip.pad.message.text() == "Dealer 1042 is on the box already" and len(t.sent) == sent
    tap(qtbot, chip.pad.cancel)
    walk_to_bets(t, clock)
    play_to_reveal(t, clock)
    hand = last(tmp_path / "j.db")[-1]
    assert hand.status == "settled" and hand.extra["dealer"] == "1042"
    t.service.close()
    make_source = t.service.link.card_source.make_source
    again = TableService(ServiceParts(t.config, make_source, Journal(str(tmp_path / "j.db"))))
    try:
        assert again.open().on_box == "1042"  # restored from the journal
    finally:
        again.close()


def test_banked_console_checks_the_badge_against_the_users_store(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    users = LocalUsers(tmp_path)
    users.put_user(new_user("2001", Role.DEALER, "111111"), "test")
    users.put_user(new_user("3001", Role.PIT_BOSS, "222222"), "test")
    t.service.link.signers = users
    t.service.config = dataclasses.replace(t.config, dealer_known_only=True)
    play_to_reveal(t, clock)
    for badge in ("9999", "3001"):  # unknown; a pit boss, not a dealer
        snap = t.service.change_dealer(badge)
        assert snap.error is not None and snap.error.code == "dealer_unknown", badge
        assert snap.on_box == ""
    assert t.service.change_dealer("2001").on_box == "2001"


@pytest.fixture
def poker(tmp_path: Path) -> Iterator[Table]:
    t = Table(tmp_path)
    yield t
    t.close()


def test_poker_console_dealer_changes_between_hands_only(
    qtbot: QtBot, poker: Table, tmp_path: Path
) -> None:
    t = poker
    win = PokerWindow(t.p, t.config, "en")
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    t.seat_all()
    chip = win.dealer
    assert chip.isVisible() and chip.status.text() == "No dealer logged in"
    assert chip.width() >= 64 and chip.height() >= 64
    assert clear_of_seats(win, win.felt.tiles) == []
    badge_in(qtbot, chip, "2207")
    assert not chip.pad.isVisible() and chip.status.text() == "Dealer 2207"
    cards = deck_for(*SIDE)
    t.p.tap_new_hand()
    t.deal(cards)
    assert t.p.snap.in_hand and not chip.isVisible()
    t.run(ChangeDealer(0, badge="3308"))  # whoever sends it, the table refuses
    error = t.p.snap.error
    assert error is not None and getattr(error, "rule", "") == "hand_in_progress"
    assert t.p.snap.on_box == "2207"
    legal = t.p.snap.legal
    assert legal is not None
    act(t, "raise", legal.maximum, cards)
    act(t, "call", None, cards)
    act(t, "fold", None, cards)
    act(t, "call", None, cards)
    act(t, "bet", 2500, cards)
    act(t, "call", None, cards)
    while t.p.snap.in_hand:
        act(t, "check", None, cards)
    rows = last(tmp_path / "j.db")
    hand = rows[-1]
    assert hand.status == "settled" and hand.extra["dealer"] == "2207"
    kinds = [r.record.get("kind") for r in rows if r.status == TABLE_RECORD]
    assert kinds.count(DEALER_CHANGE) == 1
    assert chip.isVisible()  # the hand is over
    t.close()
    make_source = t.service.link.card_source.make_source
    again = PokerService(ServiceParts(t.config, make_source, Journal(str(tmp_path / "j.db"))))
    try:
        assert again.open().on_box == "2207"
    finally:
        again.close()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_screenshots_of_the_dealer_control(
    qtbot: QtBot, tmp_path: Path, lang: str, qapp: QApplication
) -> None:
    SHOTS.mkdir(exist_ok=True)
    translators = install_language(qapp, lang)
    style, font = qapp.styleSheet(), qapp.font()
    qapp.setFont(QFont(theme.FONT_FAMILY, 12))
    qapp.setStyleSheet(theme.STYLE)  # as the console's own application (ui.console.app)
    try:
        (tmp_path / "banked").mkdir()
        t, clock = walk_table(tmp_path / "banked")
        win = ConsoleWindow(t.p, t.config, lang)
        qtbot.addWidget(win)
        win.resize(1280, 800)
        win.show()
        play_to_reveal(t, clock)
        badge_in(qtbot, win.dealer, "1042")
        tap(qtbot, win.dealer)
        for key in "2207":
            tap(qtbot, win.dealer.pad.keys[key])
        qtbot.wait(50)
        shot = win.grab()
        assert (shot.width(), shot.height()) == (1280, 800)
        assert shot.save(str(SHOTS / f"banked_dealer_pad_{lang}.png"))
        tap(qtbot, win.dealer.pad.cancel)
        assert win.grab().save(str(SHOTS / f"banked_dealer_chip_{lang}.png"))
        t.service.close()
        (tmp_path / "poker").mkdir()
        p = Table(tmp_path / "poker")
        pwin = PokerWindow(p.p, p.config, lang)
        qtbot.addWidget(pwin)
        pwin.resize(1280, 800)
        pwin.show()
        p.seat_all()
        qtbot.wait(50)
        assert pwin.grab().save(str(SHOTS / f"poker_dealer_button_{lang}.png"))
        tap(qtbot, pwin.dealer)
        pwin.dealer.pad.badge.setText("D-1042")
        tap(qtbot, pwin.dealer.pad.ok)
        tap(qtbot, pwin.dealer)
        pwin.dealer.pad.badge.setText("x" * 70)  # the field keeps 64: refused on the pad
        pwin.dealer.pad.badge.setText("")
        tap(qtbot, pwin.dealer.pad.ok)  # empty: said why
        assert pwin.dealer.pad.message.text()
        qtbot.wait(50)
        assert pwin.grab().save(str(SHOTS / f"poker_dealer_pad_{lang}.png"))
        p.close()
    finally:
        for tr in translators:
            qapp.removeTranslator(tr)
        install_language(qapp, "en")  # the number format back to the other tests' own
        qapp.setStyleSheet(style)
        qapp.setFont(font)


def test_the_table_default_dealer_is_on_the_box_when_a_console_opens(tmp_path: Path) -> None:
    t, _clock = walk_table(tmp_path)  # only for its config and source; its journal unused
    t.service.close()
    banked_db = tmp_path / "banked.db"
    for dealer in ("D-CFG", "D-OTHER"):  # a default for nobody on the box, not a change
        config = dataclasses.replace(t.config, dealer=dealer)
        banked = TableService(
            ServiceParts(config, t.service.link.card_source.make_source, Journal(str(banked_db)))
        )
        try:
            assert banked.open().on_box == "D-CFG"
        finally:
            banked.close()
    changes = [e for e in last(banked_db) if e.status == TABLE_RECORD]
    assert [(c.record["kind"], c.record["dealer"], c.record["by"]) for c in changes] == [
        (DEALER_CHANGE, "D-CFG", "config")
    ]
    p = Table(tmp_path)
    p.close()
    poker_db = tmp_path / "poker.db"
    for dealer in ("D-CFG", "D-OTHER"):
        make = p.service.link.card_source.make_source
        service = PokerService(
            ServiceParts(dataclasses.replace(p.config, dealer=dealer), make, Journal(str(poker_db)))
        )
        try:
            assert service.open().on_box == "D-CFG"
        finally:
            service.close()
    assert [e.record["dealer"] for e in last(poker_db) if e.status == TABLE_RECORD] == ["D-CFG"]


def test_the_poker_console_changes_the_dealer_through_its_worker_thread(
    qtbot: QtBot, tmp_path: Path
) -> None:
    console = start_window(qtbot, tmp_path)  # the real console: commands on its worker thread
    try:
        win = console.window
        chip = win.dealer
        qtbot.waitUntil(chip.isVisible, timeout=5000)
        tap(qtbot, chip)
        for key in "5150":
            tap(qtbot, chip.pad.keys[key])
        tap(qtbot, chip.pad.ok)
        qtbot.waitUntil(lambda: chip.status.text() == "Dealer 5150", timeout=5000)
        qtbot.waitUntil(lambda: not chip.pad.isVisible(), timeout=5000)
        assert chip.isVisible()
    finally:
        console.close()
    rows = last(tmp_path / "w.db")
    assert [(r.record["kind"], r.record["dealer"]) for r in rows] == [(DEALER_CHANGE, "5150")]
