"""``dealer-assist tournament rehearse``: a whole tournament played through the real director's
desk, the room's clock and each table's dealer console (the real poker service and presenter,
scripted taps, offscreen Qt) on the rehearsal's fast clock, to one winner: a 9-player Stud
freezeout (rules text 002 is Stud) and a Hold'em rebuy tournament. What the command prints is
checked against the journal it wrote: every hand record names the tournament and a level, and
posts exactly that level's forced bets; the level changes in the middle of hands, the break,
the time-out (a ``sat_out`` record, the player's hand checked or folded by the table), the
rebuys and add-ons, the table break and its moves, the ranking and the prizes are the
journal's. Real SQLite journals and records files; the structures are small and fast
(tests/fixtures/data/tournaments)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.record import settle_record
from dealer_assist.storage.journal import Journal
from dealer_assist.table.records import tournament_part
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.structure_reader import load_structure
from ui.cli import main

DATA = Path(__file__).parent.parent / "fixtures" / "data" / "tournaments"
TID = "REHEARSAL"


def rehearse(
    tmp_path: Path, structure: str, players: int, seed: int, capsys: Any, *extra: str
) -> tuple[str, Path, Path]:
    db, records = tmp_path / "t.db", tmp_path / "hands.jsonl"
    status = main(
        [
            "tournament",
            "rehearse",
            "--structure",
            str(DATA / structure),
            "--players",
            str(players),
            "--seed",
            str(seed),
            "--db",
            str(db),
            "--records",
            str(records),
            "--speed",
            "5",
            *extra,
        ]
    )
    out = capsys.readouterr().out
    assert status == 0, out
    return out, db, records


def figure(out: str, pattern: str) -> re.Match[str]:
    m = re.search(pattern, out, re.MULTILINE)
    assert m is not None, f"{pattern!r} not in:\n{out}"
    return m


def expected_bets(s: TournamentStructure, level: int) -> dict[str, Any]:
    """Straight from the structure file: the level's forced bets as a record names them."""
    lv = s.level(level)
    if s.game == "stud":
        return {"ante": lv.ante, "bring_in": lv.bring_in, "limits": [lv.small, lv.big]}
    return {"ante": lv.ante, "blinds": [lv.small, lv.big]}


def check_journal(db: Path, s: TournamentStructure, out: str) -> dict[str, Any]:
    """The journal against the summary: the hands and their bets, the records, the results."""
    j = Journal(str(db))
    j.open()
    try:
        assert j.verify().ok
        entries = list(j.iter_hands(1))
    finally:
        j.close()
    state = TournamentState(TID)
    for e in entries:
        state.take(e)
    hands = [e for e in entries if e.table_id in state.tables and e.status == "settled"]
    parts = [p for p in (tournament_part(e) for e in entries) if p and p.get("id") == TID]
    events = [str(p.get("event")) for p in parts]
    levels = []
    for h in hands:
        rec = h.record
        part = rec["tournament"]
        assert part["id"] == TID
        keys = expected_bets(s, part["level"])
        assert {k: rec[k] for k in keys} == keys, (h.hand_uid, part)
        settle_record(rec)
        levels.append(part["level"])
    n = len(hands)
    assert figure(out, r"^hands: (\d+) ").group(1) == str(n)
    assert f"hands posting their level's bets: {n} of {n}" in out
    assert len(set(levels)) >= 3  # the tournament climbed through its levels
    changed = int(figure(out, r"level changes in the middle of a hand: (\d+)").group(1))
    assert changed >= 1
    assert figure(out, r"^breaks: after level (\d+)").group(1) == str(s.breaks[0].after_level)
    # the break: no hand of the tournament ran on it, the levels either side were played
    assert {s.breaks[0].after_level, s.breaks[0].after_level + 1} <= set(levels)
    assert events.count(ev.PAUSED) == 1 and events.count(ev.RESUMED) == 1
    # the time-out: journaled by the table, the player's hand checked or folded by it
    timed = [p for p in parts if p.get("event") == ev.SAT_OUT and p.get("why") == "timed_out"]
    assert len(timed) == 1
    who = timed[0]["player"]
    m = figure(out, r"time-outs: 1; (\S+) in hand (\S+): (check|fold) by the table")
    assert m.group(1) == who
    hand = next(h for h in hands if h.hand_uid == m.group(2))
    seats = hand.extra["session"]["seats"]  # who sat where (the session after the hand)
    seat = next(int(n) for n, p in seats.items() if p["name"] == who)
    assert {"seat": seat, "action": m.group(3)} in [
        {"seat": a["seat"], "action": a["action"]} for a in hand.record["actions"]
    ]
    assert ev.SAT_IN in events  # back after their sit-out
    # a table broken, its players moved
    broken = int(figure(out, r"table breaks: (\d+)").group(1))
    moved = int(figure(out, r"players moved: (\d+)").group(1))
    assert broken >= 1 and moved == events.count(ev.MOVED_OUT) == events.count(ev.MOVED_IN) >= 1
    # one winner, the ranking and the prizes as journaled
    results = state.finished
    assert results is not None
    rows = results["rows"]
    assert len(state.alive()) == 1 and rows[0]["place"] == 1
    assert figure(out, r"^winner: (\S+)").group(1) == rows[0]["player"] == state.alive()[0]
    assert sum(r["prize_cents"] for r in rows) == results["pool_cents"]
    assert "chips conserved: yes" in out
    from ui.tournament.board import Snapshot
    from ui.tournament.clock_window import ClockWindow

    room = ClockWindow(now=lambda: state.clock.as_of or entries[-1].recorded_at)
    try:  # the room's clock names the winner at the end
        room.set_snapshot(Snapshot.of_state(state, entries[-1].recorded_at))
        assert room.under.text() == f"Winner: {rows[0]['player']} · thank you for playing"
    finally:
        room.close()
    return {"hands": hands, "events": events, "state": state}


