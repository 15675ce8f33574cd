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

The director holds collaborators, each owning its state: the recorder (the journal, the desk's
view of it, the tables: :mod:`.recorder`), the clock (:mod:`.director_clock`), the heats formula
(:class:`~dealer_assist.tournament.heats.HeatsFormula`) and the moves between tables
(:class:`~dealer_assist.tournament.moves.TableMoves`).

Chips are checked after every hand and every record (:meth:`TournamentState.check_chips`): the
stacks in play always equal the chips the purchases brought; a difference raises
:class:`~dealer_assist.tournament.state.ChipsNotConserved`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from dealer_assist.errors import HandStateError
from dealer_assist.events import iso_utc, utc_now
from dealer_assist.games.session import TableSession
from dealer_assist.ports import ChainJournal
from dealer_assist.tournament import money
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.clock import SIM_EPOCH, ClockState
from dealer_assist.tournament.director_clock import LiveClock
from dealer_assist.tournament.errors import PurchaseRefused
from dealer_assist.tournament.heats import HeatsFormula, check_heats
from dealer_assist.tournament.live_clock import RESTART, clock_at
from dealer_assist.tournament.moves import TableMoves
from dealer_assist.tournament.prizes import payouts, prize_pool
from dealer_assist.tournament.ranking import EliminationRecord, Placing
from dealer_assist.tournament.recorder import TournamentRecorder
from dealer_assist.tournament.results import ResultsTable, results_table
from dealer_assist.tournament.seating import draw_seats
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.tables import TableJournalView, TournamentTable
from dealer_assist.tournament.upkeep import Players, PlayerUpkeep

SECONDS_PER_HAND = 120
"""The simulated clock: a hand lasts two minutes (a level of 20 minutes is 10 hands)."""


@dataclass(frozen=True)
class NextHand:
    """The next hand: the table that plays it, the level in force, the tournament's hand
    number (settled hands before it) and who sits out at it (seats)."""

    table: TournamentTable
    level: int
    number: int
    sitting_out: frozenset[int]


