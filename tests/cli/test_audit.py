"""``dealer-assist audit verify|show`` run as a real process on real journal databases."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.storage import Journal
from tests.fixtures.journal_fixtures import REPO, Backend, make_backend, make_entry

CLI = [sys.executable, "-m", "ui.cli", "audit"]


def audit(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CLI, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
        check=False,
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """A SQLite journal with 4 hands: 3 settled, hand 4 void."""
    path = tmp_path / "journal.db"
    with Journal(str(path)) as journal:
        for i in range(3):
            journal.append_hand(make_entry(i, hand_uid=f"uth3-{i}"))
        journal.append_hand(
            make_entry(3, status="void", void_reason="misdeal: seat 2 got 3 cards", settlement=None)
        )
    return path


def test_verify_ok(db: Path) -> None:
    run = audit("verify", "--db", str(db))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == "OK: 4 hands, chain verifies"
    with Journal(str(db)) as journal:
        last = journal.last_hand()
    assert last is not None and f"head hash: {last.hash}" in run.stdout


def test_verify_fail_names_the_edited_hand(db: Path) -> None:
    backend = Backend("sqlite", str(db), sqlite_path=db)
    backend.raw(
        "UPDATE hands SET record = replace(record, '\"ante\":1000', '\"ante\":5000')"
        " WHERE hand_id = 2"
    )
    run = audit("verify", "--db", str(db))
    assert run.returncode == 1
    assert run.stdout.splitlines()[0] == "FAIL: hand 2: content does not match its hash"


def test_verify_fail_names_a_deleted_hand(db: Path) -> None:
    Backend("sqlite", str(db), sqlite_path=db).raw("DELETE FROM hands WHERE hand_id = 3")
    run = audit("verify", "--db", str(db))
    assert run.returncode == 1
    assert run.stdout.startswith("FAIL: hand 3: missing")


@pytest.mark.parametrize("action", [["verify"], ["show", "1"]])
def test_missing_database_is_exit_2_and_not_created(tmp_path: Path, action: list[str]) -> None:
    path = tmp_path / "nowhere.db"
    run = audit(*action[:1], "--db", str(path), *action[1:])
    assert run.returncode == 2
    assert "no journal database" in run.stderr and str(path) in run.stderr
    assert not path.exists()
    assert run.stdout == ""


def test_show_unknown_hand_is_exit_2(db: Path) -> None:
    run = audit("show", "--db", str(db), "99")
    assert run.returncode == 2
    assert "no hand 99" in run.stderr


def test_show_readable(db: Path) -> None:
    run = audit("show", "--db", str(db), "1")
    assert run.returncode == 0, run.stderr
    out = run.stdout
    for expected in (
        "Hand 1 (uid uth3-0)",
        "table     UTH-3",
        "game      uth",
        "started   2026-03-02T02:15:07.123456+00:00",  # the -05:00 input, shown in UTC
        "ended     2026-03-02T02:16:42.123463+00:00",
        "status    settled",
        "Board:  Ah Kd 7c 7s 2h",
        "Dealer: Qs Jd",
        "Seat 1: As Ac",
        "bets:      ante EUR 10.00, blind EUR 10.00, trips EUR 5.00",
        "decisions: preflop play x4",
        "Seat 6: 3c 9d",
        "decisions: preflop check, flop check, river fold",
        "dealer: pair [7c 7s Ah Kd Qs] (qualifies)",
        "seat 1: win, full_house [As Ac Ah 7c 7s], net +EUR 120.00",
        "seat 6: fold, pair [7c 7s Ah Kd 9d], net -EUR 20.00",
        "blind  stake EUR 10.00  win  net +EUR 30.00",
        "ante   stake EUR 10.00  lose  net -EUR 10.00",
        "Device events (3):",
        "Zoë ♠",
    ):
        assert expected in out, f"{expected!r} not in:\n{out}"
    events = [line for line in out.splitlines() if "deck_id=D1" in line]
    assert "serial" in events[0] and "card=As" in events[0]
    assert "manual" in events[1] and "card=??" in events[1]


def test_show_amounts_in_the_given_currency(db: Path) -> None:
    run = audit("show", "--db", str(db), "1", "--currency", "CHF")
    assert run.returncode == 0, run.stderr
    assert "bets:      ante CHF 10.00, blind CHF 10.00, trips CHF 5.00" in run.stdout
    assert "net +CHF 120.00" in run.stdout and "EUR" not in run.stdout


def test_show_void_hand(db: Path) -> None:
    run = audit("show", "--db", str(db), "4")
    assert run.returncode == 0, run.stderr
    assert "status    void: misdeal: seat 2 got 3 cards" in run.stdout
    assert "Settlement: none" in run.stdout


def test_show_json_is_the_stored_hand(db: Path) -> None:
    run = audit("show", "--db", str(db), "2", "--json")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    with Journal(str(db)) as journal:
        hand = journal.get_hand(2)
    ops = {k: doc.pop(k) for k in ("operations", "operations_from") if k in doc}
    assert doc == {**hand.content(), "prev_hash": hand.prev_hash, "hash": hand.hash}
    # an entry without its operations (as the releases before them wrote): derived, and said
    assert ops["operations_from"] == "record" and ops["operations"][0]["kind"] == "open"
    assert doc["settlement"]["seats"][1]["net"] == 12000  # machine output: integer minor units


@pytest.fixture
def pg(tmp_path: Path) -> Iterator[Backend]:
    yield from make_backend("postgres", tmp_path)


@pytest.mark.postgres
def test_verify_on_postgres(pg: Backend) -> None:
    with Journal(pg.url) as journal:
        for i in range(3):
            journal.append_hand(make_entry(i))
    unsigned = audit("verify", "--db", pg.url)  # a PostgreSQL journal without keys signs nothing
    assert unsigned.returncode == 1 and "FAIL: hand 1: unsigned" in unsigned.stdout
    run = audit("verify", "--db", pg.url, "--allow-unsigned")
    assert run.stdout.startswith("OK: 3 hands, chain verifies")
    pg.raw("UPDATE hands SET hash = ? WHERE hand_id = 2", ("0" * 64,))
    run = audit("verify", "--db", pg.url, "--allow-unsigned")
    assert run.returncode == 1
    assert run.stdout.startswith("FAIL: hand 2: content does not match its hash")
