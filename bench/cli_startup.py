"""Start-up of ``dealer-assist`` commands beside ``python -c "import pokerkit"``, in one run.

Each command is a fresh interpreter (``python -m ui.cli ...``), wall clock until it exits; the
commands are run in turns (round robin) so a load change on the machine hits them alike.
Prints the median of ``--runs`` runs of each and its ratio to pokerkit's import. The bytecode is
cached as an installed copy has it (pip compiles it on install): ``PYTHONDONTWRITEBYTECODE``
dropped, the cache in a temporary ``PYTHONPYCACHEPREFIX`` (not the tree), written by one round
before the timed ones; ``--compile-each-run`` keeps the environment as it is.

    python bench/cli_startup.py [--runs 15] [--compile-each-run]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CASE = REPO.parent / "shared" / "cases" / "pot" / "valid" / "holdem-big-blind-only.json"


def main(argv: Sequence[str] | None = None) -> int:
    """Print the medians; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument(
        "--compile-each-run",
        action="store_true",
        help="no bytecode cache: every run compiles the sources",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        record = Path(tmp) / "hand.json"
        record.write_text(json.dumps(json.loads(CASE.read_text())["record"]))
        py = [sys.executable]
        cli = [*py, "-m", "ui.cli"]
        commands = {
            'python -c "pass"': [*py, "-c", "pass"],
            'python -c "import pokerkit"': [*py, "-c", "import pokerkit"],
            "settle (one record)": [*cli, "settle", str(record)],
            "--help": [*cli, "--help"],
            "settle --bogus": [*cli, "settle", "--bogus"],
            "bogus": [*cli, "bogus"],
            "phh --help": [*cli, "phh", "--help"],
        }
        env = dict(os.environ)
        if not args.compile_each_run:
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        times: dict[str, list[float]] = {name: [] for name in commands}
        for turn in range(args.runs + 1):  # turn 0 writes the bytecode cache: not timed
            for name, cmd in commands.items():
                start = time.perf_counter()
                subprocess.run(cmd, cwd=REPO, env=env, capture_output=True, check=False)
                if turn:
                    times[name].append(time.perf_counter() - start)
    kit = statistics.median(times['python -c "import pokerkit"'])
    bytecode = "compiled each run" if args.compile_each_run else "bytecode cached"
    print(f"{args.runs} runs each, medians (wall clock, fresh interpreter, {bytecode})")
    for name, ts in times.items():
        t = statistics.median(ts)
        print(f"{name:<30} {t * 1000:7.1f} ms   {t / kit:5.2f} x pokerkit's import")
    return 0


if __name__ == "__main__":
    sys.exit(main())
