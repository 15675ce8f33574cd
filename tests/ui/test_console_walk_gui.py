"""By taps (Qt offscreen, the real emulator, the real guards): seven seats at 1280x800
and 1920x1080, English and Italian; the current seat of the payout list always wholly in view, a
double tap on *Next* pays one seat, *Back* and a tap on a row reopen a seat, the chips to pay
beside each box and the cards read; the armed *Void hand* stays where it was with a hint naming
it; the alarm's *Acknowledged* never under the big button."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QLabel, QWidget

from tests.fixtures.console_conftest import (  # noqa: F401
    Shots,
    console_app,
    console_factory,
    decide,
    emulator_url,
    enter_bets,
    tap,
    wait_step,
)
from ui.console.app import Console
from ui.console.view import Step
from ui.console.walk import TAP_GUARD
from ui.kit.tap_guard import HOLD
from ui.kit.translate import tr

SEATS = (1, 2, 3, 4, 5, 6, 7)
REAL: dict[
    str, float
] = {}  # the named settings themselves (the factory switches the guards off by default)


def rect_in(widget: QWidget, root: QWidget) -> QRect:
    """``widget``'s rectangle in ``root``'s coordinates."""
    return QRect(widget.mapTo(root, QPoint(0, 0)), widget.size())


def deliberate(qtbot: Any, widget: QWidget) -> None:
    """A tap after the double-tap guard has passed."""
    qtbot.wait(int(TAP_GUARD * 1000) + 80)
    qtbot.waitUntil(lambda: widget.isVisible() and widget.isEnabled(), timeout=5000)
    tap(qtbot, widget)


def decide_steady(qtbot: Any, console: Console, seat: int, label: str) -> None:
    """A decision tapped once its button stood still for the tap guard's hold (a tap sooner
    is not taken: ui.kit.tap_guard)."""
    qtbot.wait(int(HOLD * 1000) + 80)
    decide(qtbot, console, seat, label)


def current_fully_visible(console: Console) -> bool:
    page = console.window.side.settlement
    row = page.current_row()
    if row is None:
        return False
    port = page.scroller.viewport()
    top = row.mapTo(port, QPoint(0, 0)).y()
    return top >= 0 and top + row.height() <= port.height()


def play_seven(qtbot: Any, console: Console, shots: Shots) -> None:
    win = console.window
    wait_step(qtbot, console, Step.BETS)
    for seat in SEATS:
        enter_bets(qtbot, console, seat, ante=1000, trips=500)
    deliberate(qtbot, win.side.big)  # rien ne va plus
    wait_step(qtbot, console, Step.DECISIONS)
    for seat in SEATS:
        decide_steady(qtbot, console, seat, tr("Check"))
    tiles = win.table.tiles
    qtbot.waitUntil(lambda: all(tiles[s].change.isVisible() for s in SEATS), timeout=5000)
    shots.take(win, "preflop_checked")  # each seat: "Change decision" until the flop
    deliberate(qtbot, win.table.tiles[3].change)  # seat 3 was mis-tapped
    qtbot.waitUntil(lambda: 3 in console.presenter.snap.to_act, timeout=5000)
    decide_steady(qtbot, console, 3, tr("Check"))
    for _street in ("flop", "river"):
        deliberate(qtbot, win.side.big)
        wait_step(qtbot, console, Step.DECISIONS)
        # after the next cards the dealer alone changes nothing: a pit boss corrects
        shown = [
            win.table.tiles[s].change.text() for s in SEATS if win.table.tiles[s].change.isVisible()
        ]
        assert tr("Change") not in shown and set(shown) <= {tr("Correct")}
        labels = [b.text().split("\n")[0] for b in win.table.tiles[1].buttons]
        choice = labels[0] if console.presenter.snap.street == "river" else tr("Check")
        for seat in SEATS:
            decide_steady(qtbot, console, seat, choice)
    deliberate(qtbot, win.side.big)  # the dealer's cards
    wait_step(qtbot, console, Step.REVEAL)


@pytest.mark.parametrize(
    ("size", "lang"), [((1280, 800), "en"), ((1920, 1080), "it"), ((1280, 800), "it")]
)
def test_seven_seats_payout_walk_by_taps(
    qtbot: Any,
    console_factory: Any,  # noqa: F811
    size: tuple[int, int],
    lang: str,
) -> None:
    console = console_factory("uth", url=emulator_url(11), size=size, lang=lang, guards=REAL)
    win = console.window
    shots = Shots(f"walk_{size[0]}x{size[1]}_{lang}")
    play_seven(qtbot, console, shots)
    big = win.side.big
    deliberate(qtbot, big)  # settle
    wait_step(qtbot, console, Step.SETTLEMENT)
    order = [r.seat for r in console.presenter.view().settlement]
    assert order == [7, 6, 5, 4, 3, 2, 1]
    qtbot.waitUntil(lambda: current_fully_visible(console), timeout=3000)
    shots.take(win, "settlement_first")
    rows = console.presenter.view().settlement
    for i, row in enumerate(rows):
        qtbot.waitUntil(lambda: current_fully_visible(console), timeout=3000)
        widget = win.side.settlement.current_row()
        assert widget is not None and widget.seat == row.seat
        texts = [w.text() for w in widget.findChildren(QLabel)]
        cards = [t for t in texts if t.startswith(tr("Cards read: %1").split("%1")[0])]
        assert len(cards) == 1 and len(cards[0].split()) >= 4  # both cards, after the reveal
        pays = [t for t in texts if t.startswith(tr("Chips: %1").split("%1")[0])]
        assert len(pays) == len(row.pay)
        if i in (0, 3, 6):
            shots.take(win, f"seat{row.seat}")
        if i == 2:  # a double tap on Next: one seat paid, the next one opens
            deliberate(qtbot, big)
            qtbot.mouseClick(big, Qt.MouseButton.LeftButton)  # lit or not: the finger taps
            qtbot.wait(300)
            cur = [r.seat for r in console.presenter.view().settlement if r.state == "current"]
            assert cur == [order[3]]
            tap(qtbot, win.side.settlement.back)  # Back reopens the seat just paid
            cur = [r.seat for r in console.presenter.view().settlement if r.state == "current"]
            assert cur == [order[2]]
            first = win.side.settlement._widgets[0]
            qtbot.mouseClick(first, Qt.MouseButton.LeftButton)  # a tap on seat 7's row
            cur = [r.seat for r in console.presenter.view().settlement if r.state == "current"]
            assert cur == [7]
            qtbot.waitUntil(lambda: current_fully_visible(console), timeout=3000)
            shots.take(win, "reopened_seat7")
            deliberate(qtbot, big)  # 7 again: on to the first seat not paid
            cur = [r.seat for r in console.presenter.view().settlement if r.state == "current"]
            assert cur == [order[3]]
            continue
        deliberate(qtbot, big)
    while console.presenter.view().action.kind == "next":  # type: ignore[union-attr]
        qtbot.waitUntil(lambda: current_fully_visible(console), timeout=3000)
        deliberate(qtbot, big)
    assert [r.paid for r in console.presenter.view().settlement] == [True] * 7
    shots.take(win, "all_paid")
    stored = console.service.runner.stored  # type: ignore[union-attr]
    marks = console.service.runner.payouts.current()  # type: ignore[union-attr]
    assert stored is not None and marks is not None and sorted(marks.paid) == list(SEATS)


@pytest.mark.parametrize("size", [(1280, 800), (1920, 1080)])
def test_armed_void_stays_put_and_the_alarm_ack_is_not_under_the_big_button(
    qtbot: Any,
    console_factory: Any,  # noqa: F811
    size: tuple[int, int],
) -> None:
    console = console_factory("uth", url=emulator_url(12), size=size, guards=REAL)
    win = console.window
    wait_step(qtbot, console, Step.BETS)
    enter_bets(qtbot, console, 2, ante=1000)
    enter_bets(qtbot, console, 5, ante=1000)
    deliberate(qtbot, win.side.big)
    wait_step(qtbot, console, Step.DECISIONS)
    void = win.side.play.void
    before = rect_in(void, win)
    tap(qtbot, void)
    qtbot.waitUntil(lambda: console.presenter.view().void_armed, timeout=2000)
    qtbot.wait(50)
    assert rect_in(void, win) == before  # the second tap lands on the same button
    label = void.text()
    assert label == tr("Confirm: void the hand")
    assert label in win.side.play.hint.text()  # the hint names the button as it reads
    decide_steady(qtbot, console, 2, tr("Check"))  # any other tap disarms
    qtbot.waitUntil(lambda: not console.presenter.view().void_armed, timeout=2000)
    assert void.text() == tr("Void hand")
    big_rect = rect_in(win.side.big, win)
    tap(qtbot, void)
    tap(qtbot, void)
    wait_step(qtbot, console, Step.VOID)
    qtbot.wait(50)
    ack = rect_in(win.alarm.ack, win)
    assert win.alarm.ack.isVisible() and not ack.intersects(big_rect)
    assert ack.width() >= 320 and ack.height() >= 64
    Shots(f"void_alarm_{size[0]}x{size[1]}").take(win, "alarm")
    tap(qtbot, win.alarm.ack)  # at once: the alarm's guard takes no acknowledgement yet
    qtbot.wait(200)
    assert console.presenter.view().step is Step.VOID
    qtbot.wait(1000)
    tap(qtbot, win.alarm.ack)
    wait_step(qtbot, console, Step.BETS)
