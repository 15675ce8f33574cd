"""An ordinary stop of the consoles: real ``dealer-assist console`` processes (offscreen), sent
SIGTERM or SIGINT once they say the table is open. The banked console and the poker console
park the hand in progress in the journal's step log, say so in one sentence on stderr and exit
0; the next start resumes that very hand."""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from dealer_assist.storage.journal import Journal
from tests.conftest import REPO, Closer
from tests.e2e.test_poker_console_kill import CHILD

pytestmark = pytest.mark.integration

ENV = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(REPO))


def _console(closer: Closer, *argv: str) -> subprocess.Popen[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "console", "--windowed", "--lang", "en", *argv],
        cwd=REPO,
        env=ENV,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    closer.add(proc)
    return proc


def _open_line(proc: subprocess.Popen[str]) -> str:
    """The state to wait for: the console's line saying the table is open (not a time; the
    bound only fails a console that never says it instead of hanging)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + 120
    while not select.select([proc.stdout], [], [], 0.5)[0]:
        assert proc.poll() is None, proc.communicate()
        if time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"the console never said it was open: {proc.communicate()}")
    line = proc.stdout.readline()
    assert line, f"the console ended early (exit {proc.wait(30)}): {proc.communicate()}"
    return line


def _stop(proc: subprocess.Popen[str], sig: signal.Signals) -> str:
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    return err


def _pending(db: Path, table: str) -> set[str]:
    with Journal(str(db), create=False, read_only=True) as journal:
        assert journal.verify().ok
        return {s.hand_uid for s in journal.pending_steps(table)}


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_the_banked_console_stopped_with_its_bets_open_leaves_nothing_to_resume(
    tmp_path: Path, closer: Closer, sig: signal.Signals
) -> None:
    db = tmp_path / "j.db"
    proc = _console(closer, "--db", str(db))
    line = _open_line(proc)
    assert "dealer-assist console: table UTH-01 open: hand 1 with its bets open" in line
    err = _stop(proc, sig)
    assert f"dealer-assist console: stopped by {sig.name} between hands: nothing to resume\n" in err
    assert _pending(db, "UTH-01") == set()
    again = _console(closer, "--db", str(db))  # a new emulator: nothing for it to void
    assert "open: hand 1 with its bets open" in _open_line(again)
    _stop(again, signal.SIGTERM)
    with Journal(str(db), create=False, read_only=True) as journal:
        assert journal.count() == 0  # no void of a hand nobody bet on


def test_the_banked_console_stopped_during_the_payouts_keeps_them(
    tmp_path: Path, closer: Closer
) -> None:
    db = tmp_path / "k.db"
    script = textwrap.dedent(f"""
        import sys, time
        from pathlib import Path
        import tests.ui.test_console_presenter as tp
        tp.close_at_teardown = lambda obj: obj  # no pytest here: the kill closes everything
        from tests.ui.test_console_walk import walk_table, play_to_reveal, big
        t, clock = walk_table(Path({str(tmp_path)!r}), name="k.db")
        play_to_reveal(t, clock, seats=(1, 3, 5, 7))
        big(t, clock); big(t, clock); big(t, clock)  # settle, seat 7 paid, seat 5 paid
        print("PAID", flush=True)
        time.sleep(60)
    """)
    child = subprocess.Popen(
        [sys.executable, "-c", script],
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env=ENV,
        start_new_session=True,
    )
    closer.add(child)
    assert child.stdout is not None and child.stdout.readline().startswith("PAID")
    os.killpg(child.pid, signal.SIGKILL)  # the console and its emulator
    child.wait(30)
    proc = _console(closer, "--db", str(db))
    line = _open_line(proc)
    assert "table UTH-01 open: hand 1 settled (its payouts being marked)" in line
    err = _stop(proc, signal.SIGTERM)
    assert (
        "dealer-assist console: stopped by SIGTERM: hand 1 settled and journaled, its "
        "payouts being marked (" in err
    )
    assert "the next start goes on with them" in err
    with Journal(str(db), create=False, read_only=True) as journal:
        assert journal.count() == 1 and journal.pending_steps("UTH-01#payout")


def test_the_poker_console_parks_a_hand_in_play_on_sigterm(tmp_path: Path, closer: Closer) -> None:
    db = tmp_path / "j.db"
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(db)],
        cwd=REPO,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    closer.add(child)
    assert child.stdout is not None
    before = json.loads(child.stdout.readline())  # Dario all-in, Anna called: mid-hand
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    parked = _pending(db, "HOLDEM-01")
    assert parked == {before["uid"]}
    proc = _console(closer, "--game", "holdem", "--db", str(db), "--source", "manual://")
    assert "dealer-assist console: table HOLDEM-01 open: hand 1 at the preflop" in _open_line(proc)
    err = _stop(proc, signal.SIGTERM)
    assert "dealer-assist console: stopped by SIGTERM: hand 1 parked at the preflop (" in err
    assert "steps in the journal's step log), it resumes on the next start (voided" in err
    assert _pending(db, "HOLDEM-01") == parked
