"""Resume checks the pending hand's cards against the frames the device still holds: a step
log whose card disagrees with what the device dealt (a tampered or corrupted
step log) is refused, the hand voided ``history_mismatch`` with the device's own card as the
cause, instead of being replayed, settled and paid on cards that never left the shuffler.

A real table process "dies" at a step (as in test_recovery.py) while the emulator runs on in its
own process over a real pty; the step log is then edited in the SQLite file with plain sqlite3,
and a new table resumes from it.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import REASON_TEXTS, VoidReason
from dealer_assist.storage.journal import Journal
from drivers.emulator.process import EmulatorProcess
from tests.core.test_recovery import FAST, Crash, CrashingJournal, Table

pytestmark = pytest.mark.integration


class CrashAtAppend(Journal):
    """A real journal whose process dies when the hand is appended: its settlement is the
    last step in the log."""

    def append_hand(self, *args: Any, **kwargs: Any) -> Any:
        raise Crash


@pytest.fixture(scope="module")
def emulator() -> Iterator[str]:
    emu = EmulatorProcess([*FAST, "--seed", "21"])
    yield emu.start()
    emu.stop()


def _tamper_card(db: Path, nth: int = 1) -> tuple[str, str, int, str]:
    """Change the ``nth`` card step's card to one the deck has not dealt in the hand;
    (deck_id, old card, index, new card)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "select id, payload from pending_steps where kind = 'card' order by id"
        ).fetchall()
        dealt = {json.loads(p)["card"] for _, p in rows}
        row_id, text = rows[nth - 1]
        payload = json.loads(text)
        new = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d") if c not in dealt)
        old, payload["card"] = payload["card"], new
        conn.execute(
            "update pending_steps set payload = ? where id = ?", (json.dumps(payload), row_id)
        )
    return payload["deck_id"], old, payload["index"], new


def _crash(where: str, journal: Journal, config: Any) -> None:
    first = Table(where, journal, config, seed=5)
    with pytest.raises(Crash):
        first.play(2)
    first.die()


def test_a_tampered_card_of_the_hand_in_progress_voids_it(emulator: str, tmp_path: Path) -> None:
    config = load_table_config(game="uth")
    db = tmp_path / "j.db"
    _crash(emulator, CrashingJournal(str(db), 12, before=True), config)  # mid deal
    deck, old, index, new = _tamper_card(db, 2)
    second = Table(emulator, Journal(str(db)), config, seed=6)
    hand = second.runner.resume()
    assert hand is not None and hand.phase is Phase.VOID
    assert hand.void_reason == VoidReason(
        "history_mismatch",
        f"card {index} of deck {deck}: the step log has {new}, the device dealt {old}",
    )
    stored = second.journal.last_hand()
    assert stored is not None and stored.status == "void" and stored.hand_uid == hand.hand_uid
    void = stored.extra["void"]
    assert void["code"] == "history_mismatch" and void["text_it"].startswith(
        REASON_TEXTS["history_mismatch"][0]
    )
    causes = void["causes"]
    assert [(c["kind"], c["index"], c["card"]) for c in causes] == [("card", index, old)]
    assert new not in [c["card"] for c in stored.extra.get("cards", [])]  # not replayed
    assert second.runner.void_alarm is not None  # the dealer is told
    left = second.journal.pending_steps(config.table_id)
    assert all(s.kind in ("void_alarm", "void_ack") for s in left)  # only the alarm's marker
    second.runner.acknowledge_void("test")
    second.play(1)  # the table goes on with a new hand
    last = second.journal.last_hand()
    assert last is not None and last.status == "settled"
    second.die()


def test_a_settled_hand_with_a_tampered_card_is_voided_not_paid(
    emulator: str, tmp_path: Path
) -> None:
    config = load_table_config(game="thb")
    db = tmp_path / "j.db"
    _crash(emulator, CrashAtAppend(str(db)), config)  # the settle step written, not journaled
    with sqlite3.connect(db) as conn:
        kinds = [k for (k,) in conn.execute("select kind from pending_steps order by id")]
    assert kinds[-1] == "settle"
    _, old, _, new = _tamper_card(db, 1)
    second = Table(emulator, Journal(str(db)), config, seed=7)
    hand = second.runner.resume()
    assert hand is not None and hand.phase is Phase.VOID
    assert hand.void_reason is not None and hand.void_reason.code == "history_mismatch"
    stored = second.journal.last_hand()
    assert stored is not None and stored.status == "void" and stored.hand_uid == hand.hand_uid
    assert f"the step log has {new}, the device dealt {old}" in stored.extra["void"]["detail"]
    second.die()


def test_an_untouched_step_log_resumes_and_settles(emulator: str, tmp_path: Path) -> None:
    """The same crashes without the edit: the check finds no disagreement."""
    config = load_table_config(game="thb")
    db = tmp_path / "j.db"
    _crash(emulator, CrashAtAppend(str(db)), config)
    second = Table(emulator, Journal(str(db)), config, seed=7)
    hand = second.runner.resume()
    assert hand is not None
    assert hand.phase is Phase.SETTLED, hand.void_reason
    second.die()
    db2 = tmp_path / "k.db"
    _crash(emulator, CrashingJournal(str(db2), 12, before=True), load_table_config(game="uth"))
    third = Table(emulator, Journal(str(db2)), load_table_config(game="uth"), seed=8)
    hand = third.runner.resume()
    assert hand is not None
    assert hand.phase is not Phase.VOID, hand.void_reason
    third.play(1, hand)
    assert hand.phase is Phase.SETTLED, hand.void_reason
    third.die()
