"""``audit restore --from-floor``: a real signed 300-hand SQLite journal forwarded to the real
PostgreSQL floor, then cut short by 30%, 50% and 80%; the restore rebuilds it from the floor,
checks every hand the damaged file still reads against the floor's copy, verifies the result
against the floor's copy of the table's key, and writes nothing when the two disagree."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.storage import Journal
from dealer_assist.storage.floor import Floor
from dealer_assist.storage.floor.push import Pusher
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db, rewrite_and_rehash
from tests.fixtures.journal_fixtures import make_entry
from ui.cli import main

pytestmark = pytest.mark.postgres

HANDS = 300


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.fixture(scope="module")
def whole(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, str]]:
    """A signed journal of 300 hands, checkpointed into its file; the hash of every hand."""
    path = tmp_path_factory.mktemp("whole") / "journal.db"
    with Journal(str(path)) as j:
        for i in range(HANDS):
            j.append_hand(make_entry(i, hand_uid=f"h{i:04d}"))
        hashes = {h.hand_id: h.hash for h in j.iter_hands(1)}
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path, hashes


def _forward(path: Path, url: str, limit: int | None = None) -> None:
    with Journal(str(path), create=False, supervise=False) as j, Floor(url) as floor:
        key = j.public_key("UTH-3")
        assert key is not None
        floor.enrol("UTH-3", "uth", key.hex, "SM-1")  # the key pinned by a shift manager
        Pusher(j, floor, public_key=key.hex).push(limit)


def _cut(source: Path, folder: Path, percent: int) -> Path:
    data = source.read_bytes()
    keep = (len(data) * (100 - percent) // 100) // 4096 * 4096
    folder.mkdir(exist_ok=True)
    path = folder / "journal.db"
    path.write_bytes(data[:keep])
    os.symlink(source.parent / "keys", folder / "keys")
    return path


def _restore(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["audit", "restore", *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def _snapshot(folder: Path) -> tuple[str, list[str]]:
    data = (folder / "journal.db").read_bytes()
    return hashlib.sha256(data).hexdigest(), sorted(os.listdir(folder))


@pytest.mark.parametrize("percent", [30, 50, 80])
def test_a_cut_journal_is_restored_from_the_floor_and_verified(
    whole: tuple[Path, dict[int, str]],
    floor_db: FloorDb,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    percent: int,
) -> None:
    source, hashes = whole
    _forward(source, floor_db.url)
    path = _cut(source, tmp_path / "damaged", percent)
    before = _snapshot(path.parent)
    out_file = tmp_path / "restored.db"
    code, out = _restore(
        capsys, "--db", str(path), "--from-floor", floor_db.url, "-o", str(out_file)
    )
    assert code == 0, out
    assert "database disk image is malformed" in out and "read from its pages" in out
    m = re.search(r"from the damaged file, identical to the floor's copy: hands 1-(\d+)\n", out)
    assert m, out
    last = int(m[1])
    assert 0 < last < HANDS
    assert f"from the floor (unreadable in the damaged file): hands {last + 1}-{HANDS}\n" in out
    assert "from the damaged file, not yet on the floor: none" in out
    assert (
        f"verified: {HANDS} entries, every hash recomputed and linked; signatures: "
        f"{HANDS} verify" in out
    )
    assert "(the floor's key of UTH-3)" in out
    assert f"the restored head is the damaged file's chain-head record (position {HANDS}" in out
    with Journal(str(out_file), create=False, read_only=True) as restored:
        assert {h.hand_id: h.hash for h in restored.iter_hands(1)} == hashes
    assert oct(out_file.stat().st_mode & 0o777) == "0o600"
    assert _snapshot(path.parent) == before  # nothing written beside the damaged file
    os.symlink(source.parent / "keys", tmp_path / "keys")
    assert main(["audit", "verify", "--db", str(out_file), "--floor", floor_db.url]) == 0
    assert f"OK: {HANDS} hands, chain verifies" in capsys.readouterr().out


def test_hands_neither_side_holds_are_named_lost(
    whole: tuple[Path, dict[int, str]],
    floor_db: FloorDb,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source, hashes = whole
    _forward(source, floor_db.url, limit=250)  # the last 50 never reached the floor
    path = _cut(source, tmp_path / "damaged", 50)
    out_file = tmp_path / "restored.db"
    code, out = _restore(
        capsys, "--db", str(path), "--from-floor", floor_db.url, "-o", str(out_file)
    )
    assert code == 1, out
    last = int(re.findall(r"identical to the floor's copy: hands 1-(\d+)\n", out)[0])
    assert last < 250
    assert f"from the floor (unreadable in the damaged file): hands {last + 1}-250\n" in out
    assert f"FAIL: lost: hands 251-{HANDS} (neither the damaged file nor the floor" in out
    with Journal(str(out_file), create=False, read_only=True) as restored:
        assert restored.verify().ok
        assert [h.hash for h in restored.iter_hands(1)] == [hashes[i] for i in range(1, 251)]


def test_a_hand_that_differs_from_the_floor_writes_nothing(
    whole: tuple[Path, dict[int, str]],
    floor_db: FloorDb,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source, _ = whole
    _forward(source, floor_db.url)
    changed = tmp_path / "changed"
    changed.mkdir()
    (changed / "journal.db").write_bytes(source.read_bytes())
    rewrite_and_rehash(changed / "journal.db", 5, {"n": 4, "operator": "someone else"})
    with sqlite3.connect(changed / "journal.db") as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    path = _cut(changed / "journal.db", tmp_path / "damaged", 50)
    out_file = tmp_path / "restored.db"
    code, out = _restore(
        capsys, "--db", str(path), "--from-floor", floor_db.url, "-o", str(out_file)
    )
    assert code == 1
    assert "FAIL: position 5 differs between the damaged file" in out and "nothing written" in out
    assert sorted(os.listdir(tmp_path)) == ["changed", "damaged"]
    code, out = _restore(
        capsys, "--db", str(path), "--from-floor", floor_db.url, "-o", str(changed / "journal.db")
    )
    assert code == 2 and "exists: the restore writes a new file" in out
