"""A live tournament's clock on wall time, across a crash or a power cut.

In a simulation the clock is simulated (each hand lasts ``seconds_per_hand``). A live
tournament (the director's console, the room's clock; opened with ``wall_clock``) runs its
level clock on the wall clock: a hand is run on the clock from its journaled start to its end,
and every tournament record carries the clock's state at the wall moment it was written.

**The rule after a crash or a power cut.** The restarted director finds the clock where the
last journal entry left it (a record's snapshot, or the clock run to the end of the last
settled hand after it) and journals a pause at that moment (a ``paused`` record with ``why =
"restart"``): the time left in the level (or the break) is the time left as of that last
entry; the outage is not counted; the level, the stacks and everything else are the fold's.
Nothing runs until the director resumes the clock (a ``resumed`` record, with who did it).
Why: a room after a power cut needs its players seated and its tables checked before the
clock runs again (TDA practice: the director stops the clock for any interruption and says
when it restarts); counting the outage would take level time from players who could not play,
and restarting on its own would run the clock over an empty room. A hand a crash left in
progress may still be finished while the clock is paused (it counts as a hand of its level,
with no time run).

The director reads the clock through :class:`~dealer_assist.tournament.director_clock.LiveClock`.
"""

from __future__ import annotations

from datetime import datetime

from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.errors import ClockError
from dealer_assist.tournament.structure import TournamentStructure

RESTART = "restart"
"""The ``why`` of the pause a restart journals."""


def clock_at(clock: ClockState, structure: TournamentStructure, now: datetime) -> ClockState:
    """``clock`` run on wall time to ``now`` (never backwards: a ``now`` before its ``as_of``
    leaves it as it is); a clock not started is returned as it is."""
    if not clock.running or clock.as_of is None or now <= clock.as_of:
        return clock
    return clock.advance(structure, now)


def restart_pause(clock: ClockState, structure: TournamentStructure) -> ClockState | None:
    """The clock a restart journals (see the module doc): paused at its own ``as_of``, or None
    when there is nothing to pause (not started, or paused already)."""
    if not clock.running or clock.paused or clock.as_of is None:
        return None
    return clock.pause(structure, clock.as_of)


def run_hand(
    clock: ClockState, structure: TournamentStructure, started: datetime, ended: datetime
) -> tuple[ClockState, int]:
    """``clock`` after a settled hand of a live table that ran from ``started`` to ``ended``
    (wall time; never before the clock's ``as_of``), and the number of the level it was played
    at. A paused clock (a hand finished after a restart's pause) counts the hand with no time
    run. A hand a live table dealt during a break (the room's call, not the clock's) is taken
    as played at the level the break follows and moves no level: the break's time runs on.

    Raises:
        ClockError: the clock not started.
    """
    t0 = max(started, clock.as_of or started)
    t1 = max(ended, t0)
    if clock.paused:
        c, level = clock.resume(structure, t0).start_hand(structure, t0)
        return c.end_hand(structure, t0).pause(structure, t0), level.number
    try:
        c, level = clock.start_hand(structure, t0)
    except ClockError:  # on a break: the room's table played anyway
        return clock.advance(structure, t1), clock.advance(structure, t0).level
    return c.end_hand(structure, t1), level.number
