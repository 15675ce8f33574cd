"""A live tournament's clock across a crash (docs/TOURNAMENTS.md "A live
tournament's clock"): a real process plays a few hands of a Stud tournament whose levels run on
wall time into a real SQLite journal and is killed with SIGKILL between hands; restarted a while
later, the director resumes the clock paused at the time left as of the last entry (the outage
not counted), at the same level, with the same stacks; no hand starts until the director
resumes it (journaled, with who); then the clock runs on from where it was."""

from __future__ import annotations

import dataclasses
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.errors import HandStateError
from dealer_assist.events import utc_now
from dealer_assist.games import get_pot_game
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.director import Director
from dealer_assist.tournament.live_clock import restart_pause, run_hand
from dealer_assist.tournament.play import Tournament
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.structure_reader import structure_from_dict
from dealer_assist.tournament.tables import TableJournalView, TournamentTable
from drivers.emulator.source import EmulatorSource
from drivers.factory import open_source
from tests.conftest import REPO
from ui.commands.simulate_poker import SimulatedSeat
from ui.commands.tournament import SeededPlayers, player_names

pytestmark = pytest.mark.integration

EMULATOR = "emulator://?seed=1&shuffle_time=0.01&card_interval=0.001"
TID = "LIVE"
SEED = 5
HANDS_BEFORE_KILL = 4


def live_stud() -> TournamentStructure:
    """Six players at one table, levels of 30 minutes on the wall clock."""
    return structure_from_dict(
        {
            "tournament": {
                "name": "Live Stud",
                "game": "stud",
                "chip": 25,
                "starting_stack": 2000,
                "max_seats": 8,
                "min_players": 2,
                "entry_fee_cents": 5000,
            },
            "levels": [
                {"small_limit": 100, "ante": 25, "bring_in": 25, "minutes": 30},
                {"small_limit": 200, "ante": 25, "bring_in": 50, "minutes": 30},
                {"small_limit": 400, "ante": 50, "bring_in": 100},
            ],
            "prizes": {"kind": "winner_takes_all"},
        }
    )


class Stop(Exception):
    """Ends a test's play after the hands it wanted."""


def director(db: Path, sources: dict[str, Any]) -> Director:
    """The live tournament's director on journal ``db`` (opened), one emulator per table."""
    s = live_stud()
    base = dataclasses.replace(load_table_config(None, game="stud"), seats=8, sources=())
    journal = Journal(str(db))
    journal.open()
    sources["journal"] = journal

    def make_table(table_id: str, view: TableJournalView) -> TournamentTable:
        source = open_source(EMULATOR, name=table_id)
        source.open()
        sources[table_id] = source
        return TournamentTable(dataclasses.replace(base, table_id=table_id), source, view, s)

    return Director(journal, TID, make_table=make_table, by="floor")


def tournament(d: Director, sources: dict[str, Any], after_hand: Any) -> Tournament:
    game = get_pot_game("stud")

    def seat_players(table: TournamentTable, rng: random.Random) -> Mapping[int, Any]:
        return {
            s: SimulatedSeat(game.simulated_player(name.rsplit("-", 1)[0], rng), rng)
            for s, name in d.state.at_table(table.table_id).items()
        }

    def reseed(table: TournamentTable, hand_seed: int) -> None:
        src = sources[table.table_id]
        assert isinstance(src, EmulatorSource)
        src.emulator.reseed(hand_seed)

    return Tournament(d, SeededPlayers(SEED), seat_players, reseed=reseed, after_hand=after_hand)


def child(db: str) -> None:
    """The killed process: open the live tournament, play a few hands, then wait (killed)."""
    sources: dict[str, Any] = {}
    d = director(Path(db), sources)
    d.open(live_stud(), seed=SEED, players=6, wall_clock=True)
    played = 0

    def after_hand() -> None:
        nonlocal played
        played += 1
        if played >= HANDS_BEFORE_KILL:
            print("READY", flush=True)
            time.sleep(120)

    tournament(d, sources, after_hand).run(
        live_stud(), seed=SEED, names=player_names("stud", SEED, 6), seconds_per_hand=120
    )


