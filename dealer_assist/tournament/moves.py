"""Players moved between a tournament's tables between hands: a table broken when the players
left fit the others, tables balanced when they differ by two or more, a Hold'em table's first
button drawn; each move two records of the tables (the player leaves one with their stack and
sits at the other), seats drawn from the tournament's seed
(:func:`~dealer_assist.tournament.draws.draw_number`), so a crash
between the two records is finished by the next run exactly as the first would have.

:class:`TableMoves` is a collaborator held by
:class:`~dealer_assist.tournament.director.Director`, journaling through its recorder.
"""

from __future__ import annotations

from collections.abc import Callable

from dealer_assist.errors import HandStateError
from dealer_assist.games import get_pot_game
from dealer_assist.games.session import TableSession
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.recorder import TournamentRecorder
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure


class TableMoves:
    """Moves between tournament ``state``'s tables (see the module doc).

    Args:
        state: the tournament's fold (read; written only through ``recorder``).
        recorder: journals each move as the two tables' records, and holds the tables.
        in_heats: True while the heats formula's heats are played (no balancing then: each
            heat is played on its own table).
    """

    def __init__(
        self,
        state: TournamentState,
        recorder: TournamentRecorder,
        *,
        in_heats: Callable[[], bool],
    ) -> None:
        self.state = state
        self._recorder = recorder
        self._in_heats = in_heats

    @property
    def structure(self) -> TournamentStructure:
        """The tournament's structure. Raises HandStateError before open."""
        if self.state.structure is None:
            raise HandStateError("the tournament is not open yet")
        return self.state.structure

    def balance(self) -> None:
        """Break a table when the players left fit the others; then move players from the
        fullest table to the emptiest while they differ by two or more (seats drawn from the
        seed)."""
        st, cap = self.state, self.structure.max_seats
        if self._in_heats():  # each heat is played on its own table (heats.py)
            return
        for name, e in st.entrants.items():  # a move a crash left half done
            if e.transit is not None:
                self._move_in(name, self._emptiest(exclude=None))
        while True:
            live = self.live_tables()
            total = sum(len(st.at_table(t)) for t in live)
            if len(live) <= 1:
                return
            if total <= cap * (len(live) - 1):
                gone = min(live, key=lambda t: (len(st.at_table(t)), -live.index(t)))
                for _seat, name in sorted(st.at_table(gone).items()):
                    self._move(name, gone, self._emptiest(exclude=gone))
                continue
            full = max(live, key=lambda t: (len(st.at_table(t)), -live.index(t)))
            empty = self._emptiest(exclude=None)
            if len(st.at_table(full)) - len(st.at_table(empty)) < 2:
                return
            seated = st.at_table(full)
            pick = sorted(seated)[int(draw_number(st.seed, "move", st.hands, full) * len(seated))]
            self._move(seated[pick], full, empty)

    def live_tables(self) -> list[str]:
        """The tables with players seated, in the tournament's order."""
        return [t for t in self.state.tables if self.state.at_table(t)]

    def _emptiest(self, exclude: str | None) -> str:
        live = [t for t in self.live_tables() if t != exclude]
        return min(live, key=lambda t: (len(self.state.at_table(t)), live.index(t)))

    def _move(self, name: str, src: str, dst: str) -> None:
        e = self.state.entrants[name]
        self._recorder.table_change(src, "leave", e.seat, event=ev.MOVED_OUT, player=name, to=dst)
        self._move_in(name, dst)

    def _move_in(self, name: str, dst: str) -> None:
        st = self.state
        taken = st.at_table(dst)
        free = [s for s in range(1, self.structure.max_seats + 1) if s not in taken]
        seat = free[int(draw_number(st.seed, "seat", st.hands, name) * len(free))]
        stack = st.entrants[name].transit or 0
        self._recorder.table_change(
            dst, "seat_player", seat, name, stack, event=ev.MOVED_IN, player=name
        )

    def buttons(self) -> None:
        """A game with a button (Hold'em) has it drawn at each table before its first hand
        (seeded from the tournament's seed, journaled as the table's record)."""
        st = self.state
        for tid in self.live_tables():
            table = self._recorder.tables[tid]
            if not get_pot_game(table.base.game).has_button:
                return
            if st.sessions.get(tid, TableSession(tid)).button is None:
                seed = int(draw_number(st.seed, "button", tid) * 2**32)
                self._recorder.table_change(tid, "draw_button", seed, event=ev.BUTTON)
