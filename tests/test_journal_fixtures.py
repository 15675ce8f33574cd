"""Shared helpers for the journal and audit tests (no tests here).

Backends: a real SQLite file under tmp_path, and the real PostgreSQL server at 127.0.0.1:5432
(trust auth, database ``test``) in a schema of its own per test, dropped afterwards. The
PostgreSQL cases skip, with the reason, when that server cannot be reached.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.events import CardRead, DeviceFault
from dealer_assist.storage import HandEntry, event_to_json

REPO = Path(__file__).resolve().parents[1]
PG_HOST, PG_PORT, PG_DB = "127.0.0.1", 5432, "test"
PG_USERS = ("postgres", "root")

BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]

RECORD: dict[str, Any] = {
    "game": "uth",
    "seats": 7,
    "board": ["Ah", "Kd", "7c", "7s", "2h"],
    "dealer": ["Qs", "Jd"],
    "players": [
        {
            "seat": 1,
            "hole": ["As", "Ac"],
            "bets": {"ante": 1000, "blind": 1000, "trips": 500},
            "actions": [{"street": "preflop", "action": "play", "multiple": 4}],
        },
        {
            "seat": 6,
            "hole": ["3c", "9d"],
            "bets": {"ante": 1000, "blind": 1000},
            "actions": [
                {"street": "preflop", "action": "check"},
                {"street": "flop", "action": "check"},
                {"street": "river", "action": "fold"},
            ],
        },
    ],
}

SETTLEMENT: dict[str, Any] = {
    "game": "uth",
    "dealer": {
        "hand": {"category": "pair", "best_five": ["7c", "7s", "Ah", "Kd", "Qs"]},
        "qualifies": True,
    },
    "settlement_order": [6, 1],
    "seats": [
        {
            "seat": 6,
            "result": "fold",
            "hand": {"category": "pair", "best_five": ["7c", "7s", "Ah", "Kd", "9d"]},
            "bets": [
                {"box": "ante", "stake": 1000, "outcome": "lose", "net": -1000},
                {"box": "blind", "stake": 1000, "outcome": "lose", "net": -1000},
            ],
            "net": -2000,
        },
        {
            "seat": 1,
            "result": "win",
            "hand": {"category": "full_house", "best_five": ["As", "Ac", "Ah", "7c", "7s"]},
            "bets": [
                {"box": "ante", "stake": 1000, "outcome": "win", "net": 1000},
                {"box": "blind", "stake": 1000, "outcome": "win", "net": 3000},
                {"box": "play", "stake": 4000, "outcome": "win", "net": 4000},
                {"box": "trips", "stake": 500, "outcome": "win", "net": 4000},
            ],
            "net": 12000,
        },
    ],
}

EVENTS = [
    CardRead(source="serial", at=datetime(2026, 3, 2, 2, 15, 8, 1, tzinfo=UTC), deck_id="D1",
             index=1, card=parse_card("As")),
    CardRead(source="manual", at=datetime(2026, 3, 2, 2, 15, 9, 500000, tzinfo=UTC),
             deck_id="D1", index=2, card=None, manual=True),
    DeviceFault(source="serial", at=datetime(2026, 3, 2, 2, 15, 10, tzinfo=UTC), code="JAM"),
]  # fmt: skip

# Deliberately not UTC: the journal must store the same instant and hand it back in UTC.
T0 = datetime(2026, 3, 1, 21, 15, 7, 123456, tzinfo=timezone(timedelta(hours=-5)))


def make_entry(n: int = 0, **changes: Any) -> HandEntry:
    """A settled UTH hand; ``n`` shifts its times and tags it so entries differ."""
    started = T0 + timedelta(minutes=2 * n)
    fields: dict[str, Any] = {
        "table_id": "UTH-3",
        "game": "uth",
        "started_at": started,
        "ended_at": started + timedelta(seconds=95, microseconds=7),
        "status": "settled",
        "record": RECORD,
        "settlement": SETTLEMENT,
        "events": [event_to_json(e) for e in EVENTS],
        "extra": {"n": n, "operator": "Zoë ♠"},
        "hand_uid": None,
    }
    fields.update(changes)
    return HandEntry(**fields)


@dataclass
class Backend:
    """A journal database for one test: ``url`` for Journal, ``raw(sql)`` to tamper with it
    through the plain driver (sqlite3 / psycopg), bypassing the journal code."""

    name: str
    url: str
    sqlite_path: Path | None = None
    pg_dsn: str | None = None
    pg_schema: str | None = None
    _closers: list[Any] = field(default_factory=list)

    def raw(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one statement directly and commit; returns fetched rows (if any)."""
        if self.sqlite_path is not None:
            con = sqlite3.connect(self.sqlite_path)
            try:
                cur = con.execute(sql, params)
                rows = cur.fetchall()
                con.commit()
                return rows
            finally:
                con.close()
        import psycopg

        with psycopg.connect(str(self.pg_dsn), options=f"-csearch_path={self.pg_schema}") as con:
            cur = con.execute(sql.replace("?", "%s"), params)
            return cur.fetchall() if cur.description else []


def _pg_admin() -> tuple[Any, str]:
    import psycopg

    errors = []
    for user in PG_USERS:
        dsn = f"postgresql://{user}@{PG_HOST}:{PG_PORT}/{PG_DB}"
        try:
            return psycopg.connect(dsn, connect_timeout=3, autocommit=True), dsn
        except psycopg.OperationalError as e:
            errors.append(f"{user}: {str(e).strip().splitlines()[0]}")
    pytest.skip(f"PostgreSQL at {PG_HOST}:{PG_PORT}/{PG_DB} unreachable ({'; '.join(errors)})")


def make_backend(name: str, tmp_path: Path) -> Iterator[Backend]:
    """Generator for a fixture: a fresh journal database of backend ``name``."""
    if name == "sqlite":
        path = tmp_path / "journal.db"
        yield Backend("sqlite", str(path), sqlite_path=path)
        return
    admin, dsn = _pg_admin()
    schema = f"jt_{uuid.uuid4().hex[:16]}"
    admin.execute(f'CREATE SCHEMA "{schema}"')
    url = dsn.replace("postgresql://", "postgresql+psycopg://", 1)
    try:
        yield Backend(
            "postgres",
            f"{url}?options=-csearch_path%3D{schema}",
            pg_dsn=dsn,
            pg_schema=schema,
        )
    finally:
        admin.execute(f'DROP SCHEMA "{schema}" CASCADE')
        admin.close()


def run_python(code: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh interpreter (the repo's venv) with ``args``; capture output."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        check=False,
    )


def as_utc(moment: datetime) -> datetime:
    """``moment`` converted to UTC (for comparing with what the journal returns)."""
    return moment.astimezone(UTC)
