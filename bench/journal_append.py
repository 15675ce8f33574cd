"""Append latency of the hand journal: median / p99 per append (and per write_step).

Default: a fresh SQLite file (WAL, synchronous=FULL) in a temporary folder; ``--db`` takes
another path or a PostgreSQL URL. Each append is one transaction with a full hand (7 seats'
record, settlement, 20 device events), like a real table writes; the hand is the sample in
``journal_hand.json`` beside this script (data: the code names no game).

    python bench/journal_append.py [--hands 300] [--db PATH_OR_URL] [--signing]

Every entry is signed with the table's Ed25519 key. ``--signing`` measures what
that costs: the same appends to two fresh SQLite journals in one process, taking turns in blocks
of 25, one signing and one with signing switched off (a subclass: the product has no such
switch), and prints both medians and their ratio, plus the signature itself per entry.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from dealer_assist.storage import HandEntry, Journal
from dealer_assist.storage.signing import Signer

SAMPLE = Path(__file__).with_name("journal_hand.json")


def entry(n: int, sample: str) -> HandEntry:
    """The settled seven-seat hand of ``sample`` (the JSON text of ``journal_hand.json``),
    distinct per ``n``."""
    hand = json.loads(sample)
    start = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=2 * n)
    events = [
        {
            "kind": "card",
            "at": (start + timedelta(seconds=i)).isoformat(),
            "source": "serial",
            "deck_id": f"D{n}",
            "index": i + 1,
            "card": "As",
            "manual": False,
        }
        for i in range(20)
    ]
    return HandEntry(
        table_id=hand["table_id"],
        game=hand["game"],
        started_at=start,
        ended_at=start + timedelta(seconds=90),
        status="settled",
        record=hand["record"],
        settlement=hand["settlement"],
        events=events,
        hand_uid=f"bench-{n}",
    )


def percentile(sorted_ms: list[float], q: float) -> float:
    """Nearest-rank percentile ``q`` (0..100) of already sorted values."""
    rank = max(1, round(q / 100 * len(sorted_ms)))
    return sorted_ms[min(rank, len(sorted_ms)) - 1]


def report(label: str, samples: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples)
    print(
        f"{label:<11} n={len(ms):<5} median {statistics.median(ms):7.2f} ms   "
        f"p99 {percentile(ms, 99):7.2f} ms   max {ms[-1]:7.2f} ms   "
        f"throughput {len(ms) / (sum(ms) / 1000):7.1f}/s"
    )


class UnsignedJournal(Journal):
    """The journal with signing switched off: the baseline of ``--signing`` only."""

    def _signer(self, conn: Any, table_id: str) -> Signer | None:
        return None


def compare_signing(hands: int) -> None:
    """Signed vs unsigned appends, interleaved in blocks, in one process; medians and ratio."""
    sample = SAMPLE.read_text(encoding="utf-8")
    entries = [entry(n, sample) for n in range(hands)]
    times: dict[str, list[float]] = {"signed": [], "unsigned": []}
    with tempfile.TemporaryDirectory() as tmp:
        journals = {
            "signed": Journal(str(Path(tmp) / "signed.db")),
            "unsigned": UnsignedJournal(str(Path(tmp) / "unsigned.db")),
        }
        for j in journals.values():
            j.open()
            j.append_hand(entry(-1, sample))  # warm-up (and the signed one's key)
        try:
            for block in range(0, hands, 25):
                for label, j in journals.items():
                    for e in entries[block : block + 25]:
                        t0 = time.perf_counter()
                        j.append_hand(e)
                        times[label].append(time.perf_counter() - t0)
            signer = journals["signed"].key_store.load("UTH-1")  # type: ignore[union-attr]
            last = journals["signed"].last_hand()
            if last is None or last.signature is None:
                raise SystemExit("the signed journal's last entry is not signed")
        finally:
            for j in journals.values():
                j.close()
    for label, samples in times.items():
        report(label, samples)
    ratio = statistics.median(times["signed"]) / statistics.median(times["unsigned"])
    print(f"median ratio signed/unsigned: {ratio:.3f}")
    n = 2000
    t0 = time.perf_counter()
    for _ in range(n):
        signer.sign_hash(last.hash)
    t1 = time.perf_counter()
    for _ in range(n):
        signer.public.verify_hash(last.hash, last.signature)
    t2 = time.perf_counter()
    print(
        f"Ed25519 per entry: sign {(t1 - t0) / n * 1e6:.1f} us, verify {(t2 - t1) / n * 1e6:.1f} us"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--db", help="journal path or URL (default: a temporary SQLite file)")
    parser.add_argument(
        "--signing", action="store_true", help="signed vs unsigned appends, interleaved (SQLite)"
    )
    args = parser.parse_args()
    if args.signing:
        compare_signing(args.hands)
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or str(Path(tmp) / "bench.db")
        sample = SAMPLE.read_text(encoding="utf-8")
        entries = [entry(n, sample) for n in range(args.hands)]
        appends, steps = [], []
        with Journal(db) as journal:
            journal.append_hand(entry(-1, sample))  # warm-up: connection, first page allocation
            for n, e in enumerate(entries):
                t0 = time.perf_counter()
                journal.write_step("UTH-1", f"bench-{n}", 1, "card", {"seat": 1, "card": "As"})
                t1 = time.perf_counter()
                journal.append_hand(e)
                t2 = time.perf_counter()
                steps.append(t1 - t0)
                appends.append(t2 - t1)
            t0 = time.perf_counter()
            result = journal.verify()
            verify_s = time.perf_counter() - t0
        backend = "PostgreSQL" if "postgresql" in db else "SQLite (WAL, synchronous=FULL)"
        print(f"journal: {backend}")
        report("append_hand", appends)
        report("write_step", steps)
        checked = result.hands_checked
        print(f"verify      {checked} hands in {verify_s * 1000:.1f} ms, ok={result.ok}")


if __name__ == "__main__":
    main()
