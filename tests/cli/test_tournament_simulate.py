"""``dealer-assist tournament simulate`` as a real process over the pty emulator (part
6): a 9-player Stud freezeout played to its final ranking on two tables (broken into one), the
results, the per-level summary and the chip check printed, every hand and record in one chain
that verifies; and ``kill -9`` at random moments: each rerun resumes from the journal and the
tournament ends with the same ranking and prizes as the run never interrupted."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.errors import DeviceError
from dealer_assist.events import CardRead, DeckShuffled
from dealer_assist.storage.journal import Journal
from dealer_assist.table.recovery import sort_pending
from drivers.emulator.source import EmulatorSource
from tests.conftest import REPO, close_at_teardown

pytestmark = pytest.mark.integration

# A short Stud freezeout: levels by hands, a break, small stacks (a tournament in ~30 hands)
FAST = """
[tournament]
name = "Fast Stud"
game = "stud"
chip = 25
starting_stack = 1000
max_seats = 8
min_players = 6
entry_fee_cents = 5000

[[levels]]
small_limit = 100
ante = 25
bring_in = 25
hands = 5

[[levels]]
small_limit = 200
ante = 25
bring_in = 50
hands = 5

[[levels]]
small_limit = 400
ante = 50
bring_in = 100
hands = 5

[[levels]]
small_limit = 800
ante = 100
bring_in = 200
hands = 5

[[levels]]
small_limit = 1600
ante = 200
bring_in = 400

[[breaks]]
after_level = 2
minutes = 10

[prizes]
kind = "percentages"
percentages = [50, 30, 20]
"""


def command(structure: Path, db: Path, players: int, seed: int) -> list[str]:
    return [
        sys.executable,
        "-m",
        "ui.cli",
        "tournament",
        "simulate",
        "--structure",
        str(structure),
        "--players",
        str(players),
        "--seed",
        str(seed),
        "--journal",
        str(db),
        "--no-progress",
    ]


def run(cmd: list[str]) -> str:
    done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def results(out: str) -> list[str]:
    """The results table's lines (place, player, prize) and the special prizes."""
    lines = out.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.split() == ["place", "player", "prize"]) + 1
    end = lines.index("level  hands  players left  average stack")
    return [ln for ln in lines[start:end] if ln.strip()]


def levels(out: str) -> list[list[int]]:
    lines = out.splitlines()
    start = lines.index("level  hands  players left  average stack") + 1
    rows = []
    for ln in lines[start:]:
        if not ln.strip():
            break
        rows.append([int(x) for x in ln.split()])
    return rows


def events_id(entries: list[Any]) -> str:
    """The tournament's id (its opening record's)."""
    return next(
        str(e.record["tournament"]["id"])
        for e in entries
        if e.status == "table" and e.record.get("tournament", {}).get("event") == "opened"
    )


def check_chain(db: Path) -> None:
    """The chain verifies and no hand is left pending at any table."""
    with Journal(str(db), create=False) as journal:
        assert journal.verify().ok
        tables = {h.table_id for h in journal.iter_hands()}
        for t in tables:
            assert sort_pending(journal.pending_steps(t)).hands == [], t


