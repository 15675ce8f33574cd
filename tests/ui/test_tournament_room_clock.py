"""The room's clock is legible from 5 m (issue: players left and payouts were small): at
1920x1080 every figure a player reads (the level, the time, the limits or blinds, the ante, the
next level, players left, average stack, prize pool and each payout) is drawn at least
``LEGIBLE_PX`` pixels high, the labels over the values at least 40, nothing cut or off the
screen, in English and Italian, with nine paid places. Qt offscreen over a real SQLite journal
written by the director's desk; the clock is the test's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QCoreApplication, QPoint
from PySide6.QtWidgets import QLabel

from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.structure_reader import structure_from_dict
from tests.ui.test_console_text_fit import cut_texts
from tests.ui.test_tournament_screens import Clock
from ui.kit.boot import qt_app
from ui.kit.i18n import install_language
from ui.kit.labels import FitLabel
from ui.tournament.clock_window import LEGIBLE_PX, ClockWindow
from ui.tournament.desk import DirectorDesk

TITLE_PX = 40


def nine_paid() -> TournamentStructure:
    return structure_from_dict(
        {
            "tournament": {
                "name": "Room Hold'em",
                "game": "holdem",
                "chip": 25,
                "starting_stack": 10000,
                "max_seats": 9,
                "min_players": 6,
                "entry_fee_cents": 10000,
            },
            "levels": [
                {"small_blind": 100, "big_blind": 200, "ante": 25, "minutes": 20},
                {"small_blind": 150, "big_blind": 300, "ante": 50, "minutes": 20},
            ],
            "breaks": [{"after_level": 1, "minutes": 10}],
            "prizes": {"kind": "percentages", "percentages": [30, 20, 14, 10, 8, 6, 5, 4, 3]},
        }
    )


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(str(tmp_path / "tournament.db"))
    j.open()
    yield j
    j.close()


def drawn_px(label: QLabel) -> int:
    if isinstance(label, FitLabel):
        return label.shown()[1]
    return label.fontInfo().pixelSize()


@pytest.mark.parametrize("lang", ["en", "it"])
def test_the_room_clock_is_legible_from_five_metres(
    qtbot: Any, journal: Journal, lang: str
) -> None:
    translators = install_language(qt_app(), lang)
    clock = Clock()
    desk = DirectorDesk(journal, "ROOM", nine_paid(), now=clock)
    desk.open(seed=5, players=18, by="Anna")
    for i in range(18):
        desk.register(f"Giocatrice {i + 1:02d}", by="Anna")
    desk.draw(by="Anna")
    desk.start(by="Anna")
    win = ClockWindow(now=clock)
    qtbot.addWidget(win)
    try:
        for _ in range(2):
            win.resize(1920, 1080)
            QCoreApplication.processEvents()
        win.show()
        win.set_snapshot(desk.snapshot())
        clock.move(minutes=3)
        win.refresh()
        for _ in range(3):
            QCoreApplication.processEvents()
        read = [
            win.banner,
            win.time,
            win.blinds,
            win.forced,
            win.next,
            win.brk,
            *win.values.values(),
        ]
        paid = [w for w in (*win.places, *win.rows) if w.isVisible()]
        assert len([w for w in win.rows if w.isVisible()]) == 9  # every paid place shown
        for w in (*read, *paid):
            assert w.isVisible() and w.text(), w.objectName()
            assert drawn_px(w) >= LEGIBLE_PX, (w.text(), drawn_px(w))
        titles = [w for w in win.findChildren(QLabel) if w.objectName() == "tcPTitle"]
        assert len(titles) == 4
        for w in titles:
            assert drawn_px(w) >= TITLE_PX, (w.text(), drawn_px(w))
        assert cut_texts(win) == []
        for w in win.findChildren(QLabel):  # nothing off the screen
            if w.isVisible() and w.text():
                bottom = w.mapTo(win, QPoint(0, w.height())).y()
                assert bottom <= win.height(), (w.text(), bottom)
    finally:
        for t in translators:
            qt_app().removeTranslator(t)
