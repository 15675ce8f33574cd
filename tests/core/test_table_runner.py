"""The table runner over the real emulator on a pseudo-terminal: hands settle, faults void."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.views import Phase
from dealer_assist.players import PlayerModel
from dealer_assist.record import settle_record
from dealer_assist.storage.journal import Journal
from dealer_assist.table.driving import HeadlessTable
from drivers.factory import open_source
from tests.conftest import close_at_teardown
from ui.commands.simulate import play_hand

FAST = "shuffle_time=0.01&card_interval=0.001"


def run_hands(
    tmp_path: Path, game: str, query: str, hands: int
) -> tuple[list[BankedHand], Journal]:
    config = load_table_config(game=game)
    journal = close_at_teardown(Journal(str(tmp_path / "j.db")))
    source = close_at_teardown(open_source(f"emulator://?{FAST}&{query}", name="serial"))
    played = []
    journal.open()
    source.open()
    try:
        runner = HeadlessTable(config, source, journal, card_timeout=2.0)
        model = PlayerModel(config, 5)
        for _ in range(hands):
            played.append(play_hand(runner, model, list(range(1, config.seats + 1))))
    finally:
        source.close()
    return played, journal


@pytest.mark.parametrize("game", ["uth", "thb"])
def test_hands_settle_and_journal_agrees_with_settle(tmp_path: Path, game: str) -> None:
    hands, journal = run_hands(tmp_path, game, "seed=4", 12)
    try:
        assert all(h.phase is Phase.SETTLED for h in hands)
        assert journal.count() == 12 and journal.verify().ok
        for stored in journal.iter_hands():
            assert stored.status == "settled"
            assert settle_record(stored.record) == stored.settlement
            sources = {c["source"] for c in stored.extra["cards"]}
            assert sources == {"serial"}
        if game == "thb":
            burns = [h.burns for h in hands if h.board]
            assert burns and all(len(b) == 3 for b in burns)
    finally:
        journal.close()


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ("seed=2&jam_at=4", "device_fault"),
        ("seed=2&unreadable_at=6", "unreadable_card"),
        ("seed=2&duplicate_at=8", "duplicate_card"),
    ],
)
def test_device_faults_void_the_hand_with_wagers_returned(
    tmp_path: Path, query: str, code: str
) -> None:
    hands, journal = run_hands(tmp_path, "uth", query, 1)
    try:
        hand = hands[0]
        assert hand.phase is Phase.VOID and hand.void_reason is not None
        assert hand.void_reason.code == code
        stored = journal.last_hand()
        assert stored is not None and stored.status == "void"
        assert stored.settlement is not None
        assert all(b["net"] == 0 for s in stored.settlement["seats"] for b in s["bets"])
        assert any(e["kind"] in ("fault", "card") for e in stored.events)
    finally:
        journal.close()


def test_simulate_command_summary_records_and_audit(tmp_path: Path) -> None:
    db, records = tmp_path / "sim.db", tmp_path / "rec.jsonl"
    cmd = [sys.executable, "-m", "ui.cli"]
    proc = subprocess.run(
        [
            *cmd,
            "simulate",
            "--hands",
            "15",
            "--seats",
            "7",
            "--seed",
            "3",
            "--db",
            str(db),
            "--records",
            str(records),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "hands: 15" in proc.stdout and "house hold:" in proc.stdout
    assert "frames: received" in proc.stdout
    lines = records.read_text().splitlines()
    assert lines
    for line in lines:
        rec = json.loads(line)
        assert settle_record(rec) == rec["settlement"]
    ok = subprocess.run(
        [*cmd, "audit", "verify", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert ok.returncode == 0 and "OK" in ok.stdout
    with sqlite3.connect(db) as conn:
        table = next(
            name
            for (name,) in conn.execute("select name from sqlite_master where type='table'")
            if "hand" in name and "step" not in name
        )
        cols = [r[1] for r in conn.execute(f"pragma table_info({table})")]
        col = next(c for c in ("settlement", "settlement_json") if c in cols)
        conn.execute(
            f"update {table} set {col} = replace({col}, '\"net\"', '\"nett\"') where hand_id = 7"
        )
    bad = subprocess.run(
        [*cmd, "audit", "verify", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert bad.returncode == 1 and "hand 7" in bad.stdout + bad.stderr


def test_simulate_drives_an_external_emulator_over_tcp(tmp_path: Path) -> None:
    """--source: an emulator process started separately (TCP), SHUFFLE then DEAL each hand."""
    from drivers.emulator.process import EmulatorProcess

    emu = close_at_teardown(
        EmulatorProcess(
            ["--seed", "9", "--shuffle-time", "0.01", "--card-interval", "0.001"], tcp_port=0
        )
    )
    url = emu.start()
    try:
        records = tmp_path / "rec.jsonl"
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "ui.cli",
                "simulate",
                "--game",
                "thb",
                "--hands",
                "8",
                "--seats",
                "6",
                "--source",
                url,
                "--db",
                str(tmp_path / "x.db"),
                "--records",
                str(records),
                "--no-progress",
            ],
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        emu.stop()
    assert proc.returncode == 0, proc.stderr
    assert "hands: 8 (settled 8" in proc.stdout
    recs = [json.loads(line) for line in records.read_text().splitlines()]
    assert len(recs) == 8 and all(r["game"] == "thb" for r in recs)
    assert all(settle_record(r) == r["settlement"] for r in recs)


@contextmanager
def _uth_table(tmp_path: Path, seed: int) -> Iterator[tuple[Journal, HeadlessTable]]:
    """A UTH runner on an emulator and a journal in ``tmp_path``, closed on exit."""
    journal = close_at_teardown(Journal(str(tmp_path / "j.db")))
    source = close_at_teardown(open_source(f"emulator://?{FAST}&seed={seed}", name="serial"))
    journal.open()
    source.open()
    try:
        config = load_table_config(game="uth")
        yield journal, HeadlessTable(config, source, journal, card_timeout=2.0)
    finally:
        source.close()
        journal.close()


def _two_seats_dealt(runner: HeadlessTable) -> BankedHand:
    hand = runner.new_hand()
    for seat in (2, 5):
        hand.place_bets(seat, {"ante": 1000, "blind": 1000})
    runner.close_bets()
    return hand


def test_act_many_can_turn_the_street_in_the_same_step_and_replays(tmp_path: Path) -> None:
    from dealer_assist.engine.rules import Action
    from dealer_assist.errors import HandStateError

    check = Action("preflop", "check")
    with _uth_table(tmp_path, 8) as (journal, runner):
        hand = _two_seats_dealt(runner)
        table_id = runner.config.table_id
        before = len(journal.pending_steps(table_id))
        with pytest.raises(HandStateError, match=r"\[5\]"):  # seat 5 has not decided
            runner.act_many([(2, check)], advance=True)
        assert hand.seats[2].actions == [] and hand.street == "preflop"
        assert len(journal.pending_steps(table_id)) == before
        runner.act_many([(2, check), (5, check)], advance=True)
        steps = journal.pending_steps(table_id)
        assert len(steps) == before + 1 and steps[-1].kind == "acts"
        assert hand.street == "flop"
        uid = hand.hand_uid
    # a restarted table replays the step: both decisions and the turn of the street
    with _uth_table(tmp_path, 8) as (journal, runner):
        resumed = runner.resume()
        assert resumed is not None and resumed.hand_uid == uid
        assert resumed.street == "flop" or resumed.void_reason is not None
        assert resumed.seats[2].actions == [check] and resumed.seats[5].actions == [check]


def test_act_many_is_all_or_nothing_and_one_step(tmp_path: Path) -> None:
    from dealer_assist.engine.rules import Action
    from dealer_assist.errors import IllegalActionError

    with _uth_table(tmp_path, 6) as (journal, runner):
        hand = _two_seats_dealt(runner)
        table_id = runner.config.table_id
        play, check = Action("preflop", "play", 4), Action("preflop", "check")
        with pytest.raises(IllegalActionError):
            runner.act_many([(2, play), (5, Action("preflop", "play", 2))])
        with pytest.raises(IllegalActionError):
            runner.act_many([(2, play), (2, check)])
        assert hand.seats[2].actions == [] and hand.seats[5].actions == []
        before = len(journal.pending_steps(table_id))
        runner.act_many([(2, play), (5, check)])
        steps = journal.pending_steps(table_id)
        assert len(steps) == before + 1 and steps[-1].kind == "acts"
        assert hand.seats[2].actions == [play] and hand.seats[5].actions == [check]