def records_lines(records: Path) -> int:
    files = sorted(records.parent.glob(records.stem + "*.jsonl"))
    assert files
    return sum(len([ln for ln in f.read_text().splitlines() if json.loads(ln)]) for f in files)


@pytest.mark.usefixtures("qapp")
def test_a_nine_player_stud_freezeout_rehearsed_to_one_winner(tmp_path: Path, capsys: Any) -> None:
    s = load_structure(DATA / "stud_fast.toml")
    assert s.game == "stud" and s.rebuy is None and s.addon is None
    shots = tmp_path / "shots"
    out, db, records = rehearse(
        tmp_path, "stud_fast.toml", 9, 1, capsys, "--screenshot", str(shots)
    )
    got = check_journal(db, s, out)
    assert "rebuys: 0, add-ons: 0" in out
    # said on the tables' consoles: no chips and no rebuy (a freezeout): out, with the place
    out_of = [
        m.group(1)
        for m in re.finditer(r"^  (\S+) has no chips and no rebuy now: out$", out, re.MULTILINE)
    ]
    assert out_of, out
    placed = dict(re.findall(r"^  (\S+) is out: (\d+)\w\w place$", out, re.MULTILINE))
    ranked = {r["player"]: r["place"] for r in got["state"].finished["rows"]}
    assert placed and all(ranked[p] == int(n) for p, n in placed.items())
    assert re.search(r"^  Table T\d is broken: its players come here$", out, re.MULTILINE)
    assert re.search(r"^  \S+ comes from table T\d: seat \d$", out, re.MULTILINE)
    assert ev.REBUY not in got["events"] and ev.ADDON not in got["events"]
    assert records_lines(records) == len(got["hands"])
    for name in ("level_change_mid_hand", "time_out", "table_break", "clock_break"):
        assert list(shots.glob(f"tournament_rehearsal_{name}_en.png")), name


@pytest.mark.usefixtures("qapp")
def test_a_holdem_rebuy_tournament_rehearsed_to_one_winner(tmp_path: Path, capsys: Any) -> None:
    s = load_structure(DATA / "holdem_rebuy_fast.toml")
    assert s.game == "holdem" and s.rebuy is not None and s.addon is not None
    out, db, records = rehearse(tmp_path, "holdem_rebuy_fast.toml", 10, 2, capsys)
    got = check_journal(db, s, out)
    st = got["state"]
    rebuys = sum(1 for p in st.ledger.purchases if p.kind == "rebuy")
    addons = sum(1 for p in st.ledger.purchases if p.kind == "addon")
    assert rebuys >= 1 and addons >= 1
    assert f"rebuys: {rebuys}, add-ons: {addons}" in out
    # a player with no chips is asked on the table's console while a rebuy is open
    asked = r"^  \S+ has no chips: a rebuy is open \(the director confirms it\), else out$"
    assert re.search(asked, out, re.MULTILINE)
    assert records_lines(records) == len(got["hands"])


@pytest.mark.parametrize("game", ["holdem", "stud"])
def test_a_pot_games_forced_bet_fields_are_the_keys_its_level_bets_posts(game: str) -> None:
    from dealer_assist.games import get_pot_game
    from ui.tournament.rehearsal_report import posted_bets

    plugin = get_pot_game(game)
    bets = plugin.level_bets(5, 10, 20, 40)
    assert tuple(bets) == plugin.forced_bet_fields
    assert posted_bets({"game": game, **bets, "players": []}) == bets
