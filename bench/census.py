"""Seven-card census and evaluator speed: ``python bench/census.py [--no-progress]``.

Prints the category count of every one of the 133,784,560 seven-card hands next to the published
figure, the wall time (table build included: the census runs first in a fresh process) and
hands/s; then the median evaluate() time per 7-card hand and evaluate_batch throughput.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from tqdm import tqdm

from dealer_assist.batch_eval import (
    SEVEN_CARD_HANDS,
    evaluate_batch,
    random_hands,
    seven_card_census,
)
from dealer_assist.cards import FULL_DECK
from dealer_assist.evaluator import Category, evaluate

PUBLISHED = {
    Category.ROYAL_FLUSH: 4_324,
    Category.STRAIGHT_FLUSH: 37_260,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}


def census(show_progress: bool) -> None:
    t0 = time.perf_counter()
    if show_progress:
        with tqdm(total=SEVEN_CARD_HANDS, unit="hand", unit_scale=True, leave=False) as bar:
            counts = seven_card_census(bar.update)
    else:
        counts = seven_card_census()
    wall = time.perf_counter() - t0
    print(f"{'category':<16} {'count':>12} {'published':>12}")
    for cat in sorted(Category, reverse=True):
        mark = "" if counts[cat] == PUBLISHED[cat] else "  MISMATCH"
        print(f"{cat.code:<16} {counts[cat]:>12,} {PUBLISHED[cat]:>12,}{mark}")
    total = sum(counts.values())
    ok = counts == PUBLISHED and total == SEVEN_CARD_HANDS
    print(f"{'total':<16} {total:>12,} {SEVEN_CARD_HANDS:>12,}")
    print(f"all match published figures: {'yes' if ok else 'NO'}")
    print(f"census wall time {wall:.2f} s (tables included), {total / wall / 1e6:.1f} M hands/s")


def single_hand(n: int) -> None:
    hands = random_hands(np.random.default_rng(1), n, 7).tolist()
    cards = [tuple(FULL_DECK[i] for i in h) for h in hands]
    for c in cards[:200]:  # warm-up
        evaluate(c)
    times = []
    for c in cards:
        t = time.perf_counter_ns()
        evaluate(c)
        times.append(time.perf_counter_ns() - t)
    print(f"evaluate(): median {statistics.median(times) / 1e3:.1f} µs per 7-card hand ", end="")
    print(f"(p90 {statistics.quantiles(times, n=10)[-1] / 1e3:.1f} µs, {n:,} hands)")


def batch(n: int, repeats: int) -> None:
    hands = random_hands(np.random.default_rng(2), n, 7)
    evaluate_batch(hands[:1000])  # build the 7-card tables outside the timing
    walls = []
    for _ in range(repeats):
        t = time.perf_counter()
        evaluate_batch(hands)
        walls.append(time.perf_counter() - t)
    med = statistics.median(walls)
    print(f"evaluate_batch(): {n / med / 1e6:.1f} M hands/s (median of {repeats} x {n:,} hands)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-progress", action="store_true", help="no tqdm bar")
    parser.add_argument("--single", type=int, default=20_000, help="hands for evaluate() timing")
    parser.add_argument("--batch", type=int, default=1_000_000, help="hands per batch run")
    args = parser.parse_args()
    census(not args.no_progress)
    single_hand(args.single)
    batch(args.batch, 5)


if __name__ == "__main__":
    main()
