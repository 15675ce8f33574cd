"""Stud replayed as a fold over PeerHand operations (docs/PITBOSS.md "Replay"): every valid
``stud-*`` case of the shared corpus and random Stud hands (``stud_players``) end at what
``settle_record`` settles; a journal dealt by ``simulate --game stud`` steps through every card
at its position and every recorded action to the recorded settlement; a record the rules refuse
stops at the step it breaks; the pit boss's hand screen shows the up cards, not the down ones."""

from __future__ import annotations

import contextlib
import io
import json
import random
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from pytestqt.qtbot import QtBot

from dealer_assist.engine.peer import Structure
from dealer_assist.games.stud_players import random_record
from dealer_assist.pitboss.replay import Replay, replay
from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from dealer_assist.ports import StoredHand
from dealer_assist.record import settle_record
from dealer_assist.storage import Journal
from ui.cli import main
from ui.pitboss.hand_view import HIDDEN, HandScreen
from ui.pitboss.service import Session, open_backend

CASES = Path("/work/shared/cases/pot/valid")
STUD_CASES = sorted(CASES.glob("stud-*.json"))
AT = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)


def stored(record: dict[str, Any], status: str = "settled") -> StoredHand:
    """A hand as a journal without card provenance would hold it (an imported record)."""
    return StoredHand(
        hand_id=1,
        hand_uid="case-1",
        table_id="STUD-CASE",
        game=record["game"],
        started_at=AT,
        ended_at=AT,
        status=status,
        void_reason=None,
        record=record,
        settlement=None,
        events=[],
        extra={},
        recorded_at=AT,
        prev_hash="",
        hash="",
    )


def _kinds(r: Replay) -> Counter[str]:
    return Counter(step.kind for step in r.steps)


def test_the_corpus_has_stud_cases() -> None:
    assert len(STUD_CASES) >= 5


@pytest.mark.parametrize("path", STUD_CASES, ids=lambda p: p.stem)
def test_every_stud_case_replays_to_its_settlement(path: Path) -> None:
    record = json.loads(path.read_text())["record"]
    r = replay(stored(record))
    assert r.stopped is None, r.stopped
    final = r.final
    assert final is not None and final.result == settle_record(record)
    kinds = _kinds(r)
    assert kinds["bet"] == len(record["actions"])
    assert kinds["forced_bet"] == (len(record["players"]) if record.get("ante") else 0)
    assert [s.kind for s in r.steps][:1] == ["open"] and r.steps[-1].kind == "settle"
    # third street: three cards to each player before the first action, the door card face up
    first_bet = next(s for s in r.steps if s.kind == "bet")
    assert all(len(seat.hole) == 3 and seat.up == (False, False, True) for seat in first_bet.seats)
    assert "lowest door card" in first_bet.title


def test_random_stud_hands_replay_to_settle_record() -> None:
    community = reshuffled = 0
    for seed in range(160):
        rng = random.Random(seed)
        betting: Structure = ("fixed_limit", "pot_limit", "no_limit")[seed % 3]
        stay = seed % 4 == 0
        record = random_record(rng, betting=betting, seats=8 if stay else None, stay_in=stay)
        r = replay(stored(record))
        assert r.stopped is None, (seed, r.stopped)
        final = r.final
        assert final is not None and final.result == settle_record(record), seed
        assert _kinds(r)["bet"] == len(record["actions"]), seed
        community += "community" in record
        reshuffled += _kinds(r)["deck"] > 0
    assert community > 0 and reshuffled >= community  # the seventh-street shortage was folded


def test_a_bring_in_by_the_wrong_seat_stops_the_replay_there() -> None:
    record = json.loads((CASES / "stud-bring-in-lowest-door-card-clubs.json").read_text())["record"]
    record["actions"][0]["seat"] = 2  # seat 1's 2c is the lowest door card, not seat 2's 2h
    r = replay(stored(record))
    assert r.stopped is not None and "seat 2 acted out of turn" in r.stopped
    assert r.steps[-1].kind == "card" and len(r.steps) == 1 + 3 + 9  # open, antes, 9 cards


def test_a_void_stud_record_ends_with_every_chip_returned() -> None:
    record = json.loads((CASES / "stud-bring-in-fold-passes-on.json").read_text())["record"]
    record["actions"] = record["actions"][:1]  # voided after the first fold
    r = replay(stored(record, status="void"))
    assert r.stopped is None and r.final is not None and r.final.kind == "void"
    assert r.final.result is not None
    assert sorted((x["seat"], x["amount"]) for x in r.final.result["returned"]) == [
        (1, 5),
        (2, 5),
        (3, 5),
    ]


@pytest.fixture(scope="module")
def stud_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("stud") / "stud.db"
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        status = main(
            [
                "simulate",
                "--game",
                "stud",
                "--hands",
                "12",
                "--seed",
                "5",
                "--db",
                str(db),
                "--no-progress",
            ]
        )
    assert status == 0
    return db


def _hands(db: Path) -> list[StoredHand]:
    with Journal(str(db), create=False, read_only=True) as j:
        return [h for h in j.iter_hands() if h.status != "table"]


def test_a_simulated_stud_journal_replays_card_by_card(stud_db: Path) -> None:
    hands = [h for h in _hands(stud_db) if h.status == "settled"]
    assert len(hands) >= 10
    for h in hands:
        r = replay(h)
        assert r.stopped is None, (h.hand_id, r.stopped)
        assert r.final is not None and r.final.result == h.settlement
        kinds = _kinds(r)
        assert kinds["card"] == len(h.extra["cards"]) and kinds["bet"] == len(h.record["actions"])
        cards = [s.title.split(" (")[0] for s in r.steps if s.kind == "card"]
        # the cards in the order the table dealt them, each at its recorded position
        assert [c.rsplit(" ", 1)[0] if c.endswith((" up", " down")) else c for c in cards] == [
            c["position"] for c in h.extra["cards"]
        ]
        assert all(s.title.endswith("(reader)") for s in r.steps if s.kind == "card")


def test_the_hand_screen_shows_stud_up_cards_and_hides_down_cards(
    qtbot: QtBot, stud_db: Path
) -> None:
    session = Session(*open_backend(None, stud_db))
    session.users.put_user(new_user("PB-1", Role.PIT_BOSS, "246813"), "test")
    session.login("PB-1", "246813")
    try:
        h = next(h for h in _hands(stud_db) if h.status == "settled")
        view = session.open_hand(h.table_id, h.hand_id)
        screen = HandScreen()
        qtbot.addWidget(screen)
        screen.show_hand(view)
        steps = view.replay.steps
        n = next(i for i, s in enumerate(steps) if s.kind == "bet")
        screen.go(n)
        text = screen.step_text.toPlainText()
        for seat in steps[n].seats:
            down, door = seat.hole[0], seat.hole[2]
            line = next(x for x in text.splitlines() if x.startswith(f"Seat {seat.seat}:"))
            assert door in line and down not in line and HIDDEN in line
        screen.go(len(steps) - 1)
        assert "settled" in screen.step_text.toPlainText()
        assert not screen.next.isEnabled()
    finally:
        session.close()
