"""A Hold'em hand the journal refused (a real second connection holding the SQLite write lock
when the settled hand is appended) is journaled once, before the table change that follows it
(seat, top up, sit out, sit in, leave, button): the chain reads hand, then table record, and the
change starts from the stacks after that hand. Storage faults: docs/FAULTS.md; the banked games'
next hand: test_storage_faults.py.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.config import load_table_config
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.errors import StorageBusyError
from dealer_assist.games.session import TableSession
from dealer_assist.storage.faults import ResilientJournal
from dealer_assist.table.peer_runner import PeerRunner
from dealer_assist.table.recovery import sort_pending
from drivers.manual import ManualSource
from tests.conftest import close_at_teardown
from tests.core.test_holdem_runner import _feed

pytestmark = pytest.mark.integration

TABLE = "HOLDEM-01"
STACKS = {1: 20000, 3: 8000, 5: 30000}


class _LockedHandAppend(ResilientJournal):
    """A real journal; a second connection (another program) holds its write lock while a
    hand, not a table record, is appended, as long as ``locked`` (the retries then give up:
    StorageBusyError)."""

    locked = False

    def append_hand(self, entry: Any) -> Any:
        if not self.locked or entry.status == "table":
            return super().append_hand(entry)
        lock = sqlite3.connect(self._db, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        try:
            return super().append_hand(entry)
        finally:
            lock.close()

    @property
    def _db(self) -> str:
        return str(self.url_or_path).split("///", 1)[1].split("?", 1)[0]


def _table(tmp_path: Path) -> tuple[PeerRunner, ManualSource, _LockedHandAppend]:
    journal = _LockedHandAppend(f"sqlite:///{tmp_path / 'j.db'}?timeout=0.05", sleep=lambda _: None)
    journal.open()
    close_at_teardown(journal)
    source = ManualSource()
    source.open()
    close_at_teardown(source)
    runner = PeerRunner(load_table_config(game="holdem"), source, journal, card_timeout=30)
    for seat, stack in STACKS.items():
        runner.seat_player(seat, f"player {seat}", stack, by="floor")
    runner.set_button(1)
    return runner, source, journal


def _refused_hand(runner: PeerRunner, source: ManualSource, journal: _LockedHandAppend) -> PeerHand:
    """A hand everyone folds to the big blind, settled while the journal is locked: the last
    fold raises StorageBusyError, the hand stays in the step log."""
    hand = runner.new_hand()
    deck = list(reversed(FULL_DECK))
    journal.locked = True
    with pytest.raises(StorageBusyError):
        for _ in range(20):
            _feed(runner, source, hand, deck)
            seat = hand.actor
            if seat is None:
                runner.poll(0.01)
                continue
            runner.act(seat, "fold")
    journal.locked = False
    assert hand.is_over and hand.status == "settled" and runner.stored is None
    pending = [uid for uid, _ in sort_pending(journal.pending_steps(TABLE)).hands]
    assert pending == [hand.hand_uid]
    return hand


def _stacks(session: TableSession) -> dict[int, int]:
    return {seat: p.stack or 0 for seat, p in session.seats.items()}


CHANGES: dict[str, Callable[[PeerRunner], TableSession]] = {
    "seat_player": lambda r: r.seat_player(8, "player 8", 10000),
    "top_up": lambda r: r.top_up(3, 1000),
    "sit_out": lambda r: r.sit_out(5),
    "leave": lambda r: r.leave(5),
    "set_button": lambda r: r.set_button(5),
}


CHANGED = {"seat_player": 8, "top_up": 3, "sit_out": 5, "leave": 5, "set_button": 0}


@pytest.mark.parametrize("change", sorted(CHANGES))
def test_a_hand_the_journal_refused_is_journaled_once_before_the_table_change(
    change: str, tmp_path: Path
) -> None:
    runner, source, journal = _table(tmp_path)
    before = len(list(journal.iter_hands()))
    hand = _refused_hand(runner, source, journal)
    assert runner.session is not None
    left = _stacks(runner.session_after(runner.session, hand))  # what the hand leaves
    assert left != STACKS  # the blinds moved: a change from the stale session would show
    session = CHANGES[change](runner)
    stored = list(journal.iter_hands())[before:]
    assert [h.status for h in stored] == ["settled", "table"]  # the hand, then the change
    assert stored[0].hand_uid == hand.hand_uid
    assert sort_pending(journal.pending_steps(TABLE)).hands == []
    assert journal.verify().ok
    now = _stacks(session)
    seat = CHANGED[change]
    assert {s: v for s, v in now.items() if s != seat} == {
        s: v for s, v in left.items() if s != seat
    }  # the change starts from the stacks after the hand
    if change == "top_up":
        assert now[3] == left[3] + 1000
    assert TableSession.of_journal(TABLE, journal).seats == session.seats
    runner.top_up(1, 500)  # the next change journals only itself
    assert [h.status for h in list(journal.iter_hands())[before:]] == ["settled", "table", "table"]


def test_a_table_change_while_the_journal_still_refuses_the_hand_changes_nothing(
    tmp_path: Path,
) -> None:
    runner, source, journal = _table(tmp_path)
    before = len(list(journal.iter_hands()))
    hand = _refused_hand(runner, source, journal)
    session = runner.session
    journal.locked = True
    with pytest.raises(StorageBusyError):
        runner.top_up(3, 1000)
    assert runner.session is session and runner.stored is None
    assert len(list(journal.iter_hands())) == before
    journal.locked = False
    runner.top_up(3, 1000)  # the storage works again: the hand first, then the change
    assert [h.status for h in list(journal.iter_hands())[before:]] == ["settled", "table"]
    assert list(journal.iter_hands())[before].hand_uid == hand.hand_uid
