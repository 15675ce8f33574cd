"""The journal's write-ahead log removed while the table runs.

SQLite keeps writing to an open ``-wal`` after ``rm``; hands journaled since the last
checkpoint then live only in a deleted file, and a kill -9 loses them (the lab run: journal 39
hands, records 42). The journal notices at its next write, copies the removed log into the
journal file (a checkpoint through the descriptor SQLite still holds) and stops. The table runs
in a real subprocess, killed with SIGKILL, so what survives is what is on disk.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

TABLE = """
import os, signal, sys
from dealer_assist.errors import JournalError
from dealer_assist.storage import Journal
from tests.fixtures.journal_fixtures import make_entry
db = sys.argv[1]
j = Journal(db); j.open()
for i in range(5):
    j.append_hand(make_entry(i, hand_uid=f"h{i}"))
os.remove(db + "-wal")
try:
    j.append_hand(make_entry(5, hand_uid="h5"))
    print("appended after the log was removed")
except JournalError as e:
    print("refused:", e)
sys.stdout.flush()
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_removed_log_is_noticed_and_its_hands_kept(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    root = Path(__file__).parent.resolve().parent.parent
    run = subprocess.run(
        [sys.executable, "-c", TABLE, str(db)],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == -9, run.stderr[-2000:]
    assert "refused:" in run.stdout, run.stdout
    assert "-wal was removed while open" in run.stdout
    assert "copied into the journal file" in run.stdout
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == 5
    finally:
        con.close()
