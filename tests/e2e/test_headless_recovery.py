"""Headless jobs recover like the console.

A real ``dealer-assist simulate`` process is killed with SIGKILL at random moments in the middle
of its hands, started again on the same journal and records file each time, then run to the end:
every hand a kill interrupted is journaled (settled or voided) by the next run, which says so in
a sentence; the step log holds no hand at the end and the chain verifies; the ``--records`` file
holds exactly the journal's settled hands (none missing, none twice, no half line). Also: a
records file cut in the middle of its last line is repaired, a file of another journal is
refused, and a storage error in the middle of a hand stops the job with a sentence (no
traceback), leaving the hand pending for the next run to resume.
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.errors import JournalError
from dealer_assist.ports import PendingStep
from dealer_assist.storage.faults import ResilientJournal
from dealer_assist.storage.journal import Journal
from dealer_assist.table.recovery import sort_pending
from drivers.emulator.process import EmulatorProcess
from tests.conftest import REPO, close_at_teardown
from ui.cli import main

pytestmark = pytest.mark.integration

KILLS = 5


def _command(game: str, db: Path, records: Path, hands: int, seed: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ui.cli",
        "simulate",
        "--game",
        game,
        "--hands",
        str(hands),
        "--seed",
        str(seed),
        "--db",
        str(db),
        "--records",
        str(records),
        "--no-progress",
    ]


def _count(db: Path, query: str = "select count(*) from hands") -> int:
    """A count read with plain sqlite (the job may still be creating the file): 0 until then."""
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1.0) as conn:
            return int(conn.execute(query).fetchone()[0])
    except sqlite3.Error:
        return 0


STEPS = "select count(*) from pending_steps where kind not in ('void_alarm', 'void_ack')"


def _pending_hands(db: Path, table_id: str) -> list[str]:
    with Journal(str(db), create=False) as journal:
        return [uid for uid, _ in sort_pending(journal.pending_steps(table_id)).hands]


def _kill_mid_hand(cmd: list[str], db: Path, rng: random.Random) -> str:
    """Start the job; once it journaled 1..3 more entries, SIGKILL it at a random step of the
    hand in progress (1..20 steps written: bets, deck, cards, decisions); its stdout."""
    target, step = _count(db) + rng.randint(1, 3), rng.randint(1, 20)
    child = close_at_teardown(
        subprocess.Popen(
            cmd,
            cwd=REPO,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    deadline = time.monotonic() + 90
    while child.poll() is None and time.monotonic() < deadline:
        if _count(db) >= target and _count(db, STEPS) >= step:
            break
        time.sleep(0.002)
    assert child.poll() is None, f"the job ended on its own: {child.communicate()}"
    os.kill(child.pid, signal.SIGKILL)
    out, _ = child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    return out


def _records(path: Path) -> list[dict[str, Any]]:
    data = path.read_bytes()
    assert not data or data.endswith(b"\n"), "a half-written last line"
    return [json.loads(line) for line in data.decode().splitlines()]


def _check_journal_and_records(db: Path, records: Path, table_id: str) -> dict[str, str]:
    """The chain verifies, no hand is pending, the records file is the journal's settled hands
    exactly, in order; the journal's hands (uid -> status)."""
    with Journal(str(db), create=False) as journal:
        assert journal.verify().ok
        assert sort_pending(journal.pending_steps(table_id)).hands == []
        stored = [h for h in journal.iter_hands() if h.status != "table"]
    settled = [h for h in stored if h.status == "settled"]
    lines = _records(records)
    assert [r["hand_uid"] for r in lines] == [h.hand_uid for h in settled]
    assert [r["hand_id"] for r in lines] == [h.hand_id for h in settled]
    for line, hand in zip(lines, settled, strict=True):
        assert line["settlement"] == hand.settlement
        assert {
            k: v for k, v in line.items() if k not in ("hand_id", "hand_uid", "settlement")
        } == hand.record
    return {str(h.hand_uid): h.status for h in stored}


