"""``dealer-assist settle --jobs N``: JSON Lines settled in worker processes give the bytes one
process gives (stdout, stderr, exit code), in input order, refusals included; a bad ``--jobs``
is refused. The real command in a real process, on a real file."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from dealer_assist.games import holdem_players, stud_players

REPO = Path(__file__).resolve().parents[2]


def _settle(*args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "settle", *args],
        cwd=REPO,
        capture_output=True,
        timeout=600,
        check=False,
    )


def _mixed(path: Path) -> int:
    """Random Hold'em and Stud records with refusals among them (bad JSON, a key given twice,
    a fractional stack, a line over the length limit), blank lines; returns the refusals."""
    lines: list[bytes] = []
    refused = 0
    for i in range(700):
        rng = random.Random(i)
        maker = holdem_players if i % 2 else stud_players
        record = maker.random_record(rng, betting=("no_limit", "pot_limit", "fixed_limit")[i % 3])
        if i % 97 == 5:
            record["players"][0]["stack"] += 0.5
            refused += 1
        line = json.dumps(record).encode()
        if i % 131 == 7:
            line, refused = line[:-3], refused + 1
        if i % 151 == 9:
            line, refused = b'{"game": "holdem", "game": "stud"}', refused + 1
        lines.append(line)
        if i % 50 == 0:
            lines.append(b"   ")
    lines.insert(321, b"[" * (2 << 20))
    path.write_bytes(b"\n".join(lines) + b"\n")
    return refused + 1


def test_workers_give_the_bytes_of_one_process_in_order(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    refused = _mixed(path)
    one = _settle(str(path))
    assert one.returncode == 2 and one.stderr.count(b"\n") == refused
    assert one.stdout.count(b"\n") == 701 and one.stdout.count(b'{"error"') == refused
    for jobs in ("2", "3"):
        many = _settle("--jobs", jobs, str(path))
        assert (many.returncode, many.stdout, many.stderr) == (2, one.stdout, one.stderr)


def test_a_job_count_below_one_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "records.jsonl"
    path.write_text("")
    for bad in ("0", "-2", "two"):
        run = _settle("--jobs", bad, str(path))
        assert run.returncode == 2 and b"--jobs: must be a whole number >= 1" in run.stderr
