"""Settle throughput of random Hold'em hand records (at least 10,000 hands/s, one core).

Deals ``--hands`` seeded random records per betting structure with
:func:`dealer_assist.games.holdem_players.random_record` (not timed), then times
:func:`dealer_assist.record.settle_record` over them, the whole path of ``dealer-assist settle``
from the decoded JSON object to the settlement object: validation, the replay of every action
through the betting rules, pots and showdown. Prints the median (and the slowest and fastest) of
``--runs`` runs per structure and over all of them; ``--json`` adds the path from the JSON text to
the settlement's text.

    python bench/holdem_settle.py [--hands 5000] [--runs 5] [--seed 0] [--json] [--styles S,..]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from dealer_assist.engine.peer import STRUCTURES
from dealer_assist.games.holdem_players import STYLES, random_record
from dealer_assist.record import settle_record


def _rates(items: Sequence[Any], settle: Callable[[Any], object], runs: int) -> list[float]:
    """Hands per second of ``settle`` over ``items``, once per run."""
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        for item in items:
            settle(item)
        out.append(len(items) / (time.perf_counter() - start))
    return out


def _as_text(text: str) -> str:
    return json.dumps(settle_record(json.loads(text)))


def _line(label: str, rates: Sequence[float]) -> str:
    return (
        f"{label:<14} median {statistics.median(rates):>9,.0f} hands/s"
        f"  (min {min(rates):,.0f}, max {max(rates):,.0f}, {len(rates)} runs)"
    )


def main(argv: Sequence[str] | None = None) -> None:
    """Print the settle rates; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000, help="records per structure")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="also time JSON text to text")
    parser.add_argument(
        "--styles", default=",".join(STYLES), help="player styles to draw from (comma-separated)"
    )
    args = parser.parse_args(argv)

    records: dict[str, list[dict[str, Any]]] = {}
    for kind in STRUCTURES:
        rng = random.Random(f"{args.seed}-{kind}")
        styles = args.styles.split(",")
        records[kind] = [random_record(rng, betting=kind, styles=styles) for _ in range(args.hands)]
    every = [r for rs in records.values() for r in rs]
    actions = sum(len(r["actions"]) for r in every) / len(every)
    flop = sum(1 for r in every if r["board"]) / len(every)
    print(
        f"{len(every):,} random records ({args.hands:,} a structure, styles {args.styles}): "
        f"{actions:.1f} actions each, {flop:.0%} see a flop"
    )
    for name, rs in records.items():
        print(_line(name, _rates(rs, settle_record, args.runs)))
    print(_line("all", _rates(every, settle_record, args.runs)))
    if args.json:
        texts = [json.dumps(r) for r in every]
        print(_line("all, as text", _rates(texts, _as_text, args.runs)))


if __name__ == "__main__":
    main()
