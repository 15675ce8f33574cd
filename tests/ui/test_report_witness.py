"""The floor's witness on the shift report: each table's latest checkpoint of the signer at or
before the report's end (position, hash, signature, key id, times; in full in the CSV, short in
the PDF) and whether its records of the range are witnessed; one journal says "no floor: not
witnessed" (docs/PITBOSS.md, docs/AUDIT.md "Witnesses")."""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from dealer_assist.storage.floor import Floor
from dealer_assist.storage.floor.access import FloorAccess
from dealer_assist.storage.floor.stats import FloorStats
from dealer_assist.storage.signing import KeyStore
from tests.cli.test_floor_witness import AFTER, BEFORE, TABLE, deal, enrol_key, forward
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db
from tests.fixtures.notary_fixtures import NotaryProcess, notary_fixture  # noqa: F401 - the fixture
from ui.cli import main
from ui.pitboss.export import build_report, table_rows

PIN = "246813"


@pytest.fixture(autouse=True)
def _pin(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.commands.pitboss_login import PIN_ENV

    monkeypatch.setenv(PIN_ENV, PIN)


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


def report(floor_db: FloorDb, tmp_path: Path, start: str, end: str) -> list[dict[str, str]]:
    """``pitboss report --floor`` as CSV over ``[start, end)``: its table rows by column."""
    keys = tmp_path / "site-keys"
    if not keys.exists():
        KeyStore(keys).generate("site")
    out = tmp_path / "shift.csv"
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(
            [
                "pitboss",
                "report",
                "--floor",
                floor_db.url,
                "--from",
                start,
                "--to",
                end,
                "--sim-hands",
                "200",
                "--user",
                "PB-1",
                "--out",
                str(out),
                "--keys",
                str(keys),
            ]
        )
    assert status in (0, 1)
    head, *rows = list(csv.reader(out.open(encoding="utf-8")))
    return [dict(zip(head, r, strict=True)) for r in rows if r[0] != "Total"]


@pytest.mark.postgres
def test_the_report_carries_each_tables_checkpoint_and_what_it_witnessed(
    tmp_path: Path, floor_db: FloorDb, notary: NotaryProcess
) -> None:
    db = tmp_path / "j.db"
    deal(db, notary, 3, when=BEFORE)  # history the floor did not see happen
    with Floor(floor_db.url) as floor:
        enrol_key(floor, notary)
        deal(db, notary, 2, start=4, when=AFTER)
        forward(db, floor, notary)
        FloorAccess(floor).put_user(new_user("PB-1", Role.PIT_BOSS, PIN), "test")
        (cp,) = floor.checkpoints(TABLE)
        witnessed = floor.witness_counts(TABLE)
    assert cp.position == 5 and cp.signature and cp.key_id
    (row,) = report(floor_db, tmp_path, "2000-01-01", "2200-01-01")
    assert (row["Table"], row["Checkpoint position"]) == (TABLE, "5")
    assert (row["Checkpoint hash"], row["Checkpoint signature"]) == (cp.hash, cp.signature)
    assert row["Checkpoint key id"] == cp.key_id and row["Checkpoint signed at"] == cp.signed_at
    assert row["Witness"] == f"{witnessed[False]} not witnessed"  # the 3 before the enrolment
    (later,) = report(floor_db, tmp_path, "2050-01-01", "2200-01-01")
    assert later["Witness"] == "witnessed" and later["Checkpoint position"] == "5"
    # a report that ends before the floor received the checkpoint shows none
    (early,) = report(floor_db, tmp_path, "2000-01-01", "2002-01-01")
    assert early["Checkpoint position"] == "" and early["Witness"] == "3 not witnessed"
    with Floor(floor_db.url) as floor:
        end = datetime(2200, 1, 1, tzinfo=UTC)
        short = build_report(
            FloorStats(floor),
            BEFORE,
            end,
            "floor",
            sim_hands=200,
            witness=lambda t: floor.witness(t, BEFORE, end),
        )
    grid = table_rows(short, "it")
    assert grid[0][-3:] == ["Checkpoint", "Attestazione", "Allarmi"]
    assert grid[1][-3:-1] == [f"5 {cp.hash[:8]}…", "3 non attestati"]


def test_a_journals_report_says_no_floor_not_witnessed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "thb.db"
    with contextlib.redirect_stdout(io.StringIO()):
        assert (
            main(
                [
                    "simulate",
                    "--game",
                    "thb",
                    "--hands",
                    "5",
                    "--seed",
                    "5",
                    "--db",
                    str(db),
                    "--no-progress",
                ]
            )
            == 0
        )
    from dealer_assist.storage.access import LocalUsers

    LocalUsers(db.parent).put_user(new_user("PB-1", Role.PIT_BOSS, PIN), "test")
    out = tmp_path / "shift.csv"
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(
            [
                "pitboss",
                "report",
                "--db",
                str(db),
                "--from",
                "2000-01-01",
                "--to",
                "2100-01-01",
                "--sim-hands",
                "200",
                "--user",
                "PB-1",
                "--out",
                str(out),
            ]
        )
    assert status in (0, 1)
    head, row, _total = list(csv.reader(out.open(encoding="utf-8")))
    cells = dict(zip(head, row, strict=True))
    assert cells["Witness"] == "no floor: not witnessed" and cells["Checkpoint position"] == ""
