"""One-journal mode verifies the journal before it shows anything and never reads the journal's
unhashed ``hand_search`` table: the index is rebuilt from the verified hands (an emptied or
edited ``hand_search`` changes nothing on screen); a changed payout, stripped signatures or a
cut tail are refused with a sentence naming the hand, at open or at the next read."""

from __future__ import annotations

import contextlib
import io
import sqlite3
from datetime import timedelta
from pathlib import Path

import pytest

from dealer_assist.events import utc_now
from dealer_assist.pitboss.filters import HandFilter, Sort
from dealer_assist.ports import HandEntry, StoredHand
from dealer_assist.storage import Journal
from dealer_assist.storage.verified_index import JournalNotVerifiedError
from tests.fixtures.pitboss_fixtures import columns, journal_copy, raw_hands, tamper_payout
from ui.pitboss.service import open_backend

pytestmark = pytest.mark.integration


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return journal_copy(tmp_path)


def _sql(db: Path, statement: str) -> None:
    con = sqlite3.connect(db)
    try:
        con.execute(statement)
        con.commit()
    finally:
        con.close()


def _every(db: Path) -> list[tuple[int, int | None]]:
    source = open_backend(None, db)[0]
    try:
        page = source.search(HandFilter(), Sort("position", False), 0, 1000)
        return [(r.position, r.top_amount) for r in page.rows]
    finally:
        source.close()


def test_an_emptied_or_edited_search_table_changes_nothing_shown(db: Path) -> None:
    truth = [(h.hand_id, columns(h)["top_amount"]) for h in raw_hands(db)]
    assert _every(db) == truth
    big = next(p for p, top in truth if top)
    _sql(db, f"UPDATE hand_search SET top_amount = 1 WHERE hand_id = {big}")
    assert _every(db) == truth  # the amount shown is the hashed record's
    _sql(db, "DELETE FROM hand_search")
    assert _every(db) == truth  # was "Hands shown: 0" while audit verify said OK


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ("payout", "content does not match its hash"),
        ("UPDATE hands SET signature = NULL, key_id = NULL", "unsigned"),
        ("DELETE FROM hands WHERE hand_id = 5", "hand 5: missing"),
    ],
)
def test_a_journal_that_does_not_verify_is_refused_with_a_sentence(
    db: Path, change: str, said: str
) -> None:
    hand = next(h for h in raw_hands(db) if h.status == "settled")
    if change == "payout":
        tamper_payout(db, hand.hand_id, add=1000)
    else:
        _sql(db, change)
    with pytest.raises(JournalNotVerifiedError) as refused:
        open_backend(None, db)
    text = str(refused.value)
    assert said in text and "the pit-boss application shows none of it" in text
    assert f"dealer-assist audit verify --db {db}" in text
    err = io.StringIO()
    from ui.cli import main

    with contextlib.redirect_stderr(err):
        assert main(["pitboss", "--db", str(db), "--lang", "en"]) == 2
    assert "does not verify" in err.getvalue()


def _void(journal: Journal, reason: str) -> StoredHand:
    now = utc_now()
    return journal.append_hand(
        HandEntry(
            table_id="UTH-01",
            game="uth",
            started_at=now - timedelta(seconds=3),
            ended_at=now,
            status="void",
            void_reason=reason,
            record={"game": "uth", "players": []},
        )
    )


def test_appended_hands_are_verified_then_shown_and_a_change_after_open_is_caught(
    db: Path,
) -> None:
    with Journal(str(db)) as journal:  # the table deals on while the application is open
        _void(journal, "misdeal: first")  # a live table's journal has its write-ahead log
        source = open_backend(None, db)[0]
        try:
            before = source.search(HandFilter(), Sort(), 0, 1000).rows
            added = _void(journal, "misdeal: two cards")
            after = source.search(HandFilter(), Sort(), 0, 1000).rows
            assert len(after) == len(before) + 1 and after[0].position == added.hand_id
            assert source.hand("UTH-01", added.hand_id).hash == added.hash
            settled = next(h for h in raw_hands(db) if h.status == "settled")
            tamper_payout(db, settled.hand_id, add=500)  # changed behind the open application
            with pytest.raises(JournalNotVerifiedError, match=f"hand {settled.hand_id}: changed"):
                source.hand("UTH-01", settled.hand_id)
            with pytest.raises(JournalNotVerifiedError):  # and nothing more is shown
                source.search(HandFilter(), Sort(), 0, 10)
        finally:
            source.close()


def test_a_tail_cut_after_open_is_caught_at_the_next_read(db: Path) -> None:
    with Journal(str(db)) as journal:
        _void(journal, "misdeal: first")  # a live table's journal has its write-ahead log
        source = open_backend(None, db)[0]
    try:
        hands = raw_hands(db)
        keep = hands[-4]
        assert source.snapshot(utc_now()).tables
        _sql(db, f"DELETE FROM hands WHERE hand_id > {keep.hand_id}")
        _sql(db, f"UPDATE chain_head SET last_hand_id = {keep.hand_id}, last_hash = '{keep.hash}'")
        with Journal(str(db), create=False, read_only=True) as journal:
            assert journal.verify(checkpoint=True).ok  # the cut journal verifies by itself
        with pytest.raises(JournalNotVerifiedError, match=f"hand {hands[-1].hand_id}"):
            source.snapshot(utc_now())
    finally:
        source.close()


def test_the_window_says_the_journal_was_verified(db: Path, qtbot: object) -> None:
    from dealer_assist.pitboss.roles import Role
    from dealer_assist.pitboss.users import new_user
    from ui.pitboss.app import PitBossWindow
    from ui.pitboss.service import Session
    from ui.pitboss.worker import Jobs

    session = Session(*open_backend(None, db))
    session.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    session.login("PB-1", "246813")
    jobs = Jobs()
    try:
        win = PitBossWindow(session, jobs)
        qtbot.addWidget(win)  # type: ignore[attr-defined]
        win.start()
        entries = len(raw_hands(db))  # every entry of this journal is a hand, each signed
        said = win.statusBar().currentMessage()
        assert said.endswith(f"journal verified: {entries} entries, {entries} signatures")
        qtbot.waitUntil(lambda: jobs.pending == 0, timeout=20_000)  # type: ignore[attr-defined]
    finally:
        jobs.stop()
        session.close()
