"""What a dealer on a long shift reads at a glance: the local time in the top bar, the hand's
totals to pay and to collect, a tick on each seat paid, and at 1280x800 board cards and box
labels large enough to read (the board and the dealer's cards side by side under the seats).
Qt offscreen over the real table service, emulator and SQLite journal; an injected clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from tests.fixtures.console_conftest import Shots, console_app  # noqa: F401
from tests.ui.test_console_walk import big, play_to_reveal, walk_table
from ui.console.view import Step
from ui.console.window import ConsoleWindow
from ui.kit.format import money

pytestmark = pytest.mark.integration
ROME = timezone(timedelta(hours=1))


def test_local_time_totals_and_paid_ticks(
    qtbot: Any,
    console_app: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    t, clock = walk_table(tmp_path)
    now = datetime(2026, 12, 2, 8, 41, tzinfo=UTC)
    win = ConsoleWindow(t.p, t.config, "en", clock=lambda: now.astimezone(ROME))
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    win.top.refresh_device()
    assert win.top.time.isVisible() and win.top.time.text() == "09:41"  # local, not UTC
    play_to_reveal(t, clock, seats=(1, 3, 5, 7))
    big(t, clock)  # settle
    view = t.view()
    assert view.step is Step.SETTLEMENT and view.totals is not None
    settlement = t.p.snap.settlement
    assert settlement is not None
    nets = [b.net for s in settlement.seats for b in s.bets]
    assert view.totals == (sum(n for n in nets if n > 0), -sum(n for n in nets if n < 0))
    text = win.side.settlement.totals.text()
    assert money(view.totals[0], "EUR") in text and money(view.totals[1], "EUR") in text
    first = view.settlement[0].seat
    assert not win.table.tiles[first].badge.text().startswith("✓")
    big(t, clock)  # Next: the first seat paid
    QApplication.processEvents()
    assert win.table.tiles[first].badge.text().startswith("✓")
    assert [n for n, tile in win.table.tiles.items() if tile.badge.text().startswith("✓")] == [
        first
    ]
    Shots("shift_1280x800").take(win, "settlement_ticks")


def test_board_cards_and_box_labels_are_larger_at_1280x800(
    qtbot: Any,
    console_app: Any,  # noqa: F811
    tmp_path: Path,
) -> None:
    t, clock = walk_table(tmp_path)
    win = ConsoleWindow(t.p, t.config, "en")
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    for seat in range(1, 8):
        t.bet(seat, ante=1000, trips=500)
    big(t, clock)
    QApplication.processEvents()
    board, dealer = win.table.board, win.table.dealer
    assert min(c.width() for c in board) >= 64  # the ranks readable from the box
    assert board[0].y() == dealer[0].y()  # one row: the dealer's pair beside the board
    tiles = [tile.geometry() for tile in win.table.tiles.values()]
    assert all(c.geometry().top() > max(r.bottom() for r in tiles) for c in board)
    label = win.table.tiles[1].boxes["trips"].label
    assert label.font().pixelSize() >= 13 or label.fontInfo().pixelSize() >= 13
