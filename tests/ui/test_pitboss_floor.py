"""The pit-boss session over a real PostgreSQL floor (a schema per test): the journal synced
there by ``dealer-assist floor sync``, searched with the floor's SQL (the same hands as the
journal's own search), users added by ``dealer-assist pitboss user add`` into the floor, the
access log in the floor, alerts acknowledged by a pit boss and refused to an auditor."""

from __future__ import annotations

import contextlib
import io
from collections.abc import Iterator
from pathlib import Path

import pytest

from dealer_assist.pitboss.filters import HandFilter, Sort
from dealer_assist.pitboss.roles import PermissionDeniedError, Role
from dealer_assist.pitboss.users import LoginRefusedError, new_user
from dealer_assist.storage.floor import Floor
from tests.fixtures.floor_fixtures import FloorDb, make_floor_db
from tests.fixtures.pitboss_fixtures import journal_copy
from ui.cli import main
from ui.pitboss.service import Session, open_backend

pytestmark = pytest.mark.postgres


@pytest.fixture
def floor_db() -> Iterator[FloorDb]:
    yield from make_floor_db()


def _cli(*argv: str, stdin: str = "") -> int:
    import sys

    old = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            return main(list(argv))
    finally:
        sys.stdin = old


def _all(s: Session, where: HandFilter) -> list[tuple[str, int]]:
    out, offset = [], 0
    while True:
        page = s.search(where, Sort("position", False), offset, 10)
        out += [(r.table_id, r.position) for r in page.rows]
        offset += len(page.rows)
        if not page.more:
            return sorted(out)


def test_the_floor_answers_as_the_journal_and_logs_every_view(
    floor_db: FloorDb, tmp_path: Path
) -> None:
    db = journal_copy(tmp_path)
    for journal in (db, db.with_name("holdem.db")):
        assert _cli("floor", "sync", "--db", str(journal), "--floor", floor_db.url) == 0
    assert (
        _cli(
            "pitboss",
            "user",
            "add",
            "--floor",
            floor_db.url,
            "--badge",
            "SM-1",
            "--role",
            "shift_manager",
            "--pin-stdin",
            stdin="864213\n",
        )
        == 0
    )
    for badge, role, pin in (("PB-1", "pit_boss", "246813"), ("AUD-1", "auditor", "135724")):
        assert (
            _cli(
                "pitboss",
                "user",
                "add",
                "--floor",
                floor_db.url,
                "--badge",
                badge,
                "--role",
                role,
                "--user",
                "SM-1",
                "--pin-stdin",
                stdin=f"864213\n{pin}\n",
            )
            == 0
        )
    floor = Session(*open_backend(floor_db.url, None))
    local = Session(*open_backend(None, db))
    holdem = Session(*open_backend(None, db.with_name("holdem.db")))
    local.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    try:
        with pytest.raises(LoginRefusedError):
            floor.login("PB-1", "0000")
        floor.login("PB-1", "246813")
        local.login("PB-1", "246813")
        holdem.login("PB-1", "246813")
        filters = [
            HandFilter(),
            HandFilter(game="holdem"),
            HandFilter(table_id="UTH-01", seat=2),
            HandFilter(min_amount=20000),
            HandFilter(outcome="void", void_reason="jam"),
            HandFilter(flags=("device_fault",)),
        ]
        for where in filters:
            assert _all(floor, where) == sorted(_all(local, where) + _all(holdem, where)), where
        assert _all(floor, HandFilter(outcome="void")) != []
        hand = _all(floor, HandFilter(game="uth", outcome="settled"))[0]
        view = floor.open_hand(*hand)
        assert view.replay.stopped is None and view.replay.final is not None
        assert floor.recompute(*hand).agrees
        snap = floor.snapshot()
        assert {t.table_id for t in snap.tables} == {"UTH-01", "HOLDEM-01"}
        assert next(t for t in snap.tables if t.table_id == "UTH-01").status == "void_alarm"
        with Floor(floor_db.url) as f:
            alert_id = f.raise_alert("chain_break", "UTH-01", 5, "test break")
        floor.logout()
        floor.login("AUD-1", "135724")
        with pytest.raises(PermissionDeniedError, match="auditor"):
            floor.acknowledge(str(alert_id))
        floor.logout()
        floor.login("PB-1", "246813")
        row = floor.acknowledge(str(alert_id))
        assert row.acknowledged_by == "PB-1" and row.acknowledged_at is not None
    finally:
        floor.close()
        local.close()
        holdem.close()
    rows = floor_db.sql("SELECT badge, action, position FROM pitboss_access ORDER BY id")
    assert rows == [
        ("bootstrap", "user_added", None),
        ("SM-1", "login", None),
        ("SM-1", "user_added", None),
        ("SM-1", "login", None),
        ("SM-1", "user_added", None),
        ("PB-1", "login_refused", None),
        ("PB-1", "login", None),
        ("PB-1", "view_detail", hand[1]),
        ("PB-1", "recompute", hand[1]),
        ("PB-1", "logout", None),
        ("AUD-1", "login", None),
        ("AUD-1", "logout", None),
        ("PB-1", "login", None),
        ("PB-1", "acknowledge", 5),
    ]
    hashes = floor_db.sql("SELECT pin_hash FROM pitboss_users")
    assert all(h.startswith("$argon2") for (h,) in hashes)
    assert floor_db.sql("SELECT acknowledged_by FROM floor_alerts WHERE id = %s", (alert_id,)) == [
        ("PB-1",)
    ]
    # the floor's own schema check still passes with the pit-boss tables beside it
    with Floor(floor_db.url) as f:
        assert f.head("UTH-01") is not None


def test_the_application_never_creates_its_tables_floor_migrate_does(floor_db: FloorDb) -> None:
    """`floor migrate` (``Floor.migrate``) creates the pit-boss tables beside the floor's; the
    application only checks them, so a pit boss's database user needs no CREATE: without them
    it names the command and creates nothing."""
    from dealer_assist.storage.floor.errors import FloorError

    tables = {
        r[0]
        for r in floor_db.sql(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    }
    assert {"pitboss_users", "pitboss_access", "pitboss_alembic_version"} <= tables
    floor_db.sql("DROP TABLE pitboss_users, pitboss_access, pitboss_alembic_version")
    with pytest.raises(FloorError, match="floor migrate"):
        open_backend(floor_db.url, None)
    left = {
        r[0]
        for r in floor_db.sql(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
        )
    }
    assert not {t for t in left if t.startswith("pitboss_")}
    assert _cli("floor", "migrate", "--floor", floor_db.url) == 0
    source, users, _log = open_backend(floor_db.url, None)
    try:
        assert users.get_user("nobody") is None
    finally:
        source.close()
