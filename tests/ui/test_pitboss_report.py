"""The shift report: ``pitboss report`` over a journal dealt by ``simulate`` and over the floor,
CSV and PDF, signed (``audit verify-export`` passes, a changed byte fails), in Italian too; the
Statistics tab shows the same figures and marks a hold outside its band."""

from __future__ import annotations

import argparse
import contextlib
import csv
import io
from collections.abc import Iterator
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.games.hold import Estimate
from dealer_assist.storage import Journal
from dealer_assist.storage.signing import KeyStore
from dealer_assist.storage.stats import JournalStats
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db
from ui.cli import main
from ui.commands import pitboss_report

START, END = datetime(2000, 1, 1, tzinfo=UTC), datetime(2100, 1, 1, tzinfo=UTC)
PIN = "246813"
#: every report and stats run logs in as the pit boss PB-1 (the PIN from the environment)
RANGE = ["--from", "2000-01-01", "--to", "2100-01-01", "--sim-hands", "2000", "--user", "PB-1"]


@pytest.fixture(autouse=True)
def _pin(monkeypatch: pytest.MonkeyPatch) -> None:
    from ui.commands.pitboss_login import PIN_ENV

    monkeypatch.setenv(PIN_ENV, PIN)


def pitboss(*argv: str) -> tuple[int, str]:
    """``dealer-assist pitboss ...`` through the command module's own parser."""
    parser = argparse.ArgumentParser()
    pitboss_report.register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["pitboss", *argv])
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = int(args.func(args))
    return status, out.getvalue()


