"""What ``simulate`` says and leaves behind when it cannot play: a journal on a read-only mount
(a real tmpfs remounted read-only; skipped where mounting is not permitted) is named as
read-only, not as a file to create; a second ``simulate`` refused the port another table holds
leaves no journal file; a journal locked by another process costs one series of retries when
a new hand cannot start (not a second one for the hand it could not open)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.errors import StorageBusyError
from dealer_assist.storage.faults import ResilientJournal
from dealer_assist.table.driving import HeadlessTable
from drivers.emulator.process import EmulatorProcess
from drivers.factory import open_source
from tests.conftest import REPO, Closer

pytestmark = pytest.mark.integration


def _simulate(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "simulate", "--no-progress", "--seed", "2", *args],
        cwd=REPO,
        text=True,
        timeout=180,
        capture_output=True,
        check=False,
    )


@pytest.fixture
def read_only_mount(tmp_path: Path) -> Iterator[Path]:
    """A real tmpfs holding a journal of 2 hands, then remounted read-only."""
    where = tmp_path / "ro"
    where.mkdir()
    mount = ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(where)]
    done = subprocess.run(mount, capture_output=True, text=True, check=False)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        assert _simulate("--hands", "2", "--db", str(where / "j.db")).returncode == 0
        remount = ["mount", "-o", "remount,ro", str(where)]
        subprocess.run(remount, capture_output=True, text=True, check=True)
        yield where / "j.db"
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


def test_simulate_on_a_read_only_mount_says_read_only(read_only_mount: Path) -> None:
    before = sorted(p.name for p in read_only_mount.parent.iterdir())
    done = _simulate("--hands", "1", "--db", str(read_only_mount))
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "cannot create" not in done.stderr, done.stderr
    assert f"cannot write the journal {read_only_mount}" in done.stderr
    assert "read-only file system" in done.stderr
    assert sorted(p.name for p in read_only_mount.parent.iterdir()) == before
    audit = subprocess.run(
        [sys.executable, "-m", "ui.cli", "audit", "verify", "--db", str(read_only_mount)],
        cwd=REPO,
        text=True,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert audit.returncode == 0 and "OK: 2 hands" in audit.stdout  # it can still be read


def test_a_second_simulate_refused_the_port_leaves_no_journal(
    tmp_path: Path, closer: Closer
) -> None:
    emu = closer.add(EmulatorProcess(["--seed", "1"]))
    pty = emu.start()
    first = closer.add(open_source(pty, name="serial"))  # the table that holds the port
    first.open()
    db = tmp_path / "second.db"
    done = _simulate("--hands", "1", "--source", pty, "--db", str(db))
    assert done.returncode == 2 and "in use by another program" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == []  # no journal, no -wal, no keys


def test_a_locked_journal_costs_one_series_of_retries_for_a_new_hand(
    tmp_path: Path, closer: Closer
) -> None:
    """The hand that could not write its first step is not discarded with another series of
    retries (that made a lock held for good cost 6 busy timeouts + 3 s instead of 3 + 1.5)."""
    db = tmp_path / "j.db"
    waits: list[float] = []
    journal = closer.add(ResilientJournal(f"sqlite:///{db}?timeout=0", sleep=waits.append))
    journal.open()
    source = closer.add(
        open_source("emulator://?seed=3&shuffle_time=0.01&card_interval=0.001", name="serial")
    )
    source.open()
    table = HeadlessTable(load_table_config(game="uth"), source, journal)
    table.resume()
    other = sqlite3.connect(db, isolation_level=None)
    closer.callback(other.close)
    other.execute("BEGIN IMMEDIATE")  # another program holds the write lock
    with pytest.raises(StorageBusyError, match="locked"):
        table.new_hand()
    assert waits == [0.5, 1.0]  # 3 tries, once
    other.execute("ROLLBACK")
    assert table.new_hand().hand_uid  # the lock gone: the next hand opens
