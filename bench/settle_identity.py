"""``dealer-assist settle`` of this tree against another release's, byte for byte.

    python bench/settle_identity.py --base /work/wt-base [--hands 10000] [--seed 0] [--keep DIR]
                                    [--jobs N]

Writes, per game, ``--hands`` seeded random records as JSON Lines (uth, thb: the generators of
``tests/core/test_settle_independent.py``; holdem, stud: ``dealer_assist.games.*_players``, every
betting structure in turn), one in 50 of them spoiled so that settle refuses it (a card
repeated, an amount made fractional: the refusal's text is compared too), and takes every
record of ``../shared/cases`` (banked and pot, valid and invalid) one file each. Then runs
``dealer-assist settle FILE`` of this tree's venv and of ``BASE/.venv/bin/dealer-assist``
(a worktree of the other release with its own venv), and compares exit code, stdout and stderr
byte for byte. Prints one line per input with the record count and the verdict; exit 1 when any
differs. ``--jobs N``: this tree's settle runs with ``--jobs N`` (worker processes), the other's
as it is.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dealer_assist.games import holdem_players, stud_players  # noqa: E402
from tests.core.test_settle_independent import random_thb, random_uth  # noqa: E402

CASES = ROOT / ".." / "shared" / "cases"
STRUCTURES = ("no_limit", "pot_limit", "fixed_limit")


def _pot(make: Callable[..., dict[str, Any]]) -> Callable[[random.Random, int], dict[str, Any]]:
    return lambda rng, i: make(rng, betting=STRUCTURES[i % 3])


GAMES: dict[str, Callable[[random.Random, int], dict[str, Any]]] = {
    "uth": lambda rng, i: random_uth(rng),
    "thb": lambda rng, i: random_thb(rng),
    "holdem": _pot(holdem_players.random_record),
    "stud": _pot(stud_players.random_record),
}


def spoil(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """``record`` made invalid: a hole card repeated on the board or another player, or an
    amount made fractional."""
    players = record["players"]
    key = "hole" if "hole" in players[0] else "cards"
    if rng.random() < 0.5 and len(players) > 1 and players[0].get(key) and players[1].get(key):
        players[1][key][0] = players[0][key][0]
    elif "bets" in players[0]:
        players[0]["bets"]["ante"] = players[0]["bets"]["ante"] + 0.5
    else:
        players[0]["stack"] = players[0]["stack"] + 0.5
    return record


def write_inputs(out: Path, hands: int, seed: int) -> list[tuple[str, Path, int]]:
    """The JSON Lines file of each game and each shared case's record: (name, path, records)."""
    inputs = []
    for game, make in GAMES.items():
        path = out / f"{game}.jsonl"
        with path.open("w") as f:
            for i in range(hands):
                rng = random.Random(f"{seed}-{game}-{i}")
                record = make(rng, i)
                if rng.random() < 0.02:
                    record = spoil(record, rng)
                f.write(json.dumps(record) + "\n")
        inputs.append((game, path, hands))
    for case in sorted(CASES.resolve().rglob("*.json")):
        doc = json.loads(case.read_text())
        record = doc.get("record", doc) if isinstance(doc, dict) else doc
        path = out / "cases" / case.relative_to(CASES.resolve())
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record, indent=1, ensure_ascii=False))
        inputs.append((str(case.relative_to(CASES.resolve())), path, 1))
    return inputs


def settle(cli: str, path: Path, *options: str) -> tuple[int, bytes, bytes]:
    """Exit code, stdout and stderr of ``cli settle [options] path`` (a venv's
    ``dealer-assist``)."""
    run = subprocess.run(
        [cli, "settle", *options, str(path)], capture_output=True, timeout=3600, check=False
    )
    return run.returncode, run.stdout, run.stderr


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--base", required=True, help="worktree of the other release (with .venv)")
    ap.add_argument("--hands", type=int, default=10_000, help="random records per game")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--keep", help="write the inputs here (default: a temporary folder)")
    ap.add_argument("--jobs", type=int, default=1, help="this tree's settle --jobs (default 1)")
    args = ap.parse_args()
    base = str(Path(args.base) / ".venv" / "bin" / "dealer-assist")
    here = str(ROOT / ".venv" / "bin" / "dealer-assist")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(args.keep or tmp)
        out.mkdir(parents=True, exist_ok=True)
        differ = 0
        for name, path, n in write_inputs(out, args.hands, args.seed):
            options = ("--jobs", str(args.jobs)) if args.jobs > 1 else ()
            old, new = settle(base, path), settle(here, path, *options)
            same = old == new
            differ += not same
            lines = new[1].count(b"\n")
            verdict = "identical" if same else "DIFFERENT"
            print(
                f"{name:58} {n:>6} record(s)  exit {new[0]}  {lines:>6} lines out  "
                f"{len(new[2]):>7} bytes err  {verdict}"
            )
    print(f"{'all identical' if not differ else f'{differ} input(s) differ'}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
