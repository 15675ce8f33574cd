"""What the tournament's screens show, Qt-free: a :class:`Snapshot` of the tournament's state
(the fold of its journal) at one moment, and the :class:`Board` it gives at any later moment.

The tournament has one clock. A live tournament's (the director's console, ``wall_clock``)
runs on wall time: at any moment every screen shows the fold's clock run from its own moment
(``as_of``, the last record or settled hand that carried it) to now, so a record that carries
no clock (a time bank drawn at a table, a sit-out) or a second reading of the journal never
moves it, and it never goes backwards. A simulation's clock is its own (the moment of its last
record or hand); between two readings it counts down with the room's wall clock (``now -
seen_at``). A paused clock, one not started and a finished tournament do not move. Money is
cents, chips are chips, durations milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from dealer_assist.errors import DealerAssistError
from dealer_assist.tournament import money
from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.live_clock import clock_at
from dealer_assist.tournament.prizes import place_amounts, prize_pool
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import Break, Level, TournamentStructure


@dataclass(frozen=True)
class Board:
    """The room's clock at one moment.

    Attributes:
        name, game ("stud" | "holdem"), betting: the structure's.
        level: the level in force (during a break: the one just finished); next_level: the one
            after it (None at the last).
        level_ms_left: time left in the level (None: a level by hands only, or the last);
        hands_left: hands left in it (None: not by hands).
        on_break, break_ms_left: a break and its countdown; ms_to_break, next_break: the next
            break ahead. paused: the director's pause. started: the clock runs (or ran).
        entrants, players_left, average_stack (chips), pool_cents, places: the prize by place
            (cents, best first; place 1 has the rounding remainder). finished: one player left.
    """

    name: str
    game: str
    betting: str
    level: Level
    next_level: Level | None
    level_ms_left: int | None
    hands_left: int | None
    on_break: bool
    break_ms_left: int | None
    ms_to_break: int | None
    next_break: Break | None
    paused: bool
    started: bool
    entrants: int
    players_left: int
    average_stack: int
    pool_cents: int
    places: tuple[int, ...]
    finished: bool


@dataclass(frozen=True)
class Snapshot:
    """The tournament as a fold of its journal said at wall-clock moment ``seen_at``.

    Attributes:
        tournament_id; structure; clock (its ``as_of`` the tournament's own time); entrants,
        players_left, chips_in_play, fees_cents; finished; tables: the tournament's table ids.
        wall_clock: a live tournament (its clock on wall time). sitting_out: the players in
        the tournament's sit-out (dealt in, folded when the action reaches them).
        hands: settled hands. busted: the seated players with no chips left, their table and
        whether a rebuy is open to them now ``(player, table, may_rebuy)``; eliminated:
        ``(player, table, place, hands before it)``; moves: the players moved between tables
        ``(hands before it, player, from table, to table, seat)``, the last
        :data:`MOVES_KEPT`; live_tables: the tables with players seated; winner: the last
        player left once the tournament is over ("" before).
    """

    tournament_id: str
    structure: TournamentStructure
    clock: ClockState
    entrants: int
    players_left: int
    chips_in_play: int
    fees_cents: int
    finished: bool
    tables: tuple[str, ...]
    seen_at: datetime
    wall_clock: bool = False
    sitting_out: frozenset[str] = frozenset()
    hands: int = 0
    busted: tuple[tuple[str, str, bool], ...] = ()
    eliminated: tuple[tuple[str, str, int, int], ...] = ()
    moves: tuple[tuple[int, str, str, str, int], ...] = ()
    live_tables: tuple[str, ...] = ()
    winner: str = ""

    @classmethod
    def of_state(cls, state: TournamentState, seen_at: datetime) -> Snapshot:
        """The snapshot of ``state`` (opened) read at ``seen_at`` (aware).

        Raises:
            ValueError: the state has no structure yet (the tournament is not open).
        """
        if state.structure is None:
            raise ValueError(f"tournament {state.tournament_id}: not open yet")
        alive = state.alive()
        done = state.finished is not None or (state.started and len(alive) <= 1)
        out = frozenset(n for n, e in state.entrants.items() if e.sitting_out and not e.out)
        return cls(
            state.tournament_id,
            state.structure,
            state.clock,
            len(state.entrants),
            len(alive),
            state.chips_in_play(),
            state.ledger.fees_cents,
            done,
            tuple(state.tables),
            seen_at,
            state.wall_clock,
            out,
            state.hands,
            _busted(state),
            _eliminated(state),
            tuple(state.moves[-MOVES_KEPT:]),
            tuple(t for t in state.tables if state.at_table(t)),
            alive[0] if done and len(alive) == 1 else "",
        )

    def clock_at(self, now: datetime) -> ClockState:
        """The clock at wall-clock ``now`` while it runs (not paused, not finished): a live
        tournament's run from its own moment to ``now`` (the one clock every screen shows), a
        simulation's run by ``now - seen_at``; never before the fold's moment."""
        c = self.clock
        if not c.running or c.as_of is None or c.paused or self.finished:
            return c
        if self.wall_clock:
            return clock_at(c, self.structure, now)
        lag = max(now - self.seen_at, timedelta(0))
        return c.advance(self.structure, c.as_of + lag)

    def board(self, now: datetime) -> Board:
        """What the room's clock shows at wall-clock ``now``."""
        s = self.structure
        v = self.clock_at(now).view(s)
        pool = prize_pool(s, self.fees_cents)
        places = tuple(place_amounts(s, pool, self.entrants)) if self.entrants else ()
        avg = self.chips_in_play // self.players_left if self.players_left else 0
        return Board(
            name=s.name,
            game=s.game,
            betting=s.betting,
            level=v.level,
            next_level=v.next_level,
            level_ms_left=v.level_ms_left,
            hands_left=v.hands_left,
            on_break=v.on_break,
            break_ms_left=v.break_ms_left,
            ms_to_break=v.ms_to_break,
            next_break=v.next_break,
            paused=v.paused,
            started=self.clock.running,
            entrants=self.entrants,
            players_left=self.players_left,
            average_stack=avg,
            pool_cents=pool,
            places=places,
            finished=self.finished,
        )


MOVES_KEPT = 20  # the moves a snapshot carries (the tables' consoles show the last ones)


def _busted(state: TournamentState) -> tuple[tuple[str, str, bool], ...]:
    """Seated players with no chips and whether a rebuy is open to them now (rules text 002:
    a rebuy while the structure allows it, else the player is out)."""
    s = state.structure
    if s is None:
        return ()
    out = []
    for name in state.alive():
        e = state.entrants[name]
        if e.table is None or state.stack(name) > 0:
            continue
        may = money.can_rebuy(s, state.ledger, name, stack=0, level=state.clock.level)
        out.append((name, e.table, may))
    return tuple(out)


def _eliminated(state: TournamentState) -> tuple[tuple[str, str, int, int], ...]:
    """``(player, table, place, hands before it)`` of each player out, by the ranking."""
    try:
        placings = state.eliminations.ranking(list(state.ledger.players))
    except DealerAssistError:  # a ranking the fold cannot make (said by the director)
        placings = ()
    places = {p.player: p.place for p in placings}
    return tuple(
        (n, state.left_at[n][0], places.get(n, 0), state.out_at.get(n, 0))
        for n in sorted(state.eliminations.out)
        if n in state.left_at
    )


WARNING_MS = 60_000
"""The end-of-level warning: the last minute of a level by time (the clock and the strip)."""


def last_minute(b: Board) -> bool:
    """The level's last minute is running (not paused, not on a break, not the last level)."""
    left = b.level_ms_left
    return (
        b.started
        and not b.paused
        and not b.on_break
        and not b.finished
        and left is not None
        and 0 < left <= WARNING_MS
    )


def countdown(ms: int) -> str:
    """``ms`` as the clock shows it: ``14:59`` (minutes:seconds), ``1:02:03`` past an hour;
    rounded up, so 0:00 is shown only when the time is up."""
    total = -(-max(ms, 0) // 1000)
    h, rest = divmod(total, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
