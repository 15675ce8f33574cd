"""Storage faults of the disk, for real: the free space of the journal's folder
watched (a warning, no new hand below the refusal threshold); a small tmpfs mounted for the test
(skipped where mounting is not permitted) filled up mid-run, then enlarged; the records file on
a full disk; a file size limit (RLIMIT_FSIZE: EFBIG); the job's output on a full device
(/dev/full); one default journal per simulate game. Each fault: one sentence on stderr, exit 2,
no traceback, nothing lost, the next run resumes.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.errors import JournalError, StorageFullError, StorageLowError
from dealer_assist.storage.faults import DiskLimits, DiskSpace, StorageNotice
from dealer_assist.storage.journal import Journal
from tests.conftest import REPO
from tests.ui.test_storage_faults import TABLE, _journal, _pending, _said, _simulate, _verified

pytestmark = pytest.mark.integration


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
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "simulate", "--no-progress", "--seed", "4", *args],
        cwd=REPO,
        text=True,
        timeout=180,
        check=False,
        **streams,
    )


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
    assert (
        "full" in full.stderr
        and "free space on that disk, then run the same command" in full.stderr
    )
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
