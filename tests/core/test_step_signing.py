"""Pending steps signed by the table's signer: a step changed in the step log file (a card, as
the journal's user can) is caught when the table resumes and the hand is voided ``step_forged``;
the notary never signs a step number of a hand again with another content, whatever other hands
it signed meanwhile (docs/AUDIT.md "Step log")."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.errors import JournalError
from dealer_assist.notary.client import NotaryClient, NotaryRefusedError
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.step_signing import notary_uid, step_digest
from drivers.emulator.process import EmulatorProcess
from tests.core.test_recovery import FAST, Crash, Table
from tests.fixtures.journal_fixtures import make_entry
from tests.fixtures.notary_fixtures import NotaryProcess, notary_fixture  # noqa: F401 - the fixture

TABLE = "UTH-3"


def client(n: NotaryProcess, table: str = TABLE) -> NotaryClient:
    return NotaryClient(n.socket, table, timeout=2.0)


def _edit(db: Path, step_no: int, change: Any) -> None:
    with sqlite3.connect(db) as con:
        (text,) = con.execute(
            "SELECT payload FROM pending_steps WHERE step_no = ?", (step_no,)
        ).fetchone()
        payload = json.loads(text)
        change(payload)
        con.execute(
            "UPDATE pending_steps SET payload = ? WHERE step_no = ?", (json.dumps(payload), step_no)
        )


def test_a_step_changed_in_the_file_or_stripped_of_its_signature_is_named(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        j.write_step(TABLE, "h1", 0, "open", {"seats": [1, 2]})
        j.write_step(TABLE, "h1", 1, "card", {"card": "Ah", "index": 1})
        j.write_step(TABLE, "h1", 2, "card", {"card": "Kd", "index": 2})
        again = j.write_step(TABLE, "h1", 1, "card", {"card": "Ah", "index": 1})  # a retry
        assert again.payload == {"card": "Ah", "index": 1}  # the signature never shows
        assert [s.forged for s in j.pending_steps(TABLE)] == [None, None, None]
    _edit(db, 1, lambda p: p.update(card="2c"))
    _edit(db, 2, lambda p: p.pop("_signer_signature"))
    with Journal(str(db), notary=client(notary)) as j:
        forged = [s.forged for s in j.pending_steps(TABLE)]
    assert forged[0] is None
    assert forged[1] == (
        "step 1 (card) of hand h1 does not match the signature the table's signer gave it: "
        "changed in the step log after it was written"
    )
    assert forged[2] is not None and "carries no signature of the table's signer" in forged[2]


def test_the_notary_never_signs_a_hands_step_again_after_other_hands(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    with Journal(str(tmp_path / "j.db"), notary=client(notary)) as j:
        j.write_step(TABLE, "h1", 0, "open", {})
        j.write_step(TABLE, "h1", 1, "card", {"card": "Ah"})
        j.write_step(TABLE, "h1#ack", 0, "void_alarm", {})  # another hand signed meanwhile
        j.write_step(TABLE, "h2", 0, "open", {})
    forged = step_digest(TABLE, "h1", 1, "card", {"card": "2c"})
    with pytest.raises(NotaryRefusedError) as e:  # what the journal's user would ask
        client(notary).sign_step(notary_uid(TABLE, "h1"), 1, forged)
    assert e.value.code == "rewind"
    notary.kill()
    notary.start()  # the memory is durable
    with pytest.raises(NotaryRefusedError):
        client(notary).sign_step(notary_uid(TABLE, "h1"), 1, forged)


def _append_forged(db: Path, uid: str) -> None:
    """What the journal's user does: a hand appended unsigned at the end, chained and hashed
    (as one journaled while the signer was away looks)."""
    import dataclasses

    from dealer_assist.storage import chain_hash
    from dealer_assist.storage.rows import hand_values

    with Journal(str(db), create=False, read_only=True) as j:
        last = j.last_hand()
    assert last is not None
    forged = dataclasses.replace(
        last,
        hand_id=last.hand_id + 1,
        hand_uid=uid,
        prev_hash=last.hash,
        signature=None,
        key_id=None,
    )
    forged = dataclasses.replace(forged, hash=chain_hash(last.hash, forged.content()))
    values = hand_values(forged)
    with sqlite3.connect(db) as con:
        con.execute(
            f"INSERT INTO hands ({','.join(values)}) VALUES ({','.join('?' * len(values))})",
            list(values.values()),
        )
        con.execute(
            "UPDATE chain_head SET last_hand_id = ?, last_hash = ?", (forged.hand_id, forged.hash)
        )


def test_a_hand_appended_to_the_journal_unsigned_is_not_signed_at_the_next_start(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        for i in (1, 2):
            j.write_step(TABLE, f"h{i}", 0, "open", {})
            j.append_hand(make_entry(i, hand_uid=f"h{i}"))
    _append_forged(db, "never-dealt")  # as an entry journaled while the signer was away
    with Journal(str(db), notary=client(notary)) as j:
        assert j.alarm is not None
        assert "no step of hand UTH-3/never-dealt was ever signed" in j.alarm, j.alarm
        with pytest.raises(JournalError):
            j.write_step(TABLE, "h4", 0, "open", {})  # no new hand
    head = client(notary).head()
    assert head.position == 2  # the forged entry 3 never signed


class CrashAtStep(Journal):
    """A real journal (signed by its notary) whose process dies before its ``at``-th step."""

    def __init__(self, path: str, at: int, notary: NotaryClient) -> None:
        super().__init__(path, notary=notary)
        self.at, self.writes = at, 0

    def write_step(self, *args: Any, **kwargs: Any) -> Any:
        self.writes += 1
        if self.writes == self.at:
            raise Crash
        return super().write_step(*args, **kwargs)


@pytest.fixture(scope="module")
def emulator() -> Iterator[str]:
    emu = EmulatorProcess([*FAST, "--seed", "21"])
    yield emu.start()
    emu.stop()


@pytest.mark.integration
def test_a_card_changed_in_the_step_log_voids_the_resumed_hand(
    emulator: str, tmp_path: Path, notary: NotaryProcess
) -> None:
    config = load_table_config(game="uth")
    signer = client(notary, config.table_id)
    db = tmp_path / "j.db"
    first = Table(emulator, CrashAtStep(str(db), 12, signer), config, seed=5)
    with pytest.raises(Crash):
        first.play(2)  # dies mid deal: the hand's steps in the log, signed
    first.die()
    with sqlite3.connect(db) as con:
        rows = con.execute(
            "SELECT step_no, payload FROM pending_steps WHERE kind = 'card' ORDER BY id"
        ).fetchall()
    step_no = rows[1][0]
    dealt = {json.loads(p)["card"] for _, p in rows}
    new = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d") if c not in dealt)
    _edit(db, step_no, lambda p: p.update(card=new))  # as the journal's user can
    second = Table(emulator, Journal(str(db), notary=signer), config, seed=6)
    hand = second.runner.resume()
    assert hand is not None and hand.phase is Phase.VOID
    assert hand.void_reason is not None and hand.void_reason.code == "step_forged"
    assert f"step {step_no} (card) of hand {hand.hand_uid} does not match the signature" in (
        hand.void_reason.detail
    )
    stored = second.journal.last_hand()
    assert stored is not None and stored.status == "void" and stored.hand_uid == hand.hand_uid
    assert stored.extra["void"]["code"] == "step_forged"
    assert new not in [c.get("card") for c in stored.extra.get("cards", [])]  # not replayed
    assert stored.signature is not None  # the void itself is signed by the notary
    second.die()


def test_the_notary_away_mid_hand_the_next_step_is_not_written_until_it_is_back(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    from dealer_assist.notary.client import NotaryUnavailableError

    with Journal(str(tmp_path / "j.db"), notary=client(notary)) as j:
        j.append_hand(make_entry(0, hand_uid="h0"))  # a table that has dealt: its key known
        j.write_step(TABLE, "h1", 0, "open", {})
        notary.kill()
        with pytest.raises(NotaryUnavailableError, match="unreachable"):
            j.write_step(TABLE, "h1", 1, "card", {"card": "Ah"})
        assert [s.step_no for s in j.pending_steps(TABLE)] == [0]  # nothing half-written
        notary.start()
        j.write_step(TABLE, "h1", 1, "card", {"card": "Ah"})
        assert [(s.step_no, s.forged) for s in j.pending_steps(TABLE)] == [(0, None), (1, None)]
