"""pokerkit replays what ``dealer-assist phh export`` writes of simulated journals, in one run.

For each game (Hold'em 9-handed, Stud 8-handed: its maximum): ``dealer-assist simulate --game G
--players N --stay-in P --hands H --seed S --db J`` (a real journal through the emulator), then
``dealer-assist phh export --db J -o FILE.phhs``, then pokerkit (``HandHistory`` state, every
action as written) replays each exported hand and its end stacks are compared with the journal's
settlement (tests/fixtures/phh_oracle.py). Prints ``replayed N of M`` per game (same stacks, or
odd chips aside) and the other hands by reason: the rule differences of docs/PHH.md that
pokerkit refuses.

    python bench/phh_replay.py [--hands 200] [--seed 1] [--stay-in 0.9] [--games holdem,stud]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pokerkit as pk

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # the oracle lives with the tests

from dealer_assist.games import holdem, stud  # noqa: E402
from dealer_assist.interchange import loads_phh_text  # noqa: E402
from dealer_assist.storage import Journal  # noqa: E402
from tests.fixtures.phh_oracle import AGREES, classify  # noqa: E402

PLAYERS = {holdem.CODE: 9, stud.CODE: stud.MAX_SEATS}


def run_game(game: str, args: argparse.Namespace, tmp: Path) -> Counter[str]:
    """Simulate, export and replay one game's journal; the outcomes by kind."""
    db, out = tmp / f"{game}.db", tmp / f"{game}.phhs"
    cli = [sys.executable, "-m", "ui.cli"]
    subprocess.run(
        [
            *cli,
            "simulate",
            "--game",
            game,
            "--players",
            str(PLAYERS[game]),
            "--stay-in",
            str(args.stay_in),
            "--hands",
            str(args.hands),
            "--seed",
            str(args.seed),
            "--db",
            str(db),
            "--no-progress",
        ],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=1800,
    )
    subprocess.run(
        [*cli, "phh", "export", "--db", str(db), "-o", str(out)],
        cwd=REPO,
        check=True,
        capture_output=True,
        timeout=600,
    )
    with Journal(str(db), create=False) as journal:
        stored = {h.hand_id: h.settlement for h in journal.iter_hands()}
    hands = loads_phh_text(out.read_text(), game)
    return Counter(classify(pk, phh, stored[phh["hand"]]) for phh in hands.values())


def main(argv: Sequence[str] | None = None) -> int:
    """Print the counts; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--stay-in", type=float, default=0.9)
    parser.add_argument("--games", default=",".join(PLAYERS))
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        for game in args.games.split(","):
            outcomes = run_game(game, args, Path(tmp))
            total = sum(outcomes.values())
            agreed = sum(outcomes[k] for k in AGREES)
            print(
                f"{game} ({PLAYERS[game]}-handed, {args.hands} hands simulated, seed "
                f"{args.seed}, stay-in {args.stay_in}): replayed {agreed} of {total} "
                f"(same {outcomes['same']}, odd chips {outcomes['odd chips']})"
            )
            for kind, n in outcomes.most_common():
                if kind not in AGREES:
                    print(f"  {n:4d}  {kind}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
