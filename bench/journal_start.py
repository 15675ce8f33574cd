"""Start-up cost of the supervised journal: ``Journal.open()`` (migrations, the start verify
from the verified-up-to mark) on a big SQLite journal, the first time (no mark: every entry
verified) and on later starts (only the entries after the mark), against the full
``verify()`` an audit runs. Medians of ``--runs`` opens.

    python -m bench.journal_start [--hands 20000] [--new 100] [--runs 5]   (from the repo)
"""

from __future__ import annotations

import argparse
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path

from bench.journal_append import SAMPLE, entry
from dealer_assist.storage import Journal


def _timed_open(path: Path) -> float:
    t0 = time.perf_counter()
    with Journal(str(path)) as j:
        elapsed = time.perf_counter() - t0
        if j.alarm is not None:
            raise SystemExit(f"unexpected alarm: {j.alarm}")
    return elapsed


def main() -> None:
    """Print the medians (milliseconds) of the three cases."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--new", type=int, default=100, help="hands appended between two starts")
    ap.add_argument("--runs", type=int, default=5)
    a = ap.parse_args()
    sample = SAMPLE.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "journal.db"
        with Journal(str(path), supervise=False) as j:
            for n in range(a.hands):
                j.append_hand(entry(n, sample))
        first, later, full = [], [], []
        for run in range(a.runs):
            with sqlite3.connect(path) as con:
                con.execute("DELETE FROM verify_mark")  # as a journal from before the mark
            first.append(_timed_open(path))
            with Journal(str(path), supervise=False) as j:
                for n in range(a.new):
                    j.append_hand(entry(a.hands + run * a.new + n, sample))
            later.append(_timed_open(path))
            with Journal(str(path), read_only=True, create=False) as j:
                t0 = time.perf_counter()
                ok = j.verify().ok
                full.append(time.perf_counter() - t0)
            if not ok:
                raise SystemExit("the bench journal does not verify")
    print(f"journal: {a.hands} entries (+{a.new} per run), SQLite, {a.runs} runs")
    for label, times in (
        ("first start (no mark, all verified)", first),
        (f"later start ({a.new} after the mark)", later),
        ("full audit verify", full),
    ):
        print(f"{label:<38} median {statistics.median(times) * 1e3:8.1f} ms")


if __name__ == "__main__":
    main()
