"""Hand latency: from the emulator writing the last CARD frame of a hand to the settlement
committed in SQLite (WAL, synchronous=FULL), over a real pseudo-terminal.

    python bench/latency.py [--hands 500] [--seats 7] [--game uth]

The emulator logs each dealt card with its CLOCK_MONOTONIC time (shared by every process on
Linux); the host notes the monotonic time right after the journal's commit returns. Prints
p50/p90/p99/max in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.games import DEFAULT_GAME, GAME_CODES
from dealer_assist.players import PlayerModel
from dealer_assist.storage.journal import Journal
from dealer_assist.table.driving import HeadlessTable, play_hand
from drivers.emulator.process import EmulatorProcess
from drivers.factory import open_source


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=500)
    ap.add_argument("--seats", type=int, default=0, help="players (default: every seat)")
    ap.add_argument("--game", default=DEFAULT_GAME, choices=GAME_CODES)
    ap.add_argument("--seed", type=int, default=11)
    # 5 ms a card is still 50x faster than a shuffler deals; much faster and the host's durable
    # per-card step (~0.8 ms) queues cards, which measures the emulator, not the table.
    ap.add_argument("--card-interval", type=float, default=0.005)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        dealt_log = Path(tmp) / "dealt.jsonl"
        emu = EmulatorProcess(
            [
                "--seed",
                str(args.seed),
                "--shuffle-time",
                "0.005",
                "--card-interval",
                str(args.card_interval),
                "--dealt-log",
                str(dealt_log),
            ]
        )
        config = load_table_config(game=args.game)
        args.seats = args.seats or config.seats
        journal = Journal(str(Path(tmp) / "journal.db"))
        where = emu.start()
        source = open_source(where, name="serial")
        commits: list[tuple[str, float]] = []
        try:
            journal.open()
            source.open()
            runner = HeadlessTable(config, source, journal)
            model = PlayerModel(config, args.seed)
            seats = list(range(1, args.seats + 1))
            for _ in range(args.hands):
                hand = play_hand(runner, model, seats)
                done = time.monotonic()
                if hand.phase is Phase.SETTLED:
                    commits.append((hand.cards[-1].deck_id, done))
        finally:
            source.close()
            journal.close()
            emu.stop()
        last_card: dict[str, float] = {}
        for line in dealt_log.read_text().splitlines():
            row = json.loads(line)
            last_card[row["deck_id"]] = row["mono"]  # the deck's last dealt card wins
        ms = sorted((t - last_card[deck]) * 1000 for deck, t in commits)
    q = statistics.quantiles(ms, n=100)
    print(
        f"hand latency, {args.game}, {args.seats} seats, {len(ms)} settled hands "
        f"(last CARD written -> settlement committed, SQLite WAL synchronous=FULL):"
    )
    print(f"  p50 {q[49]:.2f} ms   p90 {q[89]:.2f} ms   p99 {q[98]:.2f} ms   max {ms[-1]:.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
