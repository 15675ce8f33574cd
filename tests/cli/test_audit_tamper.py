"""``dealer-assist audit`` against a tampered journal: a real SQLite file
edited with sqlite3 and its hashes recomputed is caught, naming the first changed hand; a
replaced key is caught against the pinned key; ``keygen`` prints the fingerprint and never
replaces a key; an export tampered with is caught; an old unsigned journal is reported as such;
the floor's copy names the first changed hand even when the key was stolen."""

from __future__ import annotations

import json
import re
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.storage import Journal
from dealer_assist.storage.signing import KeyStore, format_fingerprint, load_public_key
from tests.core.test_journal_signing import TABLE, fill, legacy_journal, rewrite
from tests.fixtures.journal_fixtures import make_entry
from ui.cli import main


def audit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["audit", *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.fixture
def signed(tmp_path: Path) -> Path:
    """A table's journal of 8 hands; its public key pinned in ``pinned/UTH-3.pub`` (a copy
    kept where the journal's writers cannot reach it)."""
    db = tmp_path / "table" / "journal.db"
    db.parent.mkdir()
    with Journal(str(db)) as j:
        fill(j, 0, 8)
    (tmp_path / "pinned").mkdir()
    pub = db.parent / "keys" / "UTH-3.pub"
    (tmp_path / "pinned" / "UTH-3.pub").write_bytes(pub.read_bytes())
    return db


def test_an_untouched_journal_verifies_with_its_signatures(
    signed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pinned = str(tmp_path / "pinned" / "UTH-3.pub")
    code, out = audit(capsys, "verify", "--db", str(signed), "--public-key", pinned)
    assert code == 0, out
    assert "OK: 8 hands, chain verifies" in out and "signatures: 8 verify" in out
    assert "NOT pinned" not in out and "unsigned" not in out
    code, out = audit(capsys, "verify", "--db", str(signed))
    assert code == 0 and "NOT pinned" in out  # the key folder alone proves less, and says so


def test_a_journal_edited_with_sqlite3_and_rehashed_is_caught_at_the_first_changed_hand(
    signed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rewrite(signed, 5)
    code, out = audit(capsys, "verify", "--db", str(signed))
    assert code == 1, out
    assert "FAIL: hand 5: signature does not match" in out
    assert "first changed hand: 5" in out and "4 hands before it verify" in out
    pinned = str(tmp_path / "pinned" / "UTH-3.pub")
    code, out = audit(capsys, "verify", "--db", str(signed), "--public-key", f"{TABLE}={pinned}")
    assert code == 1 and "first changed hand: 5" in out


def test_a_replaced_key_is_caught_against_the_pinned_key(
    signed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = signed.parent / "keys"
    for f in keys.iterdir():
        f.unlink()
    KeyStore(keys).generate(TABLE)  # the attacker's key, in the table's key folder
    rewrite(signed, 6, resign=KeyStore(keys))
    code, out = audit(capsys, "verify", "--db", str(signed))
    assert code == 1 and "FAIL: hand 1:" in out  # hands 1-5 are not the folder's key's
    pinned = str(tmp_path / "pinned" / "UTH-3.pub")
    code, out = audit(capsys, "verify", "--db", str(signed), "--public-key", pinned)
    assert code == 1, out
    assert "FAIL: hand 6: signed with key" in out and "the key was replaced" in out
    assert "first changed hand: 6" in out
    assert re.search(r"key folder holds key \w+ .*not the pinned key", out)


def test_a_key_replaced_before_any_use_is_named_against_the_pinned_key(
    signed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    keys = signed.parent / "keys"
    for f in keys.iterdir():
        f.unlink()
    KeyStore(keys).generate(TABLE)
    pinned = str(tmp_path / "pinned" / "UTH-3.pub")
    code, out = audit(capsys, "verify", "--db", str(signed), "--public-key", pinned)
    assert code == 1 and "not the pinned key" in out and "the chain itself verifies" in out


def test_the_config_pins_the_public_key(
    signed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('[journal]\npublic_key = "pinned/UTH-3.pub"\n', encoding="utf-8")
    rewrite(signed, 2)
    code, out = audit(capsys, "verify", "--db", str(signed), "--config", str(config))
    assert code == 1 and "first changed hand: 2" in out and "pinned key" in out


def test_keygen_prints_the_fingerprint_and_never_replaces_a_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "journal.db"
    code, out = audit(capsys, "keygen", "--table", "BJ-7", "--db", str(db))
    assert code == 0, out
    key = load_public_key(tmp_path / "keys" / "BJ-7.pub")
    assert f"fingerprint: {format_fingerprint(key.fingerprint)}" in out
    assert stat.S_IMODE((tmp_path / "keys" / "BJ-7.key").stat().st_mode) == 0o600
    assert stat.S_IMODE((tmp_path / "keys").stat().st_mode) == 0o700
    before = (tmp_path / "keys" / "BJ-7.key").read_bytes()
    code, out = audit(capsys, "keygen", "--table", "BJ-7", "--db", str(db))
    assert code == 2 and "exists already" in out
    assert (tmp_path / "keys" / "BJ-7.key").read_bytes() == before
    code, out = audit(capsys, "keygen", "--table", "BJ-7", "--db", str(db), "--show")
    assert code == 0 and format_fingerprint(key.fingerprint) in out
    # the journal's first entry of that table signs with the key made at installation
    with Journal(str(db)) as j:
        stored = j.append_hand(make_entry(0, table_id="BJ-7"))
    assert stored.key_id == key.key_id


def test_keygen_refuses_a_table_whose_journal_is_signed_with_a_lost_key(
    signed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for f in (signed.parent / "keys").iterdir():
        f.unlink()
    code, out = audit(capsys, "keygen", "--table", TABLE, "--db", str(signed))
    assert code == 2 and "is signed with key" in out and "restore" in out


def test_an_export_tampered_with_is_caught(
    signed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    export = tmp_path / "hand3.json"
    code, out = audit(capsys, "show", "--db", str(signed), "3", "--export", str(export))
    assert code == 0, out
    assert stat.S_IMODE(export.stat().st_mode) == 0o600  # hole cards inside
    assert json.loads(export.read_text())["hand_id"] == 3
    pinned = str(tmp_path / "pinned" / "UTH-3.pub")
    code, out = audit(capsys, "verify-export", str(export), "--public-key", pinned)
    assert code == 0 and "OK:" in out and "signed by UTH-3" in out
    code, out = audit(capsys, "verify-export", str(export))
    assert code == 1 and "nothing pins" in out  # no trusted key: not OK
    doc = json.loads(export.read_text())
    doc["settlement"]["seats"][0]["net"] = 999_999
    export.write_text(json.dumps(doc, indent=2))
    code, out = audit(capsys, "verify-export", str(export), "--public-key", pinned)
    assert code == 1 and "changed after it was signed" in out
    export.unlink()
    code, out = audit(capsys, "verify-export", str(export), "--public-key", pinned)
    assert code == 2


def test_an_old_unsigned_journal_fails_until_a_signed_legacy_checkpoint_covers_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "journal.db"
    legacy_journal(db, 3)
    code, out = audit(capsys, "verify", "--db", str(db))
    assert code == 1 and "FAIL: hand 1: unsigned: no entry of table UTH-3 is signed" in out
    code, out = audit(capsys, "verify", "--db", str(db), "--allow-unsigned")
    assert code == 0 and "unsigned: all 3 entries" in out
    code, out = audit(capsys, "verify", "--db", str(db), "--require-signed", "--allow-unsigned")
    assert code == 1 and "FAIL: hand 1: unsigned" in out
    with Journal(str(db)) as j:  # upgraded schema; no key: still unsigned
        j.append_hand(make_entry(20))
    assert audit(capsys, "keygen", "--table", TABLE, "--db", str(db))[0] == 0
    with Journal(str(db)) as j:  # signed from here, but nothing says where signing began
        j.append_hand(make_entry(21))
    code, out = audit(capsys, "verify", "--db", str(db))
    assert code == 1 and "FAIL: hand 1: unsigned before signing began at 5" in out
    code, out = audit(capsys, "verify", "--db", str(db), "--allow-unsigned")
    assert code == 0 and "unsigned before position 5: 4 entries" in out


def test_the_upgrade_signs_a_legacy_checkpoint_and_stripped_signatures_still_fail(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "journal.db"
    legacy_journal(db, 3)
    with Journal(str(db)) as j:
        j.append_hand(make_entry(20))
    assert audit(capsys, "keygen", "--table", TABLE, "--db", str(db))[0] == 0
    code, out = audit(capsys, "upgrade", "--db", str(db), "--table-id", TABLE, "--by", "IT-1")
    assert code == 0 and "legacy checkpoint 5 signed" in out
    with Journal(str(db)) as j:
        j.append_hand(make_entry(21))
    code, out = audit(capsys, "verify", "--db", str(db))
    assert code == 0 and "unsigned before position 5: 4 entries" in out, out
    with sqlite3.connect(db) as con:  # every signature stripped: looks older still
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL")
    code, out = audit(capsys, "verify", "--db", str(db))
    assert code == 1 and "FAIL: hand 1: unsigned" in out


def test_verify_reads_a_read_only_journal_and_key_folder(
    signed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, keys = signed.parent, signed.parent / "keys"
    rewrite(signed, 7)
    with sqlite3.connect(signed) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    for side in ("-wal", "-shm"):
        Path(str(signed) + side).unlink(missing_ok=True)
    before = sorted(p.name for p in folder.iterdir())
    keys.chmod(0o500)
    folder.chmod(0o555)
    try:
        code, out = audit(capsys, "verify", "--db", str(signed))
    finally:
        folder.chmod(0o755)
        keys.chmod(0o700)
    assert code == 1 and "first changed hand: 7" in out
    assert sorted(p.name for p in folder.iterdir()) == before


# -- the floor's copy --------------------------------------------------------------------------


@pytest.fixture
def floor_url() -> Iterator[str]:
    """A migrated floor schema of its own (H16a's fixtures; skipped without a server)."""
    fixtures = pytest.importorskip("tests.fixtures.floor_fixtures")
    for db in fixtures.make_floor_db():
        yield db.url


@pytest.mark.postgres
def test_the_floors_copy_names_the_first_changed_hand_even_with_the_stolen_key(
    signed: Path, floor_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from dealer_assist.storage.floor import Floor

    with Journal(str(signed), create=False, read_only=True) as j:
        stored = list(j.iter_hands())
        key = j.public_key(TABLE)
    assert key is not None
    with Floor(floor_url) as floor:
        floor.enrol(TABLE, "uth", key.hex, "SM-1")
        floor.ingest(
            TABLE, stored, signatures={h.hand_id: h.signature for h in stored if h.signature}
        )
    code, out = audit(capsys, "verify", "--db", str(signed), "--floor", floor_url)
    assert code == 0, out
    assert "the floor's key of UTH-3" in out and "8 positions match the floor's copy" in out
    export = signed.parent.parent / "all.json"
    assert audit(capsys, "show", "--db", str(signed), "--export", str(export))[0] == 0
    code, out = audit(capsys, "verify-export", str(export), "--floor", floor_url)
    assert code == 0 and "the floor's key of UTH-3" in out, out
    rewrite(signed, 4, resign=KeyStore(signed.parent / "keys"))  # the key was stolen too
    code, out = audit(capsys, "verify", "--db", str(signed))
    assert code == 0  # signatures and hashes all good: only a copy elsewhere can tell
    config = signed.parent.parent / "table.toml"
    config.write_text(f'[floor]\nurl = "{floor_url}"\n', encoding="utf-8")
    for how in (["--floor", floor_url], ["--config", str(config)]):
        code, out = audit(capsys, "verify", "--db", str(signed), *how)
        assert code == 1, out
        assert "FAIL: floor: table UTH-3: hand 4 differs from the floor's copy" in out
        assert "first changed hand: 4" in out


def test_a_key_file_that_holds_no_key_is_named_not_taken_for_damage(
    signed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (signed.parent / "keys" / "UTH-3.pub").write_text("not a key\n", encoding="utf-8")
    code, out = audit(capsys, "verify", "--db", str(signed))
    assert code == 2 and "UTH-3.pub" in out and "damaged" not in out
