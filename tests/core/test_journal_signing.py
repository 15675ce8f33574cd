"""The signed journal on real SQLite files: the table's key made at its first
entry (0600 in a 0700 folder), every entry's hash signed, a rewritten-and-rehashed journal
caught at the first changed entry, a key never made silently for a table that has entries,
journals from before signing read and reported as unsigned; signed exports."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import stat
from pathlib import Path

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dealer_assist.errors import JournalError
from dealer_assist.ports import StoredHand
from dealer_assist.storage import Journal, chain_hash
from dealer_assist.storage.engine import MIGRATIONS_DIR
from dealer_assist.storage.rows import hand_values
from dealer_assist.storage.schema import SIGNATURE_COLUMNS, hands
from dealer_assist.storage.signed_export import sig_path, sign_export, verify_export
from dealer_assist.storage.signing import (
    KEY_ID_DIGITS,
    KeyRing,
    KeyStore,
    Signer,
    fingerprint,
    load_public_key,
)
from dealer_assist.storage.verify import verify_chain
from tests.fixtures.journal_fixtures import make_entry

TABLE = "UTH-3"  # make_entry's table


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def fill(journal: Journal, first: int, n: int) -> list[StoredHand]:
    return [
        journal.append_hand(make_entry(i, hand_uid=f"h{i:04d}")) for i in range(first, first + n)
    ]


def rewrite(
    db: Path, hand_id: int, *, resign: KeyStore | None = None, resign_all: bool = False
) -> None:
    """What an attacker with write access to the file does: change hand ``hand_id``'s bets
    with sqlite3 and recompute its hash and every later one (and the chain head), keeping the
    stored signatures, or re-signing them with ``resign``'s key (``resign_all``: the entries
    before it too, so that every signature is the new key's)."""
    with Journal(str(db), create=False, read_only=True) as j:
        stored = list(j.iter_hands())
    signer = None if resign is None else resign.load(TABLE)
    prev = stored[hand_id - 2].hash if hand_id > 1 else "0" * 64
    con = sqlite3.connect(db)
    try:
        for hand in stored[hand_id - 1 :]:
            record = json.loads(json.dumps(hand.record))
            if hand.hand_id == hand_id:
                record["players"][0]["bets"]["trips"] = 50_000  # the changed hand
            changed = StoredHand(**{**hand.__dict__, "record": record, "prev_hash": prev})
            digest = chain_hash(prev, changed.content())
            values = hand_values(changed)
            sig = hand.signature if signer is None else signer.sign_hash(digest)
            key_id = hand.key_id if signer is None else signer.key_id
            con.execute(
                "UPDATE hands SET record = ?, prev_hash = ?, hash = ?, signature = ?, key_id = ? "
                "WHERE hand_id = ?",
                (values["record"], prev, digest, sig, key_id, hand.hand_id),
            )
            prev = digest
        for hand in stored[: hand_id - 1] if resign_all else []:
            assert signer is not None
            con.execute(
                "UPDATE hands SET signature = ?, key_id = ? WHERE hand_id = ?",
                (signer.sign_hash(hand.hash), signer.key_id, hand.hand_id),
            )
        con.execute("UPDATE chain_head SET last_hash = ? WHERE id = 1", (prev,))
        con.execute("DELETE FROM verify_mark")
        con.commit()
    finally:
        con.close()


# -- keys --------------------------------------------------------------------------------------


