"""Table records (buy-ins, sit-outs, the button...) in the journal's hash chain, on real SQLite
files and the real PostgreSQL server: chained with the hands, verified, shown by ``audit``, and
the table session restored from the last entry after a crash."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.errors import JournalError, TableError
from dealer_assist.events import utc_now
from dealer_assist.games.holdem_plugin import POT_RULES
from dealer_assist.games.holdem_table import (
    HandSetup,
    PokerTable,
    after_hand,
    leave,
    next_hand,
    seat_player,
    set_button,
    sit_in,
    sit_out,
    top_up,
)
from dealer_assist.games.session import SeatedPlayer, TableSession
from dealer_assist.ports import HandEntry
from dealer_assist.storage import Journal
from dealer_assist.table.records import is_table_record, journal_change, journal_table_record
from tests.core.test_holdem_table import record_of
from tests.fixtures.journal_fixtures import (
    BACKENDS,
    REPO,
    Backend,
    make_backend,
    make_entry,
    run_python,
)
from ui.commands.audit_format import format_hand

TABLE = PokerTable(blinds=(100, 200), chip=100, buy_in_min=8000, buy_in_max=40000, seats=9)
TID = "HOLDEM-01"


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Backend]:
    yield from make_backend(request.param, tmp_path)


def journal_hand(journal: Journal, session: TableSession) -> TableSession:
    """One Hold'em hand as the runner journals it: record, settlement, the session after it."""
    setup: HandSetup = next_hand(session, TABLE)
    record = record_of(setup, TABLE, with_posts=False)
    settlement = POT_RULES.settle(record)
    after = after_hand(session, TABLE, setup, settlement, void=False)
    now = utc_now()
    journal.append_hand(
        HandEntry(
            table_id=TID,
            game="holdem",
            started_at=now - timedelta(seconds=60),
            ended_at=now,
            status="settled",
            record=record,
            settlement=settlement,
            extra={"session": after.to_json()},
            hand_uid=f"{TID}-h{session.hands}",
        )
    )
    return after


def table_evening(journal: Journal) -> TableSession:
    """Buy-ins, the button, hands, a sit-out and return, a top-up, a player leaving."""
    s = TableSession(TID)
    for seat, stack in ((1, 20000), (3, 15000), (5, 30000)):
        s = seat_player(s, TABLE, seat, f"P{seat}", stack, by="floor:Ann")
        journal_change(journal, s, game="holdem")
    s = set_button(s, 1)
    journal_change(journal, s, game="holdem")
    for _ in range(2):
        s = journal_hand(journal, s)
    s = sit_out(s, 3)
    journal_change(journal, s, game="holdem")
    s = seat_player(s, TABLE, 7, "Late", 8000)
    journal_change(journal, s, game="holdem")
    s = journal_hand(journal, s)
    s = sit_in(s, 3, table=TABLE)
    journal_change(journal, s, game="holdem")
    s = top_up(s, TABLE, 1, 5000, by="cage")
    journal_change(journal, s, game="holdem")
    s = journal_hand(journal, s)
    s = leave(s, 5)
    journal_change(journal, s, game="holdem")
    return s


def test_table_records_chain_with_the_hands_and_restore_the_session(backend: Backend) -> None:
    with Journal(backend.url) as journal:
        session = table_evening(journal)
        result = journal.verify()
        entries, hands = journal.count(), journal.count(hands_only=True)
        kinds = [h.record["kind"] if is_table_record(h) else h.status for h in journal.iter_hands()]
    assert result.ok, result.reason
    assert (entries, hands, result.hands_checked) == (13, 4, 13)
    assert kinds == ["buy_in"] * 3 + [
        "button",
        "settled",
        "settled",
        "sit_out",
        "buy_in",
        "settled",
        "sit_in",
        "top_up",
        "settled",
        "leave",
    ]
    # a new process would open the file again: the session is the last entry's
    with Journal(backend.url) as reopened:
        restored = TableSession.of_journal(TID, reopened)
        last = reopened.last_hand()
        assert last is not None
        before = reopened.get_hand(last.hand_id - 1).extra["session"]["seats"]["5"]["stack"]
    assert restored == session and restored.change is None
    assert last.record["kind"] == "leave" and last.record["amount"] == before > 0
    assert 5 not in restored.seats and restored.hands == 4 and restored.button is not None
    assert next_hand(restored, TABLE) == next_hand(session, TABLE)


