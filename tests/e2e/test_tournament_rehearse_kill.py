"""A table console killed with ``kill -9`` in the middle of a hand during a tournament rehearsal
resumes the same hand when the rehearsal starts again on the same journal: the hand goes on
from the decisions its step log kept, at the level it started at, settles once, and the
tournament goes on to one winner. A real subprocess (``dealer-assist tournament rehearse``)
killed with SIGKILL once the journal shows a hand in progress with decisions taken (the
state is waited for, never a time), a real SQLite journal."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from dealer_assist.errors import JournalError
from dealer_assist.storage.journal import Journal

DATA = Path(__file__).parent.parent / "fixtures" / "data" / "tournaments"
TABLES = ("REHEARSAL-T1", "REHEARSAL-T2")
DEADLINE = 240.0  # seconds a state may take to show on a loaded machine (a hang, not a pace)


def command(db: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ui.cli",
        "tournament",
        "rehearse",
        "--structure",
        str(DATA / "stud_fast.toml"),
        "--players",
        "9",
        "--seed",
        "3",
        "--db",
        str(db),
        "--speed",
        "5",
    ]


def mid_hand(db: Path) -> tuple[str, list[Any]] | None:
    """(table, its pending steps) of a hand in progress with two decisions taken, else None."""
    if not db.exists():
        return None
    j = Journal(str(db), read_only=True)
    try:
        j.open()
        for t in TABLES:
            steps = j.pending_steps(t)
            if sum(1 for s in steps if s.kind == "bet") >= 2:
                return t, steps
    except JournalError:
        return None  # being created: looked at again
    finally:
        j.close()
    return None


def test_a_console_killed_mid_hand_resumes_the_same_hand(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    killed: tuple[str, list[Any]] | None = None
    log = tmp_path / "first.log"
    for _attempt in range(5):  # a kill that landed just after the hand ended: again, later
        with log.open("w") as said:
            proc = subprocess.Popen(
                command(db),
                env=env,
                stdout=said,
                stderr=subprocess.STDOUT,
                cwd=Path(__file__).parent.parents[1],
            )
            try:
                deadline = time.monotonic() + DEADLINE
                while mid_hand(db) is None:
                    assert proc.poll() is None, log.read_text()
                    assert time.monotonic() < deadline, "no hand in progress showed"
                    time.sleep(0.01)
                os.kill(proc.pid, signal.SIGKILL)
                proc.wait()
            finally:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
        assert proc.returncode == -signal.SIGKILL
        killed = mid_hand(db)  # what the step log holds after the kill: the truth
        if killed is not None:
            break
    assert killed is not None, "every kill landed between hands"
    table, steps = killed
    uid = steps[0].hand_uid
    opened = next(s for s in steps if s.kind == "open")
    level = opened.payload["session"]["level"]
    bets = [(s.payload["seat"], s.payload["bet"]) for s in steps if s.kind == "bet"]
    done = subprocess.run(
        command(db),
        env=env,
        capture_output=True,
        text=True,
        cwd=Path(__file__).parent.parents[1],
        timeout=DEADLINE,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    assert f"resumed: hand {uid} at {table}, continued at its own level {level} and settled" in out
    j = Journal(str(db), read_only=True)
    j.open()
    try:
        assert j.verify().ok
        assert j.pending_steps(table) == []
        same = [e for e in j.iter_hands(1) if e.hand_uid == uid]
    finally:
        j.close()
    assert len(same) == 1 and same[0].status == "settled"
    rec = same[0].record
    assert rec["tournament"] == {"id": "REHEARSAL", "level": level}
    taken = [(a["seat"], a["action"]) for a in rec["actions"]]
    assert taken[: len(bets)] == bets  # the decisions before the kill, then the rest
    assert "winner: " in out and "chips conserved: yes" in out
    n = int(out.split("hands posting their level's bets: ", 1)[1].split(" of ", 1)[0])
    assert f"hands posting their level's bets: {n} of {n}" in out