@pytest.fixture(scope="module")
def dealt(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("report") / "thb.db"
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(
            [
                "simulate",
                "--game",
                "thb",
                "--hands",
                "20",
                "--seed",
                "5",
                "--db",
                str(db),
                "--no-progress",
            ]
        )
    assert status == 0
    from dealer_assist.pitboss.roles import Role
    from dealer_assist.pitboss.users import new_user
    from dealer_assist.storage.access import LocalUsers

    users = LocalUsers(db.parent)
    users.put_user(new_user("PB-1", Role.PIT_BOSS, PIN), "test")
    users.put_user(new_user("D-1", Role.DEALER, "111111"), "test")
    return db


def test_a_report_needs_a_logged_in_role_and_the_actor_is_logged(
    dealt: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dealer_assist.storage.access import LocalAccessLog
    from ui.commands.pitboss_login import PIN_ENV

    out = tmp_path / "nobody.csv"
    bare = [a for a in RANGE if a not in ("--user", "PB-1")]
    with pytest.raises(SystemExit), contextlib.redirect_stderr(io.StringIO()):
        pitboss("report", "--db", str(dealt), *bare, "--out", str(out))  # --user is required
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        monkeypatch.setenv(PIN_ENV, "246810")  # a wrong PIN from the environment
        assert pitboss("report", "--db", str(dealt), *RANGE, "--out", str(out))[0] == 2
        monkeypatch.setenv(PIN_ENV, "111111")  # a dealer
        assert (
            pitboss("report", "--db", str(dealt), *bare, "--user", "D-1", "--out", str(out))[0] == 2
        )
        assert pitboss("stats", "--db", str(dealt), *bare, "--user", "D-1")[0] == 2
    assert "badge or PIN not recognised" in err.getvalue()
    assert "a dealer may not report" in err.getvalue()
    assert not out.exists()
    monkeypatch.setenv(PIN_ENV, PIN)
    status, _ = pitboss("report", "--db", str(dealt), *RANGE, "--out", str(out))
    assert status in (0, 1)
    mine = [e for e in LocalAccessLog(dealt.parent).entries() if e.badge == "PB-1"]
    assert [e.action for e in mine][-2:] == ["login", "report"]
    assert mine[-1].role == "pit_boss" and str(out) in mine[-1].detail


def verify(path: Path, *trust: str) -> int:
    with contextlib.redirect_stdout(io.StringIO()):
        return main(["audit", "verify-export", str(path), *trust])


def test_csv_report_of_a_journal_has_its_figures_and_verifies_until_changed(
    dealt: Path, tmp_path: Path
) -> None:
    out = tmp_path / "shift.csv"
    status, printed = pitboss("report", "--db", str(dealt), *RANGE, "--out", str(out))
    assert status in (0, 1) and "signed by" in printed
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert rows[0][:7] == ["Table", "Game", "Hands", "Hands/h", "Drop", "Win", "Hold"]
    (stat,) = JournalStats(str(dealt)).stats(START, END, ["table"])
    table, game, hands, _, drop, win, hold = rows[1][:7]
    assert (table, game, int(hands)) == (stat.key[0], "thb", 20)
    assert drop == f"{stat.drop // 100}.{stat.drop % 100:02d}"
    assert win == f"{'-' if stat.win < 0 else ''}{abs(stat.win) // 100}.{abs(stat.win) % 100:02d}"
    assert hold == f"{float(stat.hold) * 100:.2f}%" and rows[1][7].endswith("%")
    assert rows[-1][0] == "Total"
    assert verify(out, "--db", str(dealt)) == 0
    data = bytearray(out.read_bytes())
    data[-3] = ord("9") if data[-3] != ord("9") else ord("8")
    out.write_bytes(bytes(data))
    assert verify(out, "--db", str(dealt)) == 1


def test_pdf_report_in_italian_verifies_and_a_tampered_one_fails(
    dealt: Path, tmp_path: Path
) -> None:
    out = tmp_path / "turno.pdf"
    status, _ = pitboss("report", "--db", str(dealt), *RANGE, "--out", str(out), "--lang", "it")
    assert status in (0, 1)
    assert out.read_bytes().startswith(b"%PDF")
    assert verify(out, "--db", str(dealt)) == 0
    csv_it = tmp_path / "turno.csv"
    pitboss("report", "--db", str(dealt), *RANGE, "--out", str(csv_it), "--lang", "it")
    assert csv_it.read_text(encoding="utf-8").startswith("Tavolo,Gioco,Mani,Mani/ora")
    with out.open("ab") as f:
        f.write(b"\n")
    assert verify(out, "--db", str(dealt)) == 1


def test_bad_arguments_are_named(dealt: Path, tmp_path: Path) -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status, _ = pitboss(
            "report",
            "--db",
            str(dealt),
            "--from",
            "2026-12-02",
            "--to",
            "2026-12-01",
            "--out",
            str(tmp_path / "x.pdf"),
            "--user",
            "PB-1",
        )
        assert status == 2
        status, _ = pitboss("report", "--db", str(dealt), *RANGE, "--out", str(tmp_path / "x.txt"))
        assert status == 2
    assert "--to (2026-12-01) must be after --from" in err.getvalue()
    assert "is .csv or .pdf" in err.getvalue()
    assert not (tmp_path / "x.txt").exists()


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


@pytest.mark.postgres
def test_floor_report_is_signed_by_the_site_key(
    dealt: Path, floor_db: FloorDb, tmp_path: Path
) -> None:
    from dealer_assist.storage.floor import Floor

    with Journal(str(dealt), create=False, read_only=True) as journal:
        hands = list(journal.iter_hands())
    with Floor(floor_db.url) as floor:
        floor.register(hands[0].table_id, "thb", pit="B")
        floor.ingest(hands[0].table_id, hands)
        from dealer_assist.pitboss.roles import Role
        from dealer_assist.pitboss.users import new_user
        from dealer_assist.storage.floor.access import FloorAccess

        FloorAccess(floor).put_user(new_user("PB-1", Role.PIT_BOSS, PIN), "test")
    keys = tmp_path / "site-keys"
    out = tmp_path / "floor.csv"
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status, _ = pitboss(
            "report", "--floor", floor_db.url, *RANGE, "--out", str(out), "--keys", str(keys)
        )
    assert status == 2 and "audit keygen --table site" in err.getvalue()
    KeyStore(keys).generate("site")
    status, printed = pitboss(
        "report",
        "--floor",
        floor_db.url,
        *RANGE,
        "--pit",
        "B",
        "--out",
        str(out),
        "--keys",
        str(keys),
    )
    assert status in (0, 1) and "signed by site" in printed
    assert list(csv.reader(out.open()))[1][2] == "20"
    assert verify(out, "--keys", str(keys)) == 0
    status, printed = pitboss("stats", "--floor", floor_db.url, *RANGE, "--by", "pit,game")
    assert status == 0 and printed.splitlines()[1].startswith("B\tthb\tthb\t20\t")


def cell(tab: Any, row: int, column: int) -> Any:
    item = tab.table.item(row, column)
    assert item is not None
    return item


def test_stats_tab_shows_the_journals_figures_and_marks_a_hold_outside_its_band(
    qtbot: object, dealt: Path
) -> None:
    from ui.pitboss.stats_tab import StatsTab

    start, end = START, END
    (stat,) = JournalStats(str(dealt)).stats(start, end, ["table"])
    far = Estimate(1_000_000, 100_000_000, int((stat.hold + Fraction(1, 2)) * 100_000_000), 0.2)
    tab = StatsTab(
        lambda: JournalStats(str(dealt)), theory=lambda g: far, start=start, end=end, min_hands=10
    )
    qtbot.addWidget(tab)  # type: ignore[attr-defined]
    try:
        with qtbot.waitSignal(tab.shown, timeout=30_000):  # type: ignore[attr-defined]
            tab.refresh()
        assert tab.table.rowCount() == 1
        assert cell(tab, 0, 0).text() == stat.key[0]
        assert cell(tab, 0, 2).text() == "20"
        assert cell(tab, 0, 6).text() == f"{float(stat.hold):.2%}"
        assert "outside the 95% band" in tab.alerts.text()
        assert cell(tab, 0, 0).background().color().name() == "#f4c7c3"
        tab.set_group("game")
        with qtbot.waitSignal(tab.shown, timeout=30_000):  # type: ignore[attr-defined]
            tab.refresh()
        assert cell(tab, 0, 0).text() == "thb"
    finally:
        tab.close_worker()


def test_dealer_assist_pitboss_report_is_the_command(dealt: Path, tmp_path: Path) -> None:
    out = tmp_path / "cli.csv"
    with contextlib.redirect_stdout(io.StringIO()):
        status = main(["pitboss", "report", "--db", str(dealt), *RANGE, "--out", str(out)])
    assert status in (0, 1)
    assert verify(out, "--db", str(dealt)) == 0


def test_a_journal_that_does_not_verify_is_an_alert_of_its_report(
    dealt: Path, tmp_path: Path
) -> None:
    import shutil
    import sqlite3

    db = tmp_path / "thb.db"
    for item in dealt.parent.iterdir():  # the journal, its keys and users
        target = tmp_path / item.name
        if item.is_dir():
            shutil.copytree(item, target)
        else:
            shutil.copy2(item, target)
    out = tmp_path / "clean.csv"
    status, printed = pitboss("report", "--db", str(db), *RANGE, "--out", str(out))
    assert "integrity alert" not in printed
    with sqlite3.connect(db) as con:
        con.execute("UPDATE hands SET signature = NULL, key_id = NULL WHERE hand_id = 3")
    out = tmp_path / "changed.csv"
    status, printed = pitboss("report", "--db", str(db), *RANGE, "--out", str(out))
    assert status == 1
    assert (
        "ALERT: integrity alert tampered: table every table at position 3: the journal "
        "does not verify: hand 3:" in printed
    )
    rows = list(csv.reader(out.open(encoding="utf-8")))
    assert "tampered" in rows[1][-1] and "does not verify" in rows[-1][-1]
