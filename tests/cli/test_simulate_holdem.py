"""``dealer-assist simulate --game holdem`` over the pty emulator: every hand journaled, the chain
verifies, chips conserved hand by hand, the summary as the journal has it, the same summary for
the same seed, a ``kill -9`` in the middle of a hand resumed with every stack right, and the chip
check shown to catch a chip gone missing."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import signal
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.games import get_pot_game
from dealer_assist.games.session import TableSession
from dealer_assist.ports import StoredHand
from dealer_assist.storage.journal import Journal
from dealer_assist.table.chip_ledger import ChipLedger
from dealer_assist.table.peer_runner import PeerRunner
from drivers.emulator.process import EmulatorProcess
from tests.conftest import REPO, close_at_teardown
from ui.cli import main

pytestmark = pytest.mark.integration

GAME = "holdem"


def simulate(capsys: pytest.CaptureFixture[str], db: Path, *more: str) -> tuple[int, str]:
    """The command in this process; its exit status and stdout."""
    status = main(["simulate", "--game", GAME, "--db", str(db), "--no-progress", *more])
    return status, capsys.readouterr().out


def entries(db: Path) -> list[StoredHand]:
    with Journal(str(db), create=False) as journal:
        assert journal.verify().ok
        return list(journal.iter_hands())


def stacks(session: dict[str, Any] | None) -> dict[int, int]:
    return {int(s): p["stack"] for s, p in (session or {}).get("seats", {}).items()}


def check_chips(all_entries: list[StoredHand]) -> int:
    """The test's own chip walk (not the command's ledger): every hand starts from the
    session the entry before it left, settles again to its stored settlement from its record,
    and the stacks before + buy-ins - cash-outs = the stacks after + rake. Returns the hands."""
    game = get_pot_game(GAME)
    before: dict[int, int] = {}
    last_total = 0
    brought = 0
    hands = 0
    for e in all_entries:
        after = stacks(e.extra["session"])
        if e.status == "table":
            kind, amount = e.record["kind"], e.record.get("amount", 0)
            brought += amount if kind in ("buy_in", "top_up") else -amount if kind == "leave" else 0
            before = after
            continue
        hands += 1
        rake = e.settlement["rake"] if e.status == "settled" else 0
        assert last_total + brought == sum(after.values()) + rake, e.hand_id
        for p in e.record["players"]:
            assert before[p["seat"]] == p["stack"], (e.hand_id, p)
        if e.status == "settled":
            assert game.settle(e.record) == e.settlement, e.hand_id
            for s in e.settlement["seats"]:
                assert after[s["seat"]] == s["stack"], (e.hand_id, s)
        else:
            assert after == before, e.hand_id  # a void hand moves no chip
        last_total, brought, before = sum(after.values()), 0, after
    return hands


def counted(line: str, out: str) -> int:
    found = re.search(line, out)
    assert found, f"{line!r} not in:\n{out}"
    return int(found.group(1))


def test_seeded_run_journals_every_hand_and_conserves_chips(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db, records = tmp_path / "j.db", tmp_path / "records.jsonl"
    status, out = simulate(
        capsys, db, "--hands", "30", "--seed", "4", "--players", "6", "--records", str(records)
    )
    assert status == 0, out
    journal = entries(db)
    hands = [e for e in journal if e.status != "table"]
    assert len(hands) == 30 and len({h.hand_uid for h in hands}) == 30
    assert check_chips(journal) == 30
    assert "chips conserved: yes, every hand (30 checked)" in out
    settled = [h for h in hands if h.status == "settled"]
    pots = [p for h in settled for p in h.settlement["pots"]]  # type: ignore[index]
    assert counted(r"settled (\d+)", out) == len(settled)
    assert counted(r"void (\d+)", out) == len(hands) - len(settled)
    assert counted(r"pots: (\d+)", out) == len(pots)
    assert counted(r"side pots (\d+)", out) == sum(len(h.settlement["pots"]) - 1 for h in settled)  # type: ignore[index]
    assert counted(r"split pots: (\d+)", out) == sum(len(p["winners"]) > 1 for p in pots)
    odd = sum(w["odd_chip"] for p in pots for w in p["winners"])
    assert counted(r"odd chips: (\d+)", out) == odd
    changes = Counter(e.record["kind"] for e in journal if e.status == "table")
    buys = changes["buy_in"] + changes["top_up"]
    assert counted(r"buy-ins: (\d+)", out) == buys
    # six players sit down, the button is drawn, busted players buy in again
    assert changes["buy_in"] >= 6 and changes["button"] == 1 and changes["top_up"] > 0
    # the players' styles differ: the names they sat down with carry them
    names = {e.record["name"].split("#")[0] for e in journal if e.record.get("kind") == "buy_in"}
    assert len(names) >= 2
    lines = [json.loads(x) for x in records.read_text().splitlines()]
    assert [x["hand_uid"] for x in lines] == [h.hand_uid for h in settled]
    # every hand dealt through the device: its cards and their device events are journaled
    for h in hands:
        assert h.events and h.extra["cards"], h.hand_id


def test_the_same_seed_gives_the_same_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def summary(name: str, seed: str) -> list[str]:
        status, out = simulate(capsys, tmp_path / name, "--hands", "12", "--seed", seed)
        assert status == 0, out
        # the journal's path and the link's frame counters are not the table's results
        return [
            x for x in out.splitlines() if not x.startswith(("table ", "verify with", "frames:"))
        ]

    first = summary("a.db", "9")
    assert first == summary("b.db", "9")
    assert first != summary("c.db", "10")


def test_a_chip_gone_missing_fails_the_run_naming_the_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = PeerRunner.session_after

    def leaky(self: PeerRunner, session: TableSession, hand: Any) -> TableSession:
        after = real(self, session, hand)
        if after.hands != 5:
            return after
        seat, p = next((s, p) for s, p in sorted(after.seats.items()) if p.stack)
        seats = {**after.seats, seat: dataclasses.replace(p, stack=p.stack - 100)}
        return dataclasses.replace(after, seats=seats)

    monkeypatch.setattr(PeerRunner, "session_after", leaky)
    status, out = simulate(capsys, tmp_path / "j.db", "--hands", "8", "--seed", "4")
    assert status == 1
    assert "chips conserved: NO, 1 of 8 hands" in out
    journal = entries(tmp_path / "j.db")
    fifth = [e for e in journal if e.status != "table"][4]
    assert f"hand {fifth.hand_id} ({fifth.hand_uid})" in out
    # the ledger alone sees it too, and only there
    ledger = ChipLedger(fifth.table_id)
    for e in journal:
        ledger.add(e)
    assert [c.hand_uid for c in ledger.failures] == [fifth.hand_uid]


CHILD = r"""
import json, random, sys, time
from dataclasses import replace
from dealer_assist.config import load_table_config
from dealer_assist.storage.journal import Journal
from dealer_assist.table.peer_driving import HeadlessPeerTable, play_hand
from drivers.factory import open_source
from ui.commands.simulate_poker import Seating

