"""Storage faults (issue 18 item 6), with real things: a SQLite journal locked by a real second
connection holding a write transaction beyond the busy timeout; PostgreSQL connections killed
with ``pg_terminate_backend`` from a second connection (between writes and inside a transaction);
an unreachable server; a real full disk (a small tmpfs mounted for the test, skipped where
mounting is not permitted) and a real file size limit (RLIMIT_FSIZE: EFBIG); the records file
on a full disk. Each ends in a retry that succeeds, or in one sentence on stderr (what happened,
what to do), exit 2 and no traceback, the hand pending for the next run, which resumes it.
"""

from __future__ import annotations

import json
import resource
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
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
from dealer_assist.storage.faults import (
    RETRIES,
    DiskLimits,
    DiskSpace,
    ResilientJournal,
    StorageNotice,
    classify,
)
from dealer_assist.storage.journal import Journal
from dealer_assist.table.recovery import sort_pending
from tests.conftest import REPO, close_at_teardown
from tests.test_journal_fixtures import make_backend, make_entry
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
    assert "close the other program that is writing to the journal, then run the same command" \
        in err  # fmt: skip
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


# -- PostgreSQL: connections killed, the server unreachable -------------------------------------


ADMIN_DSN = "postgresql://postgres@127.0.0.1:5432/test"  # the user make_backend found


