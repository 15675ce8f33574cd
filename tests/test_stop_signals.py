"""An ordinary stop of a long-running command: real SIGTERM and SIGINT sent to real ``simulate``
and ``soak`` processes in the middle of their hands. Each finishes the hand in progress, says
so in one sentence, exits 0, and leaves nothing pending in the step log (the next start has
nothing to resume); the soak passes the stop to its table process and stops its emulator."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer_assist.storage.journal import Journal
from tests.conftest import REPO, Closer

pytestmark = pytest.mark.integration


def _hands(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            return int(con.execute("SELECT count(*) FROM hands").fetchone()[0])
    except sqlite3.Error:
        return 0  # not created yet


def _wait_for_hands(proc: subprocess.Popen[str], db: Path, n: int) -> None:
    """Wait for the state (``n`` hands journaled), not for a time; a generous bound only so a
    broken run fails instead of hanging."""
    deadline = time.monotonic() + 120
    while _hands(db) < n:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no hands journaled"
        time.sleep(0.05)


def _nothing_pending(db: Path) -> None:
    with Journal(str(db), create=False, read_only=True) as journal:
        assert journal.verify().ok
        assert journal.pending_steps("UTH-01") == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_simulate_finishes_its_hand_on_a_stop_signal(
    tmp_path: Path, closer: Closer, sig: signal.Signals
) -> None:
    db = tmp_path / "j.db"
    proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "simulate", "--hands", "100000",
                             "--db", str(db), "--no-progress"], cwd=REPO, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    closer.add(proc)
    _wait_for_hands(proc, db, 3)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"stopped by {sig.name} after " in err and "nothing is left to resume" in err
    assert "Traceback" not in err and "hands" in out  # the summary of what was played
    _nothing_pending(db)
    again = subprocess.run([sys.executable, "-m", "ui.cli", "simulate", "--hands", "1", "--db",
                            str(db), "--no-progress"], cwd=REPO, text=True, capture_output=True,
                           timeout=120, check=False)  # fmt: skip
    assert again.returncode == 0 and "resumed after a restart 0)" in again.stdout


def test_soak_passes_sigterm_to_its_table_and_stops_cleanly(tmp_path: Path, closer: Closer) -> None:
    work = tmp_path / "soak"
    proc = subprocess.Popen([sys.executable, "-m", "ui.cli", "soak", "--hands", "100000",
                             "--workdir", str(work), "--no-progress", "--forge-every", "40"],
                            cwd=REPO, text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    closer.add(proc)
    db = work / "soak.db"
    _wait_for_hands(proc, db, 3)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=90)
    assert proc.returncode == 0, out + err
    assert "stopped by SIGTERM after " in err and "wrong cards accepted: 0" in out
    assert "0 failed on their own, 0 stuck" in out
    assert "stopped by SIGTERM between hands" in (work / "table.log").read_text()
    _nothing_pending(db)
    leftover = subprocess.run(["pgrep", "-f", str(work)], capture_output=True, text=True,
                              check=False)  # fmt: skip
    assert leftover.stdout == ""  # neither the table process nor the emulator is left
