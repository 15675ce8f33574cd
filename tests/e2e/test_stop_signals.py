"""An ordinary stop of a long-running command: real SIGTERM and SIGINT sent to real ``simulate``
and ``soak`` processes in the middle of their hands. Each finishes the hand in progress, says
so in one sentence, exits 0, and leaves nothing pending in the step log (the next start has
nothing to resume); the soak passes the stop to its table process and stops its emulator."""

from __future__ import annotations

import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dealer_assist.storage.journal import Journal
from tests.cli.test_console_stop_signals import _open_line
from tests.conftest import REPO, Closer
from tests.fixtures.journal_fixtures import make_entry

pytestmark = pytest.mark.integration


def _hands(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as con:
            sql = "SELECT count(*) FROM hands WHERE status != 'table'"  # hands, not records
            return int(con.execute(sql).fetchone()[0])
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
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "simulate",
            "--hands",
            "100000",
            "--db",
            str(db),
            "--no-progress",
        ],
        cwd=REPO,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    closer.add(proc)
    _wait_for_hands(proc, db, 3)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert f"stopped by {sig.name} after " in err and "nothing is left to resume" in err
    assert "Traceback" not in err and "hands" in out  # the summary of what was played
    _nothing_pending(db)
    again = subprocess.run(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "simulate",
            "--hands",
            "1",
            "--db",
            str(db),
            "--no-progress",
        ],
        cwd=REPO,
        text=True,
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert again.returncode == 0 and "resumed after a restart 0)" in again.stdout


def test_soak_passes_sigterm_to_its_table_and_stops_cleanly(tmp_path: Path, closer: Closer) -> None:
    work = tmp_path / "soak"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "soak",
            "--hands",
            "100000",
            "--workdir",
            str(work),
            "--no-progress",
            "--forge-every",
            "40",
        ],
        cwd=REPO,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
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
    leftover = subprocess.run(
        ["pgrep", "-f", str(work)], capture_output=True, text=True, check=False
    )
    assert leftover.stdout == ""  # neither the table process nor the emulator is left


def _pending_tables(db: Path) -> list[str]:
    with Journal(str(db), create=False, read_only=True) as journal:
        assert journal.verify().ok
        return [t for t in journal.table_ids() if journal.pending_steps(t)]


def test_tournament_simulate_stops_between_hands_and_continues(
    tmp_path: Path, closer: Closer
) -> None:
    db = tmp_path / "t.db"
    argv = [
        sys.executable,
        "-m",
        "ui.cli",
        "tournament",
        "simulate",
        "--structure",
        "config/tournaments/holdem_rebuy.toml",
        "--players",
        "18",
        "--journal",
        str(db),
        "--no-progress",
    ]
    played = 0
    for sig, wait_for in ((signal.SIGTERM, 3), (signal.SIGINT, 0)):
        proc = subprocess.Popen(
            argv, cwd=REPO, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        closer.add(proc)
        _wait_for_hands(proc, db, max(wait_for, played + 2))
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        m = re.search(
            rf"stopped by {sig.name} after hand (\d+) of tournament \S+: every hand "
            "and record journaled, no table has a hand to resume; the same command "
            "continues the tournament",
            err,
        )
        assert m, err
        assert "Traceback" not in err and f"{m[1]} hands played" in out
        assert int(m[1]) > played  # the second run went on from the first one's end
        played = int(m[1])
        assert _pending_tables(db) == []


@pytest.mark.parametrize(
    ("screen", "said"),
    [
        (
            "clock",
            "stopped by SIGTERM: the room's clock closed (it only reads the journal): "
            "nothing to resume",
        ),
        (
            "director",
            "closed after its last command, every command journaled as it was made: "
            "nothing to resume",
        ),
    ],
)
def test_the_tournament_screens_close_on_sigterm_with_a_sentence(
    tmp_path: Path, closer: Closer, screen: str, said: str
) -> None:
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    argv = [
        sys.executable,
        "-m",
        "ui.cli",
        "tournament",
        screen,
        "--structure",
        "config/tournaments/holdem_rebuy.toml",
        "--journal",
        str(tmp_path / "t.db"),
        "--windowed",
        "--size",
        "1280x800",
        "--lang",
        "en",
    ]
    if screen == "director":
        argv += ["--operator", "TD"]
    proc = subprocess.Popen(
        argv, cwd=REPO, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    closer.add(proc)
    line = _open_line(proc)  # the state: the window is open (the process says so)
    assert f"dealer-assist tournament {screen}: open" in line, proc.communicate()
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "dealer-assist tournament: stopped by SIGTERM: " in err and said in err, err
    assert "Traceback" not in err


def test_the_pitboss_window_closes_on_sigterm_at_the_login(tmp_path: Path, closer: Closer) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db)) as journal:
        journal.append_hand(make_entry(0, hand_uid="h0"))
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "pitboss", "--db", str(db), "--lang", "en"],
        cwd=REPO,
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    closer.add(proc)
    assert "dealer-assist pitboss: open, waiting for a login" in _open_line(proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "dealer-assist pitboss: stopped by SIGTERM at the login: nothing to resume" in err
