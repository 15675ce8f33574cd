"""The tournament director over real tables (rules text 002; GAMES.md "Tournaments").

The director journals every decision of the tournament as a record in the journal's hash chain
(:mod:`dealer_assist.tournament.records`) and reads each one back through the same fold a
restart uses (:class:`~dealer_assist.tournament.state.TournamentState`): what it knows is what
the journal says, never more. Its steps, each idempotent so that a run after a crash just does
what is still missing:

- :meth:`Director.open` (the structure, the seed, the tables), :meth:`Director.register`
  (each entry a purchase with who authorised it), :meth:`Director.draw` (the seeded seat draw),
  :meth:`Director.seat` (the starting stack, or its first half with Double Chance, as each
  table's buy-in record), :meth:`Director.start` (the clock);
- between hands (:meth:`Director.between_hands`): each player with no chips left gets Double
  Chance's second half, rebuys if they may and want to, or is eliminated (several in the same
  hand ranked by their stacks at its start); second halves due by the level; rebuys and
  add-ons the players ask for (the EUR 250 cap enforced by the purchase); sit-outs back;
  a table broken or balanced when players went out; a break that fell due run on the clock;
- :meth:`Director.next_hand`: which table plays next (tables in turn: the one that has played
  fewest hands) and the level in force for it;
- :meth:`Director.pause` / :meth:`Director.resume_clock`: the director's pause;
- :meth:`Director.finish`: the ranking and the prizes, journaled.

Tables: as many as the seat draw needs (``max_seats`` a table), played in turn, broken and
balanced (:mod:`~dealer_assist.tournament.moves`); the heats formula: :mod:`.heats`; a live
clock on wall time and its rule after a crash: :mod:`.live_clock`.

Chips are checked after every hand and every record (:meth:`TournamentState.check_chips`): the
stacks in play always equal the chips the purchases brought; a difference raises
:class:`~dealer_assist.tournament.state.ChipsNotConserved`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from dealer_assist.errors import HandStateError
from dealer_assist.events import iso_utc, utc_now
from dealer_assist.games.session import TableSession
from dealer_assist.ports import ChainJournal, StoredHand
from dealer_assist.tournament import money
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.errors import PurchaseRefused
from dealer_assist.tournament.heats import HeatsFormula, check_heats
from dealer_assist.tournament.live_clock import LiveClock, clock_at
from dealer_assist.tournament.moves import TableMoves
from dealer_assist.tournament.prizes import payouts, prize_pool
from dealer_assist.tournament.ranking import EliminationRecord
from dealer_assist.tournament.records import journal_event
from dealer_assist.tournament.results import ResultsTable, results_table
from dealer_assist.tournament.seating import draw_seats
from dealer_assist.tournament.state import SIM_EPOCH, TournamentState
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.tables import TableJournalView, TournamentTable

SECONDS_PER_HAND = 120
"""The simulated clock: a hand lasts two minutes (a level of 20 minutes is 10 hands)."""


class Players(Protocol):
    """What the players decide between hands (a simulation's seeded players, a director's
    console). ``hand`` is the tournament's settled-hand count: a question asked again after a
    restart is the same question."""

    def rebuys(self, player: str, hand: int, *, busted: bool) -> bool:
        """``player`` buys the starting stack again (busted: their chips are gone)."""
        ...

    def takes_addon(self, player: str, hand: int) -> bool:
        """``player`` takes the add-on now."""
        ...

    def sits_out(self, player: str, hand: int) -> int:
        """Hands ``player`` sits out from the next one (0: plays on)."""
        ...


@dataclass(frozen=True)
class NextHand:
    """The next hand: the table that plays it, the level in force, the tournament's hand
    number (settled hands before it) and who sits out at it (seats)."""

    table: TournamentTable
    level: int
    number: int
    sitting_out: frozenset[int]


class Director(LiveClock, HeatsFormula, TableMoves):
    """Runs tournament ``tournament_id`` over ``tables`` with its records in ``journal``.

    Args:
        journal: the tournament's journal (opened), hands and records in one chain.
        tournament_id: its id (the desk's table id; several tournaments may share a journal).
        by: who authorises what the director does (the records' ``by``).
        make_table: opens table ``table_id`` (its source opened; its journal the view given).

    Raises (every step): JournalError; ChipsNotConserved; HandStateError for a step out of turn.
    """

    def __init__(self, journal: ChainJournal, tournament_id: str, *,
                 make_table: Callable[[str, TableJournalView], TournamentTable],
                 by: str = "director", now: Callable[[], datetime] = utc_now) -> None:  # fmt: skip
        self.journal = journal
        self.state = TournamentState(tournament_id)
        self.by = by
        self.wall = now
        self._make_table = make_table
        self.tables: dict[str, TournamentTable] = {}
        self.desk = TableJournalView(journal, tournament_id, None)
        self.catch_up()

    # -- the fold -----------------------------------------------------------------------------
    def catch_up(self) -> None:
        """Take every journal entry not taken yet (the director's own records, the hands the
        tables journaled, what a restart's resume journaled)."""
        for stored in self.journal.iter_hands(self.state.seen + 1):
            self.state.take(stored)
            if stored.table_id == self.state.tournament_id:
                self.desk._last = stored
            elif stored.table_id in self.tables:  # journaled by the table's own console
                self.tables[stored.table_id].take_entry(stored)
        if self.state.opened:
            for tid in self.state.tables:
                if tid not in self.tables:
                    view = TableJournalView(self.journal, tid, self.state.last_entry.get(tid))
                    table = self.tables[tid] = self._make_table(tid, view)
                    if isinstance(table, TournamentTable) and table.tournament_id is None:
                        # its hand records name the tournament
                        table.tournament_id = self.state.tournament_id
                        table.set_level(table.level_number)

    @property
    def structure(self) -> TournamentStructure:
        """The structure the tournament runs with. Raises HandStateError before open."""
        if self.state.structure is None:
            raise HandStateError("the tournament is not open yet")
        return self.state.structure

    def _part(self, event: str, clock: ClockState | None = None, **fields: Any) -> dict[str, Any]:
        """A record's tournament part; ``clock``: the clock after it (default: as it is)."""
        return {"id": self.state.tournament_id, "event": event, **fields,
                "clock": (clock or self.clock_now()).to_json()}  # fmt: skip

    def _desk(self, event: str, clock: ClockState | None = None, **fields: Any) -> StoredHand:
        """A desk record; the state takes it (and its clock) once it is journaled."""
        session = TableSession(self.state.tournament_id)
        game = self.state.structure.game if self.state.structure else "tournament"
        part = self._part(event, clock, **fields)
        stored = journal_event(self.desk, self.state.tournament_id, part, session, by=self.by,
                               game=game)  # fmt: skip
        self.catch_up()
        return stored

    def _table(self, table_id: str, name: str, *args: Any, event: str, **fields: Any) -> None:
        self.tables[table_id].change(name, *args, part=self._part(event, **fields), by=self.by)
        self.catch_up()
        self.state.check_chips(f"after the {event} record")

    # -- before the first hand ----------------------------------------------------------------
    def open(self, structure: TournamentStructure, *, seed: int, players: int,
             seconds_per_hand: int = SECONDS_PER_HAND, simulated_decisions: bool = False,
             wall_clock: bool = False) -> None:  # fmt: skip
        """Open the tournament (once; again after a restart: nothing): its structure, seed, the
        simulated clock and its tables, as many as ``players`` need at ``max_seats`` a table;
        ``simulated_decisions``: the players' decisions run on a simulated action clock
        (:mod:`dealer_assist.tournament.decisions`); ``wall_clock``: a live tournament, its
        clock on wall time (:mod:`dealer_assist.tournament.live_clock`).

        Raises:
            HandStateError: fewer players than the structure's minimum; heats it cannot play
                (:func:`~dealer_assist.tournament.heats.check_heats`).
        """
        if self.state.opened:
            return
        check_heats(structure, players)
        if players < structure.min_players:
            raise HandStateError(f"{players} players: this tournament needs at least "
                                 f"{structure.min_players}")  # fmt: skip
        n = -(-players // structure.max_seats)
        tables = [f"{self.state.tournament_id}-T{i}" for i in range(1, n + 1)]
        self._desk(ev.OPENED, structure=structure.to_dict(), seed=seed, tables=tables,
                   seconds_per_hand=seconds_per_hand, sha256=structure.sha256,
                   simulated_decisions=simulated_decisions, wall_clock=wall_clock)  # fmt: skip

    def register(self, player: str, *, by: str | None = None) -> None:
        """``player``'s entry (the entry fee; once: a player already registered is left as is).
        Raises PurchaseRefused naming the rule."""
        if player in self.state.ledger.accounts:
            return
        if self.state.draw is not None:
            raise PurchaseRefused(player, "entry", "the seats are drawn: registration is closed")
        p = money.register(self.structure, self.state.ledger, player,
                           authorised_by=by or self.by)  # fmt: skip
        self._desk(ev.REGISTERED, player=player, purchase=p.to_json())

    def draw(self) -> None:
        """The seat draw from the tournament's seed (once). Raises PurchaseRefused without
        enough players."""
        if self.state.draw is not None:
            return
        players = list(self.state.ledger.players)
        if len(players) < self.structure.min_players:
            raise PurchaseRefused("?", "seat", f"{len(players)} registered, the tournament "
                                  f"needs {self.structure.min_players}")  # fmt: skip
        d = draw_seats(self.state.seed, players, self.structure.max_seats)
        self._desk(ev.SEAT_DRAW, draw=d.to_json())

    def seat(self) -> None:
        """Every drawn player not seated yet sits down at the drawn table and seat with the
        starting stack (Double Chance: its first half): each a buy-in record of that table."""
        draw = self.state.draw
        if draw is None:
            raise HandStateError("draw the seats first")
        for player, (t, s) in sorted(draw.seats.items(), key=lambda kv: kv[1]):
            e = self.state.entrants[player]
            if e.table is not None or e.out or e.transit is not None or e.qualified:
                continue
            chips = self.state.ledger.account(player).chips_bought
            self._table(self.state.tables[t - 1], "seat_player", s, player, chips,
                        event=ev.SEATED, player=player)  # fmt: skip

    def start(self) -> None:
        """The clock starts (once), at the simulated clock's epoch (a live one: now)."""
        if self.state.started:
            return
        at = self.wall() if self.state.wall_clock else SIM_EPOCH
        self._desk(ev.STARTED, ClockState().start(self.structure, at))

    def setup(self, structure: TournamentStructure, *, seed: int, players: Sequence[str],
              seconds_per_hand: int = SECONDS_PER_HAND) -> None:  # fmt: skip
        """Open, register ``players``, draw, seat and start: whatever of it is still missing."""
        self.open(structure, seed=seed, players=len(players), seconds_per_hand=seconds_per_hand)
        for p in players:
            self.register(p)
        self.draw()
        self.seat()
        self.start()

    # -- between hands ------------------------------------------------------------------------
    @property
    def level(self) -> int:
        """The level a hand starting now is played at (during a break: the one it follows)."""
        lv = self.state.clock.next_hand_level(self.structure, self.now())
        return lv.number if lv is not None else self.state.clock.level

    def between_hands(self, players: Players) -> None:
        """Everything due before the next hand (module docstring), in a fixed order, each a
        journaled record."""
        self._busts(players)
        self._heats()
        if self.finished:
            return
        self._second_halves()
        self._purchases(players)
        self._sit_outs(players)
        self._balance()
        self._buttons()
        self._break()
        self._level()

    @property
    def finished(self) -> bool:
        """One player is left (under heats: in the final), or the results are journaled."""
        st = self.state
        return st.finished is not None or (st.started and not self.in_heats
                                           and len(st.alive()) <= 1)  # fmt: skip

    def _busts(self, players: Players) -> None:
        s, st = self.structure, self.state
        out: list[tuple[str, int]] = []
        for name in st.alive():
            e = st.entrants[name]
            if e.table is None or st.stack(name) > 0:
                continue
            level = self.level
            if st.ledger.half_pending(s, name):
                p = money.second_half(s, st.ledger, name, level=level, stack=0)
                self._table(e.table, "top_up", e.seat, p.chips, event=ev.SECOND_HALF,
                            player=name, purchase=p.to_json())  # fmt: skip
                continue
            if money.can_rebuy(s, st.ledger, name, stack=0, level=level) and players.rebuys(
                    name, st.hands, busted=True):  # fmt: skip
                p = money.rebuy(s, st.ledger, name, stack=0, level=level, authorised_by=self.by)
                self._table(e.table, "top_up", e.seat, p.chips, event=ev.REBUY, player=name,
                            purchase=p.to_json())  # fmt: skip
                continue
            out.append((name, self._stack_at_start(name)))
        for name, start in out:
            e = st.entrants[name]
            if e.table is None:
                continue
            last = st.last_hand.get(e.table)
            rec = EliminationRecord("bust", name, last.hand_uid or "" if last else "?", start,
                                    self.by)  # fmt: skip
            self._table(e.table, "leave", e.seat, event=ev.ELIMINATED, player=name,
                        elimination=rec.to_json())  # fmt: skip

    def _stack_at_start(self, name: str) -> int:
        """``name``'s stack at the start of the last hand of their table (where they went
        out)."""
        e = self.state.entrants[name]
        last = self.state.last_hand.get(e.table or "")
        if last is None:
            return 0
        return next((int(p["stack"]) for p in last.record.get("players", [])
                     if p.get("seat") == e.seat), 0)  # fmt: skip

    def _second_halves(self) -> None:
        s, st = self.structure, self.state
        if not s.double_chance:
            return
        for p in money.due_second_halves(s, st.ledger, st.stacks(), self.level):
            e = st.entrants[p.player]
            if e.out or e.table is None:
                continue
            self._table(e.table, "top_up", e.seat, p.chips, event=ev.SECOND_HALF,
                        player=p.player, purchase=p.to_json())  # fmt: skip

    def _purchases(self, players: Players) -> None:
        s, st = self.structure, self.state
        level = self.level
        for name in st.alive():
            e = st.entrants[name]
            if e.table is None:
                continue
            stack = st.stack(name)
            if (s.rebuy is not None and money.can_rebuy(s, st.ledger, name, stack=stack,
                                                        level=level)
                    and players.rebuys(name, st.hands, busted=False)):  # fmt: skip
                p = money.rebuy(s, st.ledger, name, stack=stack, level=level,
                                authorised_by=self.by)  # fmt: skip
                self._table(e.table, "top_up", e.seat, p.chips, event=ev.REBUY, player=name,
                            purchase=p.to_json())  # fmt: skip
            a = s.addon
            acc = st.ledger.account(name)
            if a is None or acc.addon or not a.from_level <= level <= a.until_level:
                continue
            if not players.takes_addon(name, st.hands):
                continue
            try:
                p = money.addon(s, st.ledger, name, level=level, authorised_by=self.by)
            except PurchaseRefused:
                continue  # the EUR 250 cap: the player cannot take it (refused, said by money)
            self._table(e.table, "top_up", e.seat, p.chips, event=ev.ADDON, player=name,
                        purchase=p.to_json())  # fmt: skip

    def _sit_outs(self, players: Players) -> None:
        st = self.state
        for name in st.alive():
            e = st.entrants[name]
            if e.table is None:
                continue
            if e.sitting_out:
                if st.hands >= e.back_at:
                    self._record(e.table, ev.SAT_IN, player=name)
                continue
            if name in st.timed_out:  # the action clock ran out: sit-out (rules text 002)
                back = st.hands + 1 + int(draw_number(st.seed, "back", st.hands, name) * 3)
                self._record(e.table, ev.SAT_OUT, player=name, back_at=back, why="timed_out")
                continue
            hands = players.sits_out(name, st.hands)
            if hands > 0:
                self._record(e.table, ev.SAT_OUT, player=name, back_at=st.hands + hands)

    def _record(self, table_id: str, event: str, **fields: Any) -> None:
        self.tables[table_id].record(self._part(event, **fields), by=self.by)
        self.catch_up()

    def _level(self) -> None:
        """A level record when the next hand starts a new level (its amounts, for the audit and
        the screens; the clock decided it)."""
        st = self.state
        lv = st.clock.next_hand_level(self.structure, self.now())
        if lv is None or lv.number == st.level_in_force:
            return
        self._desk(ev.LEVEL, level=lv.number, small=lv.small, big=lv.big, ante=lv.ante,
                   bring_in=lv.bring_in, action_seconds=lv.action_seconds)  # fmt: skip

    def undo_bust(self, player: str, *, by: str | None = None) -> None:
        """Take back ``player``'s elimination (the director's correction: they rebuy after all,
        their rebuy missed when they went out): the bust undone (every place re-ranked), then
        the rebuy at their table, in their seat if it is free (else a free seat drawn).

        Raises:
            HandStateError: ``player`` is not out, the tournament is over, their table is
                broken or full, or they went out in a heat and the final is drawn.
            PurchaseRefused: the rebuy is refused (window, count, EUR 250).
        """
        st, s = self.state, self.structure
        e = st.entrants.get(player)
        if st.final is not None and player in st.final.heats.out - st.eliminations.out:
            raise HandStateError(f"{player} went out in a heat: the heats are over")
        if e is None or not e.out or player not in st.eliminations.out:
            raise HandStateError(f"{player} is not out: no elimination to undo")
        if st.finished is not None:
            raise HandStateError("the tournament is over: its results are journaled")
        bust = next(b for b in st.eliminations.busts if b.player == player)
        table, old_seat = st.left_at[player]
        if not st.at_table(table):
            raise HandStateError(f"{player}'s table is broken: seat them by a move instead")
        p = money.rebuy(s, st.ledger, player, stack=0, level=self.level,
                        authorised_by=by or self.by)  # fmt: skip
        taken = st.at_table(table)
        free = [n for n in range(1, s.max_seats + 1) if n not in taken]
        if not free:
            raise HandStateError(f"table {table} is full")
        seat = old_seat if old_seat in free else free[0]
        rec = EliminationRecord("undo", player, bust.hand, bust.start_stack, by or self.by)
        self._desk(ev.UNDONE, player=player, elimination=rec.to_json())
        self._table(table, "seat_player", seat, player, p.chips, event=ev.REBUY, player=player,
                    purchase=p.to_json())  # fmt: skip

    def _break(self) -> None:
        """A break that fell due runs on the simulated clock (its minutes pass, no hand)."""
        st = self.state
        if not st.clock.on_break or st.wall_clock:  # a live break runs on wall time
            return
        brk = self.structure.break_after(st.clock.level)
        minutes = brk.minutes if brk is not None else 0
        left = minutes * 60_000 - st.clock.break_ms
        after = st.clock.advance(self.structure, st.now() + timedelta(milliseconds=left))
        self._desk(ev.BREAK, after, after_level=brk.after_level if brk else st.clock.level,
                   minutes=minutes)  # fmt: skip

    def pause(self, now: Any = None) -> None:
        """The director pauses the clock (at ``now``, default the clock's own moment): no hand
        starts, no level time runs, until :meth:`resume_clock`. Raises ClockError when paused."""
        self._desk(ev.PAUSED, self.state.clock.pause(self.structure, now or self.now()))

    def resume_clock(self, now: Any = None) -> None:
        """The clock runs again. Raises ClockError when it is not paused."""
        self._desk(ev.RESUMED, self.state.clock.resume(self.structure, now or self.now()))

    # -- the hands ----------------------------------------------------------------------------
    def next_hand(self) -> NextHand:
        """The table that plays next and the level in force (the table's game set to it).

        Raises:
            HandStateError: no table has two players (the tournament is over), or the clock is
                paused.
        """
        st = self.state
        if st.clock.paused:
            raise HandStateError("the clock is paused: no hand starts until it resumes")
        if clock_at(st.clock, self.structure, self.now()).on_break:
            raise HandStateError("a break: no hand starts until it is over")
        live = [t for t in self._live_tables() if len(self._dealt(t)) >= 2]
        if not live:
            raise HandStateError("no table has two players with chips")
        tid = min(live, key=lambda t: (st.table_hands.get(t, 0), st.tables.index(t)))
        table = self.tables[tid]
        table.set_level(self.level)
        out = frozenset(s for s, n in st.at_table(tid).items() if st.entrants[n].sitting_out)
        return NextHand(table, self.level, st.hands, out)

    def _dealt(self, table_id: str) -> list[int]:
        session = self.state.sessions.get(table_id, TableSession(table_id))
        return [s for s, p in session.seats.items() if (p.stack or 0) > 0]

    def pending_level(self) -> int:
        """The level of a hand a crash left in progress (the level in force when it started:
        no record comes between a hand's start and its end)."""
        return self.level

    def hand_done(self, where: str) -> None:
        """Take the hand a table journaled and check the chips."""
        self.catch_up()
        self.state.check_chips(where)

    # -- the end ------------------------------------------------------------------------------
    def results(self) -> ResultsTable:
        """The ranking (reverse order of elimination; same-hand busts by their stacks at its
        start, equal stacks sharing the place), the payouts from the prize pool and the special
        prizes won (rules text 002, "Determinazione e assegnazione delle vincite").

        Raises:
            PrizeError: the payouts cannot be made as the structure says.
        """
        st = self.state
        ranking = self.ranking()
        pool = prize_pool(self.structure, st.ledger.fees_cents)
        paid = payouts(self.structure, ranking, pool) if self.finished else ()
        return results_table(self.structure, st.ledger, ranking, paid, pool, st.specials)

    def finish(self) -> ResultsTable:
        """The results, journaled once (a restart after the end reads them back)."""
        table = self.results()
        if self.state.finished is None:
            self._desk(ev.FINISHED, results=table.to_json(), at=iso_utc(utc_now()))
        return table
