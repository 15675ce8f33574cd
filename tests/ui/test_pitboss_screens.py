"""The pit-boss window at 1280x800 in English and Italian (Qt offscreen, a real simulated
journal): every column title fits its column (measured with the header's fontMetrics), every
amount is in euros (the search's columns and filter, the hand's bets and results, the replay's
stakes, the statistics), and the day chart is labelled by day."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from PySide6.QtCore import QDateTime, Qt
from PySide6.QtWidgets import QApplication, QTableView
from pytestqt.qtbot import QtBot

from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from tests.fixtures.pitboss_fixtures import columns, journal_copy, raw_hands
from ui.pitboss.app import PitBossWindow
from ui.pitboss.run import install_language
from ui.pitboss.service import Session, open_backend
from ui.pitboss.worker import Jobs


@pytest.fixture
def window(tmp_path: Path, qtbot: QtBot) -> Iterator[tuple[PitBossWindow, Jobs, Path]]:
    db = journal_copy(tmp_path)
    session = Session(*open_backend(None, db))
    session.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    session.login("PB-1", "246813")
    jobs = Jobs()
    win = PitBossWindow(session, jobs)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    yield win, jobs, db
    win.stats.close_worker()
    jobs.stop()
    session.close()


def _idle(qtbot: QtBot, jobs: Jobs) -> None:
    qtbot.waitUntil(lambda: jobs.pending == 0, timeout=20_000)


def _fill(qtbot: QtBot, win: PitBossWindow, jobs: Jobs, db: Path) -> None:
    win.show()
    win.start()
    _idle(qtbot, jobs)
    hand = next(h for h in raw_hands(db) if h.status == "settled")
    win.open_hand(hand.table_id, hand.hand_id)
    _idle(qtbot, jobs)
    win.recompute(hand.table_id, hand.hand_id)
    _idle(qtbot, jobs)
    far = int(datetime(2000, 1, 1, tzinfo=UTC).timestamp())
    win.stats.start_edit.setDateTime(QDateTime.fromSecsSinceEpoch(far))
    with qtbot.waitSignal(win.stats.shown, timeout=60_000):
        win.stats.refresh()


def _cut_titles(win: PitBossWindow) -> list[str]:
    cut = []
    for view in win.findChildren(QTableView):
        header, model = view.horizontalHeader(), view.model()
        fm = header.fontMetrics()
        for i in range(model.columnCount()):
            if header.isSectionHidden(i):
                continue
            title = str(model.headerData(i, Qt.Orientation.Horizontal) or "")
            if header.sectionSize(i) < fm.horizontalAdvance(title) + 8:
                cut.append(f"{view.objectName() or type(view).__name__}: {title!r}")
    return cut


@pytest.mark.parametrize("lang", ["en", "it"])
def test_no_column_title_is_cut_at_1280x800(
    qtbot: QtBot, window: tuple[PitBossWindow, Jobs, Path], lang: str
) -> None:
    win, jobs, db = window
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    translators = install_language(app, lang)
    try:
        _fill(qtbot, win, jobs, db)
        for tab in range(win.tabs.count()):
            win.tabs.setCurrentIndex(tab)
            qtbot.wait(1)  # layouts settle: no time is asserted
            assert _cut_titles(win) == [], win.tabs.tabText(tab)
        assert win.width() == 1280 and win.height() == 800
    finally:
        for t in translators:
            app.removeTranslator(t)


def test_every_amount_of_the_window_is_in_euros(
    qtbot: QtBot, window: tuple[PitBossWindow, Jobs, Path]
) -> None:
    win, jobs, db = window
    _fill(qtbot, win, jobs, db)
    model = win.model
    titles = [model.headerData(i, Qt.Orientation.Horizontal) for i in range(model.columnCount())]
    top = titles.index("Top payout or pot (EUR)")
    for i in range(model.rowCount()):
        r = model.row(i)
        if r.top_amount:
            assert (
                model.data(model.index(i, top))
                == f"{r.top_amount // 100:,}.{r.top_amount % 100:02d}"
            )
    facts = win.hand.facts.toPlainText()
    assert "EUR " in facts and "ante EUR " in facts and "net +EUR " in facts
    win.hand.go(len(win.hand.view.replay.steps) - 1 if win.hand.view else 0)
    assert "[ante EUR " in win.hand.step_text.toPlainText()
    stats = win.stats.table
    heads = [stats.horizontalHeaderItem(j).text() for j in range(stats.columnCount())]
    assert "Drop (EUR)" in heads and "Win (EUR)" in heads
    # the filter is in euros too: at least EUR 100 finds the hands paying 10,000 cents or more
    hands = raw_hands(db)
    want = {h.hand_id for h in hands if (columns(h)["top_amount"] or 0) >= 10_000}
    assert 0 < len(want) < len(hands)
    win.search.min_amount.setValue(100)
    win.search.run()
    _idle(qtbot, jobs)
    assert {model.row(i).position for i in range(model.rowCount())} == want


def test_the_day_chart_is_labelled_by_day(
    qtbot: QtBot, window: tuple[PitBossWindow, Jobs, Path]
) -> None:
    win, jobs, db = window
    _fill(qtbot, win, jobs, db)
    days = sorted({h.started_at.strftime("%Y-%m-%d") for h in raw_hands(db)})
    axis = win.stats.hold_plot.getAxis("bottom")
    ticks = axis._tickLevels  # what setTicks fixed (pyqtgraph keeps it there)
    assert ticks is not None and [label for _, label in ticks[0]] == days


def test_a_pot_games_replay_says_its_amounts_in_euros(tmp_path: Path) -> None:
    holdem = journal_copy(tmp_path).with_name("holdem.db")
    session = Session(*open_backend(None, holdem))
    session.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    session.login("PB-1", "246813")
    try:
        hand = next(h for h in raw_hands(holdem) if h.status == "settled")
        steps = session.open_hand(hand.table_id, hand.hand_id).replay.steps
        posts = [s.title for s in steps if s.kind == "forced_bet"]
        raises = [s.title for s in steps if s.kind == "bet" and " to " in s.title]
        assert posts and all(" EUR " in t for t in posts)
        assert all(" to EUR " in t for t in raises)
        acted = [a for s in steps for seat in s.seats for a in seat.actions if a[-1].isdigit()]
        assert all(" EUR " in a for a in acted)
    finally:
        session.close()
