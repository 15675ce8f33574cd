"""Shared helpers for the pit-boss tests (no tests here): real journals dealt by the product's
``simulate`` (``uth.db``: UTH-01, plus one void hand with a device fault appended through the
journal's own code; ``holdem.db``: HOLDEM-01; one chain per table, as the floor wants), made
once per test session and copied for each test."""

from __future__ import annotations

import atexit
import contextlib
import io
import shutil
import sqlite3
import tempfile
from datetime import timedelta
from pathlib import Path
from typing import Any

from dealer_assist.events import utc_now
from dealer_assist.ports import HandEntry
from dealer_assist.storage import Journal
from dealer_assist.storage.floor.summary import search_columns
from ui.cli import main

_MADE: Path | None = None
VOID_REASON = "device fault: the shuffler jammed"


def _make() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="pitboss-tests-"))
    atexit.register(shutil.rmtree, folder, True)  # the session's master copy, once
    for game, hands in (("uth", "25"), ("holdem", "8")):
        db = folder / f"{game}.db"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = main(["simulate", "--game", game, "--hands", hands, "--seed", "11",
                           "--db", str(db), "--no-progress"])  # fmt: skip
        if status != 0:
            raise RuntimeError(f"simulate {game} failed: {status}")
    now = utc_now()
    with Journal(str(folder / "uth.db")) as journal:
        journal.append_hand(HandEntry(
            table_id="UTH-01", game="uth", started_at=now - timedelta(seconds=5), ended_at=now,
            status="void", void_reason=VOID_REASON, record={"game": "uth", "players": []},
            events=[{"kind": "fault", "at": now.isoformat(), "source": "serial",
                     "code": "JAM"}],
        ))  # fmt: skip
    return folder


def journal_copy(dest: Path) -> Path:
    """A fresh copy of the session's simulated journals (and their keys) in ``dest``; the
    path of ``uth.db`` (``holdem.db`` beside it)."""
    global _MADE
    if _MADE is None:
        _MADE = _make()
    for item in _MADE.iterdir():
        target = dest / item.name
        if item.is_dir():
            shutil.copytree(item, target)
        else:
            shutil.copy2(item, target)
    return dest / "uth.db"


def raw_hands(db: Path) -> list[Any]:
    """Every hand of the journal (table records left out) read by the journal's own code."""
    with Journal(str(db), create=False, read_only=True) as j:
        return [h for h in j.iter_hands() if h.status != "table"]


def columns(hand: Any) -> dict[str, Any]:
    """The floor's search columns of ``hand``."""
    return search_columns(hand)


def tamper_payout(db: Path, position: int, seat_index: int = 0, add: int = 1000) -> None:
    """Raise the recorded net of one seat of hand ``position`` by ``add`` in the file itself."""
    import json

    con = sqlite3.connect(db)
    try:
        (text,) = con.execute(
            "SELECT settlement FROM hands WHERE hand_id = ?", (position,)
        ).fetchone()
        settlement = json.loads(text)
        settlement["seats"][seat_index]["net"] += add
        con.execute("UPDATE hands SET settlement = ? WHERE hand_id = ?",
                    (json.dumps(settlement), position))  # fmt: skip
        con.commit()
    finally:
        con.close()
