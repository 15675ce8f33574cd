"""The heats formula (rules text 002, "Formule di gioco"): twelve Stud players drawn
into two heats of six over the pty emulator into a real SQLite journal; each heat played on its
own table until its three qualifiers are left; the qualifiers drawn again for the final, each
with a fresh starting stack and the clock from level 1; the final to a winner; the ranking the
final's, then each heat's eliminated players by heat place (equal heat places shared); the
prizes by it. ``dealer-assist tournament simulate`` on the same structure killed with SIGKILL at
random moments ends with the same ranking and prizes as a run never interrupted."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import time
from pathlib import Path

import pytest

from dealer_assist.errors import HandStateError
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.director import Director
from dealer_assist.tournament.heats import heat_ranking, heats_of
from dealer_assist.tournament.prizes import payouts, prize_pool
from dealer_assist.tournament.ranking import combine_heats
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure, shipped_structures
from dealer_assist.tournament.structure_reader import load_structure, structure_from_dict
from tests.cli import test_tournament_director as tdir
from tests.cli import test_tournament_simulate as tsim
from tests.conftest import REPO, close_at_teardown

pytestmark = pytest.mark.integration

SEEN = "select count(*) from hands where record like '%\"{}\"%'"
"""Entries whose record names an event (the tournament part's ``event``)."""

HEATS = """
[tournament]
name = "Heats Stud"
game = "stud"
chip = 25
starting_stack = 1000
max_seats = 6
min_players = 4
entry_fee_cents = 5000
formula = "heats"
qualifiers = 3

[[levels]]
small_limit = 100
ante = 25
bring_in = 25
hands = 6

[[levels]]
small_limit = 200
ante = 25
bring_in = 50
hands = 6

[[levels]]
small_limit = 400
ante = 50
bring_in = 100
hands = 6

[[levels]]
small_limit = 800
ante = 100
bring_in = 200

[prizes]
kind = "percentages"
percentages = [50, 30, 20]
"""


def heats_structure(tmp: Path) -> TournamentStructure:
    path = tmp / "heats.toml"
    path.write_text(HEATS, encoding="utf-8")
    return load_structure(path)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tdir.Played:
    tmp = tmp_path_factory.mktemp("heats")
    return tdir.play(heats_structure(tmp), tmp / "j.db", 12, 3)


def event(e: object) -> str:
    rec = getattr(e, "record", {})
    return str(rec.get("tournament", {}).get("event", "")) if isinstance(rec, dict) else ""


def test_each_heat_plays_to_its_qualifiers_then_the_final_to_a_winner(
    played: tdir.Played,
) -> None:
    st, entries = played.state, played.entries
    heats = heats_of(st)
    assert len(heats) == 2 and all(len(ps) == 6 for ps in heats.values())
    assert st.final is not None and st.final.draw is not None and st.final.started
    finalists = set(st.final.draw.seats)
    draw_at = next(i for i, e in enumerate(entries) if event(e) == "final_draw")
    for tid, players in heats.items():
        ranking = heat_ranking(st.final.heats, players)
        going = {p.player for p in ranking if p.place <= 3}
        assert len(going) >= 3 and going == finalists & set(players)
        # a heat's table plays no hand once its qualifiers are determined and sent on
        qualified = [
            i
            for i, e in enumerate(entries)
            if event(e) == "qualified" and e.record["tournament"]["heat"] == tid
        ]
        assert qualified and max(qualified) < draw_at
        assert not any(
            e.table_id == tid and e.status == "settled" for e in entries[max(qualified) :]
        )
        # a qualifier's heat chips leave the table with them
        for i in qualified:
            if entries[i].table_id == tid:
                assert entries[i].record["kind"] == "leave"
    # the final: every finalist with a fresh starting stack, the clock from level 1
    seated = [e for e in entries if event(e) == "final_seated"]
    assert {e.record["tournament"]["player"] for e in seated} == finalists
    assert all(e.record["kind"] == "buy_in" and e.record["amount"] == 1000 for e in seated)
    started = next(e for e in entries if event(e) == "final_started")
    clock = started.record["tournament"]["clock"]
    assert clock["level"] == 1 and clock["hands_started"] == 0
    assert st.final.chips == 1000 * len(finalists)
    assert all(e.table_id in st.final.tables for e in entries[draw_at:] if e.status == "settled")
    assert len(st.alive()) == 1 and played.results.rows[0].player in finalists
    # a heat's bust is not undone once the final is drawn
    out_in_heat = sorted(st.final.heats.out - finalists)[0]
    with Journal(str(played.db)) as journal:
        d = Director(journal, played.tid, make_table=lambda *_: None)  # type: ignore[arg-type]
        with pytest.raises(HandStateError, match="went out in a heat"):
            d.undo_bust(out_in_heat)


def test_the_ranking_is_the_finals_then_each_heats_by_heat_place_and_prizes_follow_it(
    played: tdir.Played,
) -> None:
    st = played.state
    assert st.final is not None and st.final.draw is not None
    heats = heats_of(st)
    finalists = [n for n in st.ledger.players if n in st.final.draw.seats]
    in_heats = [heat_ranking(st.final.heats, ps) for ps in heats.values()]
    expected = combine_heats(st.eliminations.ranking(finalists), in_heats)
    rows = played.results.rows
    assert [(r.place, r.player, r.shared) for r in rows] == [
        (p.place, p.player, p.shared) for p in expected
    ]
    assert {r.player for r in rows[: len(finalists)]} == set(finalists)
    # the rest by heat place: the same place in both heats shared
    for r in rows[len(finalists) :]:
        same = [h for h in heats.values() if r.player in h]
        assert len(same) == 1 and r.place > len(finalists)
    pool = prize_pool(played.structure, st.ledger.fees_cents)
    assert pool == 12 * 5000 and sum(r.prize_cents for r in rows) == pool
    paid = payouts(played.structure, expected, pool)
    assert [(p.player, p.cents) for p in paid] == [(r.player, r.prize_cents) for r in rows]
    assert [r.prize_cents for r in rows[:3]] == [30000, 18000, 12000]


def test_the_fold_of_the_chain_is_the_state_the_director_built(played: tdir.Played) -> None:
    again = TournamentState(played.tid)
    for e in played.entries:
        again.take(e)
    live = played.state
    assert again.final == live.final and again.eliminations == live.eliminations
    assert again.entrants == live.entrants and again.sessions == live.sessions
    assert again.finished == live.finished
    again.check_chips("the end")
    assert again.chips_in_play() == 1000 * len(
        live.final.draw.seats if live.final and live.final.draw else ()
    )


def test_heats_it_cannot_play_are_refused(tmp_path: Path) -> None:
    s = heats_structure(tmp_path)
    one = structure_from_dict(
        {**s.to_dict(), "tournament": {**s.to_dict()["tournament"], "qualifiers": 1}}
    )
    with Journal(str(tmp_path / "r.db")) as journal:
        d = Director(journal, "R", make_table=lambda *_: None)  # type: ignore[arg-type]
        with pytest.raises(HandStateError, match="one heat with one qualifier"):
            d.open(one, seed=1, players=5)
        assert journal.count() == 0


def test_the_shipped_heats_structure() -> None:
    s = load_structure(shipped_structures()["stud_heats"])
    assert (s.game, s.formula, s.qualifiers, s.max_seats) == ("stud", "heats", 4, 8)
    assert s.rebuy is None and s.addon is None and s.double_chance_level is None


def test_kill_9_at_random_moments_resumes_the_heats_to_the_same_ranking_and_prizes(
    tmp_path: Path,
) -> None:
    structure = tmp_path / "heats.toml"
    structure.write_text(HEATS, encoding="utf-8")
    plain_db = tmp_path / "plain.db"
    plain = tsim.run(tsim.command(structure, plain_db, 12, 3))
    assert "chips conserved: yes" in plain
    db = tmp_path / "killed.db"
    cmd = tsim.command(structure, db, 12, 3)
    rng = random.Random(15)
    kills = 0
    # first when a heat's qualifiers are being sent on, then in the final's seating, then in
    # the final (anywhere)
    stages = ["qualified", "final_seated", None, None]
    for stage in stages:
        target = tsim._entries(db) + rng.randint(3, 30)
        proc = subprocess.Popen(
            cmd, cwd=REPO, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, text=True
        )
        child = close_at_teardown(proc)
        deadline = time.monotonic() + 60
        while child.poll() is None and time.monotonic() < deadline:
            if stage is None and tsim._entries(db) >= target:
                break
            if stage is not None and tsim._entries(db, SEEN.format(stage)) > 0:
                break
            time.sleep(0.001)
        if stage is None:
            time.sleep(rng.random() * 0.05)
        if child.poll() is not None:
            break
        os.kill(child.pid, signal.SIGKILL)
        child.wait(timeout=30)
        kills += 1
    assert kills >= 3, "the run ended before it could be killed in the heats and the final"
    final = tsim.run(cmd)
    assert tsim.results(final) == tsim.results(plain)
    assert "chips conserved: yes" in final
    tsim.check_chain(db)
    # each step once: one final draw, one seat and one qualification per finalist
    assert tsim._entries(db, SEEN.format("final_draw")) == 1
    seated, qualified = (tsim._entries(db, SEEN.format(x)) for x in ("final_seated", "qualified"))
    assert seated == qualified == tsim._entries(plain_db, SEEN.format("final_seated"))