class Director:
    """Runs tournament ``tournament_id`` over ``tables`` with its records in ``journal``.

    Args:
        journal: the tournament's journal (opened), hands and records in one chain.
        tournament_id: its id (the desk's table id; several tournaments may share a journal).
        by: who authorises what the director does (the records' ``by``).
        make_table: opens table ``table_id`` (its source opened; its journal the view given).
        now: the wall clock (a live tournament's clock runs on it).

    Raises (every step): JournalError; ChipsNotConserved; HandStateError for a step out of turn.
    """

    def __init__(
        self,
        journal: ChainJournal,
        tournament_id: str,
        *,
        make_table: Callable[[str, TableJournalView], TournamentTable],
        by: str = "director",
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.journal = journal
        self.state = TournamentState(tournament_id)
        self._clock = LiveClock(self.state, now)
        self._recorder = TournamentRecorder(
            journal, self.state, by=by, make_table=make_table, clock_now=self._clock.clock_now
        )
        self._heats = HeatsFormula(self.state, self._recorder, self._clock)
        self._moves = TableMoves(self.state, self._recorder, in_heats=lambda: self.in_heats)
        self._upkeep = PlayerUpkeep(self.state, self._recorder, level=lambda: self.level)
        self.catch_up()

    # -- the fold and the records ---------------------------------------------------------------
    def catch_up(self) -> None:
        """Take every journal entry not taken yet (the director's own records, the hands the
        tables journaled, what a restart's resume journaled)."""
        self._recorder.catch_up()

    @property
    def by(self) -> str:
        """Who authorises what the director does (the records' ``by``)."""
        return self._recorder.by

    @by.setter
    def by(self, by: str) -> None:
        self._recorder.by = by

    @property
    def tables(self) -> dict[str, TournamentTable]:
        """The tournament's tables, by id (opened once the journal names them)."""
        return self._recorder.tables

    @property
    def desk(self) -> TableJournalView:
        """The journal as the director's desk sees it (its records' table)."""
        return self._recorder.desk

    @property
    def wall(self) -> Callable[[], datetime]:
        """The wall clock the director was given."""
        return self._clock.wall

    @property
    def structure(self) -> TournamentStructure:
        """The structure the tournament runs with. Raises HandStateError before open."""
        if self.state.structure is None:
            raise HandStateError("the tournament is not open yet")
        return self.state.structure

    def now(self) -> datetime:
        """The clock's moment: the wall clock in a live tournament (``wall_clock``), else the
        simulated clock's (:meth:`TournamentState.now`)."""
        return self._clock.now()

    def clock_now(self) -> ClockState:
        """The clock now (a live clock run on wall time since the last entry)."""
        return self._clock.clock_now()

    def restarted(self) -> bool:
        """A live tournament's director starting again after a crash or a power cut (the
        director's console does it when it opens): a running clock is journaled paused as of
        the last entry (``why = "restart"``, :mod:`~dealer_assist.tournament.live_clock`);
        True if it was, False when there was nothing to pause (a simulation, not started,
        paused already, over)."""
        paused = self._clock.restart_pause()
        if paused is None:
            return False
        self._desk(ev.PAUSED, paused, why=RESTART)
        return True

    @property
    def in_heats(self) -> bool:
        """The heats formula's heats are still being played (its final has not started)."""
        return self._heats.in_heats

    def ranking(self) -> tuple[Placing, ...]:
        """The tournament's ranking (under heats once the final is drawn: the final's, then the
        heats', :meth:`HeatsFormula.ranking`)."""
        return self._heats.ranking()

    def _desk(self, event: str, clock: ClockState | None = None, **fields: Any) -> None:
        self._recorder.desk_record(event, clock, **fields)

    def _table(self, table_id: str, name: str, *args: Any, event: str, **fields: Any) -> None:
        self._recorder.table_change(table_id, name, *args, event=event, **fields)

    # -- before the first hand ----------------------------------------------------------------
    def open(
        self,
        structure: TournamentStructure,
        *,
        seed: int,
        players: int,
        seconds_per_hand: int = SECONDS_PER_HAND,
        simulated_decisions: bool = False,
        wall_clock: bool = False,
    ) -> None:
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
            raise HandStateError(
                f"{players} players: this tournament needs at least {structure.min_players}"
            )
        n = -(-players // structure.max_seats)
        tables = [f"{self.state.tournament_id}-T{i}" for i in range(1, n + 1)]
        self._desk(
            ev.OPENED,
            structure=structure.to_dict(),
            seed=seed,
            tables=tables,
            seconds_per_hand=seconds_per_hand,
            sha256=structure.sha256,
            simulated_decisions=simulated_decisions,
            wall_clock=wall_clock,
        )

    def register(self, player: str, *, by: str | None = None) -> None:
        """``player``'s entry (the entry fee; once: a player already registered is left as is).
        Raises PurchaseRefused naming the rule."""
        if player in self.state.ledger.accounts:
            return
        if self.state.draw is not None:
            raise PurchaseRefused(player, "entry", "the seats are drawn: registration is closed")
        p = money.register(self.structure, self.state.ledger, player, authorised_by=by or self.by)
        self._desk(ev.REGISTERED, player=player, purchase=p.to_json())

    def draw(self) -> None:
        """The seat draw from the tournament's seed (once). Raises PurchaseRefused without
        enough players."""
        if self.state.draw is not None:
            return
        players = list(self.state.ledger.players)
        if len(players) < self.structure.min_players:
            raise PurchaseRefused(
                "?",
                "seat",
                f"{len(players)} registered, the tournament needs {self.structure.min_players}",
            )
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
            self._table(
                self.state.tables[t - 1],
                "seat_player",
                s,
                player,
                chips,
                event=ev.SEATED,
                player=player,
            )

    def start(self) -> None:
        """The clock starts (once), at the simulated clock's epoch (a live one: now)."""
        if self.state.started:
            return
        at = self._clock.wall() if self.state.wall_clock else SIM_EPOCH
        self._desk(ev.STARTED, ClockState().start(self.structure, at))

    def setup(
        self,
        structure: TournamentStructure,
        *,
        seed: int,
        players: Sequence[str],
        seconds_per_hand: int = SECONDS_PER_HAND,
    ) -> None:
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
        self._upkeep.busts(players)
        self._heats.between_hands()
        if self.finished:
            return
        self._upkeep.second_halves()
        self._upkeep.purchases(players)
        self._upkeep.sit_outs(players)
        self._moves.balance()
        self._moves.buttons()
        self._break()
        self._level()

    @property
    def finished(self) -> bool:
        """One player is left (under heats: in the final), or the results are journaled."""
        st = self.state
        return st.finished is not None or (
            st.started and not self.in_heats and len(st.alive()) <= 1
        )

    def _level(self) -> None:
        """A level record when the next hand starts a new level (its amounts, for the audit and
        the screens; the clock decided it)."""
        st = self.state
        lv = st.clock.next_hand_level(self.structure, self.now())
        if lv is None or lv.number == st.level_in_force:
            return
        self._desk(
            ev.LEVEL,
            level=lv.number,
            small=lv.small,
            big=lv.big,
            ante=lv.ante,
            bring_in=lv.bring_in,
            action_seconds=lv.action_seconds,
        )

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
        p = money.rebuy(
            s, st.ledger, player, stack=0, level=self.level, authorised_by=by or self.by
        )
        taken = st.at_table(table)
        free = [n for n in range(1, s.max_seats + 1) if n not in taken]
        if not free:
            raise HandStateError(f"table {table} is full")
        seat = old_seat if old_seat in free else free[0]
        rec = EliminationRecord("undo", player, bust.hand, bust.start_stack, by or self.by)
        self._desk(ev.UNDONE, player=player, elimination=rec.to_json())
        self._table(
            table,
            "seat_player",
            seat,
            player,
            p.chips,
            event=ev.REBUY,
            player=player,
            purchase=p.to_json(),
        )

    def _break(self) -> None:
        """A break that fell due runs on the simulated clock (its minutes pass, no hand)."""
        st = self.state
        if not st.clock.on_break or st.wall_clock:  # a live break runs on wall time
            return
        brk = self.structure.break_after(st.clock.level)
        minutes = brk.minutes if brk is not None else 0
        left = minutes * 60_000 - st.clock.break_ms
        after = st.clock.advance(self.structure, st.now() + timedelta(milliseconds=left))
        self._desk(
            ev.BREAK, after, after_level=brk.after_level if brk else st.clock.level, minutes=minutes
        )

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
        live = [t for t in self._moves.live_tables() if len(self._dealt(t)) >= 2]
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
