"""The notary: a separate process holds the key and signs only extensions of its own head; the
journal that uses it holds no key (docs/AUDIT.md "Key custody")."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from dealer_assist.errors import JournalError
from dealer_assist.notary.client import NotaryClient, NotaryRefusedError, NotaryUnavailableError
from dealer_assist.storage import Journal
from dealer_assist.storage.signing import KeyRing, public_key_from_hex
from tests.fixtures.journal_fixtures import make_entry
from tests.fixtures.notary_fixtures import NotaryProcess, notary_fixture  # noqa: F401 - the fixture

TABLE = "UTH-3"


def client(n: NotaryProcess) -> NotaryClient:
    return NotaryClient(n.socket, TABLE, timeout=2.0)


def test_entries_are_signed_by_the_notary_and_no_key_is_beside_the_journal(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        stored = [j.append_hand(make_entry(i, hand_uid=f"h{i}")) for i in range(1, 4)]
        assert all(h.signature is not None for h in stored)
    assert not (tmp_path / "keys").exists()
    head = client(notary).head()
    assert (head.position, head.hash) == (3, stored[-1].hash)
    assert head.public_key is not None
    key = public_key_from_hex(head.public_key, "notary")
    with Journal(str(db), create=False, read_only=True) as j:
        result = j.verify(KeyRing(any_table=key), require_signed=True)
    assert result.ok, result.reason
    assert result.signatures_checked == 3
    assert not list(Path(notary.state).rglob("*.db"))


def test_the_notary_never_signs_a_position_twice_nor_behind_its_head(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    with Journal(str(tmp_path / "j.db"), notary=client(notary)) as j:
        stored = [j.append_hand(make_entry(i, hand_uid=f"h{i}")) for i in range(1, 4)]
    c = client(notary)
    again = c.sign(3, stored[1].hash, stored[2].hash)  # the same entry: the same signature
    assert again[0] == stored[2].signature
    with pytest.raises(NotaryRefusedError) as e:
        c.sign(2, stored[0].hash, "ab" * 32)  # a rewritten entry 2
    assert e.value.code == "rewind"
    with pytest.raises(NotaryRefusedError) as e:
        c.sign(3, stored[1].hash, "cd" * 32)  # another hash at the head
    assert e.value.code == "rewind"
    with pytest.raises(NotaryRefusedError) as e:
        c.sign(5, stored[2].hash, "ef" * 32)  # a gap
    assert e.value.code == "not_extension"
    assert client(notary).head().position == 3


def test_a_journal_deleted_and_restarted_is_refused_by_its_signers_head(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        for i in range(1, 4):
            j.append_hand(make_entry(i, hand_uid=f"h{i}"))
    for p in tmp_path.glob("j.db*"):
        p.unlink()
    with Journal(str(db), notary=client(notary)) as j:
        with pytest.raises(
            JournalError, match="signer's head is at position 3 but this journal is empty"
        ):
            j.write_step(TABLE, "h9", 0, "open", {})
        with pytest.raises(JournalError, match="signer's head"):  # latched
            j.append_hand(make_entry(9, hand_uid="h9"))
        assert j.count() == 0


def test_a_cut_tail_stops_the_table(tmp_path: Path, notary: NotaryProcess) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        stored = [j.append_hand(make_entry(i, hand_uid=f"h{i}")) for i in range(1, 5)]
    con = sqlite3.connect(db)
    con.execute("DELETE FROM hands WHERE hand_id > 2")
    con.execute("DELETE FROM hand_search WHERE hand_id > 2")
    con.execute("UPDATE chain_head SET last_hand_id = 2, last_hash = ?", (stored[1].hash,))
    con.execute("DELETE FROM verify_mark")
    con.commit()
    con.close()
    with (
        Journal(str(db), notary=client(notary)) as j,
        pytest.raises(
            JournalError, match="head is at position 4 but this journal ends at position 2"
        ),
    ):
        j.append_hand(make_entry(9, hand_uid="h9"))


def test_the_notary_killed_stops_new_hands_and_signs_the_journaled_ones_when_back(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        j.append_hand(make_entry(1, hand_uid="h1"))
        notary.kill()
        late = j.append_hand(make_entry(2, hand_uid="h2"))  # journaled, not signed yet
        assert late.hand_id == 2 and late.signature is None
        with pytest.raises(NotaryUnavailableError, match="unreachable"):
            j.write_step(TABLE, "h3", 0, "open", {})  # no new hand
        notary.start()
        j.write_step(TABLE, "h3", 0, "open", {})  # back: hand 2 signed first
        assert j.get_hand(2).signature is not None
        j.append_hand(make_entry(3, hand_uid="h3"))
        assert all(h.signature for h in j.iter_hands())
    assert client(notary).head().position == 3


def test_an_old_journal_is_refused_by_a_new_notary_until_the_upgrade_adopts_it(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    from dealer_assist.storage.legacy import upgrade

    db = tmp_path / "j.db"
    with Journal(str(db), key_file=tmp_path / "legacy.key") as j:  # signatures then removed:
        for i in range(1, 4):
            j.append_hand(make_entry(i, hand_uid=f"h{i}"))
    with sqlite3.connect(db) as con:  # the shape of a journal written before signing
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL")
    never = "entries its signer never signed"
    with Journal(str(db), notary=client(notary)) as j, pytest.raises(JournalError, match=never):
        j.append_hand(make_entry(4, hand_uid="h4"))
    with Journal(str(db), supervise=False, notary=client(notary)) as j:  # as audit upgrade
        checkpoint = upgrade(j, TABLE, "IT-1")
        assert checkpoint.hand_id == 4 and checkpoint.signature is not None
        assert checkpoint.record["covers"] == 3
        j.append_hand(make_entry(5, hand_uid="h5"))
    head = client(notary).head()
    assert (head.position, head.adopted_at) == (5, 3)
    assert head.public_key is not None
    ring = KeyRing(any_table=public_key_from_hex(head.public_key, "notary"))
    with Journal(str(db), create=False, read_only=True) as j:
        result = j.verify(ring, checkpoint=True)
        assert result.ok and result.unsigned == 3 and result.signatures_checked == 2


def test_a_restart_with_entries_journaled_while_the_notary_was_away_signs_them_first(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        j.append_hand(make_entry(1, hand_uid="h1"))
        j.write_step(TABLE, "h2", 0, "open", {})  # hand 2 dealt (its steps signed)...
        notary.kill()
        assert j.append_hand(make_entry(2, hand_uid="h2")).signature is None  # ...journaled
    with Journal(str(db), notary=client(notary)) as j:  # reopened, the notary still away
        assert j.alarm is None
        with pytest.raises(NotaryUnavailableError):
            j.write_step(TABLE, "h3", 0, "open", {})
        notary.start()
        j.write_step(TABLE, "h3", 0, "open", {})
        j.append_hand(make_entry(3, hand_uid="h3"))
    with Journal(str(db), notary=client(notary)) as j:  # and reopened with it there
        assert j.alarm is None
        assert all(h.signature for h in j.iter_hands())


def test_a_notary_journal_with_every_signature_stripped_stops_the_table_at_start(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        for i in range(1, 4):
            j.append_hand(make_entry(i, hand_uid=f"h{i}"))
    with sqlite3.connect(db) as con:
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL")
        # the verified-up-to mark gone (a copy, a restore): with it kept the start-up verify
        # looks only after it, and the default audit verify is what catches the stripping
        con.execute("DELETE FROM verify_mark")
    with Journal(str(db), notary=client(notary)) as j:
        # the entries the notary signed must carry their signatures: stopped at the first
        assert j.alarm is not None and "entry 1 carries no signature" in j.alarm


def test_a_signature_the_notary_gave_but_the_table_never_received_is_taken_from_its_head(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        for i in range(1, 3):
            j.append_hand(make_entry(i, hand_uid=f"h{i}"))
    with sqlite3.connect(db) as con:  # the notary signed entry 2, then died before answering
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL WHERE hand_id = 2")
    with Journal(str(db), notary=client(notary)) as j:
        assert j.alarm is None, j.alarm
        assert j.get_hand(2).signature == client(notary).head().signature
        j.write_step(TABLE, "h3", 0, "open", {})  # it deals on


def test_signatures_stripped_before_the_verified_mark_still_stop_the_table_at_start(
    tmp_path: Path, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    with Journal(str(db), notary=client(notary)) as j:
        for i in range(1, 5):
            j.append_hand(make_entry(i, hand_uid=f"h{i}"))
    with Journal(str(db), notary=client(notary)) as j:  # the start-up verify moves its mark
        assert j.alarm is None
    with sqlite3.connect(db) as con:  # the mark kept: the start-up verify looks after it only
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL")
    with Journal(str(db), notary=client(notary)) as j:
        assert j.alarm is not None
        assert "entry 1 carries no signature but the signer signed up to position 4" in j.alarm
        with pytest.raises(JournalError):
            j.write_step(TABLE, "h5", 0, "open", {})
