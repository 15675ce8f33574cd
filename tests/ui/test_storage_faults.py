"""Storage faults, with real things: a SQLite journal locked by a real second
connection holding a write transaction beyond the busy timeout, in the journal and under a
running ``simulate``; a finished hand the journal refused, journaled before the next one; the
dealer's sentences. Each fault ends in a retry that succeeds, or in one sentence on stderr (what
happened, what to do), exit 2 and no traceback, the hand pending for the next run, which resumes
it. PostgreSQL: test_storage_faults_pg.py; the disk: test_storage_faults_disk.py.
"""

from __future__ import annotations

import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.errors import (
    JournalError,
    StorageBusyError,
    StorageFullError,
    StorageLostError,
    StorageLowError,
)
from dealer_assist.storage.faults import RETRIES, ResilientJournal, StorageNotice, classify
from dealer_assist.storage.journal import Journal
from dealer_assist.table.recovery import sort_pending
from tests.conftest import REPO, close_at_teardown
from tests.fixtures.journal_fixtures import make_entry
from ui.cli import main

pytestmark = pytest.mark.integration

TABLE = "UTH-01"


def _url(db: Path, timeout: float = 0.2) -> str:
    return f"sqlite:///{db}?timeout={timeout}"


def _journal(url: str, **kwargs: Any) -> ResilientJournal:
    journal = close_at_teardown(ResilientJournal(url, **kwargs))
    journal.open()
    return journal


def _locker(db: Path) -> sqlite3.Connection:
    """A second connection holding the journal's write lock (BEGIN IMMEDIATE)."""
    conn = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN IMMEDIATE")
    return conn


# -- SQLite locked beyond the busy timeout ------------------------------------------------------


def test_a_lock_released_during_the_retries_costs_one_wait_and_the_step_is_written(
    tmp_path: Path,
) -> None:
    db = tmp_path / "j.db"
    notes: list[StorageNotice] = []
    waits: list[float] = []
    locks: list[sqlite3.Connection] = []

    def sleep(seconds: float) -> None:  # the other program commits while the table waits
        waits.append(seconds)
        locks[0].execute("COMMIT")

    journal = _journal(_url(db), on_notice=notes.append, sleep=sleep)
    locks.append(_locker(db))
    lock = locks[0]
    began = time.monotonic()
    journal.write_step(TABLE, "h1", 0, "open", {"n": 1})
    took = time.monotonic() - began
    lock.close()
    assert waits == [RETRIES["busy"].first_delay]  # the lock went during the first wait
    assert [s.step_no for s in journal.pending_steps(TABLE)] == [0]
    assert journal.faults == 1 and journal.recovered == 1
    assert len(notes) == 1 and "answered again after a storage fault" in str(notes[0])
    assert notes[0].kind == "recovered" and notes[0].seconds >= 0.2
    assert 0.2 <= took < 5


def test_a_lock_held_past_the_retries_is_a_busy_error_and_nothing_is_written(
    tmp_path: Path,
) -> None:
    db = tmp_path / "j.db"
    waits: list[float] = []
    journal = _journal(_url(db), sleep=waits.append)
    lock = _locker(db)
    began = time.monotonic()
    with pytest.raises(StorageBusyError, match="database is locked") as caught:
        journal.write_step(TABLE, "h1", 0, "open", {"n": 1})
    took = time.monotonic() - began
    assert "locked by another connection" in str(caught.value)
    assert caught.value.advice.startswith("close the other program")
    assert waits == RETRIES["busy"].delays() == [0.5, 1.0]
    assert took >= 3 * 0.2  # each try waited the busy timeout
    # an append without a hand_uid is not idempotent: one try only
    waits.clear()
    with pytest.raises(StorageBusyError):
        journal.append_hand(make_entry(1))
    assert waits == []
    lock.execute("ROLLBACK")
    lock.close()
    assert journal.pending_steps(TABLE) == [] and journal.count() == 0


