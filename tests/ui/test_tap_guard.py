"""The console kit's tap guard: a tap counts only on a control that was visible, enabled, titled
alike and in the same place for the guard's hold (injected clock; real widgets, pytest-qt)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QPushButton, QVBoxLayout, QWidget
from pytestqt.qtbot import QtBot

from ui.kit.tap_guard import HOLD, TapGuard


class Clock:
    """Seconds that move only when the test says so."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


def _window(qtbot: QtBot, clock: Clock) -> tuple[QWidget, QPushButton, TapGuard, list[str]]:
    win = QWidget()
    lay = QVBoxLayout(win)
    button = QPushButton("Play 4x")
    lay.addWidget(button)
    qtbot.addWidget(win)
    taps: list[str] = []
    button.clicked.connect(lambda: taps.append(button.text()))
    guard = TapGuard(clock=clock, parent=win)
    guard.watch(button)
    win.resize(300, 200)
    win.show()
    qtbot.waitExposed(win)
    return win, button, guard, taps


def _tap(qtbot: QtBot, button: QPushButton) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))


def test_a_tap_on_a_control_just_shown_is_refused_then_counts(qtbot: QtBot, clock: Clock) -> None:
    _, button, guard, taps = _window(qtbot, clock)
    refused: list[object] = []
    guard.refused.connect(refused.append)
    clock.now += HOLD / 3
    _tap(qtbot, button)
    assert taps == [] and refused == [button]
    clock.now += HOLD + 0.01
    _tap(qtbot, button)
    assert taps == ["Play 4x"]


def test_a_control_drawn_where_another_was_takes_no_tap_at_once(qtbot: QtBot, clock: Clock) -> None:
    """A double tap on Play 4x: the first places the decision, Change is drawn in its place; the
    second tap must not take the decision back."""
    win, button, guard, taps = _window(qtbot, clock)
    change = QPushButton("Change", win)
    change.hide()
    guard.watch(change)
    changed: list[str] = []
    change.clicked.connect(lambda: changed.append("change"))
    clock.now += 1.0

    def played() -> None:
        button.hide()
        change.setGeometry(button.geometry())
        change.show()

    button.clicked.connect(played)
    _tap(qtbot, button)
    assert taps == ["Play 4x"]
    clock.now += 0.1  # the second tap of a double tap
    _tap(qtbot, change)
    assert changed == []
    clock.now += HOLD + 0.01
    _tap(qtbot, change)
    assert changed == ["change"]


@pytest.mark.parametrize("change", ["disable", "move", "retitle", "hide"])
def test_any_change_restarts_the_hold(qtbot: QtBot, clock: Clock, change: str) -> None:
    win, button, _, taps = _window(qtbot, clock)
    clock.now += 1.0
    if change == "disable":
        button.setEnabled(False)
        button.setEnabled(True)
    elif change == "move":  # a parent's layout moves it: no Move event of its own
        win.layout().setContentsMargins(40, 40, 0, 0)
        win.layout().activate()
    elif change == "retitle":
        button.setText("Fold")
    else:
        button.hide()
        button.show()
    qtbot.wait(1)
    _tap(qtbot, button)
    assert taps == []
    clock.now += HOLD + 0.01
    _tap(qtbot, button)
    assert len(taps) == 1


def test_an_unwatched_control_is_not_guarded(qtbot: QtBot, clock: Clock) -> None:
    win, _, guard, _ = _window(qtbot, clock)
    free = QPushButton("Free", win)
    free.show()
    hits: list[int] = []
    free.clicked.connect(lambda: hits.append(1))
    _tap(qtbot, free)
    assert hits == [1] and not guard.allows(free)


def test_a_move_seen_long_ago_does_not_refuse_the_next_tap(qtbot: QtBot, clock: Clock) -> None:
    """A parent's layout moved the control (no event of its own): the guard's look sees it, so
    a tap a hold later counts at once, not only after a first refused tap."""
    win, button, _, taps = _window(qtbot, clock)
    clock.now += 1.0
    win.layout().setContentsMargins(40, 40, 0, 0)
    win.layout().activate()
    qtbot.wait(150)  # the guard looks every 50 ms
    clock.now += HOLD + 0.01
    _tap(qtbot, button)
    assert taps == ["Play 4x"]
