"""Journals written by the release before the engine issue (9cd305d), each left with a hand
pending (a power cut mid-hand), still resume and settle after the upgrade.

The files in ``tests/fixtures/data/legacy_journals/`` were written by that release's own code
(``tests/fixtures/data/legacy_journals_gen.py.txt``, run at 9cd305d):
a UTH or THB hand dealt from the
dealer's keypad (a deck shuffled with ``random.Random(7)``), the table dying right after the n-th
durable step. ``expected.json`` holds what that same release journaled when it resumed them and
played them out (the first legal decision each time; ``many-*``: the last, one ``act_many`` step
per street). The resumed hand must be journaled with the same record and settlement.
"""

from __future__ import annotations

import json
import random
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.storage.journal import Journal
from dealer_assist.table.driving import HeadlessTable
from drivers.manual import ManualSource
from tests.conftest import close_at_teardown

DATA = Path(__file__).parent.parent / "fixtures" / "data" / "legacy_journals"
FILES = sorted(p.name for p in DATA.glob("*.db"))


class Keypad:
    """The dealer, typing the next card of the deck whenever the hand waits for one the table
    asked for (its own thread: a step may wait for its cards). Only asked-for cards: while
    ``resume`` replays the step log the hand passes through its dealing states again, and a
    card typed then would be a stray one."""

    def __init__(self, source: ManualSource, runner: HeadlessTable, deck: list[Any]) -> None:
        self.source, self.runner, self.deck = source, runner, deck
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="keypad", daemon=True)
        self.thread.start()
        close_at_teardown(self)

    def _run(self) -> None:
        typed = -1
        while not self.stop.wait(0.005):
            hand = self.runner.hand
            if hand is None or hand.phase is not Phase.DEALING or not hand.pending:
                continue
            if not self.source.expected:
                continue  # not asked (the replay): the table calls deal(n) when it wants cards
            n = len(hand.cards)
            if n != typed:
                typed = n
                self.source.enter(self.deck[n])

    def close(self) -> None:
        self.stop.set()
        self.thread.join(2.0)


def finish(name: str, tmp_path: Path) -> dict[str, Any]:
    """Resume the legacy journal ``name`` and play its hand out; the journaled hand."""
    db = tmp_path / name
    shutil.copy(DATA / name, db)
    config = load_table_config(game=name.split("-")[1] if name.startswith("many") else name[:3])
    journal = close_at_teardown(Journal(str(db)))
    journal.open()
    source = close_at_teardown(ManualSource())
    source.open()
    deck = list(FULL_DECK)
    random.Random(7).shuffle(deck)
    try:
        runner = HeadlessTable(config, source, journal, card_timeout=5.0, shuffle_timeout=2.0)
        keypad = Keypad(source, runner, deck)
        hand = runner.resume()
        assert hand is not None
        while hand.phase not in (Phase.SETTLED, Phase.VOID):
            if hand.phase is Phase.DEALING:
                runner.poll(0.05)
            elif hand.phase is Phase.DECISIONS and name.startswith("many"):
                runner.act_many(
                    [(s, hand.legal_actions(s)[-1]) for s in hand.seats_to_act], advance=True
                )
            elif hand.phase is Phase.DECISIONS:
                for seat in hand.seats_to_act:
                    runner.act(seat, hand.legal_actions(seat)[0])
                runner.advance()
            elif hand.phase is Phase.SHOWDOWN:
                runner.reveal()
            elif hand.phase is Phase.REVEALED:
                runner.settle()
        stored = journal.last_hand()
        pending = journal.pending_steps(config.table_id)
        assert stored is not None and pending == [], (hand.phase, hand.void_reason, pending[:3])
        assert journal.verify().ok
        return {
            "status": stored.status,
            "record": stored.record,
            "settlement": stored.settlement,
            "resumed": stored.extra.get("resumed"),
            "cards": [(c["position"], c["card"]) for c in stored.extra["cards"]],
        }
    finally:
        keypad.close()
        source.close()
        journal.close()


@pytest.mark.parametrize("name", FILES)
def test_a_hand_left_pending_by_the_previous_release_resumes_and_settles(
    name: str, tmp_path: Path
) -> None:
    expected = json.loads((DATA / "expected.json").read_text())[name]
    got = json.loads(json.dumps(finish(name, tmp_path)))
    assert got["status"] == "settled"
    assert got == expected


if __name__ == "__main__":  # writes expected.json (run once, with the release that wrote the files)
    import tempfile

    out = {n: finish(n, Path(tempfile.mkdtemp())) for n in FILES}
    (DATA / "expected.json").write_text(json.dumps(out, indent=1, sort_keys=True) + "\n")