def test_a_fault_no_retry_mends_is_raised_at_once_as_it_was(tmp_path: Path) -> None:
    waits: list[float] = []
    journal = _journal(_url(tmp_path / "j.db"), sleep=waits.append)
    journal.write_step(TABLE, "h1", 0, "open", {"n": 1})
    journal.write_step(TABLE, "h1", 0, "open", {"n": 1})  # the same step again: stored once
    with pytest.raises(JournalError, match="already written with other content") as caught:
        journal.write_step(TABLE, "h1", 0, "open", {"n": 2})
    assert classify(caught.value) is None and not isinstance(caught.value, StorageBusyError)
    assert waits == [] and journal.faults == 0 and len(journal.pending_steps(TABLE)) == 1


def test_the_plain_journal_gives_up_at_the_first_lock(tmp_path: Path) -> None:
    """What the retries add: without them the first busy timeout ends the write."""
    db = tmp_path / "j.db"
    journal = close_at_teardown(Journal(_url(db)))
    journal.open()
    lock = _locker(db)
    with pytest.raises(JournalError) as caught:
        journal.write_step(TABLE, "h1", 0, "open", {})
    lock.close()
    assert classify(caught.value) == "busy" and not isinstance(caught.value, StorageBusyError)


def _said(err: str) -> list[str]:
    """The lines of stderr, without the notice of a table's new signing key (first run)."""
    return [line for line in err.splitlines() if "new signing key" not in line]