def test_the_stored_record_names_the_change(tmp_path: Path) -> None:
    with Journal(str(tmp_path / "j.db")) as journal:
        s = seat_player(TableSession(TID), TABLE, 4, "Zoë", 12000, by="floor:Ann")
        stored = journal_change(journal, s, game="holdem")
        s2 = top_up(s, TABLE, 4, 3000, by="cage")
        topped = journal_change(journal, s2)
        gone = leave(s2, 4, by="dealer")
        left = journal_change(journal, gone)
    assert stored.status == "table" and stored.game == "holdem" and stored.settlement is None
    assert stored.record["kind"] == "buy_in" and stored.record["amount"] == 12000
    assert stored.record["by"] == "floor:Ann" and stored.events == []
    assert stored.started_at == stored.ended_at
    assert stored.extra["session"]["seats"]["4"]["stack"] == 12000
    assert topped.record["amount"] == 3000 and topped.record["stack"] == 15000
    assert topped.prev_hash == stored.hash and left.prev_hash == topped.hash
    assert left.record["amount"] == 15000  # the stack leaves with the player
    assert left.extra["session"]["seats"] == {}


def test_a_retried_record_is_stored_once(tmp_path: Path) -> None:
    with Journal(str(tmp_path / "j.db")) as journal:
        s = seat_player(TableSession(TID), TABLE, 2, "A", 9000)
        first = journal_change(journal, s, uid="HOLDEM-01-table-1")
        again = journal_change(journal, s, uid="HOLDEM-01-table-1")
        assert first == again and journal.count() == 1


def test_bad_table_records_are_refused_naming_the_field(tmp_path: Path) -> None:
    now = utc_now()
    base: dict[str, Any] = dict(
        table_id=TID,
        game="holdem",
        started_at=now,
        ended_at=now,
        status="table",
        record={"kind": "buy_in"},
    )
    with Journal(str(tmp_path / "j.db")) as journal:
        for change, field in (
            ({"settlement": {"seats": []}}, "settlement"),
            ({"events": [{"kind": "card"}]}, "events"),
            ({"record": {"seat": 1}}, "record.kind"),
            ({"void_reason": "x"}, "void_reason"),
        ):
            with pytest.raises(JournalError, match=field):
                journal.append_hand(HandEntry(**{**base, **change}))
        with pytest.raises(TableError, match="carries no table change"):
            journal_change(journal, TableSession(TID))
        with pytest.raises(TableError, match="not 'OTHER'"):
            journal_table_record(journal, "OTHER", "x", {}, TableSession(TID))
        with pytest.raises(TableError, match="needs a UTC offset"):
            naive = {"at": "2026-01-01T10:00:00"}
            journal_table_record(journal, TID, "x", naive, TableSession(TID))
        assert journal.count() == 0


def test_an_edited_buy_in_breaks_the_chain(backend: Backend) -> None:
    with Journal(backend.url) as journal:
        journal.append_hand(make_entry(0, hand_uid="h0"))
        s = seat_player(TableSession(TID), TABLE, 1, "A", 10000)
        journal_change(journal, s)
        journal.append_hand(make_entry(1, hand_uid="h1"))
    backend.raw("UPDATE hands SET record = replace(record, '10000', '40000') WHERE hand_id = 2")
    with Journal(backend.url) as journal:
        result = journal.verify()
    assert not result.ok and result.first_bad_hand == 2
    assert result.reason == "content does not match its hash"


def test_old_sessions_read_and_banked_sessions_are_unchanged() -> None:
    old = {
        "v": 1,
        "table_id": "UTH-3",
        "hands": 12,
        "button": None,
        "level": None,
        "seats": {"2": {"name": "Ann", "stack": None, "sitting_out": False}},
    }
    s = TableSession.from_json(old)
    assert s.seats[2] == SeatedPlayer("Ann") and s.marks == {}
    assert s.to_json() == old  # nothing new is written where nothing new is set
    played = TableSession.from_json(
        json.loads(
            json.dumps(sit_out(seat_player(TableSession(TID), TABLE, 1, "B", 9000), 1).to_json())
        )
    )
    assert played.seats[1].sitting_out and played.seats[1].out_since == 0


def test_format_of_a_table_record(tmp_path: Path) -> None:
    with Journal(str(tmp_path / "j.db")) as journal:
        s = seat_player(TableSession(TID), TABLE, 4, "Zoë", 12000, by="floor:Ann")
        s = set_button(s, 4)
        s = journal_hand(journal, seat_player(s, TABLE, 6, "Bo", 9000))
        s = sit_out(s, 6)
        journal_change(journal, s)
        s = sit_in(s, 6, table=TABLE)
        stored = journal_change(journal, s)
    lines = format_hand(stored, "EUR")
    text = "\n".join(lines)
    assert lines[0] == f"Table record 3 (uid {stored.hand_uid})"
    # heads-up: the button (seat 4) posts the small blind and folds it to seat 6
    for expected in (
        "  kind      sit_in",
        "  seat      6",
        "  stack     EUR 91.00",
        "Session after it: 1 hands, button 4",
        "  seat 4: Zoë, EUR 119.00",
        f"hash      {stored.hash}",
    ):
        assert expected in text, f"{expected!r} not in:\n{text}"


