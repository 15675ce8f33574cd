"""A journal file cut short by a page or more (30%, 50%, 80% of a real 300-hand SQLite file
removed): SQLite refuses it whole ("database disk image is malformed"); ``audit verify`` and
``audit show`` read the hands from the file's pages, list them, name the damaged range, and
write nothing beside the damaged file."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
from pathlib import Path

import pytest

from dealer_assist.storage import Journal
from dealer_assist.storage.pages import salvage_pages
from tests.fixtures.journal_fixtures import make_entry
from ui.cli import main

HANDS = 300


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


def _cut(whole: Path, folder: Path, percent: int) -> Path:
    data = whole.read_bytes()
    keep = (len(data) * (100 - percent) // 100) // 4096 * 4096
    path = folder / "journal.db"
    path.write_bytes(data[:keep])
    os.symlink(whole.parent / "keys", folder / "keys")  # the table's key folder beside it
    return path


def _audit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["audit", *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


@pytest.mark.parametrize("percent", [30, 50, 80])
def test_a_cut_journal_lists_its_readable_hands_and_names_the_damage(
    whole: tuple[Path, dict[int, str]],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    percent: int,
) -> None:
    source, hashes = whole
    path = _cut(source, tmp_path, percent)
    with pytest.raises(sqlite3.DatabaseError, match="malformed"), sqlite3.connect(path) as con:
        con.execute("SELECT count(*) FROM hands").fetchone()
    before = hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(tmp_path))
    code, out = _audit(capsys, "verify", "--db", str(path))
    assert code == 1 and "database disk image is malformed" in out and "cut short" in out
    m = re.search(r"readable from the file's pages: hands 1-(\d+)\n", out)
    assert m, out
    last = int(m[1])
    assert 0 < last < HANDS
    assert f"damaged: hands {last + 1}-{HANDS} (the file's chain head records {HANDS})" in out
    assert f"{last} hands before it verify" in out and f"signatures: {last} verify" in out
    code, out = _audit(capsys, "show", "--db", str(path))
    listed = [int(n) for n in re.findall(r"^\s+(\d+)\s+UTH-3\s", out, re.M)]
    assert code == 1 and listed == list(range(1, last + 1))
    for hand_id in (1, last):
        code, out = _audit(capsys, "show", "--db", str(path), str(hand_id), "--json")
        assert code == 0 and hashes[hand_id] in out  # the very hand, to its hash
    code, out = _audit(capsys, "show", "--db", str(path), str(last + 1))
    assert code == 2
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), sorted(os.listdir(tmp_path))) == before


def test_the_page_scan_reads_a_whole_file_whole(
    whole: tuple[Path, dict[int, str]], tmp_path: Path
) -> None:
    source, hashes = whole
    found = salvage_pages(source, tmp_path / "copy.db")
    assert found.pages == found.expected and found.rows["hands"] == HANDS
    with Journal(str(tmp_path / "copy.db"), create=False, read_only=True) as copy:
        assert {h.hand_id: h.hash for h in copy.iter_hands(1)} == hashes
        assert copy.verify().ok
