"""A hand's typed operations in the journal and the one fold over them.

- A journal written by release 5768190 (before the journal kept operations:
  ``tests/fixtures/data/release_5768190/``, made by that release's own code,
  ``tests/fixtures/data/release_5768190_gen.py.txt``)
  with hands of all four games and a UTH hand left
  pending: it verifies, every hand folds from its record to what was recorded, the pending hand
  resumes, takes a pit boss's correction, settles and is journaled with its operations.
- ``audit recompute`` names the first hand that disagrees (a tampered record of a hand with its
  operations, a tampered settlement of a hand without); ``audit show --json`` shows the
  operations, each with its ``kind``.
- Operations are known by their type: a stranger that borrows a known kind is refused.
"""

from __future__ import annotations

import json
import random
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, ClassVar

import pytest

from dealer_assist.cards import FULL_DECK
from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.fold import FoldError, fold
from dealer_assist.engine.operations import (
    BetsPlaced,
    CardDealt,
    Decision,
    HandOpened,
    HandSettled,
    Operation,
    operation_entry,
    operations_of_entries,
)
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.views import Phase
from dealer_assist.errors import DealerAssistError, HandStateError, OperationError
from dealer_assist.games import get_game
from dealer_assist.pitboss.hand_ops import JOURNAL, RECORD, hand_operations
from dealer_assist.pitboss.replay import replay
from dealer_assist.storage.journal import Journal
from dealer_assist.table.driving import HeadlessTable
from drivers.manual import ManualSource
from tests.conftest import close_at_teardown
from tests.core.test_legacy_journal import Keypad
from ui.cli import main

RELEASE = Path(__file__).parent.parent / "fixtures" / "data" / "release_5768190"
NOW = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def _copy(tmp_path: Path) -> Path:
    shutil.copy(RELEASE / "journal.db", tmp_path / "journal.db")
    shutil.copytree(RELEASE / "keys", tmp_path / "keys")
    return tmp_path / "journal.db"


def _cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def _hands(db: Path) -> list[Any]:
    with Journal(str(db), create=False, read_only=True) as j:
        return [h for h in j.iter_hands() if h.status != "table"]


def _finish_pending(db: Path) -> None:
    """Resume the release's pending UTH hand, have a pit boss correct seat 1's preflop check
    after the flop, play it out and settle it."""
    config = load_table_config(game="uth")
    journal = close_at_teardown(Journal(str(db)))
    journal.open()
    source = close_at_teardown(ManualSource())
    source.open()
    deck = list(FULL_DECK)
    random.Random(7).shuffle(deck)  # the release's keypad dealt this deck
    runner = HeadlessTable(config, source, journal, card_timeout=5.0, shuffle_timeout=2.0)
    keypad = Keypad(source, runner, deck)
    try:
        hand = runner.resume()
        assert hand is not None and hand.phase is Phase.DECISIONS
        assert hand.seats[1].actions  # seat 1 decided before the power cut
        first = hand.seats[1].actions[-1]
        for seat in hand.seats_to_act:
            runner.act(seat, hand.legal_actions(seat)[0])
        runner.advance()  # the flop: the preflop is past
        fix = next(a for a in hand.game.legal_actions("preflop", []) if a != first)
        runner.runner.correct(1, fix, pit_boss="PB-7", by="D-12", reason="camera: he played")
        assert hand.seats[1].actions[0] == fix
        while hand.phase not in (Phase.SETTLED, Phase.VOID):
            if hand.phase is Phase.DEALING:
                runner.poll(0.05)
            elif hand.phase is Phase.DECISIONS:
                for seat in hand.seats_to_act:
                    runner.act(seat, hand.legal_actions(seat)[0])
                runner.advance()
            elif hand.phase is Phase.SHOWDOWN:
                runner.reveal()
            elif hand.phase is Phase.REVEALED:
                runner.settle()
        assert hand.phase is Phase.SETTLED
        assert journal.pending_steps(config.table_id) == []
    finally:
        keypad.close()
        source.close()
        journal.close()