# -- real processes ----------------------------------------------------------------------------

CRASH = """
import json, os, sys
from dealer_assist.storage import Journal
from dealer_assist.games.holdem_table import PokerTable, seat_player, set_button, top_up
from dealer_assist.table.records import journal_change
from dealer_assist.games.session import TableSession
table = PokerTable(blinds=(100, 200), chip=100, buy_in_min=8000, buy_in_max=40000, seats=9)
journal = Journal(sys.argv[1]); journal.open()
s = TableSession("HOLDEM-01")
for seat in (2, 5, 8):
    s = seat_player(s, table, seat, f"P{seat}", 10000 + seat * 100, by="floor")
    journal_change(journal, s)
s = set_button(s, 5); journal_change(journal, s)
s = top_up(s, table, 2, 5000); journal_change(journal, s)
print(json.dumps(s.to_json()), flush=True)
os._exit(9)  # the power goes: no close, no clean-up
"""


@pytest.mark.integration
def test_the_session_survives_a_crash(tmp_path: Path) -> None:
    db = tmp_path / "crash.db"
    run = run_python(CRASH, str(db))
    assert run.returncode == 9, run.stderr
    printed = TableSession.from_json(json.loads(run.stdout.strip().splitlines()[-1]))
    with Journal(str(db)) as journal:
        assert journal.verify().ok
        restored = TableSession.of_journal(TID, journal)
    assert restored == printed and restored.seats[2].stack == 15200 and restored.button == 5


@pytest.mark.integration
def test_audit_verify_and_show_with_table_records(tmp_path: Path) -> None:
    db = tmp_path / "audit.db"
    with Journal(str(db)) as journal:
        table_evening(journal)

    def audit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "ui.cli", "audit", *args],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    run = audit("verify", "--db", str(db))
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == (
        "OK: 13 entries (4 hands, 9 table records), chain verifies"
    )
    show = audit("show", "--db", str(db), "11")
    assert show.returncode == 0, show.stderr
    assert "kind      top_up" in show.stdout and "amount    EUR 50.00" in show.stdout
    assert "by        cage" in show.stdout
    hand = audit("show", "--db", str(db), "5")
    assert hand.returncode == 0 and hand.stdout.startswith("Hand 5 (uid HOLDEM-01-h0)")


def test_audit_show_lists_hands_and_table_records_counted_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The list gives each entry its number (what ``audit show N`` takes) and counts hands
    and table records apart (``hand 1`` is the first hand, not the first entry); the hand's
    view names its extra data and leaves the raw JSON to ``--json``."""
    from ui.cli import main

    db = tmp_path / "j.db"
    with Journal(str(db)) as journal:
        s = seat_player(TableSession(TID), TABLE, 4, "Zoë", 12000, by="floor:Ann")
        journal_change(journal, s)
        s = seat_player(s, TABLE, 6, "Bo", 9000)
        journal_change(journal, s)
        s = journal_hand(journal, set_button(s, 4))
        journal_change(journal, sit_out(s, 6))
        extra = journal.get_hand(3).extra
    assert main(["audit", "show", "--db", str(db)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line.split() for line in lines[1:-1]]
    assert lines[0].split() == ["entry", "table", "kind", "game", "ended", "status"]
    assert [r[:5] for r in rows] == [
        ["1", TID, "table", "record", "1"],
        ["2", TID, "table", "record", "2"],
        ["3", TID, "hand", "1", "holdem"],
        ["4", TID, "table", "record", "3"],
    ]
    assert [r[-1] for r in rows] == ["buy_in", "buy_in", "settled", "sit_out"]
    assert lines[-1] == "1 hands, 3 table records"
    assert len({len(line) - len(line.split()[-1]) for line in lines[:-1]}) == 1  # aligned
    assert main(["audit", "show", "--db", str(db), "3"]) == 0
    view = capsys.readouterr().out
    assert extra and "{" not in view  # no raw JSON
    assert (
        "Extra (lists and tables in --json): "
        + ", ".join(
            f"{k} ({len(v)})" if isinstance(v, list | dict) else f"{k}={v}"
            for k, v in extra.items()
            if k != "operations"
        )
        in view
    )
    assert main(["audit", "show", "--db", str(db), "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["extra"]
