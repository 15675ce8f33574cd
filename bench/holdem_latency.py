"""Pot-game hand latency: from the hand's last input to its pots committed in SQLite (WAL,
synchronous=FULL), over a real pseudo-terminal.

    python bench/holdem_latency.py [--hands 300] [--players 6] [--seed 11] [--game holdem]
                                   [--stay-in P]

The table is ``simulate --game holdem``'s (or ``--game stud``'s, 8 players with ``--stay-in
0.9`` reaching seventh street: the burns loaded back into the emulator for a new deck): seeded
players of varied styles, buy-ins, sit-outs.
A hand's last input is the later of the last dealer step (an action, or a hand shown or mucked
at the showdown: the time the step was handed to the runner) and the last card of its deck (the
emulator logs each dealt card with its CLOCK_MONOTONIC time, shared by every process on Linux:
a hand that ends on an all-in run-out ends on a card). The host notes the monotonic time right
after the journal's commit of the hand returns. Prints p50/p90/p99/max in milliseconds, over
every settled hand and by how the hand ended.
"""

from __future__ import annotations

import argparse
import bisect
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.config import load_table_config
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.games import POT_GAME_CODES
from dealer_assist.ports import HandEntry, PendingStep, StoredHand
from dealer_assist.source import CardSource, ForwardingSource
from dealer_assist.storage.journal import Journal
from dealer_assist.table.peer_driving import HeadlessPeerTable, play_hand
from drivers.emulator.process import EmulatorProcess
from drivers.factory import open_source
from ui.commands.simulate_poker import Seating


class TimedJournal(Journal):
    """A journal noting when each entry's commit returned (by hand uid) and how long it took,
    and when each pending step's write returned and how long it took."""

    committed: dict[str, tuple[float, float]]
    steps: list[tuple[float, float]]

    def append_hand(self, entry: HandEntry) -> StoredHand:
        """As :meth:`Journal.append_hand`, timed."""
        began = time.monotonic()
        stored = super().append_hand(entry)
        done = time.monotonic()
        self.committed[entry.hand_uid or ""] = (done, done - began)
        return stored

    def write_step(
        self, table_id: str, hand_uid: str, step_no: int, kind: str, payload: dict[str, Any]
    ) -> PendingStep:
        """As :meth:`Journal.write_step`, timed."""
        began = time.monotonic()
        step = super().write_step(table_id, hand_uid, step_no, kind, payload)
        done = time.monotonic()
        self.steps.append((done, done - began))
        return step


class LoadingSource(ForwardingSource):
    """The serial source of the bench's emulator, with the dealer's hands: cards loaded into
    the emulator's shoe over its control pipe (a :class:`~dealer_assist.source.CardLoader`)."""

    def __init__(self, inner: CardSource, emulator: EmulatorProcess) -> None:
        super().__init__(inner)
        self.emulator = emulator

    def load_cards(self, cards: Sequence[Card]) -> None:
        """See :meth:`EmulatorProcess.load_cards`."""
        self.emulator.load_cards(cards)


class TimedTable(HeadlessPeerTable):
    """The headless table noting the monotonic time each dealer step was handed over."""

    last_step = 0.0

    def act(self, seat: int, kind: str, to: int | None = None) -> PeerHand:
        """As :meth:`HeadlessPeerTable.act`, its start noted."""
        self.last_step = time.monotonic()
        return super().act(seat, kind, to)

    def show(self, seat: int, *, shown: bool = True) -> PeerHand:
        """As :meth:`HeadlessPeerTable.show`, its start noted."""
        self.last_step = time.monotonic()
        return super().show(seat, shown=shown)


def main() -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--game", choices=POT_GAME_CODES, default=POT_GAME_CODES[0])
    ap.add_argument("--stay-in", type=float, default=0.0, help="see simulate --stay-in")
    # 5 ms a card, as bench/latency.py: 50x faster than a shuffler, slower than the host's step
    ap.add_argument("--card-interval", type=float, default=0.005)
    args = ap.parse_args()
    config = load_table_config(game=args.game)
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
            ],
            control=True,
        )
        journal = TimedJournal(str(Path(tmp) / "journal.db"))
        journal.committed, journal.steps = {}, []
        source = LoadingSource(open_source(emu.start(), name="serial"), emu)
        ended: list[tuple[str, str, float]] = []  # hand uid, its deck, its last dealer step
        new_decks = 0  # settled hands with a street dealt from a new deck
        try:
            journal.open()
            source.open()
            table = TimedTable(config, source, journal)
            rng = random.Random(args.seed)
            seating = Seating(table, rng, args.players, stay_in=args.stay_in)
            for _ in range(args.hands):
                seating.between_hands()
                hand = play_hand(table, seating.players, rng)
                if hand.status == "settled" and hand.cards:
                    ended.append((hand.hand_uid, hand.cards[-1].deck_id, table.last_step))
                    new_decks += len({c.deck_id for c in hand.cards}) > 1
        finally:
            source.close()
            journal.close()
            emu.stop()
        last_card: dict[str, float] = {}
        for line in dealt_log.read_text().splitlines():
            row = json.loads(line)
            last_card[row["deck_id"]] = row["mono"]  # the deck's last dealt card wins
    by_end: dict[str, list[float]] = {"a dealer step": [], "a card": []}
    n_steps: list[float] = []
    step_ms: list[float] = []
    append_ms: list[float] = []
    step_done = [t for t, _ in journal.steps]
    for uid, deck, step in ended:
        card = last_card[deck]
        start = max(step, card)
        done, took = journal.committed[uid]
        by_end["a card" if card > step else "a dealer step"].append((done - start) * 1000)
        # the durable steps written between the last input and the commit
        inside = journal.steps[
            bisect.bisect_right(step_done, start) : bisect.bisect_left(step_done, done)
        ]
        n_steps.append(len(inside))
        step_ms.append(sum(d for _, d in inside) * 1000)
        append_ms.append(took * 1000)
    everything = sorted(ms for values in by_end.values() for ms in values)
    print(
        f"hand latency, {args.game}, {args.players} players, {len(everything)} settled hands "
        f"(last input -> pots committed, SQLite WAL synchronous=FULL; {new_decks} with a "
        f"street from a new deck):"
    )
    print(f"  all:  {_figures(everything)}")
    for how, values in by_end.items():
        print(f"  ending on {how} ({len(values)}): {_figures(sorted(values))}")
    print("  of which:")
    print(
        f"    pending steps written: median {statistics.median(n_steps):g}, "
        f"max {max(n_steps):g} a hand; their writes {_figures(sorted(step_ms))}"
    )
    print(f"    the hand appended: {_figures(sorted(append_ms))}")
    return 0


def _figures(ms: list[float]) -> str:
    if len(ms) < 2:
        return "too few hands"
    # inclusive: interpolated between the samples, never above the max (the default, exclusive
    # method extrapolates past it for small groups)
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return (
        f"p50 {q[49]:.2f} ms   p90 {q[89]:.2f} ms   p99 {q[98]:.2f} ms   max {ms[-1]:.2f} ms"
        f"   (n={len(ms)})"
    )


if __name__ == "__main__":
    sys.exit(main())
