"""The two misfires dealers reported, replayed with the real guards on a clock of the test's own:
a triple tap on *Next* (taps ~385 ms apart) pays one seat and never skips the next one unseen;
a double tap on *Play 4x* (UTH) or *Bet* (THB) places the decision once and the second tap does
not take it back (no control is drawn under the finger that just tapped, and one drawn nearby
takes no tap for the guard's hold). Real table service, emulator and SQLite journal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QWidget

from dealer_assist.engine.rules import Action
from tests.fixtures.console_conftest import (  # noqa: F401
    Shots,
    console_app,
    console_factory,
    emulator_url,
    enter_bets,
    tap,
    wait_step,
)
from tests.ui.test_console_walk import Clock, big, play_to_reveal, walk_table
from ui.console.view import Step
from ui.console.walk import TAP_GUARD
from ui.kit.tap_guard import HOLD

pytestmark = pytest.mark.integration


def test_a_triple_tap_on_next_pays_one_seat_and_skips_none(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    play_to_reveal(t, clock)
    big(t, clock)  # settle: the first seat opens
    order = [r.seat for r in t.view().settlement]
    first = t.p.cursor
    clock.wait(1.0)
    for _ in range(3):  # the reported marks: three taps within 769 ms
        t.p.dealer_button()
        clock.wait(0.385)
    assert t.p.paid == [order[0]] and t.p.cursor == (first or 0) + 1
    current = [r.seat for r in t.view().settlement if r.state == "current"]
    assert current == [order[1]]  # the next seat is open and shown, not paid
    clock.wait(1.0)
    t.p.dealer_button()  # a deliberate tap after the burst: the seat on screen is paid
    assert t.p.paid == order[:2]


def test_next_right_after_a_seat_opens_from_its_row_does_not_pay_it(tmp_path: Path) -> None:
    t, clock = walk_table(tmp_path)
    play_to_reveal(t, clock)
    big(t, clock)
    order = [r.seat for r in t.view().settlement]
    clock.wait(1.0)
    t.p.open_row(order[4])  # a tap on a row...
    clock.wait(0.1)
    t.p.dealer_button()  # ...and Next under the other finger at once: that seat was not seen
    assert t.p.paid == []
    clock.wait(1.0)
    t.p.dealer_button()
    assert t.p.paid == [order[4]]


def _rect(widget: QWidget, root: QWidget) -> QRect:
    return QRect(widget.mapTo(root, QPoint(0, 0)), widget.size())


def _finger(qtbot: Any, root: QWidget, point: QPoint) -> QWidget | None:
    """A tap at ``point`` of ``root``: on whatever control is drawn there now."""
    target = root.childAt(point)
    if target is not None:
        qtbot.mouseClick(target, Qt.MouseButton.LeftButton, pos=target.mapFrom(root, point))
    return target


@pytest.mark.parametrize(
    ("game", "lang", "size", "stake"),
    [("uth", "en", (1280, 800), Action("preflop", "play", 4)), ("thb", "it", (1920, 1080), None)],
)
def test_a_double_tap_on_a_decision_places_it_once(
    qtbot: Any,
    console_factory: Any,  # noqa: F811
    game: str,
    lang: str,
    size: tuple[int, int],
    stake: Action | None,
) -> None:
    clock = Clock()
    console = console_factory(
        game, url=emulator_url(5), lang=lang, size=size, guards={}, clock=clock
    )
    win = console.window
    wait_step(qtbot, console, Step.BETS)
    for seat in (2, 5):
        enter_bets(qtbot, console, seat, ante=1000)
    qtbot.wait(120)  # drawn and seen by the guard, then left alone for a while
    clock.wait(1.0)
    tap(qtbot, win.side.big)  # rien ne va plus
    wait_step(qtbot, console, Step.DECISIONS)
    tile = win.table.tiles[2]
    legal = next(s for s in console.presenter.snap.seats if s.seat == 2).legal
    action = stake if stake is not None else next(a for a in legal if a.action != "fold")
    button = tile.buttons[legal.index(action)]
    qtbot.wait(120)
    Shots(f"misfire_{game}_{lang}").take(win, "decisions")
    clock.wait(1.0)
    point = _rect(button, win).center()
    _finger(qtbot, win, point)
    qtbot.waitUntil(lambda: 2 in console.presenter.snap.undoable, timeout=5000)
    qtbot.wait(120)  # the guard's look (every 50 ms) sees what moved
    Shots(f"misfire_{game}_{lang}_after").take(win, "decided")
    change = _rect(tile.change, win)
    assert tile.change.isVisible() and not change.contains(point)  # nothing under the finger
    clock.wait(0.1)  # the second tap of the double tap
    _finger(qtbot, win, point)
    for target in (tile.change,):  # drawn nearby: no tap for the hold either
        qtbot.mouseClick(target, Qt.MouseButton.LeftButton)
    qtbot.wait(200)
    hand = console.service.hand
    assert hand is not None and hand.seats[2].actions == [action]
    assert 2 in console.presenter.snap.undoable
    clock.wait(max(HOLD, TAP_GUARD) + 0.1)
    tap(qtbot, tile.change)  # a deliberate tap on Change: the decision is taken back
    qtbot.waitUntil(lambda: hand.seats[2].actions == [], timeout=5000)