@pytest.fixture(scope="module")
def fast(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("structure") / "fast_stud.toml"
    path.write_text(FAST, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def uninterrupted(fast: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    db = tmp_path_factory.mktemp("plain") / "t.db"
    return db, run(command(fast, db, 9, 21))


def test_nine_players_play_to_a_final_ranking_with_every_chip_accounted(
    uninterrupted: tuple[Path, str],
) -> None:
    db, out = uninterrupted
    rows = results(out)
    assert len(rows) == 9
    # the columns as wide as their longest entry: every prize ends in the same column
    assert len({len(r) for r in rows}) == 1, rows
    assert max(len(r.split()[1]) for r in rows) > 16  # a name longer than the old column
    places = [int(r.split()[0].rstrip("=")) for r in rows]
    assert places[0] == 1 and places == sorted(places)
    cents = [int(r.split()[-1].replace("EUR", "").replace(".", "")) for r in rows]
    assert sum(cents) == 9 * 5000  # the pool: nine entry fees, paid out to the cent
    assert cents[:3] == [22500, 13500, 9000] and not any(cents[3:])
    lv = levels(out)
    assert [r[0] for r in lv] == list(range(1, len(lv) + 1))
    assert all(r[1] == 5 for r in lv[:-1])  # levels by hands: five hands each
    assert lv[-1][2] == 1 and lv[-1][3] == 9 * 1000
    assert "chips conserved: yes" in out and "9000 in play = starting stacks 9000" in out
    check_chain(db)
    with Journal(str(db), create=False) as journal:
        entries = list(journal.iter_hands())
    # two tables (9 players, 8 seats a table), then one: the other table's players moved in
    tables = {e.table_id for e in entries if e.status != "table"}
    assert len(tables) == 2
    events = [
        e.record["tournament"]["event"]
        for e in entries
        if e.status == "table" and "tournament" in e.record
    ]
    # each hand names the tournament and the level it was played at, and posts that level's
    hands = [e for e in entries if e.status == "settled"]
    assert hands and all(e.record["tournament"]["id"] == events_id(entries) for e in hands)
    levels_of = [e.record["tournament"]["level"] for e in hands]
    assert levels_of == sorted(levels_of) and levels_of[-1] == lv[-1][0]
    assert events.count("registered") == 9 and events.count("eliminated") == 8
    assert "moved_out" in events and "moved_in" in events and "break" in events
    # each hand played at the level in force when it started
    hands = [e for e in entries if e.status == "settled"]
    small = [h.record["limits"][0] for h in hands]
    assert small == sorted(small) and small[:5] == [100] * 5 and small[5:10] == [200] * 5


STEPS = "select count(*) from pending_steps where kind not in ('void_alarm', 'void_ack')"


def _entries(db: Path, query: str = "select count(*) from hands") -> int:
    if not db.exists():
        return 0
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=1.0) as conn:
            return int(conn.execute(query).fetchone()[0])
    except sqlite3.Error:
        return 0


def test_kill_9_at_random_moments_resumes_to_the_same_ranking_and_prizes(
    fast: Path, uninterrupted: tuple[Path, str], tmp_path: Path
) -> None:
    db = tmp_path / "killed.db"
    cmd = [*command(fast, db, 9, 21), "--records", str(tmp_path / "hands.jsonl")]
    rng = random.Random(15)
    said: list[str] = []
    kills = 0
    for _ in range(4):
        target = _entries(db) + rng.randint(3, 25)  # records and hands: setup, mid-game, ...
        proc = subprocess.Popen(
            cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        child = close_at_teardown(proc)
        deadline = time.monotonic() + 60
        while child.poll() is None and _entries(db) < target and time.monotonic() < deadline:
            time.sleep(0.002)
        if kills % 2 == 0:  # in the middle of a hand: 1..15 of its steps written
            step = rng.randint(1, 15)
            while (
                child.poll() is None and _entries(db, STEPS) < step and time.monotonic() < deadline
            ):
                time.sleep(0.001)
        else:
            time.sleep(rng.random() * 0.05)  # anywhere: between hands, among the records
        if child.poll() is not None:
            break  # it finished before this kill
        os.kill(child.pid, signal.SIGKILL)
        out, _ = child.communicate(timeout=30)
        assert child.returncode == -signal.SIGKILL
        kills += 1
        said += [
            ln for ln in out.splitlines() if "hand" in ln and ("voided" in ln or "resumed" in ln)
        ]
    assert kills >= 2, "the run ended before it could be killed twice"
    final = run(cmd)
    assert results(final) == results(uninterrupted[1])
    assert levels(final) == levels(uninterrupted[1])
    assert "chips conserved: yes" in final
    check_chain(db)
    # the same hands in the end, whatever the kills voided on the way
    with Journal(str(db), create=False) as journal:
        settled = [h for h in journal.iter_hands() if h.status == "settled"]
    with Journal(str(uninterrupted[0]), create=False) as journal:
        plain = [h for h in journal.iter_hands() if h.status == "settled"]
    assert [h.settlement for h in settled] == [h.settlement for h in plain]
    # each table's records file: its settled hands exactly, none missing, none twice
    for table in ("T1", "T2"):
        path = tmp_path / f"hands.{table}.jsonl"
        lines = [json.loads(x) for x in path.read_text().splitlines()]
        mine = [h for h in settled if h.table_id.endswith(f"-{table}")]
        assert [x["hand_uid"] for x in lines] == [h.hand_uid for h in mine]
        assert [x["settlement"] for x in lines] == [h.settlement for h in mine]
    assert said  # a kill in the middle of a hand: the next run says what it did with it
    print(f"{kills} kills; the resumes said: {said}")


def _deal_deck(source: EmulatorSource) -> list[str]:
    """SHUFFLE, then DEAL 52: the cards in the order the device read them."""
    source.shuffle()
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        event = source.next_event(0.5)
        if isinstance(event, DeckShuffled):
            break
    source.deal(52)
    cards: list[str] = []
    while len(cards) < 52 and time.monotonic() < deadline:
        event = source.next_event(0.5)
        if isinstance(event, CardRead):
            cards.append(str(event.card))
    assert len(cards) == 52
    return cards


def test_the_emulators_seed_line_deals_the_same_deck_for_the_same_seed() -> None:
    """The simulation's hook (control line ``SEED``): a deck drawn after ``SEED n`` is the
    same whatever came before; another seed, another deck; a bad seed refused."""
    source = close_at_teardown(
        EmulatorSource(["--shuffle-time", "0.01", "--card-interval", "0.001"])
    )
    source.open()
    source.emulator.reseed(77)
    first = _deal_deck(source)
    _deal_deck(source)  # another deck in between
    source.emulator.reseed(77)
    assert _deal_deck(source) == first
    source.emulator.reseed(78)
    assert _deal_deck(source) != first
    with pytest.raises(DeviceError, match="integer >= 0"):
        source.emulator.reseed(-1)


def test_a_journal_refuses_a_changed_structure(
    fast: Path, uninterrupted: tuple[Path, str], tmp_path: Path
) -> None:
    """The journal's tournament runs with the structure it started with: the same command with
    that file changed is refused, naming it, and the journal is left as it was."""
    changed = tmp_path / "fast_stud.toml"
    changed.write_text(fast.read_text().replace("hands = 5", "hands = 4", 1), encoding="utf-8")
    db = uninterrupted[0]
    with Journal(str(db), create=False) as journal:
        before = journal.count()
    done = subprocess.run(
        command(changed, db, 9, 21), cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert f"{changed}: the journal's tournament FAST-STUD-9P-S21 runs with another" in done.stderr
    with Journal(str(db), create=False) as journal:
        assert journal.count() == before


def test_the_tournament_id_keeps_the_whole_name() -> None:
    """The id (journal, table ids, the report) is the structure's whole name: it was cut at 24
    characters (``SEVEN-CARD-STUD-FREEZEOU-8P-S3``)."""
    from dealer_assist.tournament.structure_reader import load_structure
    from ui.commands.tournament import tournament_id

    stud = load_structure(str(REPO / "config" / "tournaments" / "stud_freezeout.toml"))
    assert tournament_id(stud, 3, 8) == "SEVEN-CARD-STUD-FREEZEOUT-8P-S3"
    holdem = load_structure(str(REPO / "config" / "tournaments" / "holdem_rebuy.toml"))
    assert tournament_id(holdem, 3, 8) == "HOLDEM-REBUY-8P-S3"
