"""The director's clock: the wall clock in a live tournament, the simulated one otherwise.

:class:`LiveClock` owns the wall clock a :class:`~dealer_assist.tournament.director.Director`
was given and reads the tournament's clock from the fold; the rule after a crash or a power
cut, and the clock arithmetic, are :mod:`dealer_assist.tournament.live_clock`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.live_clock import clock_at, restart_pause
from dealer_assist.tournament.state import TournamentState


class LiveClock:
    """Tournament ``state``'s clock, on ``wall`` when the tournament is live (``wall_clock``).

    Args:
        state: the tournament's fold (read, never written).
        wall: the wall clock (timezone-aware UTC datetimes).
    """

    def __init__(self, state: TournamentState, wall: Callable[[], datetime]) -> None:
        self.state = state
        self.wall = wall

    def now(self) -> datetime:
        """The clock's moment: the wall clock in a live tournament (``wall_clock``), else the
        simulated clock's (:meth:`TournamentState.now`)."""
        return self.wall() if self.state.wall_clock else self.state.now()

    def clock_now(self) -> ClockState:
        """The clock now (a live clock run on wall time since the last entry)."""
        if not self.state.wall_clock or self.state.structure is None:
            return self.state.clock
        return clock_at(self.state.clock, self.state.structure, self.wall())

    def restart_pause(self) -> ClockState | None:
        """The paused clock a live tournament's director journals when it starts again after
        a crash or a power cut (as of the last entry, :func:`live_clock.restart_pause`); None
        when there is nothing to pause (a simulation, not started, paused already, over)."""
        st = self.state
        if not st.wall_clock or st.finished is not None or st.structure is None:
            return None
        return restart_pause(st.clock, st.structure)
