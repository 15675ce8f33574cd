"""Hold'em between hands: median / p99 of laying out the next hand and carrying its settlement
into the session (9 seats, players sitting out and returning), and of journaling one table
record (a top-up) on a fresh SQLite file (WAL, synchronous=FULL).

    python bench/holdem_table.py [--hands 2000] [--records 300] [--db PATH_OR_URL]
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from dealer_assist.games.holdem import HoldemSettings
from dealer_assist.games.holdem_table import (
    PokerTable,
    after_hand,
    next_hand,
    seat_player,
    set_button,
    sit_in,
    sit_out,
    top_up,
)
from dealer_assist.games.seats import eligible
from dealer_assist.games.session import TableSession
from dealer_assist.storage import Journal
from dealer_assist.table.records import journal_change


def _figures(name: str, samples: list[float]) -> None:
    ms = sorted(s * 1000 for s in samples)
    p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
    print(f"{name}: median {statistics.median(ms):.3f} ms, p99 {p99:.3f} ms ({len(ms)} runs)")


def main() -> None:
    """Print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--records", type=int, default=300)
    ap.add_argument("--db", default=None)
    a = ap.parse_args()
    for rule in ("moving", "dead"):
        table = PokerTable(
            blinds=(100, 200),
            chip=100,
            buy_in_min=8000,
            buy_in_max=40000,
            seats=9,
            settings=HoldemSettings(button=rule),
        )
        s = TableSession("BENCH")
        for seat in range(1, 10):
            s = seat_player(s, table, seat, f"P{seat}", 20000)
        s = set_button(s, 1)
        samples = []
        for n in range(a.hands):
            if n % 7 == 3:  # someone sits out or comes back now and then
                seat = 1 + n % 9
                if s.seats[seat].sitting_out:
                    s = sit_in(s, seat, table=table)
                elif len(eligible(s)) > 5:
                    s = sit_out(s, seat)
            t0 = time.perf_counter()
            setup = next_hand(s, table)
            settlement = {"seats": [{"seat": x, "stack": setup.stacks[x]} for x in setup.seats]}
            s = after_hand(s, table, setup, settlement, void=False)
            samples.append(time.perf_counter() - t0)
        _figures(f"next_hand + after_hand ({rule} button, 9 seats)", samples)
    with tempfile.TemporaryDirectory() as tmp, Journal(a.db or str(Path(tmp) / "t.db")) as j:
        s = seat_player(TableSession("BENCH"), table, 1, "P1", 8000)
        samples = []
        for _ in range(min(a.records, 320)):  # 8000 + 320 top-ups of 100: the maximum
            s = top_up(s, table, 1, 100)
            t0 = time.perf_counter()
            journal_change(j, s)
            samples.append(time.perf_counter() - t0)
        _figures("journal_change (one table record, SQLite)", samples)


if __name__ == "__main__":
    main()
