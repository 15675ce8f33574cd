"""An open tamper or key alert on the floor is shown on the table's tile (not "dealing" in
green), on every hand row it covers and on the hand screen, and in the shift report ("none"
only when there are none); acknowledged, it is no longer shown. Real PostgreSQL floor, Qt
offscreen."""

from __future__ import annotations

import contextlib
import csv
import io
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from pytestqt.qtbot import QtBot

from dealer_assist.pitboss.filters import TAMPER_STATUS, HandFilter, Sort
from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from dealer_assist.storage.floor import Floor
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db
from tests.fixtures.pitboss_fixtures import journal_copy
from ui.cli import main
from ui.pitboss.app import PitBossWindow
from ui.pitboss.service import Session, open_backend
from ui.pitboss.texts import ALERT_COLOUR
from ui.pitboss.worker import Jobs

pytestmark = pytest.mark.postgres
PIN = "246813"


@pytest.fixture
def floor(tmp_path: Path) -> Iterator[tuple[FloorDb, Path]]:
    for floor_db in make_floor_db():
        db = journal_copy(tmp_path)
        for journal in (db, db.with_name("holdem.db")):
            with contextlib.redirect_stdout(io.StringIO()):
                assert main(["floor", "sync", "--db", str(journal), "--floor", floor_db.url]) == 0
        yield floor_db, db


def _session(url: str) -> Session:
    s = Session(*open_backend(url, None))
    s.users.put_user(new_user("PB-1", Role.PIT_BOSS, PIN), "test")
    s.login("PB-1", PIN)
    return s


def _rows(s: Session) -> dict[tuple[str, int], tuple[str, ...]]:
    page = s.search(HandFilter(), Sort("position", False), 0, 1000)
    return {(r.table_id, r.position): r.alerts for r in page.rows}


def test_an_open_tamper_alert_is_on_the_tile_every_covered_row_and_the_hand(
    floor: tuple[FloorDb, Path],
) -> None:
    floor_db, _ = floor
    s = _session(floor_db.url)
    try:
        before = {t.table_id: t.status for t in s.snapshot().tables}
        assert TAMPER_STATUS not in before.values()
        assert all(a == () for a in _rows(s).values())
        with Floor(floor_db.url) as f:
            alert = f.raise_alert("tampered", "UTH-01", 5, "hand 5 changed and re-signed")
            f.raise_alert("hold_variance", "HOLDEM-01", None, "not an integrity alert")
        tiles = {t.table_id: t.status for t in s.snapshot().tables}
        assert tiles["UTH-01"] == TAMPER_STATUS and tiles["HOLDEM-01"] == before["HOLDEM-01"]
        rows = _rows(s)
        covered = {k for k, v in rows.items() if v == ("tampered",)}
        assert covered == {k for k in rows if k[0] == "UTH-01" and k[1] >= 5}
        assert all(v == () for k, v in rows.items() if k not in covered)
        assert [a.kind for a in s.open_hand("UTH-01", 6).alerts] == ["tampered"]
        assert s.open_hand("UTH-01", 4).alerts == ()
        with Floor(floor_db.url) as f:  # a key alert has no position: the whole table
            f.raise_alert("key_changed", "HOLDEM-01", None, "another key presented")
        rows = _rows(s)
        assert all(v == ("key_changed",) for k, v in rows.items() if k[0] == "HOLDEM-01")
        s.acknowledge(str(alert))
        assert {t.table_id: t.status for t in s.snapshot().tables}["UTH-01"] != TAMPER_STATUS
        assert all(v == () for k, v in _rows(s).items() if k[0] == "UTH-01")
    finally:
        s.close()


def test_the_window_shows_the_alert_on_the_tile_the_rows_and_the_hand_screen(
    qtbot: QtBot, floor: tuple[FloorDb, Path]
) -> None:
    floor_db, _ = floor
    with Floor(floor_db.url) as f:
        f.raise_alert("chain_break", "UTH-01", 3, "prev_hash does not link to 2")
    s = _session(floor_db.url)
    jobs = Jobs()
    try:
        win = PitBossWindow(s, jobs)
        qtbot.addWidget(win)
        win.show()
        win.start()
        qtbot.waitUntil(lambda: jobs.pending == 0 and win.model.rowCount() > 0, timeout=20_000)
        tiles = win.floor.tables
        row = next(i for i in range(tiles.rowCount()) if tiles.item(i, 0).text() == "UTH-01")
        status = tiles.item(row, 2)
        assert status.text() == TAMPER_STATUS and status.text() != "dealing"
        assert status.background().color().name() == ALERT_COLOUR
        model = win.model
        alert_col = model.columnCount() - 1
        for i in range(model.rowCount()):
            r = model.row(i)
            brush = model.data(model.index(i, 0), Qt.ItemDataRole.BackgroundRole)
            hit = r.table_id == "UTH-01" and r.position >= 3
            assert (brush is not None and brush.color().name() == ALERT_COLOUR) is hit
            assert (model.data(model.index(i, alert_col)) == "chain_break") is hit
        win.open_hand("UTH-01", 4)
        qtbot.waitUntil(lambda: jobs.pending == 0, timeout=20_000)
        assert win.hand.alert.isVisible()
        assert win.hand.alert.text().startswith("Open integrity alert: chain_break (UTH-01 #3)")
        win.open_hand("UTH-01", 2)
        qtbot.waitUntil(lambda: jobs.pending == 0, timeout=20_000)
        assert not win.hand.alert.isVisible()
        win.close()
    finally:
        jobs.stop()
        s.close()


def test_the_shift_report_carries_the_open_alerts(
    floor: tuple[FloorDb, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dealer_assist.storage.floor.access import FloorAccess
    from dealer_assist.storage.signing import KeyStore
    from ui.commands.pitboss_login import PIN_ENV

    floor_db, _ = floor
    keys = tmp_path / "site-keys"
    KeyStore(keys).generate("site")
    with Floor(floor_db.url) as f:
        FloorAccess(f).put_user(new_user("PB-1", Role.PIT_BOSS, PIN), "test")
    monkeypatch.setenv(PIN_ENV, PIN)

    def report(name: str) -> tuple[int, str, list[list[str]]]:
        out = tmp_path / name
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            status = main(
                [
                    "pitboss",
                    "report",
                    "--floor",
                    floor_db.url,
                    "--from",
                    "2000-01-01",
                    "--to",
                    "2100-01-01",
                    "--sim-hands",
                    "2000",
                    "--out",
                    str(out),
                    "--keys",
                    str(keys),
                    "--user",
                    "PB-1",
                ]
            )
        return status, printed.getvalue(), list(csv.reader(out.open(encoding="utf-8")))

    _, said, rows = report("before.csv")
    assert "integrity alert" not in said
    assert all("tampered" not in r[-1] for r in rows)
    with Floor(floor_db.url) as f:
        f.raise_alert("tampered", "UTH-01", 5, "hand 5 changed and re-signed")
        f.raise_alert("signer_rewound", None, 9, "the signer's head went back")
    status, said, rows = report("after.csv")
    assert status == 1
    assert "ALERT: integrity alert tampered: table UTH-01 at position 5" in said
    assert "ALERT: integrity alert signer_rewound: table every table at position 9" in said
    by_table = {r[0]: r[-1] for r in rows[1:]}
    assert "tampered" in by_table["UTH-01"] and "signer_rewound" in by_table["UTH-01"]
    assert "tampered" not in by_table["HOLDEM-01"]
    assert "signer_rewound" in by_table["Total"]
