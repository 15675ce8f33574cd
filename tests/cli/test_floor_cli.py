"""``dealer-assist floor``: migrate, sync (idempotent), status, verify, acknowledge, on the real
PostgreSQL; a table TOML's ``[floor]`` section."""

from __future__ import annotations

import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.errors import ConfigError
from dealer_assist.storage import Journal
from dealer_assist.storage.floor import floor_settings
from dealer_assist.storage.floor.schema import SCHEMA_HEAD
from tests.conftest import REPO, Closer
from tests.fixtures.floor_fixtures import (
    FloorDb,
    TcpProxy,
    fill,
    make_floor_db,
    rewrite_and_rehash,
)
from tests.fixtures.journal_fixtures import make_entry
from ui.cli import main

pytestmark = pytest.mark.postgres


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["floor", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_sync_twice_sends_once_then_status_and_verify(
    floor_db: FloorDb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "table.db")
    with Journal(db) as journal:
        fill(journal, 8)
    assert run(capsys, "migrate", "--floor", floor_db.url)[:2] == (
        0,
        f"floor database at schema revision {SCHEMA_HEAD}\n",
    )
    status, out, _ = run(capsys, "sync", "--db", db, "--floor", floor_db.url, "--pit", "B")
    assert (status, out) == (
        0,
        "table UTH-3: sent 8 record(s) (positions 1-8); the floor holds positions 1-8\n",
    )
    status, out, _ = run(capsys, "sync", "--db", db, "--floor", floor_db.url)
    assert (status, out) == (
        0,
        "table UTH-3: nothing to send, the floor already holds positions 1-8\n",
    )
    assert floor_db.sql("SELECT count(*) FROM floor_records")[0][0] == 8
    with Journal(db) as journal:
        fill(journal, 3, start=8)
    status, out, _ = run(capsys, "status", "--floor", floor_db.url, "--db", db)
    assert status == 0
    lines = out.splitlines()
    assert lines[0] == "floor: 1 table(s), 0 open alert(s)"
    assert lines[2].split()[:4] == ["UTH-3", "uth", "B", "8"]
    assert lines[-1].startswith(f"journal {db}: table UTH-3 at position 11, 3 record(s) not on")
    status, out, _ = run(capsys, "verify", "--floor", floor_db.url)
    assert (status, out) == (
        0,
        "OK: UTH-3: 8 record(s), chain verifies; no checkpoint of its signer\n",
    )


def test_a_tampered_journal_is_refused_alerted_and_acknowledged(
    floor_db: FloorDb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "table.db"
    with Journal(str(path)) as journal:
        fill(journal, 5)
    assert run(capsys, "sync", "--db", str(path), "--floor", floor_db.url)[0] == 0
    rewrite_and_rehash(path, 3, {"n": 2, "operator": "x"})
    status, out, _ = run(capsys, "sync", "--db", str(path), "--floor", floor_db.url)
    assert status == 1
    assert "refused by the floor: position 3: the table's copy" in out and "alert #" in out
    status, out, _ = run(capsys, "status", "--floor", floor_db.url)
    assert status == 1 and "1 open alert(s)" in out and "tampered UTH-3 position 3" in out
    alert = int(out.split("open alerts:\n  #", 1)[1].split()[0])
    status, out, _ = run(
        capsys, "acknowledge", "--floor", floor_db.url, "--alert", str(alert), "--by", "Rossi"
    )
    assert status == 0 and "(acknowledged by Rossi)" in out
    assert run(capsys, "status", "--floor", floor_db.url)[0] == 0


def test_the_url_from_the_tables_toml_and_errors_as_sentences(
    floor_db: FloorDb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    toml = tmp_path / "table.toml"
    toml.write_text(f'[table]\nid = "UTH-9"\n\n[floor]\nurl = "{floor_db.url}"\npit = "C"\n')
    assert floor_settings(toml).pit == "C"
    db = str(tmp_path / "table.db")
    with Journal(db) as journal:
        fill(journal, 2, table_id="UTH-9")
    status, out, _ = run(capsys, "sync", "--db", db, "--table", str(toml))
    assert status == 0 and "sent 2 record(s)" in out
    assert floor_db.sql("SELECT pit FROM floor_tables") == [("C",)]
    toml.write_text('[table]\nid = "UTH-9"\n')
    status, _, err = run(capsys, "status", "--table", str(toml))
    assert status == 2 and "floor.url: no floor configured" in err
    toml.write_text("[floor]\nurl = 5\n")
    with pytest.raises(ConfigError, match=r"floor\.url: must be a string"):
        floor_settings(toml)
    status, _, err = run(capsys, "status", "--floor", "postgresql+psycopg://postgres@127.0.0.1:1/x")
    assert status == 2 and "cannot open the floor database" in err
    status, _, err = run(capsys, "sync", "--db", str(tmp_path / "none.db"), "--floor", floor_db.url)
    assert status == 2 and "no journal database" in err


def test_simulate_forwards_to_the_floor_as_it_deals(
    floor_db: FloorDb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "sim.db")
    status = main(
        ["simulate", "--hands", "4", "--db", db, "--floor", floor_db.url, "--no-progress"]
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "floor (UTH-01): caught up at position 4" in out.splitlines()
    with Journal(db, create=False, supervise=False) as journal:
        hashes = [h.hash for h in journal.iter_hands()]
    assert floor_db.sql("SELECT hash FROM floor_records ORDER BY position") == [
        (h,) for h in hashes
    ]


def test_simulate_while_the_floor_is_down_then_back_loses_and_duplicates_nothing(
    floor_db: FloorDb, tmp_path: Path, closer: Closer
) -> None:
    proxy = closer.add(TcpProxy())
    proxy.down()
    db = tmp_path / "sim.db"
    child = closer.add(
        subprocess.Popen(
            [
                sys.executable,
                "-m",
                "ui.cli",
                "simulate",
                "--hands",
                "12",
                "--db",
                str(db),
                "--floor",
                floor_db.url_via(proxy.port),
                "--no-progress",
            ],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
    )
    # the table deals with the floor away, read meanwhile by another process as an audit
    # reads it (read-only: with the forwarder on the table's own engine, this crashed the
    # table with SIGBUS: its second connection dropped the process's locks on the -shm)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (db.exists() and _entries(db) >= 4):
        time.sleep(0.1)
    assert _entries(db) >= 4
    assert floor_db.sql("SELECT count(*) FROM floor_records")[0][0] == 0  # nothing got through
    proxy.up()
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err
    assert "floor (UTH-01): caught up at position 12" in out.splitlines()
    assert floor_db.sql(
        "SELECT count(*), count(DISTINCT position), max(position) FROM floor_records"
    )[0] == (12, 12, 12)
    with Journal(str(db), create=False, supervise=False) as journal:
        hashes = [(h.hash,) for h in journal.iter_hands()]
    assert floor_db.sql("SELECT hash FROM floor_records ORDER BY position") == hashes


def _entries(db: Path) -> int:
    """Entries in the journal at ``db`` read as ``audit`` reads a live one (SQLite ``mode=ro``),
    0 while it has no table yet."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return int(con.execute("SELECT count(*) FROM hands").fetchone()[0])
    except sqlite3.Error:
        return 0
    finally:
        con.close()


def test_sync_stops_between_rounds_on_sigterm_and_the_next_sends_the_rest(
    floor_db: FloorDb, tmp_path: Path, closer: Closer
) -> None:
    db = tmp_path / "table.db"
    hands = 3 * 5000 + 7  # three rounds and a bit: the signal comes after the first
    with Journal(str(db)) as journal:
        for start in range(0, hands, 1000):
            journal.append_hands(
                [
                    make_entry(i, hand_uid=f"UTH-3-{i}")
                    for i in range(start, min(hands, start + 1000))
                ]
            )
    proc = subprocess.Popen(
        [sys.executable, "-m", "ui.cli", "floor", "sync", "--db", str(db), "--floor", floor_db.url],
        cwd=REPO,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    closer.add(proc)
    assert proc.stderr is not None
    line = proc.stderr.readline()  # the state: the first round is stored
    assert line.startswith("... sent up to position 5000 of "), line + proc.communicate()[1]
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    m = re.search(
        r"stopped by SIGTERM after position (\d+) of (\d+): each round is stored "
        r"whole, the same command sends the rest",
        err,
    )
    assert m and int(m[2]) == hands and int(m[1]) % 5000 == 0 and int(m[1]) < hands, err
    held = floor_db.sql("SELECT count(*), max(position) FROM floor_records")[0]
    assert held == (int(m[1]), int(m[1]))  # whole rounds, nothing half-stored
    assert main(["floor", "sync", "--db", str(db), "--floor", floor_db.url]) == 0
    assert floor_db.sql("SELECT count(*) FROM floor_records")[0][0] == hands