@pytest.mark.parametrize(
    ("game", "seed", "external"),
    [
        ("uth", 11, False),
        ("holdem", 12, False),
        ("uth", 13, True),
        ("holdem", 14, True),
    ],
)
def test_kill_9_loop_every_interrupted_hand_journaled_and_records_exact(
    tmp_path: Path, game: str, seed: int, external: bool
) -> None:
    """The built-in emulator dies with each killed job (its hands are voided: ``restart``, but
    for one killed before its first card); an external one keeps its deck, so every interrupted
    hand goes on where it stopped and is settled (a pot game's hand killed between its deck's
    step and the DEAL reaching the device was dealt twice by the resume and voided extra_card:
    tests/core/test_resume_pot_deal.py kills it at that moment)."""
    table_id = load_table_config(game=game).table_id
    db, records = tmp_path / "j.db", tmp_path / "records.jsonl"
    source: list[str] = []
    if external:
        emulator = close_at_teardown(
            EmulatorProcess(
                ["--seed", str(seed), "--shuffle-time", "0.01", "--card-interval", "0.001"],
                tcp_port=0,
                stderr=subprocess.DEVNULL,
            )
        )
        source = ["--source", emulator.start()]
    cmd = [*_command(game, db, records, 200, seed), *source]
    rng = random.Random(seed)
    interrupted: list[list[str]] = []  # the hands pending after each kill
    outputs: list[str] = []
    for _ in range(KILLS):
        outputs.append(_kill_mid_hand(cmd, db, rng))
        interrupted.append(_pending_hands(db, table_id))
    final = subprocess.run(
        [*_command(game, db, records, 3, seed), *source],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert final.returncode == 0, final.stderr
    assert "Traceback" not in final.stderr
    outputs.append(final.stdout)
    # the kills came in the middle of hands, not only between them
    assert sum(bool(p) for p in interrupted) >= KILLS - 1, interrupted
    journaled = _check_journal_and_records(db, records, table_id)
    for after_kill, uids in enumerate(interrupted):
        said = outputs[after_kill + 1]  # the next run picked them up first, and said so
        for uid in uids:
            assert uid in journaled, f"hand {uid} interrupted by kill {after_kill + 1} was lost"
            assert f"resumed hand {uid}" in said or f"voided hand {uid}" in said, said
    if external:  # the device kept the deck: every interrupted hand went on and settled
        for after_kill, uids in enumerate(interrupted):
            lines = outputs[after_kill + 1].splitlines()
            for uid in uids:
                # or it was killed once settled, before it was journaled: the resume journals it
                assert f"resumed hand {uid}: it goes on where it stopped" in lines or any(
                    line.startswith(f"resumed hand {uid} (journal hand ")
                    and line.endswith("): settled before the restart, now journaled")
                    for line in lines
                ), lines
                assert journaled[uid] == "settled"


def _simulate(
    capsys: pytest.CaptureFixture[str],
    db: Path,
    records: Path,
    hands: int,
    seed: int = 5,
    game: str = "uth",
) -> tuple[int, str, str]:
    status = main(
        [
            "simulate",
            "--game",
            game,
            "--hands",
            str(hands),
            "--seed",
            str(seed),
            "--db",
            str(db),
            "--records",
            str(records),
            "--no-progress",
        ]
    )
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_half_written_last_line_is_repaired_and_the_hand_appended_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, records = tmp_path / "j.db", tmp_path / "records.jsonl"
    assert _simulate(capsys, db, records, 4)[0] == 0
    whole = records.read_bytes()
    last = whole.rstrip(b"\n").rfind(b"\n") + 1
    records.write_bytes(whole[: last + 40])  # a crash in the middle of the last line
    status, out, _ = _simulate(capsys, db, records, 2)
    assert status == 0 and "a half-written last line (40 bytes) cut off" in out
    _check_journal_and_records(db, records, "UTH-01")
    assert records.read_bytes().startswith(whole)  # appended, never truncated
    assert records.stat().st_mode & 0o777 == 0o600


def test_a_new_records_file_starts_with_the_run_and_keeps_its_start_until_its_first_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, records, other = tmp_path / "j.db", tmp_path / "records.jsonl", tmp_path / "x.jsonl"
    assert _simulate(capsys, db, other, 3)[0] == 0  # hands of an earlier job (another file)
    with Journal(str(db), create=False) as journal:
        before = journal.count()
    assert _simulate(capsys, db, records, 2)[0] == 0
    start = records.with_name(records.name + ".start")
    assert not start.exists()  # the file has lines: it is its own start
    with Journal(str(db), create=False) as journal:
        mine = [h.hand_uid for h in journal.iter_hands(before + 1) if h.status == "settled"]
    assert [r["hand_uid"] for r in _records(records)] == mine
    # a crash before the first line: an empty file and its start beside it
    records.write_bytes(b"")
    start.write_text(json.dumps({"table_id": "UTH-01", "after": before}))
    assert _simulate(capsys, db, records, 1)[0] == 0
    with Journal(str(db), create=False) as journal:
        mine = [h.hand_uid for h in journal.iter_hands(before + 1) if h.status == "settled"]
    assert [r["hand_uid"] for r in _records(records)] == mine and len(mine) >= 2


def test_a_records_file_of_another_journal_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = tmp_path / "records.jsonl"
    assert _simulate(capsys, tmp_path / "a.db", records, 2)[0] == 0
    before = records.read_bytes()
    status, _, err = _simulate(capsys, tmp_path / "b.db", records, 1)
    assert status == 2 and "is not in journal" in err and str(records) in err
    assert records.read_bytes() == before


class _FailingSteps(ResilientJournal):
    """A journal whose step log fails (as a full disk or a lock does) at one write."""

    fail_at = 0
    writes = 0

    def write_step(
        self, table_id: str, hand_uid: str, step_no: int, kind: str, payload: dict[str, Any]
    ) -> PendingStep:
        type(self).writes += 1
        if type(self).writes == type(self).fail_at:
            raise JournalError("cannot write step: database or disk is full")
        return super().write_step(table_id, hand_uid, step_no, kind, payload)


@pytest.mark.parametrize(("game", "module"), [("uth", "simulate"), ("holdem", "simulate_poker")])
def test_a_storage_error_mid_hand_stops_with_a_sentence_and_the_next_run_resumes(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    game: str,
    module: str,
) -> None:
    db, records = tmp_path / "j.db", tmp_path / "records.jsonl"
    table_id = load_table_config(game=game).table_id
    monkeypatch.setattr("ui.commands.simulate_job.ResilientJournal", _FailingSteps)
    _FailingSteps.writes, _FailingSteps.fail_at = 0, 23  # in the deal of one of the first hands
    status, out, err = _simulate(capsys, db, records, 20, game=game)
    assert status == 2 and "Traceback" not in err
    assert "stopped: cannot write step: database or disk is full" in err
    assert "stays pending: run the same command again on this journal to resume it" in err
    pending = _pending_hands(db, table_id)
    assert len(pending) == 1
    monkeypatch.setattr("ui.commands.simulate_job.ResilientJournal", ResilientJournal)
    status, out, err = _simulate(capsys, db, records, 2, game=game)
    assert status == 0, err
    assert f"resumed hand {pending[0]}" in out or f"voided hand {pending[0]}" in out, out
    assert pending[0] in _check_journal_and_records(db, records, table_id)
