"""The dealer on the box: a dealer change is a journaled table record that survives
a restart, and every hand after it carries the badge as ``extra["dealer"]``; on real SQLite
journals, dealt by ``simulate`` over the real serial emulator (banked and Hold'em)."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import default_table_path, load_table_config
from dealer_assist.errors import ConfigError, HandStateError, TableError
from dealer_assist.games.session import TableSession
from dealer_assist.ports import TABLE_RECORD
from dealer_assist.storage.journal import Journal
from dealer_assist.table.dealers import DEALER_CHANGE, change_dealer, check_badge
from dealer_assist.table.records import journal_change
from ui.cli import main


def entries(db: Path) -> list[Any]:
    j = Journal(str(db))
    j.open()
    try:
        return list(j.iter_hands(1))
    finally:
        j.close()


def simulate(db: Path, *extra: str, game: str = "uth", hands: int = 2) -> None:
    args = ["simulate", "--game", game, "--hands", str(hands), "--db", str(db), "--no-progress"]
    assert main([*args, *extra]) == 0


def test_the_session_keeps_the_dealer_and_reads_a_session_written_before_it() -> None:
    s = TableSession("UTH-1", hands=3, dealer="D-1042")
    assert s.to_json()["dealer"] == "D-1042"
    assert TableSession.from_json(s.to_json()) == s
    old = TableSession("UTH-1", hands=3).to_json()
    assert "dealer" not in old  # nothing new in a session without a dealer
    assert TableSession.from_json(old).dealer is None
    with pytest.raises(ConfigError, match="dealer must be a badge id"):
        TableSession.from_json({**old, "dealer": 1042})


def test_a_change_names_the_new_and_previous_badge_and_refuses_what_is_wrong() -> None:
    at = datetime.fromisoformat("2026-12-01T14:00:00+00:00")
    first = change_dealer(TableSession("T"), "  D-1 ", at=at)
    assert first.dealer == "D-1" and first.change is not None
    assert first.change.kind == DEALER_CHANGE
    assert dict(first.change.payload) == {
        "dealer": "D-1",
        "previous": None,
        "by": "D-1",
        "at": "2026-12-01T14:00:00.000000+00:00",
    }
    second = change_dealer(first, "D-2", by="PB-7")
    assert second.change is not None and second.change.payload["previous"] == "D-1"
    assert second.change.payload["by"] == "PB-7"
    with pytest.raises(HandStateError, match="between hands"):
        change_dealer(first, "D-2", in_hand=True)
    with pytest.raises(TableError, match="already on the box"):
        change_dealer(first, "D-1")
    for bad, why in (("", "empty"), ("x" * 65, "at most 64"), ("D\n1", "control"), (7, "text")):
        with pytest.raises(TableError, match=why):
            check_badge(bad)


def test_a_journaled_change_is_restored_from_the_reopened_journal(tmp_path: Path) -> None:
    db = tmp_path / "j.db"
    j = Journal(str(db))
    j.open()
    stored = journal_change(j, change_dealer(TableSession("UTH-1"), "D-77"), game="uth")
    j.close()
    assert stored.status == TABLE_RECORD and stored.record["kind"] == DEALER_CHANGE
    j = Journal(str(db))
    j.open()
    try:
        assert TableSession.of_journal("UTH-1", j).dealer == "D-77"
    finally:
        j.close()


@pytest.mark.parametrize("game", ["uth", "holdem"])
def test_simulate_records_the_dealer_and_every_hand_after_carries_it(
    tmp_path: Path, game: str
) -> None:
    db = tmp_path / f"{game}.db"
    simulate(db, "--dealer", "D-1042", game=game)
    simulate(db, game=game, hands=1)  # a restart: the dealer is the journal's, no new record
    simulate(db, "--dealer", "D-7", game=game, hands=1)
    rows = entries(db)
    changes = [e for e in rows if e.status == TABLE_RECORD and e.record["kind"] == DEALER_CHANGE]
    assert [(c.record["dealer"], c.record["previous"]) for c in changes] == [
        ("D-1042", None),
        ("D-7", "D-1042"),
    ]
    for c in changes:
        assert c.record["by"] == "simulate"
        assert datetime.fromisoformat(c.record["at"]).utcoffset() is not None
        assert c.extra["session"]["dealer"] == c.record["dealer"]
    hands = [e for e in rows if e.status != TABLE_RECORD]
    second = changes[1].hand_id
    assert len(hands) == 4
    assert [h.extra.get("dealer") for h in hands] == [
        "D-1042" if h.hand_id < second else "D-7" for h in hands
    ]
    assert {h.extra.get("dealer") for h in hands} == {"D-1042", "D-7"}


def test_the_table_default_dealer_applies_only_when_nobody_is_on_the_box(tmp_path: Path) -> None:
    toml = tmp_path / "uth.toml"
    text = default_table_path("uth").read_text("utf-8")
    toml.write_text(re.sub(r"(?m)^\[table\]$", '[table]\ndealer = "D-CFG"', text, count=1))
    assert load_table_config(toml).dealer == "D-CFG"
    db = tmp_path / "j.db"
    simulate(db, "--table", str(toml), hands=1)
    simulate(db, "--dealer", "D-2", hands=1)
    simulate(db, "--table", str(toml), hands=1)  # D-2 stays: the default is for nobody there
    assert [h.extra.get("dealer") for h in entries(db) if h.status != TABLE_RECORD] == [
        "D-CFG",
        "D-2",
        "D-2",
    ]
    bad = tmp_path / "bad.toml"
    bad.write_text(re.sub(r"(?m)^\[table\]$", '[table]\ndealer = ""', text, count=1))
    with pytest.raises(ConfigError, match=r"table\.dealer"):
        load_table_config(bad)


def test_simulate_refuses_a_bad_badge_before_dealing(tmp_path: Path, capsys: Any) -> None:
    db = tmp_path / "j.db"
    args = ["simulate", "--hands", "1", "--db", str(db), "--no-progress", "--dealer", "x" * 65]
    assert main(args) == 2
    assert "--dealer: a dealer's badge has at most 64 characters" in capsys.readouterr().err
    assert [e for e in entries(db) if e.status != TABLE_RECORD] == []