def _simulate(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    status = main(["simulate", "--no-progress", "--seed", "3", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def _count(db: Path, query: str) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1.0) as conn:
            return int(conn.execute(query).fetchone()[0])
    except sqlite3.Error:
        return 0


STEPS = "select count(*) from pending_steps where kind not in ('void_alarm', 'void_ack')"


def _lock_mid_hand(db: Path, hold: float, stop: threading.Event) -> threading.Thread:
    """A second program that takes the journal's write lock in the middle of a hand (the
    journal has 2 hands and 3 steps of the next) and holds it ``hold`` seconds or until
    ``stop``."""

    def run() -> None:
        deadline = time.monotonic() + 60
        while not stop.is_set() and time.monotonic() < deadline:
            if _count(db, "select count(*) from hands") >= 2 and _count(db, STEPS) >= 3:
                break
            time.sleep(0.001)
        lock = sqlite3.connect(db, isolation_level=None, timeout=5)
        try:
            lock.execute("BEGIN IMMEDIATE")
            stop.wait(hold)
            lock.execute("ROLLBACK")
        finally:
            lock.close()

    thread = threading.Thread(target=run, name="journal-locker")
    thread.start()
    return thread


def _pending(db: Path, table_id: str = TABLE) -> list[str]:
    with Journal(str(db), create=False) as journal:
        return [uid for uid, _ in sort_pending(journal.pending_steps(table_id)).hands]


def _verified(db: Path) -> list[str]:
    with Journal(str(db), create=False) as journal:
        assert journal.verify().ok
        return [str(h.hand_uid) for h in journal.iter_hands()]


def test_simulate_on_a_journal_locked_mid_hand_stops_in_a_sentence_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "j.db"
    stop = threading.Event()
    locker = _lock_mid_hand(db, 60, stop)
    try:
        status, _, err = _simulate(["--hands", "40", "--db", _url(db)], capsys)
    finally:
        stop.set()
        locker.join()
    assert status == 2 and "Traceback" not in err, err
    assert len(_said(err)) == 1, err  # one sentence
    assert "locked by another connection" in err
    assert (
        "close the other program that is writing to the journal, then run the same command" in err
    )
    pending = _pending(db)
    assert len(pending) <= 1
    if pending:
        assert f"hand {pending[0]} stays pending" in err
    status, out, err = _simulate(["--hands", "1", "--db", str(db)], capsys)
    assert status == 0, err
    if pending:
        assert f"resumed hand {pending[0]}" in out or f"voided hand {pending[0]}" in out, out
        assert pending[0] in _verified(db)
    assert _pending(db) == []


def test_simulate_goes_on_when_the_lock_goes_within_the_retries(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "j.db"
    stop = threading.Event()
    locker = _lock_mid_hand(db, 0.6, stop)
    try:
        status, out, err = _simulate(["--hands", "6", "--db", _url(db)], capsys)
    finally:
        stop.set()
        locker.join()
    assert status == 0, err
    assert "answered again after a storage fault" in err
    assert "hands: 6 (settled" in out
    assert _pending(db) == [] and len(_verified(db)) == 6


# -- the dealer's sentences -----------------------------------------------------------------------


def test_each_fault_and_notice_has_a_dealer_sentence_in_italian() -> None:
    from PySide6.QtCore import QTranslator

    from ui.kit import storage_notice as sn

    cases: list[tuple[JournalError | StorageNotice, str, tuple[str, ...]]] = [
        (StorageFullError("x"), sn.FULL, ()),
        (
            StorageLowError("x", free_bytes=3 * 1024 * 1024, refuse_bytes=8 * 1024 * 1024),
            sn.REFUSED,
            ("3.0", "8.0"),
        ),
        (StorageBusyError("x"), sn.BUSY, ()),
        (StorageLostError("x"), sn.LOST, ()),
        (JournalError("x"), sn.OTHER, ()),
        (
            StorageNotice(
                "low_space", "x", free_bytes=40 * 1024 * 1024, refuse_bytes=8 * 1024 * 1024
            ),
            sn.LOW,
            ("40", "8.0"),
        ),
        (StorageNotice("recovered", "x", seconds=1.0), sn.RECOVERED, ()),
    ]
    translator = QTranslator()
    assert translator.load(str(REPO / "ui" / "i18n" / "console_it.qm"))
    for what, text, args in cases:
        assert sn.storage_text(what) == (text, args)
        italian = translator.translate("", text)
        assert italian and italian != text, text
        assert italian.count("%") == text.count("%")


# -- a finished hand the journal could not take is journaled before the next one ----------------


class _LockedAtFirstAppend(ResilientJournal):
    """A real journal; another program holds its write lock when the first hand is appended
    (and lets it go just after that append failed)."""

    locked = 0

    def append_hand(self, entry: Any) -> Any:
        if type(self).locked == 0 and entry.status != "table":
            type(self).locked += 1
            db = Path(str(self.url_or_path).split("///", 1)[1].split("?", 1)[0])
            lock = _locker(db)
            try:
                return super().append_hand(entry)
            finally:
                lock.close()
        return super().append_hand(entry)


def test_a_settled_hand_the_journal_refused_is_journaled_once_before_the_next_hand(
    tmp_path: Path,
) -> None:
    from dealer_assist.engine.views import Phase
    from dealer_assist.players import PlayerModel
    from dealer_assist.table.driving import HeadlessTable, play_hand
    from drivers.factory import open_source

    config = load_table_config(game="uth")
    db = tmp_path / "j.db"
    journal = close_at_teardown(_LockedAtFirstAppend(_url(db, 0.1), sleep=lambda _s: None))
    journal.open()
    source = close_at_teardown(
        open_source("emulator://?seed=2&shuffle_time=0.01&card_interval=0.001", name="serial")
    )
    source.open()
    table = HeadlessTable(config, source, journal)
    model = PlayerModel(config, 2)
    with pytest.raises(StorageBusyError):
        play_hand(table, model, [1, 2])
    first = table.hand
    assert first is not None and first.phase is Phase.SETTLED and table.stored is None
    assert [uid for uid, _ in sort_pending(journal.pending_steps(TABLE)).hands] == [first.hand_uid]
    second = play_hand(table, model, [1, 2])  # the storage works again: the first goes first
    stored = list(journal.iter_hands())
    assert [h.hand_uid for h in stored] == [first.hand_uid, second.hand_uid]
    assert stored[0].status == "settled" and journal.verify().ok
    assert sort_pending(journal.pending_steps(TABLE)).hands == []
