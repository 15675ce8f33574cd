"""A tournament table's poker console shows the players the tournament director seated: the
table (seats, names, stacks, button, hand number) is the session of this table's last entry in
the tournament's shared journal, whoever wrote the chain's last entry (the director's desk,
another table). Journals made by the real director (tests/ui/test_tournament_screens.py).
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.games import session as session_module
from dealer_assist.games.session import TableSession
from dealer_assist.storage.journal import Journal
from drivers.manual import ManualSource
from tests.fixtures.journal_fixtures import make_entry
from tests.ui.test_tournament_screens import Clock, desk_for, stud_break
from ui.kit.service_parts import ServiceParts
from ui.poker.service import PokerService


@pytest.fixture
def journal(tmp_path: Path) -> Any:
    j = Journal(str(tmp_path / "tournament.db"))
    j.open()
    yield j
    j.close()


def seated(journal: Journal) -> tuple[str, dict[int, tuple[str, int]]]:
    """The director's table and who it seated there with what: ``{seat: (name, chips)}``."""
    desk = desk_for(journal, stud_break(), Clock())
    table = desk.state.tables[0]
    stacks = desk.state.stacks()
    return table, {s: (n, stacks[n]) for s, n in desk.state.at_table(table).items()}


def test_the_console_of_a_tournament_table_shows_the_seated_players(journal: Journal) -> None:
    table, players = seated(journal)
    last = journal.last_hand()
    assert last is not None and last.table_id != table  # the desk wrote last, not the table
    config = dataclasses.replace(
        load_table_config(game="stud"),
        table_id=table,
        seats=8,
        journal_url=str(journal.url_or_path),
    )
    service = PokerService(ServiceParts(config, ManualSource, Journal(str(journal.url_or_path))))
    try:
        snap = service.open()
        assert snap.error is None, snap.error
        assert {s.seat: (s.name, s.stack) for s in snap.seats} == players
        assert len(players) == 6 and all(chips == 1000 for _, chips in players.values())
        assert snap.hand_no == 0  # none played at this table yet (not the chain's entries)
        assert journal.count() > 10
    finally:
        service.close()


def test_the_session_is_this_tables_last_entry_however_far_back(
    journal: Journal, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, players = seated(journal)
    for n in range(5):  # another table plays on after this one's last entry
        journal.append_hand(make_entry(n, table_id="OTHER-2", hand_uid=f"other-{n}"))
    expect = {s: (n, c) for s, (n, c) in players.items()}
    for reads in (64, 2):  # near the head, then read forward past the backward reads
        monkeypatch.setattr(session_module, "BACKWARD_READS", reads)
        s = TableSession.of_journal(table, journal)
        assert {k: (p.name, p.stack) for k, p in s.seats.items()} == expect
        assert s.table_id == table and s.hands == 0
    assert TableSession.of_journal("NOWHERE-9", journal) == TableSession("NOWHERE-9")


def test_the_tournament_console_window_draws_the_players_not_empty_seats(
    journal: Journal, qtbot: Any
) -> None:
    from PySide6.QtWidgets import QLabel

    from ui.kit.boot import qt_app
    from ui.kit.i18n import install_language
    from ui.poker.app import PokerConsole

    install_language(qt_app(), "en")
    table, players = seated(journal)
    config = dataclasses.replace(
        load_table_config(game="stud"),
        table_id=table,
        seats=8,
        journal_url=str(journal.url_or_path),
    )
    console = PokerConsole(
        ServiceParts(config, ManualSource, Journal(str(journal.url_or_path))),
        lang="en",
        tournament="",
    )
    win = console.window
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    console.start()
    try:
        qtbot.waitUntil(lambda: len(console.presenter.snap.seats) == len(players), timeout=10000)
        qtbot.wait(100)
        texts = [w.text() for w in win.felt.findChildren(QLabel) if w.isVisible()]
        for name, _chips in players.values():
            assert name in texts, (name, texts)
        assert texts.count("Empty") == 8 - len(players)
        assert win.top.hand.text() == ""  # no hand played here yet: no "Hand 19"
    finally:
        console.close()