def test_a_journal_of_the_previous_release_verifies_folds_and_resumes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _copy(tmp_path)
    old = _hands(db)
    assert {h.game for h in old} == {"uth", "thb", "holdem", "stud"}
    assert all("operations" not in h.extra for h in old)
    code, out = _cli(capsys, "audit", "verify", "--db", str(db))
    assert code == 0, out
    code, out = _cli(capsys, "audit", "recompute", "--db", str(db))
    assert code == 0, out
    assert (
        f"OK: {len(old)} hands fold" in out
        and f"0 from their journaled operations, {len(old)}" in out
    )
    for h in old:
        start = hand_operations(h)
        assert start.source == RECORD
        assert fold(start.state, start.operations).result() == h.settlement, h.hand_id

    _finish_pending(db)

    new = _hands(db)[-1]
    assert len(_hands(db)) == len(old) + 1 and new.game == "uth" and new.status == "settled"
    ops = operations_of_entries(new.extra["operations"])
    assert [type(op).__name__ for op in ops[:2]] == ["HandOpened", "BetsPlaced"]
    fixes = [e for e in new.extra["operations"] if e["kind"] == "correct"]
    assert len(fixes) == 1 and fixes[0]["seat"] == 1
    assert (fixes[0]["pit_boss"], fixes[0]["by"], fixes[0]["reason"]) == (
        "PB-7",
        "D-12",
        "camera: he played",
    )
    start = hand_operations(new)
    assert start.source == JOURNAL
    state = fold(start.state, start.operations)
    assert state.result() == new.settlement and state.record_json() == new.record
    r = replay(new)
    assert r.stopped is None and r.final is not None and r.final.result == new.settlement
    said = [s.title for s in r.steps if s.kind == "correct"]
    assert said and "pit boss PB-7" in said[0] and "D-12" in said[0] and "camera" in said[0]
    code, out = _cli(capsys, "audit", "verify", "--db", str(db))
    assert code == 0, out
    code, out = _cli(capsys, "audit", "recompute", "--db", str(db))
    assert code == 0 and f"1 from their journaled operations, {len(old)} from" in out, out


def _tamper(db: Path, hand_id: int, column: str, change: Any) -> None:
    con = sqlite3.connect(db)
    try:
        query = f"SELECT {column} FROM hands WHERE hand_id = ?"
        (text,) = con.execute(query, (hand_id,)).fetchone()
        value = json.loads(text)
        change(value)
        con.execute(
            f"UPDATE hands SET {column} = ? WHERE hand_id = ?", (json.dumps(value), hand_id)
        )
        con.commit()
    finally:
        con.close()