def fold(db: Path) -> TournamentState:
    state = TournamentState(TID)
    with Journal(str(db), create=False) as journal:
        for e in journal.iter_hands():
            state.take(e)
    return state


def test_a_live_hand_runs_the_clock_from_its_start_to_its_end() -> None:
    s = structure_from_dict(
        {**live_stud().to_dict(), "breaks": [{"after_level": 1, "minutes": 10}]}
    )
    t = utc_now()
    c = ClockState().start(s, t)
    c, level = run_hand(c, s, t + timedelta(minutes=1), t + timedelta(minutes=3))
    assert (level, c.level, c.level_ms, c.hands_in_level) == (1, 1, 180_000, 1)
    # paused (a restart): the hand counts, no time runs
    p = c.pause(s, t + timedelta(minutes=3))
    p2, level = run_hand(p, s, t + timedelta(minutes=2), t + timedelta(minutes=9))
    assert p2.paused and (level, p2.level_ms, p2.hands_in_level) == (1, 180_000, 2)
    # on the break after level 1: taken at level 1, the break runs on
    b, level = run_hand(c, s, t + timedelta(minutes=31), t + timedelta(minutes=33))
    assert b.on_break and level == 1 and b.break_ms == 3 * 60_000
    assert restart_pause(b, s) == b.pause(s, t + timedelta(minutes=33))
    assert restart_pause(p, s) is None and restart_pause(ClockState(), s) is None


def test_a_live_clock_resumes_paused_at_the_time_left_as_of_the_last_record(
    tmp_path: Path,
) -> None:
    db = tmp_path / "live.db"
    code = f"from tests.cli.test_tournament_live_clock import child; child({str(db)!r})"
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "READY", line + (proc.stderr.read() if proc.stderr else "")
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
    before = fold(db)
    s = live_stud()
    assert before.wall_clock and before.hands == HANDS_BEFORE_KILL
    assert before.clock.running and not before.clock.paused and before.clock.as_of is not None
    # the wall clock ran: the level's time went by the hands' real durations
    assert 0 < before.clock.level_ms < 60_000
    left = before.clock.view(s).level_ms_left
    time.sleep(1.5)  # the outage

    sources: dict[str, Any] = {}
    try:
        d = director(db, sources)  # the restart
        assert d.restarted() and not d.restarted()  # once: then it is paused
        c = d.state.clock
        assert c.paused and c.level == before.clock.level == 1
        assert c.as_of == before.clock.as_of  # paused as of the last entry
        assert d.clock_now().view(s).level_ms_left == left  # the outage not counted
        assert d.state.stacks() == before.stacks() and d.state.hands == before.hands
        last = list(sources["journal"].iter_hands())[-1]
        assert last.record["tournament"]["event"] == "paused"
        assert last.record["tournament"]["why"] == "restart" and last.record["by"] == "floor"
        with pytest.raises(HandStateError, match="paused"):
            d.next_hand()
        # a second restart while still paused journals nothing more
        count = sources["journal"].count()
        again: dict[str, Any] = {}
        other = director(db, again)
        assert not other.restarted() and other.state.clock.paused
        assert sources["journal"].count() == count
        for src in again.values():
            src.close()

        time.sleep(0.5)
        resumed_at = utc_now()
        d.resume_clock()  # the director resumes it, journaled
        assert not d.state.clock.paused and d.state.clock.view(s).level_ms_left == left
        assert fold(db).clock == d.state.clock

        def stop() -> None:
            raise Stop

        with pytest.raises(Stop):  # one more hand at the same level, on wall time from here
            tournament(d, sources, stop).run(
                s, seed=SEED, names=player_names("stud", SEED, 6), seconds_per_hand=120
            )
        after = d.state.clock
        ran = after.level_ms - before.clock.level_ms
        since = (utc_now() - resumed_at).total_seconds() * 1000
        assert after.level == 1 and d.state.hands == HANDS_BEFORE_KILL + 1
        assert 0 <= ran <= since  # the hand's time counted, the outage (1.5 s) not
    finally:
        for name, src in sources.items():
            if name != "journal":
                src.close()
        if "journal" in sources:
            sources["journal"].close()