def test_the_first_entry_makes_the_tables_key_private_and_signs_every_entry(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    with Journal(str(db)) as j:
        stored = fill(j, 0, 3)
        assert all(j.get_hand(h.hand_id) == h for h in stored)  # signature read back as written
        key = j.public_key(TABLE)
    keys = tmp_path / "keys"
    assert mode(keys) == 0o700
    assert mode(keys / "UTH-3.key") == 0o600
    assert key is not None and not key.pinned
    assert load_public_key(keys / "UTH-3.pub").hex == key.hex
    assert all(
        h.key_id == key.key_id and h.signature and key.verify_hash(h.hash, h.signature)
        for h in stored
    )
    assert "PRIVATE KEY" not in db.read_bytes().decode("latin-1")  # the key is not in the journal
    with Journal(str(db), create=False, read_only=True) as j:
        result = j.verify(KeyRing(any_table=load_public_key(keys / "UTH-3.pub")))
    assert result.ok and result.signatures_checked == 3 and result.unsigned == 0
    assert result.signed_from == 1


def test_a_key_file_readable_by_others_is_tightened_on_load(tmp_path: Path) -> None:
    store = KeyStore(tmp_path / "keys")
    store.generate("T1")
    store.key_path("T1").chmod(0o644)
    store.load("T1")
    assert mode(store.key_path("T1")) == 0o600
    with pytest.raises(JournalError, match="exists already"):
        store.generate("T1")  # never over an existing key


def test_a_table_with_signed_entries_never_gets_a_new_key_silently(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    with Journal(str(db)) as j:
        fill(j, 0, 2)
    store = KeyStore(tmp_path / "keys")
    original = store.key_path(TABLE).read_bytes(), store.pub_path(TABLE).read_bytes()
    store.key_path(TABLE).unlink()
    store.pub_path(TABLE).unlink()
    with (
        Journal(str(db)) as j,
        pytest.raises(JournalError, match="signing key of table UTH-3 is missing"),
    ):
        j.append_hand(make_entry(5))
    assert not store.has_key(TABLE)  # refused, not replaced
    store.generate(TABLE)  # someone else's key put in its place
    with Journal(str(db)) as j, pytest.raises(JournalError, match="is not the key"):
        j.append_hand(make_entry(5))
    store.key_path(TABLE).write_bytes(original[0])
    store.pub_path(TABLE).write_bytes(original[1])
    with Journal(str(db)) as j:
        j.append_hand(make_entry(5))
        assert j.verify().ok and j.count() == 3


# -- tampering ---------------------------------------------------------------------------------


def test_a_journal_rewritten_and_rehashed_verifies_as_a_chain_but_not_its_signatures(
    tmp_path: Path,
) -> None:
    db = tmp_path / "journal.db"
    with Journal(str(db)) as j:
        fill(j, 0, 6)
        pinned = j.public_key(TABLE)
    assert pinned is not None
    rewrite(db, 4)
    engine = sa.create_engine(f"sqlite:///{db}")
    try:
        with engine.connect() as conn:
            assert verify_chain(conn).ok  # the hash chain alone cannot tell
    finally:
        engine.dispose()
    with Journal(str(db), create=False, read_only=True) as j:
        result = j.verify(KeyRing(any_table=pinned))
    assert not result.ok and result.first_bad_hand == 4
    assert "signature does not match" in result.reason
    assert result.signatures_checked == 3
    # the table's own start-up verify stops it too
    with Journal(str(db)) as j:
        assert j.alarm is not None and "hand 4" in j.alarm
        with pytest.raises(JournalError, match="hand 4"):
            j.append_hand(make_entry(9))


def test_a_rewrite_resigned_with_a_new_key_is_caught_against_the_pinned_key(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    with Journal(str(db)) as j:
        fill(j, 0, 5)
    pinned = load_public_key(tmp_path / "keys" / "UTH-3.pub")
    forged = KeyStore(tmp_path / "forged")
    forged.generate(TABLE)
    rewrite(db, 3, resign=forged)  # the entries before 3 keep the table's signatures
    with Journal(str(db), create=False, read_only=True) as j:
        result = j.verify(KeyRing(any_table=pinned))
    assert not result.ok and result.first_bad_hand == 3
    assert "the key was replaced" in result.reason and pinned.key_id in result.reason
    rewrite(db, 3, resign=forged, resign_all=True)  # every signature the forged key's
    with Journal(str(db), create=False, read_only=True, keys=tmp_path / "forged") as j:
        assert j.verify().ok  # against the replaced key folder alone it passes ...
        result = j.verify(KeyRing(any_table=pinned))  # ... never against the pinned key
    # the first entry not signed by the table's key: which one changed only a copy can tell
    # (the floor's, test_audit_tamper)
    assert not result.ok and result.first_bad_hand == 1 and "the key was replaced" in result.reason


def test_a_removed_signature_fails_and_the_policy_can_require_signatures(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    with Journal(str(db)) as j:
        fill(j, 0, 4)
    with sqlite3.connect(db) as con:
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL WHERE hand_id >= 3")
    with Journal(str(db), create=False, read_only=True) as j:
        result = j.verify()
    assert not result.ok and result.first_bad_hand == 3 and "signature removed" in result.reason
    with sqlite3.connect(db) as con:
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL")
    with Journal(str(db), create=False, read_only=True) as j:
        result = j.verify()
        assert result.ok and result.unsigned == 4 and result.signed_from is None
        strict = j.verify(require_signed=True)
    assert not strict.ok and strict.first_bad_hand == 1 and "policy" in strict.reason


# -- journals from before signing ---------------------------------------------------------------


def legacy_journal(db: Path, n: int) -> None:
    """A journal of schema 0002 (before signatures) holding ``n`` chained entries."""
    with sqlite3.connect(db) as con:
        con.execute("PRAGMA journal_mode=WAL")
    engine = sa.create_engine(f"sqlite:///{db}")
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    try:
        with engine.begin() as conn:
            config.attributes["connection"] = conn
            command.upgrade(config, "0002")
        with engine.begin() as conn:
            prev = "0" * 64
            for i in range(1, n + 1):
                e = make_entry(i, hand_uid=f"old{i}")
                hand = StoredHand(
                    hand_id=i,
                    recorded_at=e.ended_at,
                    prev_hash=prev,
                    hash="",
                    **{k: v for k, v in e.__dict__.items()},
                )
                hand = StoredHand(**{**hand.__dict__, "hash": chain_hash(prev, hand.content())})
                values = {k: v for k, v in hand_values(hand).items() if k not in SIGNATURE_COLUMNS}
                conn.execute(sa.insert(hands).values(values))
                prev = hand.hash
            conn.exec_driver_sql(f"UPDATE chain_head SET last_hand_id = {n}, last_hash = '{prev}'")
    finally:
        engine.dispose()


def test_an_old_unsigned_journal_is_read_as_it_is_then_upgraded_without_a_silent_key(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = tmp_path / "journal.db"
    legacy_journal(db, 3)
    with Journal(str(db), create=False, read_only=True) as j:  # no migration: schema 0002
        result = j.verify()
        assert j.get_hand(2).signature is None
    assert result.ok and result.unsigned == 3 and result.signed_from is None
    with caplog.at_level(logging.WARNING), Journal(str(db)) as j:
        j.append_hand(make_entry(10))  # migrated to 0003; a table with entries: no new key
        assert j.last_hand().signature is None  # type: ignore[union-attr]
    assert not (tmp_path / "keys" / "UTH-3.key").exists()
    assert "audit keygen" in caplog.text
    KeyStore(tmp_path / "keys").generate(TABLE)  # the operator's keygen
    with Journal(str(db)) as j:
        j.append_hand(make_entry(11))
        result = j.verify()
    assert result.ok and result.unsigned == 4 and result.signed_from == 5
    assert result.signatures_checked == 1


# -- exports -----------------------------------------------------------------------------------


def test_a_signed_export_verifies_and_any_change_is_caught(tmp_path: Path) -> None:
    store = KeyStore(tmp_path / "keys")
    signer = store.generate("UTH-3")
    trusted = load_public_key(store.pub_path("UTH-3"))
    export = tmp_path / "shift.csv"
    export.write_text("hand,net\n1,+3000\n2,-1000\n", encoding="utf-8")
    sig = sign_export(export, signer, "UTH-3")
    assert sig == sig_path(export) and json.loads(sig.read_text())["signer"] == "UTH-3"
    assert verify_export(export, trusted).ok
    untrusted = verify_export(export, None)
    assert not untrusted.ok and "nothing pins" in untrusted.reason
    export.write_text("hand,net\n1,+3000\n2,-100\n", encoding="utf-8")
    changed = verify_export(export, trusted)
    assert not changed.ok and "changed after it was signed" in changed.reason
    other = KeyStore(tmp_path / "other").generate("UTH-3")
    sign_export(export, other, "UTH-3")  # re-signed by someone with another key
    resigned = verify_export(export, trusted)
    assert not resigned.ok and f"not {trusted.key_id}" in resigned.reason
    doc = json.loads(sig.read_text())
    doc["size"] = os.path.getsize(export)
    doc["signature"] = "00" * 64
    sig.write_text(json.dumps(doc))
    assert not verify_export(export, load_public_key(store.pub_path("UTH-3"))).ok


def test_a_bad_signature_is_acknowledged_like_any_failed_verify(tmp_path: Path) -> None:
    db = tmp_path / "journal.db"
    with Journal(str(db)) as j:
        fill(j, 0, 4)
        pinned = j.public_key(TABLE)
    rewrite(db, 2)
    with Journal(str(db)) as j:
        assert j.alarm is not None and "hand 2" in j.alarm
        failed = j.acknowledge("pit boss Rossi")
        assert failed is not None and failed.first_bad_hand == 2  # not "nothing to acknowledge"
        j.append_hand(make_entry(8))  # the table deals on, signing
    with Journal(str(db)) as j:
        assert j.alarm is None  # the next start verifies only what came after
        result = j.verify(KeyRing(any_table=pinned))
    assert not result.ok and result.first_bad_hand == 2  # the full verify keeps reporting it


def test_a_public_keys_fingerprint_id_and_hex_are_of_its_raw_bytes() -> None:
    signer = Signer(Ed25519PrivateKey.generate())
    raw = bytes.fromhex(signer.public.hex)
    assert len(raw) == 32
    assert (
        signer.public.fingerprint
        == hashlib.sha256(raw).hexdigest()
        == fingerprint(signer.public.key)
    )
    assert signer.key_id == signer.public.key_id == signer.public.fingerprint[:KEY_ID_DIGITS]
    other = Signer(Ed25519PrivateKey.generate())
    assert other.key_id != signer.key_id and other.public != signer.public
