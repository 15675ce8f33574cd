"""The tournament director over real tables (parts 2-4 journaled): whole tournaments
played in this process over the pty emulator into a real SQLite journal, then checked from the
journal: the fold of the chain is the state the director built; every purchase is a chained
record with who authorised it; Double Chance's second half comes at its level or when the first
half is lost, and nobody is out before it; the EUR 250 cap refuses the rebuy that would pass
it; players busted in the same hand rank by their stacks at its start; tables are broken and
balanced; each hand is played at the level in force at its start; a hand whose chips do not
add up stops the fold."""

from __future__ import annotations

import dataclasses
import gc
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.config import load_table_config
from dealer_assist.errors import HandStateError
from dealer_assist.ports import StoredHand
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament import money
from dealer_assist.tournament.director import Director
from dealer_assist.tournament.errors import PurchaseRefused
from dealer_assist.tournament.play import Tournament
from dealer_assist.tournament.results import ResultsTable
from dealer_assist.tournament.state import ChipsNotConserved, TournamentState
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.structure_reader import structure_from_dict
from dealer_assist.tournament.tables import TableJournalView, TournamentTable
from drivers.emulator.source import EmulatorSource
from drivers.factory import open_source
from ui.commands.simulate_poker import SimulatedSeat
from ui.commands.tournament import SeededPlayers, player_names

pytestmark = pytest.mark.integration

EMULATOR = "emulator://?seed=1&shuffle_time=0.01&card_interval=0.001"


def stud_dc() -> TournamentStructure:
    """A short Stud freezeout with Double Chance (second half at level 3), a break, a short
    action clock (10 s) and a 40 s time bank."""
    return structure_from_dict({
        "tournament": {"name": "DC Stud", "game": "stud", "chip": 25, "starting_stack": 1000,
                       "max_seats": 8, "min_players": 6, "entry_fee_cents": 5000},
        "levels": [
            {"small_limit": 100, "ante": 25, "bring_in": 25, "hands": 5},
            {"small_limit": 200, "ante": 25, "bring_in": 50, "hands": 5},
            {"small_limit": 400, "ante": 50, "bring_in": 100, "hands": 5},
            {"small_limit": 800, "ante": 100, "bring_in": 200, "hands": 5},
            {"small_limit": 1600, "ante": 200, "bring_in": 400},
        ],
        "clock": {"action_seconds": 10, "time_bank_seconds": 40},
        "breaks": [{"after_level": 1, "minutes": 5}],
        "double_chance": {"second_half_level": 3},
        "prizes": {"kind": "percentages", "percentages": [60, 40]},
    })  # fmt: skip


def holdem_cap() -> TournamentStructure:
    """Hold'em rebuys at EUR 100: the entry and one rebuy are EUR 200, a second would pass
    EUR 250 (announced: 3 rebuys); an add-on of EUR 50."""
    return structure_from_dict({
        "tournament": {"name": "Cap Holdem", "game": "holdem", "chip": 25,
                       "starting_stack": 1000, "max_seats": 9, "min_players": 6,
                       "entry_fee_cents": 10000},
        "levels": [
            {"small_blind": 25, "big_blind": 50, "hands": 4},
            {"small_blind": 50, "big_blind": 100, "hands": 4},
            {"small_blind": 100, "big_blind": 200, "ante": 25, "hands": 4},
            {"small_blind": 200, "big_blind": 400, "ante": 50, "hands": 4},
            {"small_blind": 400, "big_blind": 800, "ante": 100},
        ],
        "rebuy": {"max": 3, "until_level": 3},
        "addon": {"fee_cents": 5000, "from_level": 3, "until_level": 3},
        "prizes": {"kind": "winner_takes_all"},
    })  # fmt: skip


class Always(SeededPlayers):
    """Every busted player rebuys when they may; the seeded choices otherwise."""

    def rebuys(self, player: str, hand: int, *, busted: bool) -> bool:
        return busted or super().rebuys(player, hand, busted=busted)


@dataclasses.dataclass
class Played:
    db: Path
    tid: str
    structure: TournamentStructure
    state: TournamentState
    results: ResultsTable
    entries: list[StoredHand]


