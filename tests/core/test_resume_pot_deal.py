"""A pot game's hand resumed on a device that kept its deck asks for its missing cards once
(a Hold'em hand killed on an external emulator "goes on where it stopped").

The table process dies at one step of a Hold'em hand (a real SQLite journal whose process stops
just before or just after that step is written, its TCRP/1 link closed as a dead process's
would be) while the emulator runs on in its own process over a real pty, keeping the deck. A
new table resumes the hand and plays it to its end. The moments that matter: after the deck's
SHUFFLED step and before the DEAL reached the device (nothing was dealt: the resume must send
the DEAL itself, and only once; twice dealt 24 hole cards and voided the hand ``extra_card
(index 13)``), and between a card the device dealt and its step (the history brings the rest).
The emulator's dealt log says what really left the device: exactly the hand's cards.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.storage.journal import Journal
from dealer_assist.table.peer_driving import HeadlessPeerTable, play_hand
from drivers.emulator.process import EmulatorProcess
from drivers.factory import open_source
from tests.conftest import close_at_teardown
from tests.core.test_recovery import FAST, Crash
from ui.commands.simulate_poker import Seating

pytestmark = pytest.mark.integration

PLAYERS = 6  # 12 hole cards: a second hole-card DEAL shows as card 13 (the flop's burn)


class CrashAtStep(Journal):
    """A real journal whose process dies at the ``nth`` step write of ``kind``: ``before`` it
    is written, or right after (written, not yet applied, nothing sent to the device)."""

    def __init__(self, path: str, kind: str, nth: int, before: bool) -> None:
        super().__init__(path)
        self.kind, self.nth, self.before, self.seen = kind, nth, before, 0

    def write_step(
        self, table_id: str, hand_uid: str, step_no: int, kind: str, payload: dict[str, Any]
    ) -> Any:
        hit = kind == self.kind and self.seen + 1 == self.nth
        self.seen += kind == self.kind
        if hit and self.before:
            raise Crash
        step = super().write_step(table_id, hand_uid, step_no, kind, payload)
        if hit:
            raise Crash
        return step


@pytest.fixture
def emulator(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """An emulator of its own per test (the same decks whatever ran before), with its log of
    every card that left it."""
    dealt = tmp_path / "dealt.jsonl"
    emu = close_at_teardown(EmulatorProcess([*FAST, "--seed", "8", "--dealt-log", str(dealt)]))
    yield emu.start(), dealt
    emu.stop()


class PokerTable:
    """A Hold'em table process: journal, TCRP/1 link to the emulator, the simulated players."""

    def __init__(self, where: str, journal: Journal, config: TableConfig, seed: int) -> None:
        self.journal = close_at_teardown(journal)
        journal.open()
        self.source = close_at_teardown(open_source(where, name="serial"))
        self.source.open()
        self.table = HeadlessPeerTable(config, self.source, journal)
        self.rng = random.Random(seed)
        self.seating = Seating(self.table, self.rng, PLAYERS)

    def play(self, hand: PeerHand | None = None) -> PeerHand:
        if hand is None:
            self.seating.between_hands()
        else:
            self.seating.players_of(self.table.session)
        return play_hand(self.table, self.seating.players, self.rng, hand, by="test")

    def die(self) -> None:
        """The process is gone: the link goes silent, nothing is closed cleanly."""
        self.source.close()
        self.journal.close()


def _dealt_indexes(dealt: Path, deck_id: str) -> list[int]:
    rows = [json.loads(line) for line in dealt.read_text().splitlines() if line.strip()]
    return [int(r["index"]) for r in rows if r["deck_id"] == deck_id]


@pytest.mark.parametrize(
    ("kind", "nth", "before"),
    [
        ("deck", 1, False),  # SHUFFLED written, not applied: no DEAL sent
        ("deal", 1, True),  # the deck applied, the DEAL not yet written
        ("deal", 1, False),  # the DEAL written, not sent
        ("card", 1, True),  # the device dealt the hole cards, none written yet
        ("card", 7, True),  # ... six written, the other six in the device's history
    ],
)
def test_a_resumed_holdem_hand_asks_for_its_missing_cards_once(
    emulator: tuple[str, Path], tmp_path: Path, kind: str, nth: int, before: bool
) -> None:
    where, dealt = emulator
    config: TableConfig = replace(
        load_table_config(game="holdem"), journal_url=str(tmp_path / "j.db")
    )
    first = PokerTable(where, CrashAtStep(str(tmp_path / "j.db"), kind, nth, before), config, 1)
    with pytest.raises(Crash):
        first.play()
    crashed = first.table.hand
    assert crashed is not None and not crashed.is_over
    first.die()

    second = PokerTable(where, Journal(str(tmp_path / "j.db")), config, 2)
    hand = second.table.resume()
    assert hand is not None and hand.hand_uid == crashed.hand_uid
    assert not hand.is_over, hand.void_reason_json()  # it goes on where it stopped
    hand = second.play(hand)
    assert hand.status == "settled", hand.void_reason_json()
    stored = second.journal.last_hand()
    assert stored is not None and stored.hand_uid == hand.hand_uid
    assert stored.status == "settled" and stored.extra["resumed"] == 1
    cards = stored.extra["cards"]
    assert [c["index"] for c in cards] == list(range(1, len(cards) + 1))
    # what left the device: the hand's cards, each once, and not one more
    assert _dealt_indexes(dealt, cards[0]["deck_id"]) == [c["index"] for c in cards]
    assert second.table.runner.late_card_alarm is None
    assert second.journal.pending_steps(config.table_id) == []
    second.play()  # the table goes on with the next hand
    last = second.journal.last_hand()
    assert last is not None and last.hand_uid != hand.hand_uid and last.status == "settled"
    second.die()