@pytest.fixture(scope="module")
def simulated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A journal of this release: 5 simulated hands of each of the four games."""
    db = tmp_path_factory.mktemp("sim") / "journal.db"
    for game in ("uth", "thb", "holdem", "stud"):
        assert (
            main(
                [
                    "simulate",
                    "--game",
                    game,
                    "--hands",
                    "5",
                    "--seed",
                    "2",
                    "--db",
                    str(db),
                    "--no-progress",
                ]
            )
            == 0
        )
    return db


def test_audit_recompute_folds_every_game_and_names_a_tampered_record(
    simulated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    hands = _hands(simulated)
    assert {h.game for h in hands} == {"uth", "thb", "holdem", "stud"}
    assert all(isinstance(h.extra.get("operations"), list) for h in hands)
    code, out = _cli(capsys, "audit", "recompute", "--db", str(simulated))
    assert code == 0 and f"OK: {len(hands)} hands fold" in out, out
    for game in ("uth", "holdem", "stud"):
        db = tmp_path / f"{game}.db"
        shutil.copy(simulated, db)
        victim = [h for h in hands if h.game == game and h.status == "settled"][1]
        later = next(h for h in hands if h.hand_id > victim.hand_id)

        def swap_hole(record: dict[str, Any]) -> None:
            p = record["players"][0]
            key = "hole" if "hole" in p else "cards"
            p[key] = [p[key][1], p[key][0], *p[key][2:]]  # the same cards, another order

        _tamper(db, victim.hand_id, "record", swap_hole)
        _tamper(db, later.hand_id, "record", swap_hole)  # only the first is named
        code, out = _cli(capsys, "audit", "recompute", "--db", str(db))
        assert code == 1, out
        assert out.startswith(f"FAIL: hand {victim.hand_id} ({victim.table_id}, {game}")
        assert "record.players[seat=" in out and "journaled operations" in out
        assert f"first disagreeing hand: {victim.hand_id}" in out
        code, out = _cli(capsys, "audit", "recompute", "--db", str(db), str(later.hand_id))
        assert code == 1 and f"hand {later.hand_id}" in out
        code, out = _cli(capsys, "audit", "recompute", "--db", str(db), str(hands[0].hand_id))
        assert code == 0 and "OK: 1 hand fold" in out


def test_audit_recompute_names_a_tampered_settlement_of_the_previous_release(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = _copy(tmp_path)
    victim = next(h for h in _hands(db) if h.game == "thb" and h.status == "settled")

    def pay_more(settlement: dict[str, Any]) -> None:
        settlement["seats"][0]["net"] += 500

    _tamper(db, victim.hand_id, "settlement", pay_more)
    code, out = _cli(capsys, "audit", "recompute", "--db", str(db))
    seat = victim.settlement["seats"][0]
    assert code == 1
    assert out.splitlines()[0] == (
        f"FAIL: hand {victim.hand_id} ({victim.table_id}, thb, uid {victim.hand_uid}): "
        "1 difference (folded from its record)"
    )
    assert (
        f"seats[seat={seat['seat']}].net: recorded {seat['net'] + 500}, recomputed "
        f"{seat['net']}" in out
    )
    code, out = _cli(capsys, "audit", "recompute", "--db", str(tmp_path / "none.db"))
    assert code == 2


def test_audit_show_json_shows_the_operations_with_their_kinds(
    simulated: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    hands = _hands(simulated)
    firsts = [next(h for h in hands if h.game == game) for game in ("uth", "thb", "holdem", "stud")]
    for h in firsts:  # every game's operations come out of the journal as they were folded
        code, out = _cli(capsys, "audit", "show", "--db", str(simulated), str(h.hand_id), "--json")
        doc = json.loads(out)
        assert code == 0 and doc["operations_from"] == "journal"
        assert doc["operations"] == h.extra["operations"] and "operations" not in doc["extra"]
        assert doc["operations"][0]["kind"] == "open" and all(
            "kind" in o for o in doc["operations"]
        )
        assert doc["operations"][-1]["kind"] in ("settle", "void")
    old = _copy(tmp_path)
    h = next(h for h in _hands(old) if h.game == "stud")
    code, out = _cli(capsys, "audit", "show", "--db", str(old), str(h.hand_id), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["operations_from"] == "record" and "operations_stopped" not in doc
    kinds = [o["kind"] for o in doc["operations"]]
    assert kinds[0] == "open" and "forced_bet" in kinds and kinds[-1] == "settle"
    assert kinds.count("bet") == len(h.record["actions"])
    code, out = _cli(capsys, "audit", "show", "--db", str(simulated), str(h.hand_id))
    assert code == 0 and "Operations (" in out


# -- dispatch by type ---------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class ForgedSettle(Operation):
    """Not the engine's HandSettled, though it borrows its kind and its fields."""

    kind: ClassVar[str] = "settle"
    at: datetime


@dataclass(frozen=True, kw_only=True)
class LateDecision(Decision):
    """A subclass of a known operation: not one the hand knows either."""


def _uth() -> BankedHand:
    hand = BankedHand(get_game("uth"), load_table_config(game="uth"), "h-1")
    hand.apply(HandOpened(started_at=NOW))
    hand.apply(BetsPlaced(seats={2: {"ante": 1000, "blind": 1000}}))
    for i, card in enumerate(FULL_DECK[: len(hand.pending_deal)]):
        hand.apply(CardDealt(deck_id="d", index=i + 1, card=card, source="t", at=NOW))
    return hand


