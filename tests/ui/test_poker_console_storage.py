"""The poker console over a storage fault, with real things: a SQLite journal
(a ResilientJournal, as ``dealer-assist console --game holdem`` opens it) locked by a second
connection holding a write transaction while the hand settles. The dealer reads the storage
sentence (English, Italian) on the banner and the message line, never the library's words; the
hand stays pending and nothing is dealt; once the lock goes, Retry resumes the table and the
hand is journaled once.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import itertools
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.storage.faults import ResilientJournal
from drivers.manual import ManualSource
from tests.fixtures.poker_table import Table, cfg
from ui.kit.boot import qt_app
from ui.kit.i18n import install_language
from ui.kit.service_parts import ServiceParts
from ui.kit.storage_notice import BUSY, RECOVERED
from ui.poker.presenter import PokerPresenter
from ui.poker.service import PokerService
from ui.poker.texts import message_text
from ui.poker.window import PokerWindow

pytestmark = pytest.mark.integration

IT_BUSY = "Il giornale è bloccato da un altro programma: la mano resta in sospeso."


class LockedTable(Table):
    """The test console's table over a ResilientJournal with a short busy timeout."""

    def __init__(self, tmp: Path) -> None:  # as Table's, with the table's journal
        self.config = cfg()
        self.db = tmp / "j.db"
        self.journal = ResilientJournal(f"sqlite:///{self.db}?timeout=0.2")
        self.service = PokerService(ServiceParts(self.config, ManualSource, self.journal))
        self.now = itertools.count(0.0, 1.0)
        self.p = PokerPresenter(self.config, self.run, clock=lambda: next(self.now))
        self.sent = []
        self.entered = set()
        self.rest = {}
        self.snaps = []
        self.p.start()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[LockedTable]:
    t = LockedTable(tmp_path)
    yield t
    t.close()


def said(text_of: Any, lang: str) -> str:
    app = qt_app()
    translators = install_language(app, lang)
    try:
        return str(text_of())
    finally:
        for tr in translators:
            app.removeTranslator(tr)


@pytest.mark.parametrize("back_by", ["retry", "next_action"])
def test_a_locked_journal_at_the_settle_says_so_and_the_hand_is_journaled_once(
    table: LockedTable, qtbot: Any, back_by: str
) -> None:
    t = table
    t.seat_all()
    t.p.tap_new_hand()
    t.deal({})
    uid = t.p.snap.hand_uid
    for _ in range(2):  # folds to the big blind: the third fold ends the hand
        t.p.tap_action("fold")
        assert t.p.snap.error is None
    before = t.journal.count()
    lock = sqlite3.connect(t.db, isolation_level=None, check_same_thread=False)
    lock.execute("BEGIN IMMEDIATE")  # another program writing to the journal
    try:
        t.p.tap_action("fold")
        snap = t.p.snap
        assert snap.error is not None and snap.error.code == "journal"
        assert snap.storage is not None and snap.storage.fault and snap.storage.text == BUSY
        assert snap.in_hand and snap.hand_uid == uid  # pending: the fold was not applied
        view = t.p.view()
        assert view.storage is not None and view.message is not None
        en = said(lambda: message_text(view.message, "EUR"), "en")
        it = said(lambda: message_text(view.message, "EUR"), "it")
        assert en == BUSY and it.startswith(IT_BUSY)
        for text in (en, it):
            assert "locked" not in text.lower() or text == BUSY  # the sentence, not sqlite's
            assert "Traceback" not in text and "database is locked" not in text
        # the window's banner, in Italian, on the GUI thread from the view
        app = qt_app()
        translators = install_language(app, "it")
        try:
            win = PokerWindow(t.p, t.config, "it")
            qtbot.addWidget(win)
            win.show()
            win.show_view(t.p.view())
            assert win.storage.isVisible() and IT_BUSY in win.storage.text.text()
            assert win.storage.button.text() == "Riprova"
        finally:
            for tr in translators:
                app.removeTranslator(tr)
        # nothing is dealt or taken while the journal refuses: ticks leave the table as it is
        assert t.service.tick(0.05).storage == snap.storage
        # Retry while still locked: the same sentence, still pending
        t.p.tap_retry()
        assert t.p.snap.storage is not None and t.p.snap.storage.fault
        assert t.journal.count() == before
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    t.p.guard.last = None  # the dealer frees the journal, then taps (not a double tap)
    if back_by == "retry":
        t.p.tap_retry()
        snap = t.p.snap
        assert snap.error is None and snap.storage is not None and not snap.storage.fault
        assert snap.storage.text == RECOVERED and snap.in_hand and snap.hand_uid == uid
        t.p.guard.last = None
    t.p.tap_action("fold")  # the fold again: the table resumed, the hand settles, journaled
    assert t.p.snap.storage is not None and t.p.snap.storage.text == RECOVERED
    assert t.p.snap.error is None and t.p.snap.phase == "settled" and t.p.snap.journaled
    mine = [h for h in t.journal.iter_hands() if h.hand_uid == uid]
    assert len(mine) == 1 and mine[0].status == "settled"
    assert t.journal.pending_steps(t.config.table_id) == []
    t.p.dismiss_storage()
    assert t.p.view().storage is None  # the notice read


def test_a_journal_that_cannot_open_says_so_and_retry_opens_it(tmp_path: Path) -> None:
    folder = tmp_path / "gone"
    folder.write_text("a file where the journal's folder should be")
    journal = ResilientJournal(str(folder / "j.db"))
    service = PokerService(ServiceParts(cfg(), ManualSource, journal))
    p = PokerPresenter(cfg(), lambda c: p.on_snapshot(service.execute(c)))
    try:
        p.start()
        snap = p.snap
        assert snap.error is not None and snap.error.code == "journal"
        assert snap.storage is not None and snap.storage.fault
        assert p.message is not None and p.message.code == "storage"
        folder.unlink()
        folder.mkdir()
        p.tap_retry()
        assert p.snap.error is None and p.snap.storage is not None
        assert not p.snap.storage.fault and p.snap.storage.text == RECOVERED
        assert service.runner is not None and service.tick().storage == p.snap.storage
    finally:
        service.close()