def play(structure: TournamentStructure, db: Path, n: int, seed: int,
         players: SeededPlayers | None = None) -> Played:  # fmt: skip
    """A whole tournament in this process, one emulator per table."""
    tid = f"T-{seed}"
    base = load_table_config(None, game=structure.game)
    base = dataclasses.replace(base, seats=structure.max_seats, sources=())
    journal = Journal(str(db))
    journal.open()
    sources: dict[str, Any] = {}

    def make_table(table_id: str, view: TableJournalView) -> TournamentTable:
        source = open_source(EMULATOR, name=table_id)
        sources[table_id] = source
        source.open()
        sources[table_id] = source
        return TournamentTable(dataclasses.replace(base, table_id=table_id), source, view,
                               structure)  # fmt: skip

    def reseed(table: TournamentTable, hand_seed: int) -> None:
        src = sources[table.table_id]
        assert isinstance(src, EmulatorSource)
        src.emulator.reseed(hand_seed)

    director = Director(journal, tid, make_table=make_table, by="cashier")

    def seat_players(table: TournamentTable, rng: random.Random) -> Mapping[int, Any]:
        from dealer_assist.games import get_pot_game

        game = get_pot_game(structure.game)
        return {s: SimulatedSeat(game.simulated_player(name.rsplit("-", 1)[0], rng), rng)
                for s, name in director.state.at_table(table.table_id).items()}  # fmt: skip

    gc.freeze()  # as the command does: the runner's collection between hands skips the rest
    try:
        Tournament(director, players or SeededPlayers(seed), seat_players, reseed=reseed).run(
            structure, seed=seed, names=player_names(structure.game, seed, n),
            seconds_per_hand=120)  # fmt: skip
        results = director.finish()
        entries = list(journal.iter_hands())
        assert journal.verify().ok
    finally:  # a module's fixture: closed here, not at a test's teardown
        gc.unfreeze()
        for source in sources.values():
            source.close()
        journal.close()
    return Played(db, tid, structure, director.state, results, entries)


