"""``dealer-assist settle`` through the CLI against pokerkit, per hand, on the same records.

Deals ``--hands`` seeded random Hold'em records (:func:`dealer_assist.games.holdem_players.
random_record`, not timed), writes them as JSON Lines and as PHH (our export, not timed) and
keeps the hands pokerkit replays to our stacks (odd chips aside), so both sides do the same
hands. Then, alternating, ``--runs`` times:

- **CLI**: ``python -m ui.cli settle FILE.jsonl > /dev/null``, wall clock of the whole process:
  start-up, reading, JSON decoding, validation, settlement, JSON output; with the bytecode
  cached as an installed copy has it (pip compiles it on install): ``PYTHONDONTWRITEBYTECODE``
  dropped, the cache in a temporary ``PYTHONPYCACHEPREFIX`` (not the tree), written by one run
  before the timed ones. ``--compile-each-run`` keeps ``PYTHONDONTWRITEBYTECODE`` as set here
  (every run compiles the sources again);
- **in process**: :func:`dealer_assist.record.settle_record` over the decoded records;
- **pokerkit**: its state built from the PHH fields and every action applied with
  ``pokerkit.notation.parse_action`` (the TOML already parsed: less work than ours).

Prints the medians and the ratios pokerkit time / ours. ``--base DIR``: also, in the same turns,
the CLI of another tree (a worktree with its own ``.venv``: before/after in one run).
``--jobs N``: also, in the same turns, our CLI with ``settle --jobs N`` (N worker processes;
the single-process figure is printed beside it).

    python bench/settle_vs_pokerkit.py [--hands 5000] [--runs 5] [--seed 0] [--betting no_limit]
                                       [--base DIR] [--jobs N] [--compile-each-run]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pokerkit as pk

from dealer_assist.games.holdem_players import random_record
from dealer_assist.interchange import record_to_phh
from dealer_assist.record import settle_record

REPO = Path(__file__).resolve().parents[1]
AUTOMATIONS = tuple(
    getattr(pk.Automation, name)
    for name in (
        "ANTE_POSTING",
        "BET_COLLECTION",
        "BLIND_OR_STRADDLE_POSTING",
        "CARD_BURNING",
        "RUNOUT_COUNT_SELECTION",
        "HAND_KILLING",
        "CHIPS_PUSHING",
        "CHIPS_PULLING",
    )
)


def game(phh: dict[str, Any]) -> Any:
    """pokerkit's game for one PHH hand (NT or FT: pokerkit has no pot-limit hold'em)."""
    trimming = phh.get("ante_trimming_status", False)
    if phh["variant"] == "FT":
        return pk.FixedLimitTexasHoldem(
            AUTOMATIONS,
            trimming,
            phh["antes"],
            phh["blinds_or_straddles"],
            phh["small_bet"],
            phh["big_bet"],
            mode=pk.Mode.CASH_GAME,
        )
    return pk.NoLimitTexasHoldem(
        AUTOMATIONS,
        trimming,
        phh["antes"],
        phh["blinds_or_straddles"],
        phh["min_bet"],
        mode=pk.Mode.CASH_GAME,
    )


def replay(phh: dict[str, Any]) -> list[int]:
    """pokerkit's end stacks of one PHH hand, action by action."""
    state = game(phh)(phh["starting_stacks"], len(phh["starting_stacks"]))
    for action in phh["actions"]:
        pk.notation.parse_action(state, action)
    return list(state.stacks)


def _agrees(phh: dict[str, Any], settlement: dict[str, Any]) -> bool:
    """Whether pokerkit replays ``phh`` to our stacks, or to them with each pot's odd chips
    given pokerkit's way (the whole remainder to the first winner, docs/PHH.md)."""
    try:
        theirs = replay(phh)
    except (ValueError, AssertionError):
        return False
    ends = {s["seat"]: s["stack"] for s in settlement["seats"]}
    if theirs == [ends[s] for s in phh["seats"]]:
        return True
    for pot in settlement["pots"]:
        q, r = divmod(pot["amount"], len(pot["winners"]))
        for i, w in enumerate(pot["winners"]):
            ends[w["seat"]] += q + (r if i == 0 else 0) - w["amount"]
    return theirs == [ends[s] for s in phh["seats"]]


def cli_env(cache: Path | None) -> dict[str, str]:
    """The environment of the timed CLI runs: bytecode cached in ``cache`` (None: the
    environment as it is)."""
    env = dict(os.environ)
    if cache is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env


def main(argv: Sequence[str] | None = None) -> int:
    """Print the figures; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--betting", choices=("no_limit", "fixed_limit"), default="no_limit")
    parser.add_argument("--base", type=Path, help="another tree whose CLI is timed alike")
    parser.add_argument(
        "--jobs", type=int, default=1, help="also time our CLI with settle --jobs N (N > 1)"
    )
    parser.add_argument(
        "--compile-each-run",
        action="store_true",
        help="no bytecode cache: every CLI run compiles the sources",
    )
    args = parser.parse_args(argv)
    rng = random.Random(f"{args.seed}-{args.betting}")
    records: list[dict[str, Any]] = []
    phhs: list[dict[str, Any]] = []
    dropped = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        while len(records) < args.hands:
            record = random_record(rng, betting=args.betting)
            settlement = settle_record(record)
            phh = record_to_phh(record, settlement)
            if _agrees(phh, settlement):
                records.append(record)
                phhs.append(phh)
            else:
                dropped += 1
    bytecode = "compiled each run" if args.compile_each_run else "bytecode cached"
    print(
        f"{len(records):,} random {args.betting} records both settle alike "
        f"({dropped} others left out); {args.runs} runs, medians; CLI {bytecode}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "records.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
        env = cli_env(None if args.compile_each_run else Path(tmp) / "pycache")
        trees: list[tuple[str, Path, str, tuple[str, ...]]] = [("ours", REPO, sys.executable, ())]
        if args.base is not None:
            base_python = str(args.base / ".venv" / "bin" / "python")
            trees.insert(0, ("base", args.base, base_python, ()))
        if args.jobs > 1:
            trees.append(("jobs", REPO, sys.executable, ("--jobs", str(args.jobs))))
        clis: dict[str, list[float]] = {name: [] for name, _, _, _ in trees}
        inproc: list[float] = []
        kit: list[float] = []
        for turn in range(args.runs + 1):  # turn 0 writes the bytecode cache: not timed
            for name, tree, python, options in trees:
                start = time.perf_counter()
                subprocess.run(
                    [python, "-m", "ui.cli", "settle", *options, str(path)],
                    cwd=tree,
                    env=env,
                    stdout=subprocess.DEVNULL,
                    check=True,
                )
                if turn:
                    clis[name].append(time.perf_counter() - start)
            if not turn:
                continue
            start = time.perf_counter()
            for record in records:
                settle_record(record)
            inproc.append(time.perf_counter() - start)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)
                start = time.perf_counter()
                for phh in phhs:
                    replay(phh)
                kit.append(time.perf_counter() - start)
    n = len(records)
    k = statistics.median(kit)
    rows = [("pokerkit", kit), ("ours, in process", inproc), ("ours, CLI", clis["ours"])]
    if args.jobs > 1:
        rows.append((f"ours, CLI --jobs {args.jobs}", clis["jobs"]))
    if args.base is not None:
        rows.append((f"base CLI ({args.base.name})", clis["base"]))
    for label, times in rows:
        t = statistics.median(times)
        print(
            f"{label:<22} {t:8.3f} s  {t / n * 1e6:8.1f} µs/hand  "
            f"{n / t:>9,.0f} hands/s  pokerkit/ours {k / t:5.1f}x"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