def test_an_operation_is_dispatched_by_its_type_not_its_kind(simulated: Path) -> None:
    hand = _uth()
    before = (hand.phase, len(hand.operations))
    for stranger in (ForgedSettle(at=NOW), LateDecision(seat=2, street="preflop", action="check")):
        assert not hand.can(stranger)
        with pytest.raises(HandStateError, match=type(stranger).__name__) as e:
            hand.apply(stranger)
        assert isinstance(e.value, DealerAssistError)
        assert (hand.phase, len(hand.operations)) == before
    hand.apply(Decision(seat=2, street="preflop", action="check"))  # the real one is taken
    holdem = next(h for h in _hands(simulated) if h.game == "holdem")
    start = hand_operations(holdem)
    peer = fold(start.state, start.operations)
    assert isinstance(peer, PeerHand) and peer.is_over
    peer.facts.phase = peer.phase.__class__.AWARDING  # where a real HandSettled would be taken
    with pytest.raises(HandStateError, match="ForgedSettle"):
        peer.verify(ForgedSettle(at=NOW))


def test_the_fold_names_the_operation_it_refuses_and_the_journal_codec_round_trips() -> None:
    hand = _uth()
    ops = [*hand.operations, Decision(seat=2, street="flop", action="check"), HandSettled(at=NOW)]
    again = BankedHand(get_game("uth"), load_table_config(game="uth"), "h-1")
    with pytest.raises(FoldError) as e:
        fold(again, ops)
    assert e.value.index == len(hand.operations) and e.value.op == ops[-2]
    assert len(again.operations) == len(hand.operations)  # as it was before the refused one
    entries = json.loads(json.dumps([operation_entry(op) for op in hand.operations]))
    assert operations_of_entries(entries) == hand.operations
    card = entries[2]  # compact: the fields at their default are left out, and come back
    assert card["kind"] == "card" and "manual" not in card and "identified_by" not in card
    assert hand.operations[2].to_json()["manual"] is False
    hand.operations[2].to_json()["index"] = 99  # a caller's copy: the operation keeps its own
    assert hand.operations[2].to_json()["index"] == 1
    with pytest.raises(OperationError, match=r"operations\[1\]"):
        operations_of_entries([entries[0], {"seats": {}}])
    with pytest.raises(OperationError, match="unknown operation 'tip'"):
        operations_of_entries([{"kind": "tip"}])


def _with_provenance(record: dict[str, Any]) -> Any:
    """A Hold'em ``record`` stored with the card provenance a journal keeps (each card at its
    position; the burns, which the record does not hold, from the rest of the deck)."""
    from dealer_assist.ports import StoredHand

    named = set(record["board"]) | {c for p in record["players"] for c in p.get("hole") or ()}
    spare = iter(str(c) for c in FULL_DECK if str(c) not in named)
    at = NOW.isoformat()
    cards = [
        {
            "position": f"seat {p['seat']} card {n}",
            "card": c if c != "??" else next(spare),
            "at": at,
        }
        for p in record["players"]
        for n, c in enumerate(p.get("hole") or ["??", "??"], 1)
    ]
    cards += [
        {"position": f"board {n}", "card": c, "at": at} for n, c in enumerate(record["board"], 1)
    ]
    cards += [{"position": f"burn {n}", "card": next(spare), "at": at} for n in (1, 2, 3)]
    return StoredHand(
        hand_id=1,
        hand_uid="rake-1",
        table_id="HE-1",
        game="holdem",
        started_at=NOW,
        ended_at=NOW,
        status="settled",
        void_reason=None,
        record=record,
        settlement=None,
        events=[],
        extra={"cards": cards},
        recorded_at=NOW,
        prev_hash="",
        hash="",
    )


def test_a_raked_holdem_hand_folds_to_its_rake() -> None:
    """The fold of a Hold'em hand takes the rake its record keeps beside the settings: the pot
    the winner takes is the pot less the rake, as settle gives it."""
    from dealer_assist.games.holdem_players import random_record
    from dealer_assist.record import settle_record

    raked = 0
    for seed in range(400):
        record = random_record(random.Random(seed), betting=("no_limit", "pot_limit")[seed % 2])
        if "rake" not in record or record.get("mucked"):
            continue  # a record may muck a hand the live table turns up (all-in): not this test
        start = hand_operations(_with_provenance(record))
        result = fold(start.state, start.operations).result()
        expected = settle_record(record)
        assert result == expected, seed
        raked += expected["rake"] > 0
    assert raked >= 10
