"""The banked console over a storage fault, with real things: the real serial
emulator, a SQLite journal (a ResilientJournal, as ``dealer-assist console`` opens it) locked by
a second connection holding a write transaction while the dealer turns their cards and the hand
settles. The dealer reads the storage sentence (English, Italian) on the banner and the message
line, never the library's words, and no step raises; the table stops (nothing taken from the
source, nothing journaled); once the lock goes, Retry resumes the table through the runner's
resume path and the hand is journaled once.
"""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.storage.faults import ResilientJournal
from dealer_assist.storage.journal import Journal
from tests.conftest import close_at_teardown
from tests.ui.test_console_walk import Clock, big, walk_table
from ui.console.presenter import ConsolePresenter
from ui.console.texts import message_text
from ui.console.view import Step
from ui.console.window import ConsoleWindow
from ui.kit.boot import qt_app
from ui.kit.i18n import install_language
from ui.kit.storage_notice import BUSY, RECOVERED

pytestmark = pytest.mark.integration

IT_BUSY = "Il giornale è bloccato da un altro programma: la mano resta in sospeso."
SEATS = (1, 2, 3)


def _locked_table(tmp_path: Path) -> tuple[Any, Clock, Path]:
    t, clock = walk_table(tmp_path, name="unused.db")
    db = tmp_path / "j.db"
    t.service.close()
    t.service.link.journal = ResilientJournal(f"sqlite:///{db}?timeout=0.2")
    t.service.link.storage.watch(t.service.journal)
    t.p = ConsolePresenter(t.config, t._send, clock=clock)
    t.p.subscribe(t.views.append)
    t.p.start()
    return t, clock, db


def _to_the_dealers_cards(t: Any, clock: Clock) -> None:
    """Bets on three seats, every seat checks to the river and plays 1x (the next tap turns
    the dealer's cards and settles)."""
    for seat in SEATS:
        t.bet(seat, ante=1000, trips=500)
    big(t, clock)
    for street in ("preflop", "flop"):
        assert t.view().step is Step.DECISIONS
        for seat in SEATS:
            t.p.decide(seat, Action(street, "check"))
        big(t, clock)
    for seat in SEATS:
        t.p.decide(seat, Action("river", "play", 1))


def _hands(db: Path) -> int:
    j = close_at_teardown(Journal(str(db), read_only=True))
    j.open()
    n = j.count(hands_only=True)
    j.close()
    return n


def test_a_locked_journal_stops_the_table_says_so_and_retry_journals_the_hand_once(
    tmp_path: Path, qtbot: Any
) -> None:
    app = qt_app()
    t, clock, db = _locked_table(tmp_path)
    _to_the_dealers_cards(t, clock)
    uid = t.p.snap.hand_uid
    lock = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    lock.execute("BEGIN IMMEDIATE")  # another program writes to the journal and keeps the lock
    try:
        big(t, clock)  # the dealer's cards: the payout list cannot be written
        snap = t.p.snap
        assert snap.error is not None and snap.error.code == "journal"
        assert snap.storage is not None and snap.storage.fault and snap.storage.text == BUSY
        view = t.view()
        assert view.storage is not None and view.message is not None
        said = message_text(view.message, t.config.currency)
        assert said.startswith("The journal is locked by another program")
        assert "database is locked" not in said and "sqlite" not in said.lower()
        assert snap.settlement is None and snap.phase is Phase.DECISIONS  # the step not taken
        assert t.service.link.storage.fault is not None
        t.service.tick()  # the table waits: a tick takes nothing, raises nothing
        big(t, clock)  # a second tap while still locked: the fault again, nothing changed
        assert t.p.snap.storage is not None and t.p.snap.storage.fault
        assert t.p.snap.hand_uid == uid
        # the window draws the banner, in English and in Italian
        win = ConsoleWindow(t.p, t.config, "en")
        qtbot.addWidget(win)
        win.resize(1280, 800)
        win.show()
        win.show_view(t.view())
        assert win.storage.isVisible()
        assert win.storage.text.text().startswith("⚠ The journal is locked by another program")
        assert win.storage.button.text() == "Retry"
        kept = install_language(app, "it")
        try:
            win.show_view(t.view())
            assert IT_BUSY in win.storage.text.text()
            assert IT_BUSY in message_text(t.view().message, t.config.currency)
        finally:
            for tr in kept:
                app.removeTranslator(tr)
            install_language(app, "en")
    finally:
        lock.execute("ROLLBACK")
        lock.close()
    assert _hands(db) == 0  # nothing journaled while locked
    qtbot.mouseClick(win.storage.button, qtbot_left())  # Retry: the table resumes
    snap = t.p.snap
    assert t.service.link.storage.fault is None
    assert snap.storage is not None and not snap.storage.fault and snap.storage.text == RECOVERED
    assert snap.hand_uid == uid and snap.error is None
    big(t, clock)  # the dealer's cards again: settled and journaled
    assert t.view().step is Step.REVEAL
    assert _hands(db) == 1
    win.show_view(t.view())
    assert win.storage.button.text() == "OK"
    qtbot.mouseClick(win.storage.button, qtbot_left())  # the notice read
    assert t.view().storage is None
    t.p.tap_retry()  # a retry with nothing wrong journals nothing twice
    assert _hands(db) == 1
    stored = t.service.journal.last_hand() if t.service.journal else None
    assert stored is not None and stored.hand_uid == uid and stored.status == "settled"
    t.service.close()


def qtbot_left() -> Any:
    from PySide6.QtCore import Qt

    return Qt.MouseButton.LeftButton


def test_a_hand_settled_while_the_journal_is_locked_is_journaled_once_after_retry(
    tmp_path: Path,
) -> None:
    """The lock comes between the settlement's step and the hand's append (a real second
    connection takes it just then): the hand is settled on screen but not journaled; the
    walk's Next waits with the fault; released, Retry journals it (the runner's
    journal_unsaved) once, and the next hand does not journal it again."""
    t, clock, db = _locked_table(tmp_path)
    _to_the_dealers_cards(t, clock)
    uid = t.p.snap.hand_uid
    journal = t.service.journal
    assert isinstance(journal, ResilientJournal)
    lock = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    append = journal.append_hand

    def append_locked(entry: Any) -> Any:  # another program starts writing just now
        if not lock.in_transaction:
            lock.execute("BEGIN IMMEDIATE")
        return append(entry)

    journal.append_hand = append_locked  # type: ignore[method-assign]
    try:
        big(t, clock)  # the dealer's cards: settled, the append refused
        snap = t.p.snap
        assert snap.error is not None and snap.error.code == "journal"
        assert snap.phase is Phase.SETTLED and snap.storage is not None and snap.storage.fault
        assert _hands(db) == 0
        big(t, clock)  # on to the first seat to pay
        big(t, clock)  # Next: the journal first, still locked: the fault again
        assert t.service.link.storage.fault is not None and t.p.snap.paid == ()
        assert t.p.paid == []  # not ticked on screen: the mark was not written
    finally:
        journal.append_hand = append  # type: ignore[method-assign]
        lock.execute("ROLLBACK")
        lock.close()
    t.p.tap_retry()
    assert t.service.link.storage.fault is None and t.p.snap.error is None
    assert _hands(db) == 1
    stored = journal.last_hand()
    assert stored is not None and stored.hand_uid == uid and stored.status == "settled"
    t.service.new_hand()
    assert _hands(db) == 1  # not journaled twice
    t.service.close()
