"""The journal supervised as critical memory: the start-up verify from the
verified-up-to mark, appends refused after a failed verify until an operator acknowledges it,
the file removed or replaced while open, audits on read-only media, and a damaged file's
readable hands recalled with the damaged range named. Real SQLite files (and PostgreSQL where
the backend fixture runs it)."""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from alembic import command
from alembic.config import Config

from dealer_assist.errors import JournalError
from dealer_assist.storage import Journal
from dealer_assist.storage.engine import MIGRATIONS_DIR
from tests.fixtures.journal_fixtures import BACKENDS, Backend, make_backend, make_entry
from ui.cli import main


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    yield from make_backend(request.param, tmp_path)


def fill(journal: Journal, first: int, n: int) -> None:
    for i in range(first, first + n):
        journal.append_hand(make_entry(i, hand_uid=f"h{i:04d}"))


def audit(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(["audit", *argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def tamper(backend: Backend, hand_id: int) -> None:
    """Edit one stored hand's content without rehashing it (the plain driver, not the journal)."""
    backend.raw("UPDATE hands SET extra = ? WHERE hand_id = ?", ('{"n":-1}', hand_id))


# -- start-up verify from the mark -------------------------------------------------------------


def test_start_verify_covers_what_came_after_the_mark(backend: Backend) -> None:
    with Journal(backend.url) as j:
        fill(j, 0, 20)
    with Journal(backend.url) as j:  # this start verifies 1-20 and sets the mark at 20
        assert j.alarm is None
        fill(j, 20, 5)
    tamper(backend, 23)  # after the mark: the next start must catch it
    with Journal(backend.url) as j:
        assert j.alarm is not None and "hand 23" in j.alarm
        assert j.verify().first_bad_hand == 23


def test_tampering_before_the_mark_is_left_to_the_full_verify(backend: Backend) -> None:
    with Journal(backend.url) as j:
        fill(j, 0, 20)
    with Journal(backend.url):
        pass  # mark at 20
    tamper(backend, 5)
    with Journal(backend.url) as j:
        assert j.alarm is None  # the start read only what came after the mark
        result = j.verify()
        assert (result.ok, result.first_bad_hand) == (False, 5)


def test_a_chain_rewritten_up_to_the_mark_is_caught_at_start(backend: Backend) -> None:
    with Journal(backend.url) as j:
        fill(j, 0, 10)
    with Journal(backend.url):
        pass  # mark at 10
    backend.raw("UPDATE hands SET hash = ? WHERE hand_id = 10", ("ab" * 32,))
    with Journal(backend.url) as j:
        assert j.alarm is not None and "hand 10" in j.alarm


# -- appends refused after a failed verify -----------------------------------------------------


def test_appends_are_refused_until_an_operator_acknowledges(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(backend.url) as j:
        fill(j, 0, 6)
    tamper(backend, 4)
    with Journal(backend.url) as j:
        with pytest.raises(JournalError, match=r"failed verify at hand 4: .*acknowledge"):
            j.append_hand(make_entry(50, hand_uid="late"))
        with pytest.raises(JournalError, match="hand 4"):
            j.write_step("UTH-3", "late", 0, "deal", {"card": "As"})
        assert j.count() == 6 and j.pending_steps("UTH-3") == []
    code, out = audit(capsys, "acknowledge", "--db", backend.url, "--by", "floor: Ana")
    assert code == 0 and "hand 4" in out and "appends continue after entry 6" in out
    with Journal(backend.url) as j:
        assert j.alarm is None
        assert j.append_hand(make_entry(51, hand_uid="after-ack")).hand_id == 7
        assert j.verify().first_bad_hand == 4  # the break stays on record
    code, out = audit(capsys, "verify", "--db", backend.url)
    assert code == 1 and "FAIL: hand 4" in out
    assert "the break was acknowledged by floor: Ana at 20" in out


def test_acknowledge_of_a_good_journal_changes_nothing(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(backend.url) as j:
        fill(j, 0, 3)
    code, out = audit(capsys, "acknowledge", "--db", backend.url, "--by", "Ana")
    assert code == 0 and "nothing to acknowledge" in out


# -- the file removed or replaced while open (SQLite) ------------------------------------------


def test_journal_removed_mid_run_stops_appends(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    with Journal(str(path)) as j:
        fill(j, 0, 2)
        for f in tmp_path.glob("journal.db*"):  # rm journal.db*
            f.unlink()
        with pytest.raises(JournalError, match=r"journal\.db was removed while open"):
            j.append_hand(make_entry(9, hand_uid="ghost"))
        with pytest.raises(JournalError, match="removed"):
            j.write_step("UTH-3", "ghost", 0, "deal", {})
        assert j.alarm is not None and "removed" in j.alarm
    assert not path.exists()


def test_journal_replaced_mid_run_stops_appends(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    other = tmp_path / "other.db"
    with Journal(str(other)) as j:
        fill(j, 0, 1)
    with Journal(str(path)) as j:
        fill(j, 0, 2)
        os.replace(other, path)
        with pytest.raises(JournalError, match=r"was replaced while open \(device/inode"):
            j.write_step("UTH-3", "x", 0, "deal", {})
        with pytest.raises(JournalError, match="replaced"):  # latched
            j.append_hand(make_entry(9, hand_uid="x"))


# -- audit on read-only media ------------------------------------------------------------------


@pytest.fixture
def read_only_journal(tmp_path: Path) -> Iterator[Path]:
    folder = tmp_path / "archive"
    folder.mkdir()
    path = folder / "journal.db"
    with Journal(str(path)) as j:
        fill(j, 0, 3)
    path.chmod(0o444)
    folder.chmod(0o555)
    try:
        yield path
    finally:
        folder.chmod(0o755)
        path.chmod(0o644)


def _fingerprint(path: Path) -> tuple[str, int, list[str]]:
    folder = path.parent
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest, folder.stat().st_mtime_ns, sorted(os.listdir(folder))


def test_audit_reads_a_read_only_file_and_folder_without_writing(
    read_only_journal: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _fingerprint(read_only_journal)
    code, out = audit(capsys, "verify", "--db", str(read_only_journal))
    assert code == 0 and "OK: 3 hands, chain verifies" in out
    code, out = audit(capsys, "show", "--db", str(read_only_journal), "2")
    assert code == 0 and "Hand 2 (uid h0001)" in out
    # nothing created, removed or changed beside it (root ignores the modes; this does not)
    assert _fingerprint(read_only_journal) == before
    assert stat.S_IMODE(read_only_journal.stat().st_mode) == 0o444


def test_read_only_journal_refuses_writes(read_only_journal: Path) -> None:
    with Journal(str(read_only_journal), create=False, read_only=True) as j:
        assert j.count() == 3
        with pytest.raises(JournalError, match="read-only"):
            j.append_hand(make_entry(7))


def test_read_only_audit_sees_a_live_writers_wal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    with Journal(str(path)) as j:
        fill(j, 0, 4)  # still open: the hands may be in the -wal only
        code, out = audit(capsys, "verify", "--db", str(path))
        assert code == 0 and "OK: 4 hands" in out


def test_read_only_audit_of_an_older_readable_schema_does_not_upgrade_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "journal.db"
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("sqlalchemy.url", f"sqlite:///{path}")
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA journal_mode=WAL")
    import sqlalchemy as sa

    engine = sa.create_engine(f"sqlite:///{path}")
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
    engine.dispose()
    code, out = audit(capsys, "verify", "--db", str(path))
    assert code == 0 and "OK: 0 hands" in out
    with sqlite3.connect(path) as con:
        assert con.execute("SELECT version_num FROM alembic_version").fetchall() == [("0001",)]


def test_read_only_audit_names_a_schema_it_cannot_read(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(backend.url) as j:
        fill(j, 0, 1)
    backend.raw("UPDATE alembic_version SET version_num = '9999_future'")
    code, out = audit(capsys, "verify", "--db", backend.url)
    assert code == 2 and "schema '9999_future'" in out and "newer program" in out


def test_read_only_audit_on_the_backend(
    backend: Backend, capsys: pytest.CaptureFixture[str]
) -> None:
    with Journal(backend.url) as j:
        fill(j, 0, 2)
    # a PostgreSQL journal given no key folder signs nothing: read as an unsigned one
    code, out = audit(capsys, "verify", "--db", backend.url, "--allow-unsigned")
    assert code == 0 and "OK: 2 hands" in out
    code, out = audit(capsys, "show", "--db", backend.url)
    assert code == 0 and len(re.findall(r"^\s+\d+\s+UTH-3\s", out, re.M)) == 2


# -- a damaged file ----------------------------------------------------------------------------


@pytest.fixture
def damaged(tmp_path: Path) -> Path:
    """300 hands, then three pages of the ``hands`` table (where hand 151's row is) overwritten."""
    path = tmp_path / "journal.db"
    with Journal(str(path)) as j:
        fill(j, 0, 300)
    with sqlite3.connect(path) as con:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = path.read_bytes()
    # the uid occurs in the uid index first and in the table row last
    page = data.rfind(b"h0150") // 4096
    with path.open("r+b") as f:
        f.seek(page * 4096)
        f.write(b"\xff" * 3 * 4096)
    return path


def _unreadable(out: str) -> tuple[int, int]:
    m = re.search(r"hands (\d+)-(\d+) unreadable", out)
    assert m, out
    return int(m[1]), int(m[2])


def test_verify_of_a_damaged_file_names_the_damaged_range(
    damaged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = audit(capsys, "verify", "--db", str(damaged))
    assert code == 1 and "database disk image is malformed" in out
    first, last = _unreadable(out)
    assert first <= 151 <= last and last - first < 20
    assert f"readable: hands 1-{first - 1}, {last + 1}-300" in out
    assert f"first failure: hand {first}:" in out


def test_show_of_a_damaged_file_recalls_every_readable_hand(
    damaged: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = audit(capsys, "verify", "--db", str(damaged))
    first, last = _unreadable(out)
    code, out = audit(capsys, "show", "--db", str(damaged))
    listed = [int(n) for n in re.findall(r"^\s+(\d+)\s+UTH-3\s", out, re.M)]
    assert code == 1 and listed == [*range(1, first), *range(last + 1, 301)]
    assert f"hands {first}-{last} unreadable" in out
    for hand_id in (1, first - 1, last + 1, 300):
        code, out = audit(capsys, "show", "--db", str(damaged), str(hand_id))
        assert code == 0 and f"Hand {hand_id} (uid h{hand_id - 1:04d})" in out
    code, out = audit(capsys, "show", "--db", str(damaged), str(first))
    assert code == 2 and f"hand {first} is unreadable" in out
    assert f"hands {first}-{last} unreadable" in out


def test_salvage_of_a_whole_file_reads_everything(tmp_path: Path) -> None:
    path = tmp_path / "journal.db"
    with Journal(str(path)) as j:
        fill(j, 0, 7)
        found = j.salvage()
    assert (found.readable, found.unreadable, found.error) == (((1, 7),), (), None)
    shutil.copy(path, tmp_path / "copy.db")


def test_simulate_stops_with_an_alarm_when_its_journal_is_removed(tmp_path: Path) -> None:
    """The lab's check: ``rm journal.db*`` while ``simulate`` deals (today: "400 settled",
    exit 0, the file gone)."""
    import subprocess
    import sys
    import time

    db = tmp_path / "journal.db"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "simulate",
            "--hands",
            "2000",
            "--seed",
            "5",
            "--db",
            str(db),
            "--no-progress",
        ],
        cwd=Path(__file__).parent.resolve().parents[1],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and proc.poll() is None:
            if db.is_file():
                with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
                    try:
                        if con.execute("SELECT count(*) FROM hands").fetchone()[0] >= 3:
                            break
                    except sqlite3.OperationalError:
                        pass  # not migrated yet
            time.sleep(0.05)
        for f in tmp_path.glob("journal.db*"):
            f.unlink()
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode != 0, out
    assert "journal.db was removed while open" in err
    assert "2000 settled" not in out and not db.exists()