@pytest.fixture(scope="module")
def stud(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(stud_dc(), tmp_path_factory.mktemp("stud") / "j.db", 9, 4)


@pytest.fixture(scope="module")
def holdem(tmp_path_factory: pytest.TempPathFactory) -> Played:
    return play(holdem_cap(), tmp_path_factory.mktemp("holdem") / "j.db", 9, 8, Always(8))


def events(p: Played, event: str) -> list[StoredHand]:
    return [e for e in p.entries
            if e.record.get("tournament", {}).get("event") == event]  # fmt: skip


def fold(p: Played) -> TournamentState:
    state = TournamentState(p.tid)
    for e in p.entries:
        state.take(e)
    return state


def test_the_fold_of_the_chain_is_the_state_the_director_built(stud: Played) -> None:
    again = fold(stud)
    live = stud.state
    assert again.ledger == live.ledger and again.eliminations == live.eliminations
    assert again.entrants == live.entrants and again.sessions == live.sessions
    assert again.clock == live.clock and again.levels == live.levels
    assert again.chips_in == live.chips_in == live.ledger.chips_issued == 9 * 1000
    assert again.finished == live.finished == stud.results.to_json()
    # the desk's records and the hands share one chain
    assert {e.table_id for e in stud.entries} == {stud.tid, f"{stud.tid}-T1", f"{stud.tid}-T2"}
    assert [e.hand_id for e in stud.entries] == list(range(1, len(stud.entries) + 1))


def test_every_purchase_is_a_chained_record_with_who_authorised_it(
    stud: Played, holdem: Played
) -> None:
    for p in (stud, holdem):
        for e in p.entries:
            purchase = e.record.get("tournament", {}).get("purchase")
            if purchase is None:
                continue
            assert purchase["authorised_by"] in ("cashier", "clock")
            if purchase["kind"] != "entry":  # the chips reach the table in the same record
                assert e.record["kind"] == "top_up" and e.record["amount"] == purchase["chips"]
        assert len(events(p, "registered")) == 9
    assert len(events(holdem, "rebuy")) >= 1 and holdem.results.rebuys == len(
        events(holdem, "rebuy")
    )


def test_double_chance_second_half_at_its_level_or_when_the_first_half_is_lost(
    stud: Played,
) -> None:
    halves = events(stud, "second_half")
    assert sorted(e.record["tournament"]["player"] for e in halves) == sorted(
        stud.state.ledger.players)  # everyone got it, once  # fmt: skip
    seen: set[str] = set()
    early = 0
    for e in stud.entries:
        part = e.record.get("tournament", {})
        if part.get("event") == "second_half":
            seen.add(part["player"])
            assert e.record["amount"] == 500
            if part["purchase"]["level"] < 3:
                early += 1
                assert e.record["stack"] == 500  # released the moment the first half was gone
        elif part.get("event") == "eliminated":
            assert part["player"] in seen  # out only once both halves are gone
    assert early >= 1  # a first half lost before level 3


def test_the_eur_250_cap_refuses_the_rebuy_that_would_pass_it(holdem: Played) -> None:
    ledger = holdem.state.ledger
    assert all(ledger.account(p).paid_cents <= 25_000 for p in ledger.players)
    capped = [p for p in ledger.players if ledger.account(p).rebuys == 1]
    assert capped, "a player who rebought once (EUR 200 paid)"
    with pytest.raises(PurchaseRefused, match=r"EUR 250\.00"):
        money.rebuy(holdem.structure, ledger, capped[0], stack=0, level=1,
                    authorised_by="cashier")  # fmt: skip
    # and so, busted again, they went out instead of rebuying (every busted player wants to)
    out = {e.record["tournament"]["player"] for e in events(holdem, "eliminated")}
    assert set(capped) <= out | {holdem.results.rows[0].player}


def test_same_hand_busts_rank_by_their_stacks_at_its_start(stud: Played, holdem: Played) -> None:
    groups = 0
    for p in (stud, holdem):
        place = {r.player: (r.place, r.shared) for r in p.results.rows}
        by_hand: dict[str, list[dict[str, Any]]] = {}
        for e in events(p, "eliminated"):
            rec = e.record["tournament"]["elimination"]
            by_hand.setdefault(rec["hand"], []).append(rec)
            hand = next(h for h in p.entries if h.hand_uid == rec["hand"])
            seat = e.record["seat"]
            assert rec["start_stack"] == next(x["stack"] for x in hand.record["players"]
                                              if x["seat"] == seat)  # fmt: skip
        for recs in by_hand.values():
            if len(recs) < 2:
                continue
            groups += 1
            for a in recs:
                for b in recs:
                    if a["start_stack"] > b["start_stack"]:
                        assert place[a["player"]][0] < place[b["player"]][0]
                    elif a["start_stack"] == b["start_stack"]:
                        assert place[a["player"]] == place[b["player"]]
    assert groups >= 1, "no two players went out in the same hand in these tournaments"


def test_tables_broken_and_balanced_and_each_hand_at_its_level(stud: Played) -> None:
    state = TournamentState(stud.tid)
    levels = {lv.number: lv for lv in stud.structure.levels}
    for e in stud.entries:
        if e.status == "settled":
            counts = [len(state.at_table(t)) for t in state.tables if state.at_table(t)]
            assert max(counts) - min(counts) <= 1, (e.hand_id, counts)
            lv = state.clock.next_hand_level(stud.structure, state.now())
            assert lv is not None and e.record["limits"] == [lv.small, lv.big]
            assert e.record["ante"] == lv.ante and e.record["bring_in"] == lv.bring_in
        state.take(e)
    assert set(levels) >= set(state.levels)
    moved = events(stud, "moved_in")
    assert moved and all(m.table_id == f"{stud.tid}-T1" or m.table_id == f"{stud.tid}-T2"
                         for m in moved)  # fmt: skip
    assert len(events(stud, "break")) == 1  # the break after level 1 ran on the clock


def test_a_hand_whose_chips_do_not_add_up_stops_the_fold(stud: Played) -> None:
    state = TournamentState(stud.tid)
    hand = next(e for e in stud.entries if e.status == "settled")
    for e in stud.entries:
        if e is hand:
            break
        state.take(e)
    seats = [dict(s) for s in hand.settlement["seats"]]  # type: ignore[index]
    seats[0]["stack"] += 25
    bad = dataclasses.replace(hand, settlement={**(hand.settlement or {}), "seats": seats})
    with pytest.raises(ChipsNotConserved, match=f"hand {hand.hand_id}"):
        state.take(bad)
    state.chips_in += 25
    with pytest.raises(ChipsNotConserved, match="were brought to the tables"):
        state.check_chips("after a forged record")


def test_a_player_sitting_out_is_dealt_in_and_checks_or_folds(stud: Played, holdem: Played) -> None:
    checked = 0
    for p in (stud, holdem):
        out: dict[tuple[str, int], str] = {}  # (table, seat) -> player sitting out
        for e in p.entries:
            part = e.record.get("tournament", {})
            if part.get("event") == "sat_out":
                seat = next(s for s, n in fold_until(p, e).items() if n == part["player"])
                out[(e.table_id, seat)] = part["player"]
            elif part.get("event") in ("sat_in", "eliminated", "moved_out"):
                out = {k: v for k, v in out.items() if v != part.get("player")}
            elif e.status == "settled":
                for (table, seat), _name in out.items():
                    if table != e.table_id:
                        continue
                    assert seat in [x["seat"] for x in e.record["players"]]  # dealt in, antes
                    acts = {a["action"] for a in e.record["actions"] if a["seat"] == seat}
                    assert acts <= {"check", "fold"}, (e.hand_id, seat, acts)
                    checked += 1
    assert checked >= 1, "nobody sat out through a hand in these tournaments"


def fold_until(p: Played, entry: StoredHand) -> dict[int, str]:
    """seat -> player at ``entry``'s table just before it."""
    state = TournamentState(p.tid)
    for e in p.entries:
        if e is entry:
            break
        state.take(e)
    return state.at_table(entry.table_id)


def test_the_directors_pause_is_journaled_and_folded(tmp_path: Path) -> None:
    """Open, register, draw, seat and start; the pause stops every hand until the clock runs
    again; a restart (a new director on the journal) finds it paused."""
    structure = stud_dc()
    db = tmp_path / "j.db"
    made: list[str] = []

    def make_table(table_id: str, view: TableJournalView) -> TournamentTable:
        made.append(table_id)  # never opened: no hand is dealt here
        source = open_source(EMULATOR, name=table_id)
        config = dataclasses.replace(load_table_config(None, game="stud"), table_id=table_id,
                                     sources=())  # fmt: skip
        return TournamentTable(config, source, view, structure)

    with Journal(str(db)) as journal:
        d = Director(journal, "P", make_table=make_table, by="td")
        d.setup(structure, seed=3, players=player_names("stud", 3, 7))
        assert d.state.chips_in == d.state.ledger.chips_issued == 7 * 500  # first halves
        d.pause()
        with pytest.raises(HandStateError, match="paused"):
            d.next_hand()
        again = Director(journal, "P", make_table=make_table)
        assert again.state.clock.paused and again.state.clock == d.state.clock
        assert again.state.entrants == d.state.entrants
        again.resume_clock()
        assert not again.state.clock.paused and again.next_hand().level == 1
    assert made == ["P-T1", "P-T1"]


class Never(SeededPlayers):
    """Nobody rebuys by themselves, nobody sits out."""

    def rebuys(self, player: str, hand: int, *, busted: bool) -> bool:
        return False

    def sits_out(self, player: str, hand: int) -> int:
        return 0


def test_a_bust_undone_re_ranks_and_the_player_rebuys_in_their_seat(tmp_path: Path) -> None:
    """Hands until the first elimination; the director undoes it (the player's rebuy was
    missed): the player is back in their seat with the starting stack, the ranking forgets
    the bust, the purchase is journaled; a restart folds the same."""
    structure = holdem_cap()
    db = tmp_path / "j.db"
    sources: list[Any] = []

    def make_table(table_id: str, view: TableJournalView) -> TournamentTable:
        source = open_source(EMULATOR, name=table_id)
        sources.append(source)
        source.open()
        config = dataclasses.replace(load_table_config(None, game="holdem"), table_id=table_id,
                                     seats=9, sources=())  # fmt: skip
        return TournamentTable(config, source, view, structure)

    def seat_players(table: TournamentTable, rng: random.Random) -> Mapping[int, Any]:
        from dealer_assist.games import get_pot_game

        game = get_pot_game("holdem")
        return {s: SimulatedSeat(game.simulated_player("all_in_happy", rng), rng)
                for s in d.state.at_table(table.table_id)}  # fmt: skip

    with Journal(str(db)) as journal:
        try:
            d = Director(journal, "U", make_table=make_table, by="td")
            t = Tournament(d, Never(5), seat_players)
            d.setup(structure, seed=5, players=player_names("holdem", 5, 6))
            for _ in range(40):
                d.between_hands(t.players)
                if d.state.eliminations.busts:
                    break
                nxt = d.next_hand()
                t._play(nxt.table, nxt.number, None, nxt.sitting_out)
            bust = d.state.eliminations.busts[0]
            table, seat = d.state.left_at[bust.player]
            row = next(r for r in d.results().rows if r.player == bust.player)
            assert not row.in_play and row.place > 1
            with pytest.raises(HandStateError, match="not out"):
                d.undo_bust(d.state.alive()[0])
            d.undo_bust(bust.player, by="floor")
            assert bust.player not in d.state.eliminations.out
            assert d.state.at_table(table)[seat] == bust.player
            assert d.state.stack(bust.player) == structure.starting_stack
            row = next(r for r in d.results().rows if r.player == bust.player)
            assert row.in_play and row.place == 1  # re-ranked: back among those in play
            acc = d.state.ledger.account(bust.player)
            assert acc.rebuys == 1 and acc.paid_cents == 20_000
            d.state.check_chips("after the undo")
            again = TournamentState("U")
            for e in journal.iter_hands():
                again.take(e)
            assert again.entrants == d.state.entrants
            assert again.eliminations == d.state.eliminations and again.ledger == d.state.ledger
            # the level records: one per level in force, before its first hand
            levels = [e.record["tournament"] for e in journal.iter_hands()
                      if e.record.get("tournament", {}).get("event") == "level"]  # fmt: skip
            assert [lv["level"] for lv in levels] == list(range(1, len(levels) + 1))
            assert levels[0]["small"] == 25 and levels[0]["big"] == 50
        finally:
            for source in sources:
                source.close()


def clock_walk(p: Played) -> tuple[dict[str, list[int]], int]:
    """Fold ``p``'s chain checking each hand's time-outs; the hands that drew from each
    player's bank and how many time-outs."""
    state = TournamentState(p.tid)
    drawn: dict[str, list[int]] = {}
    timeouts = 0
    for e in p.entries:
        before = dict(state.banks.banks)
        out_before = set(state.timed_out)
        state.take(e)
        if e.status != "settled":
            continue
        for player, ms in state.banks.banks.items():
            if ms < before.get(player, ms):
                drawn.setdefault(player, []).append(e.hand_id)
        for player in state.timed_out - out_before:
            timeouts += 1
            seat = next(s for s, n in state.at_table(e.table_id).items() if n == player)
            acts = [a["action"] for a in e.record["actions"] if a["seat"] == seat]
            assert acts[-1] in ("check", "fold"), (e.hand_id, player, acts)
            nxt = next(x for x in p.entries if x.hand_id > e.hand_id
                       and x.record.get("tournament", {}).get("player") == player)  # fmt: skip
            assert nxt.record["tournament"]["event"] in ("sat_out", "eliminated")
            if nxt.record["tournament"]["event"] == "sat_out":
                assert nxt.record["tournament"]["why"] == "timed_out"
    assert state.banks == p.state.banks
    return drawn, timeouts


def test_the_time_bank_is_drawn_across_hands_and_a_time_out_sits_the_player_out(
    stud: Played, holdem: Played
) -> None:
    """Each decision on the action clock (simulated thinking times): the bank drawn past it,
    hand after hand, folded from the records to the banks the director had; a decision past
    both (Hold'em here has no bank) checks or folds, and the player sits out from the next
    hand."""
    drawn, _ = clock_walk(stud)
    assert any(len(hands) >= 2 for hands in drawn.values()), drawn  # split across hands
    assert all(0 <= ms <= 40_000 for ms in stud.state.banks.banks.values())
    none, timeouts = clock_walk(holdem)
    assert not none and timeouts >= 1
