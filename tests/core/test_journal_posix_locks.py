"""A live journal read by a second thread of the table while another process reads it.

Opening a new SQLite connection runs the journal's "files stay private" hook. It used to open
and close the database's ``-wal``/``-shm``; closing any descriptor of a file drops every POSIX
lock the process holds on it, SQLite's included, and an outside read-only reader (as
``audit verify`` is) then met a torn WAL: the table died of SIGBUS and the reader stopped seeing
hands. The table runs in a real subprocess here, so a crash is its exit status, not ours.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

HANDS = 120

TABLE = f"""
import sys, threading, time
from dealer_assist.storage import Journal
from tests.fixtures.journal_fixtures import make_entry
j = Journal(sys.argv[1]); j.open()
stop = threading.Event()
def reader():  # a second connection of the table's own engine (a console's history, say)
    while not stop.is_set():
        j.last_hand(); time.sleep(0.02)
threading.Thread(target=reader, daemon=True).start()
for i in range({HANDS}):
    for s in range(3):
        j.write_step("UTH-3", f"h{{i}}", s, "x", {{"n": s}})
    j.append_hand(make_entry(i, hand_uid=f"h{{i}}"))
stop.set(); j.close(); print("done")
"""


def test_outside_reader_and_second_thread_do_not_break_the_table(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    root = Path(__file__).parent.resolve().parent.parent
    table = subprocess.Popen(
        [sys.executable, "-c", TABLE, str(db)],
        cwd=root,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    seen = 0
    deadline = time.monotonic() + 240
    while table.poll() is None and time.monotonic() < deadline:
        if db.exists():
            try:
                con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
                try:
                    seen = con.execute("SELECT count(*) FROM hands").fetchone()[0]
                finally:
                    con.close()
            except sqlite3.Error:
                pass  # not yet created, or busy: try again
        time.sleep(0.05)
    out, err = table.communicate(timeout=60)
    assert table.returncode == 0, f"table exited {table.returncode}: {err[-2000:]}"
    assert out.strip().endswith("done")
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert con.execute("SELECT count(*) FROM hands").fetchone()[0] == HANDS
    finally:
        con.close()
    assert seen > 0  # the outside reader really read the live journal
