"""Crash safety and concurrency of the journal, with real processes (SIGKILL, two writers)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.storage import Journal
from tests.conftest import close_at_teardown
from tests.fixtures.journal_fixtures import BACKENDS, REPO, Backend, make_backend, make_entry

CHILD = r"""
import sys, time
from dealer_assist.storage import Journal
from tests.fixtures.journal_fixtures import make_entry

url, mode = sys.argv[1], sys.argv[2]
with Journal(url) as journal:
    if mode == "steps":
        for n in range(1, 4):
            journal.write_step("UTH-3", "u-crash", n, "card", {"n": n, "card": "As"})
        print("STEPS", flush=True)
        time.sleep(120)
    elif mode == "appended":
        journal.write_step("UTH-3", "u-crash", 1, "card", {"n": 1})
        hand = journal.append_hand(make_entry(0, hand_uid="u-crash"))
        print("APPENDED", hand.hand_id, flush=True)
        time.sleep(120)
    elif mode == "append-many":
        prefix, count = sys.argv[3], int(sys.argv[4])
        print("READY", flush=True)
        sys.stdin.readline()
        for i in range(count):
            journal.append_hand(make_entry(i, hand_uid=f"{prefix}-{i}", extra={"by": sys.argv[5]}))
        print("DONE", flush=True)
"""


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    yield from make_backend(request.param, tmp_path)


def spawn(*args: str) -> subprocess.Popen[str]:
    """The child, killed and reaped at the test's teardown if it still runs."""
    return close_at_teardown(
        subprocess.Popen(
            [sys.executable, "-c", CHILD, *args],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    )


def wait_for(child: subprocess.Popen[str], word: str) -> str:
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line.startswith(word):
        child.kill()
        _, err = child.communicate(timeout=30)
        pytest.fail(f"child said {line!r} instead of {word}; stderr:\n{err}")
    return line


def sigkill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL


def test_steps_survive_sigkill_before_append(backend: Backend) -> None:
    child = spawn(backend.url, "steps")
    wait_for(child, "STEPS")
    sigkill(child)
    with Journal(backend.url) as journal:
        steps = journal.pending_steps("UTH-3")
        assert [(s.hand_uid, s.step_no, s.payload["n"]) for s in steps] == [
            ("u-crash", 1, 1),
            ("u-crash", 2, 2),
            ("u-crash", 3, 3),
        ]
        assert journal.count() == 0
        # The restarted table finishes the hand: the append clears exactly those steps.
        hand = journal.append_hand(make_entry(0, hand_uid="u-crash"))
        assert hand.hand_id == 1 and journal.pending_steps("UTH-3") == []
        assert journal.verify().ok


def test_append_retried_after_sigkill_records_the_hand_once(backend: Backend) -> None:
    child = spawn(backend.url, "appended")
    line = wait_for(child, "APPENDED")
    sigkill(child)
    with Journal(backend.url) as journal:
        assert journal.pending_steps("UTH-3") == []  # cleared with the append
        retried = journal.append_hand(make_entry(3, hand_uid="u-crash"))
        assert retried.hand_id == int(line.split()[1]) == 1
        assert retried.extra["n"] == 0  # the stored hand, not the retried entry
        assert journal.count() == 1 and journal.verify().ok


def run_two_writers(url: str, prefixes: tuple[str, str], count: int) -> None:
    """Two processes open the (new) journal at once, then append ``count`` hands each."""
    children = [spawn(url, "append-many", p, str(count), f"w{i}") for i, p in enumerate(prefixes)]
    for child in children:
        wait_for(child, "READY")
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    for child in children:
        out, err = child.communicate(timeout=120)
        assert child.returncode == 0 and "DONE" in out, err


def test_two_processes_appending_keep_one_chain(backend: Backend) -> None:
    run_two_writers(backend.url, ("a", "b"), 20)
    with Journal(backend.url) as journal:
        result = journal.verify()
        assert (result.ok, result.hands_checked) == (True, 40), result.reason
        hands = list(journal.iter_hands())
        assert [h.hand_id for h in hands] == list(range(1, 41))
        assert sorted(h.hand_uid or "" for h in hands) == sorted(
            [f"a-{i}" for i in range(20)] + [f"b-{i}" for i in range(20)]
        )


def test_two_processes_appending_the_same_hands_store_each_once(backend: Backend) -> None:
    run_two_writers(backend.url, ("same", "same"), 15)
    with Journal(backend.url) as journal:
        result = journal.verify()
        assert (result.ok, result.hands_checked) == (True, 15), result.reason
        uids = [h.hand_uid for h in journal.iter_hands()]
        assert sorted(uids, key=str) == sorted((f"same-{i}" for i in range(15)), key=str)