@pytest.fixture
def pg_url(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A journal URL in a schema of its own, with an application name to find its backends."""
    global ADMIN_DSN
    backend = make_backend("postgres", tmp_path)
    made = next(backend)
    ADMIN_DSN = str(made.pg_dsn)
    name = f"dafaults{uuid.uuid4().hex[:10]}"
    yield f"{made.url}&application_name={name}", name
    next(backend, None)


def _terminate(name: str, *, waiting: bool = False) -> int:
    """pg_terminate_backend from a second connection: the backends of ``name`` (``waiting``:
    only one waiting for a lock); how many."""
    import psycopg

    where = "application_name = %s" + (" and wait_event_type = 'Lock'" if waiting else "")
    with psycopg.connect(ADMIN_DSN, autocommit=True) as conn:
        row = conn.execute(
            f"select count(pg_terminate_backend(pid)) from pg_stat_activity where {where}",
            (name,),
        ).fetchone()
    return int(row[0]) if row else 0


@pytest.mark.postgres
def test_a_pooled_connection_the_server_killed_is_replaced_before_the_next_write(
    pg_url: tuple[str, str],
) -> None:
    url, name = pg_url
    journal = _journal(url)
    journal.write_step(TABLE, "h1", 0, "open", {})
    assert _terminate(name) >= 1
    began = time.monotonic()
    journal.write_step(TABLE, "h1", 1, "bets", {})
    took = time.monotonic() - began
    assert [s.step_no for s in journal.pending_steps(TABLE)] == [0, 1]
    assert journal.faults == 0 and took < 2  # pool_pre_ping: no error, no retry


@pytest.mark.postgres
def test_a_connection_killed_inside_an_append_is_retried_and_the_hand_stored_once(
    pg_url: tuple[str, str],
) -> None:
    import psycopg

    url, name = pg_url
    notes: list[StorageNotice] = []
    journal = _journal(url, on_notice=notes.append)
    journal.write_step(TABLE, "h1", 0, "open", {})
    schema = url.split("search_path%3D", 1)[1].split("&", 1)[0]
    blocker = psycopg.connect(ADMIN_DSN, options=f"-csearch_path={schema}")
    blocker.execute("select * from chain_head where id = 1 for update")  # the append waits
    result: list[Any] = []
    entry = make_entry(1, hand_uid="h1", table_id=TABLE)
    appender = threading.Thread(target=lambda: result.append(journal.append_hand(entry)))
    appender.start()
    try:
        deadline = time.monotonic() + 10
        killed = 0
        while not killed and time.monotonic() < deadline:
            killed = _terminate(name, waiting=True)  # the journal's, inside its transaction
            time.sleep(0.02)
        assert killed == 1
    finally:
        blocker.rollback()
        blocker.close()
        appender.join(30)
    assert result and result[0].hand_uid == "h1"
    assert journal.count() == 1 and journal.pending_steps(TABLE) == []
    assert journal.faults >= 1 and notes and "answered again" in str(notes[0])


@pytest.mark.postgres
def test_simulate_goes_on_while_its_connections_are_killed(
    pg_url: tuple[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    url, name = pg_url
    stop = threading.Event()
    kills: list[int] = []

    schema = url.split("search_path%3D", 1)[1].split("&", 1)[0]

    def hands() -> int:
        import psycopg

        try:
            with psycopg.connect(ADMIN_DSN, options=f"-csearch_path={schema}") as conn:
                row = conn.execute("select count(*) from hands").fetchone()
        except psycopg.Error:
            return 0
        return int(row[0]) if row else 0

    def killer() -> None:  # once the table deals, its connections killed every 0.3 s
        while not stop.wait(0.05) and hands() < 2:
            pass
        while not stop.wait(0.3):
            kills.append(_terminate(name))

    thread = threading.Thread(target=killer, name="pg-killer")
    thread.start()
    try:
        status, out, err = _simulate(["--hands", "25", "--db", url], capsys)
    finally:
        stop.set()
        thread.join()
    assert status == 0, err
    assert sum(kills) >= 3, kills
    assert "hands: 25 (settled" in out
    with Journal(url, create=False) as journal:
        assert journal.verify().ok and journal.count() == 25
        assert sort_pending(journal.pending_steps(TABLE)).hands == []


def test_an_unreachable_server_is_a_lost_connection_after_the_retries() -> None:
    pytest.importorskip("psycopg")
    waits: list[float] = []
    journal = ResilientJournal("postgresql+psycopg://postgres@127.0.0.1:1/test", sleep=waits.append)
    with pytest.raises(StorageLostError) as caught:
        journal.open()
    assert waits == RETRIES["lost"].delays() == [0.25, 0.5, 1.0, 2.0, 4.0]
    assert "connection to the journal's database was lost" in str(caught.value)
    assert caught.value.advice.startswith("check that the database server")


# -- the disk: free space watched, a real full disk, a file size limit ------------------------


def test_free_space_below_the_limits_warns_once_and_refuses_a_new_hand_only(
    tmp_path: Path,
) -> None:
    notes: list[StorageNotice] = []
    free = DiskSpace(tmp_path, DiskLimits()).check(force=True)
    assert free is not None
    limits = DiskLimits(warn_bytes=free * 4, refuse_bytes=free * 2)  # this disk, "too full"
    journal = _journal(str(tmp_path / "j.db"), limits=limits, on_notice=notes.append)
    assert len(notes) == 1 and "MiB free: free space soon" in str(notes[0])
    assert notes[0].kind == "low_space" and notes[0].refuse_bytes == free * 2
    with pytest.raises(StorageFullError, match="no new hand") as caught:
        journal.write_step(TABLE, "h1", 0, "open", {})  # a new hand's first step
    assert isinstance(caught.value, StorageLowError) and caught.value.refuse_bytes == free * 2
    journal.write_step(TABLE, "h0", 5, "card", {})  # the hand in progress goes on
    journal.space.check(force=True)  # type: ignore[union-attr]
    assert len(notes) == 1  # said once
    assert [(s.hand_uid, s.step_no) for s in journal.pending_steps(TABLE)] == [("h0", 5)]


def test_disk_limits_must_refuse_below_the_warning() -> None:
    with pytest.raises(JournalError, match="refuse"):
        DiskLimits(warn_bytes=1, refuse_bytes=2)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Callable[[int], Path]]:
    """Mount a real tmpfs of N KiB (resizable: call again); skipped where mounting is not
    permitted."""
    where = tmp_path / "disk"
    where.mkdir()
    mounted = False

    def mount(kib: int) -> Path:
        nonlocal mounted
        opts = f"size={kib}k,mode=0700" + (",remount" if mounted else "")
        cmd = ["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(where)]
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode:
            pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
        mounted = True
        return where

    yield mount
    if mounted:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def _run(args: list[str], **kwargs: Any) -> subprocess.CompletedProcess[str]:
    streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, **kwargs}
    return subprocess.run([sys.executable, "-m", "ui.cli", "simulate", "--no-progress",
                           "--seed", "4", *args], cwd=REPO, text=True, timeout=180,
                          check=False, **streams)  # fmt: skip


def _records_exact(db: Path, records: Path) -> None:
    data = records.read_bytes()
    assert not data or data.endswith(b"\n"), "a half-written last line"
    lines = [json.loads(line) for line in data.decode().splitlines()]
    with Journal(str(db), create=False) as journal:
        assert journal.verify().ok
        settled = [h.hand_uid for h in journal.iter_hands() if h.status == "settled"]
    assert [r["hand_uid"] for r in lines] == settled


def test_a_full_disk_mid_run_stops_in_a_sentence_and_the_hand_resumes_once_space_is_freed(
    small_disk: Callable[[int], Path],
) -> None:
    disk = small_disk(1024)
    db, records = disk / "j.db", disk / "r.jsonl"
    limits = ["--disk-warn-mib", "0", "--disk-refuse-mib", "0"]  # let it fill up for real
    full = _run(["--hands", "3000", "--db", str(db), "--records", str(records), *limits])
    assert full.returncode == 2 and "Traceback" not in full.stderr, full.stderr
    assert len(_said(full.stderr)) == 1, full.stderr  # one sentence
    assert "full" in full.stderr and "free space on that disk, then run the same command" \
        in full.stderr  # fmt: skip
    pending = _pending(db)
    assert len(pending) <= 1
    if pending:
        assert f"hand {pending[0]} stays pending" in full.stderr
    small_disk(128 * 1024)  # space freed
    again = _run(["--hands", "2", "--db", str(db), "--records", str(records)])
    assert again.returncode == 0, again.stderr
    if pending:
        said = again.stdout
        assert f"resumed hand {pending[0]}" in said or f"voided hand {pending[0]}" in said, said
    assert _pending(db) == []
    _records_exact(db, records)


def test_a_disk_below_the_refusal_threshold_starts_no_hand_and_says_so(
    small_disk: Callable[[int], Path],
) -> None:
    disk = small_disk(2048)
    done = _run(["--hands", "5", "--db", str(disk / "j.db")])
    assert done.returncode == 2 and "Traceback" not in done.stderr
    warning, stopped = _said(done.stderr)
    assert "MiB free: free space soon; below 8 MiB no new hand starts" in warning
    assert "stopped: no new hand: the disk of the journal" in stopped
    assert "free space on that disk, then run the same command again" in stopped
    assert _pending(disk / "j.db") == []


def test_records_on_a_full_disk_keep_no_half_line_and_are_caught_up_later(
    tmp_path: Path, small_disk: Callable[[int], Path]
) -> None:
    disk = small_disk(16)
    db, records = tmp_path / "j.db", disk / "r.jsonl"
    full = _run(["--hands", "40", "--db", str(db), "--records", str(records)])
    assert full.returncode == 2 and "Traceback" not in full.stderr, full.stderr
    assert "records file" in full.stderr and "No space left on device" in full.stderr
    assert "free space on that disk" in full.stderr
    assert records.read_bytes().endswith(b"\n")  # the failed line was taken back
    small_disk(128 * 1024)
    again = _run(["--hands", "1", "--db", str(db), "--records", str(records)])
    assert again.returncode == 0, again.stderr
    assert "half-written" not in again.stdout
    _records_exact(db, records)


def _file_limit(limit: int) -> Callable[[], None]:
    return lambda: resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_file_size_limit_is_a_storage_error_in_a_sentence_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    """RLIMIT_FSIZE: every write past 512 KiB fails with EFBIG (the journal's WAL first)."""
    db, records = tmp_path / "j.db", tmp_path / "r.jsonl"
    args = ["--db", str(db), "--records", str(records), "--disk-refuse-mib", "0"]
    limited = _run(["--hands", "3000", *args], preexec_fn=_file_limit(512 * 1024))
    assert limited.returncode == 2 and "Traceback" not in limited.stderr, limited.stderr
    assert "refused the write" in limited.stderr or "records file" in limited.stderr
    assert "free space on that disk, then run the same command" in limited.stderr
    pending = _pending(db)
    again = _run(["--hands", "1", *args])
    assert again.returncode == 0, again.stderr
    if pending:
        assert pending[0] in _verified(db)
    assert _pending(db) == []
    _records_exact(db, records)


@pytest.mark.parametrize("game", ["uth", "holdem"])
def test_output_on_a_full_disk_is_a_sentence_not_a_traceback(tmp_path: Path, game: str) -> None:
    """stdout sent to a full device (/dev/full: every write ENOSPC): the summary cannot be
    written; every hand is journaled all the same."""
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    db = tmp_path / "j.db"
    with open("/dev/full", "w") as full:
        done = _run(["--game", game, "--hands", "2", "--db", str(db)], stdout=full)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert _said(done.stderr) == [
        "dealer-assist simulate: cannot write the job's output: No space left on device: free "
        "space on the disk the output goes to (every hand is journaled)"
    ]
    assert _pending(db, load_table_config(game=game).table_id) == []
    assert len(_verified(db)) >= 2


# -- one default journal per game ---------------------------------------------------------------


def test_each_game_of_simulate_has_its_own_default_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    for game in ("uth", "thb", "uth"):
        status, out, err = _simulate(["--game", game, "--hands", "1"], capsys)
        assert status == 0, err
        assert f"simulate-{game}.db" in out
    for game, hands in (("uth", 2), ("thb", 1)):
        db = tmp_path / "dealer-assist" / f"simulate-{game}.db"
        table_id = load_table_config(game=game).table_id
        with Journal(str(db), create=False) as journal:
            stored = list(journal.iter_hands())
        assert len(stored) == hands and {h.game for h in stored} == {game}
        assert {h.table_id for h in stored} == {table_id}


# -- the dealer's sentences -----------------------------------------------------------------------


def test_each_fault_and_notice_has_a_dealer_sentence_in_italian() -> None:
    from PySide6.QtCore import QTranslator

    from ui import storage_notice as sn

    cases: list[tuple[JournalError | StorageNotice, str, tuple[str, ...]]] = [
        (StorageFullError("x"), sn.FULL, ()),
        (StorageLowError("x", free_bytes=3 * 1024 * 1024, refuse_bytes=8 * 1024 * 1024),
         sn.REFUSED, ("3.0", "8.0")),
        (StorageBusyError("x"), sn.BUSY, ()),
        (StorageLostError("x"), sn.LOST, ()),
        (JournalError("x"), sn.OTHER, ()),
        (StorageNotice("low_space", "x", free_bytes=40 * 1024 * 1024, refuse_bytes=8 * 1024 * 1024),
         sn.LOW, ("40", "8.0")),
        (StorageNotice("recovered", "x", seconds=1.0), sn.RECOVERED, ()),
    ]  # fmt: skip
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
    from dealer_assist.engine.banked import Phase
    from dealer_assist.players import PlayerModel
    from dealer_assist.table.driving import HeadlessTable
    from drivers.factory import open_source
    from ui.commands.simulate import play_hand

    config = load_table_config(game="uth")
    db = tmp_path / "j.db"
    journal = close_at_teardown(_LockedAtFirstAppend(_url(db, 0.1), sleep=lambda _s: None))
    journal.open()
    source = close_at_teardown(open_source(
        "emulator://?seed=2&shuffle_time=0.01&card_interval=0.001", name="serial"))  # fmt: skip
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