device, db, game, kill_in = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
config = replace(load_table_config(game=game), journal_url=db)
source = open_source(device, name="serial")
with Journal(db) as journal:
    source.open()
    table = HeadlessPeerTable(config, source, journal)
    rng = random.Random(3)
    seating = Seating(table, rng, 5)
    actions = 0

    def after(hand, seat, kind, to):
        global actions
        actions += 1
        if hand_no == kill_in and actions == 3 and not hand.is_over:
            start = {str(s): hand.setup.stacks[s] for s in hand.setup.seats}
            print("MID", hand.hand_uid, json.dumps(start), flush=True)
            time.sleep(120)

    for hand_no in range(1, kill_in + 1):
        seating.between_hands()
        actions = 0
        play_hand(table, seating.players, rng, after_action=after)
print("DONE", flush=True)
"""


def test_kill_9_in_the_middle_of_a_hand_resumes_with_every_stack_right(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    emulator = close_at_teardown(
        EmulatorProcess(
            ["--seed", "6", "--shuffle-time", "0.01", "--card-interval", "0.001"],
            stderr=subprocess.DEVNULL,
        )
    )
    device = emulator.start()
    db = tmp_path / "j.db"
    child = close_at_teardown(
        subprocess.Popen(
            [sys.executable, "-c", CHILD, device, str(db), GAME, "6"],
            cwd=REPO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line.startswith("MID"):
        child.kill()
        pytest.fail(f"child said {line!r}; stderr:\n{child.communicate(timeout=30)[1]}")
    _, uid, start = line.split(" ", 2)
    os.kill(child.pid, signal.SIGKILL)
    child.communicate(timeout=30)
    assert child.returncode == -signal.SIGKILL
    with Journal(str(db), create=False) as journal:
        assert journal.pending_steps("HOLDEM-01")  # the hand was in the step log only
        assert uid not in {h.hand_uid for h in journal.iter_hands()}

    status, out = simulate(capsys, db, "--source", device, "--hands", "4", "--seed", "8")
    assert status == 0, out
    assert "resumed after a restart 1" in out
    journal_entries = entries(db)
    resumed = next(e for e in journal_entries if e.hand_uid == uid)
    assert resumed.status == "settled", resumed.void_reason  # the hand went on, not voided
    assert resumed.extra["resumed"] == 1
    assert {str(p["seat"]): p["stack"] for p in resumed.record["players"]} == json.loads(start)
    hands = check_chips(journal_entries)
    assert hands == 5 + 1 + 4  # before the kill, the one resumed, the new ones
    assert "chips conserved: yes, every hand (5 checked)" in out  # resumed + 4 of this run
    with Journal(str(db), create=False) as journal:
        assert journal.pending_steps("HOLDEM-01") == []
