"""The tournament clock, pure: levels by running time and/or hands, breaks, pause and resume.

Nothing here reads the clock: every operation takes the moment it happens (``now``, a
timezone-aware datetime) and returns a new :class:`ClockState`; the old one is unchanged, so a
refused operation (:class:`ClockError`) changes nothing. ``ClockState.to_json()`` /
``from_json()`` round-trip exactly, so a journal of the clock's operations (or of its state)
resumes it to the millisecond after a crash.

Rules (rules text 002, "Importo del limite minore ..."; GAMES.md "Tournaments"):

- A level lasts its ``minutes`` of running clock and/or its ``hands`` (hands started in it),
  whichever falls due first; the last level lasts to the end.
- A level change takes effect from the first hand that starts after it falls due: a hand keeps
  the level it started at (:meth:`ClockState.start_hand` returns it). A level due by time ends
  the moment its time is up (the next level's time runs from then); one due by hands ends when
  its last hand has ended, or at the start of the next hand if hands are still in play at other
  tables.
- A break follows the level it is announced after; during it the level clock stops and the
  break's own countdown runs; no hand starts. The break over, the next level's clock starts.
- While paused nothing runs (neither level nor break).

The action clock and the time bank are in :mod:`dealer_assist.tournament.action_clock`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from dealer_assist.tournament.errors import ClockError
from dealer_assist.tournament.structure import Level, TournamentStructure

_MS = timedelta(milliseconds=1)

SIM_EPOCH = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)
"""The simulated clock's start (a simulation's time is its own: hands x seconds_per_hand)."""


def elapsed_ms(since: datetime, now: datetime) -> int:
    """Whole milliseconds from ``since`` to ``now`` (both aware).

    Raises:
        ClockError: a naive timestamp, or ``now`` before ``since``.
    """
    for t in (since, now):
        if t.tzinfo is None or t.utcoffset() is None:
            raise ClockError(f"timestamp {t.isoformat()} has no time zone (UTC expected)")
    if now < since:
        raise ClockError(f"time went backwards: {now.isoformat()} is before {since.isoformat()}")
    return (now - since) // _MS


@dataclass(frozen=True)
class ClockState:
    """Where the tournament clock stands at ``as_of``.

    Attributes:
        level: the level whose period runs (the next hand's level, unless on a break; during the
            break after level N, ``level`` is N).
        level_ms: running milliseconds into that level.
        hands_in_level: hands started in that level's period.
        hands_started: hands started in the tournament.
        hands_in_play: hands started and not ended (one per table at most).
        on_break: the break after ``level`` is running; break_ms: milliseconds of it elapsed.
        running: started; paused: the director's pause (nothing runs).
        as_of: the moment this state describes (None before the start).
    """

    level: int = 1
    level_ms: int = 0
    hands_in_level: int = 0
    hands_started: int = 0
    hands_in_play: int = 0
    on_break: bool = False
    break_ms: int = 0
    running: bool = False
    paused: bool = False
    as_of: datetime | None = None

    # -- operations ---------------------------------------------------------------------------

    def start(self, structure: TournamentStructure, now: datetime) -> ClockState:
        """The tournament's clock starts at ``now`` (level 1, nothing elapsed).

        Raises:
            ClockError: already started, or a naive ``now``.
        """
        if self.running:
            raise ClockError("the clock has already started")
        elapsed_ms(now, now)
        return replace(ClockState(), running=True, as_of=now)

    def advance(self, structure: TournamentStructure, now: datetime) -> ClockState:
        """The state at ``now``: running time added, levels and breaks that fell due rolled.

        Raises:
            ClockError: ``now`` before ``as_of`` or naive; the clock not started.
        """
        if not self.running or self.as_of is None:
            raise ClockError("the clock has not started")
        dt = elapsed_ms(self.as_of, now)
        s = replace(self, as_of=now)
        if self.paused:
            return s
        return s._run(structure, dt)

    def start_hand(self, structure: TournamentStructure, now: datetime) -> tuple[ClockState, Level]:
        """A hand starts at ``now``: the state after it and the level it is played at.

        Raises:
            ClockError: the clock not started, paused, or on a break (also a break that begins
                now because the level's hands are done).
        """
        s = self.advance(structure, now)
        if s._hands_due(structure, ignore_play=True):
            s = s._roll(structure)
        if s.paused:
            raise ClockError("the clock is paused: no hand starts until it resumes")
        if s.on_break:
            raise ClockError(f"break after level {s.level}: no hand starts during it")
        s = replace(
            s,
            hands_in_level=s.hands_in_level + 1,
            hands_started=s.hands_started + 1,
            hands_in_play=s.hands_in_play + 1,
        )
        return s, structure.level(s.level)

    def end_hand(self, structure: TournamentStructure, now: datetime) -> ClockState:
        """A hand in play ended at ``now`` (a level due by hands may end with it).

        Raises:
            ClockError: no hand in play; the clock not started.
        """
        s = self.advance(structure, now)
        if s.hands_in_play <= 0:
            raise ClockError("no hand is in play")
        return replace(s, hands_in_play=s.hands_in_play - 1)._run(structure, 0)

    def pause(self, structure: TournamentStructure, now: datetime) -> ClockState:
        """The director pauses the clock at ``now``. Raises ClockError if already paused."""
        if self.paused:
            raise ClockError("the clock is already paused")
        return replace(self.advance(structure, now), paused=True)

    def resume(self, structure: TournamentStructure, now: datetime) -> ClockState:
        """The clock runs again from ``now``. Raises ClockError if not paused."""
        if not self.paused:
            raise ClockError("the clock is not paused")
        return replace(self.advance(structure, now), paused=False)

    def next_hand_level(self, structure: TournamentStructure, now: datetime) -> Level | None:
        """The level a hand starting at ``now`` would be played at (None: on a break or paused)."""
        try:
            return self.start_hand(structure, now)[1]
        except ClockError:
            return None

    # -- the schedule -------------------------------------------------------------------------

    def _hands_due(self, structure: TournamentStructure, *, ignore_play: bool = False) -> bool:
        lv = structure.level(self.level)
        return (
            not self.on_break
            and lv.number < len(structure.levels)
            and lv.hands is not None
            and self.hands_in_level >= lv.hands
            and (ignore_play or self.hands_in_play == 0)
        )

    def _roll(self, structure: TournamentStructure) -> ClockState:
        """The current level (or its break) over: its break, or the next level."""
        if not self.on_break and structure.break_after(self.level) is not None:
            return replace(self, on_break=True, break_ms=0)
        return replace(
            self, level=self.level + 1, level_ms=0, hands_in_level=0, on_break=False, break_ms=0
        )

    def _run(self, structure: TournamentStructure, dt: int) -> ClockState:
        """``dt`` running milliseconds later, rolling what falls due on the way."""
        s = self
        while True:
            if s.on_break:
                brk = structure.break_after(s.level)
                left = (brk.minutes * 60_000 if brk else 0) - s.break_ms
                if dt < left:
                    return replace(s, break_ms=s.break_ms + dt)
                dt -= left
                s = s._roll(structure)
                continue
            lv = structure.level(s.level)
            if lv.number >= len(structure.levels):  # the last level lasts to the end
                return replace(s, level_ms=s.level_ms + dt)
            if s._hands_due(structure):
                s = s._roll(structure)
                continue
            if lv.minutes is None:
                return replace(s, level_ms=s.level_ms + dt)
            left = lv.minutes * 60_000 - s.level_ms
            if dt < left:
                return replace(s, level_ms=s.level_ms + dt)
            dt -= left
            s = s._roll(structure)

    # -- what the screens show ----------------------------------------------------------------

    def view(self, structure: TournamentStructure, now: datetime | None = None) -> ClockView:
        """What the room's clock shows at ``now`` (default: ``as_of``)."""
        s = self.advance(structure, now) if now is not None and self.running else self
        lv = structure.level(s.level)
        nxt = structure.levels[s.level] if s.level < len(structure.levels) else None
        brk = structure.break_after(s.level)
        level_left = None
        if lv.minutes is not None and lv.number < len(structure.levels):
            level_left = max(lv.minutes * 60_000 - s.level_ms, 0)
        hands_left = None
        if lv.hands is not None and lv.number < len(structure.levels):
            hands_left = max(lv.hands - s.hands_in_level, 0)
        return ClockView(
            level=lv,
            next_level=nxt,
            on_break=s.on_break,
            paused=s.paused,
            level_ms_left=0 if s.on_break else level_left,
            hands_left=0 if s.on_break else hands_left,
            break_ms_left=max(brk.minutes * 60_000 - s.break_ms, 0) if s.on_break and brk else None,
            ms_to_break=None if s.on_break else _ms_to_break(structure, s),
            next_break=next((b for b in structure.breaks if b.after_level >= s.level), None)
            if not s.on_break
            else brk,
        )

    # -- serialization ------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict (``as_of`` in ISO 8601 with its offset)."""
        return {
            "level": self.level,
            "level_ms": self.level_ms,
            "hands_in_level": self.hands_in_level,
            "hands_started": self.hands_started,
            "hands_in_play": self.hands_in_play,
            "on_break": self.on_break,
            "break_ms": self.break_ms,
            "running": self.running,
            "paused": self.paused,
            "as_of": self.as_of.isoformat() if self.as_of else None,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ClockState:
        """The state ``to_json`` wrote. Raises ClockError naming a missing or mistyped field."""
        ints = ("level", "level_ms", "hands_in_level", "hands_started", "hands_in_play", "break_ms")
        values: dict[str, Any] = {}
        for key in ints:
            v = data.get(key)
            if not isinstance(v, int) or isinstance(v, bool) or v < (1 if key == "level" else 0):
                raise ClockError(f"clock state: {key}: a whole number expected, got {v!r}")
            values[key] = v
        for key in ("on_break", "running", "paused"):
            if not isinstance(data.get(key), bool):
                raise ClockError(f"clock state: {key}: true or false expected")
            values[key] = data[key]
        as_of = data.get("as_of")
        if as_of is not None:
            try:
                values["as_of"] = datetime.fromisoformat(as_of)
            except (TypeError, ValueError) as e:
                raise ClockError(f"clock state: as_of: not an ISO timestamp: {as_of!r}") from e
            if values["as_of"].tzinfo is None:
                raise ClockError("clock state: as_of: no time zone")
        return cls(**values)


@dataclass(frozen=True)
class ClockView:
    """The clock for the screens. Durations in milliseconds; None where it does not apply.

    Attributes:
        level: the level in force (during a break: the one just finished); next_level: the one
            after it (None at the last).
        level_ms_left: time left in the level (None: not by time, or the last level).
        hands_left: hands left in the level (None: not by hands, or the last level).
        on_break, paused; break_ms_left: the break's countdown.
        ms_to_break: running time until the next break begins (None: no break ahead, or a
            level by hands only before it); next_break: that break (or the one running).
    """

    level: Level
    next_level: Level | None
    on_break: bool
    paused: bool
    level_ms_left: int | None
    hands_left: int | None
    break_ms_left: int | None
    ms_to_break: int | None
    next_break: Any


def _ms_to_break(structure: TournamentStructure, s: ClockState) -> int | None:
    total = 0
    for lv in structure.levels[s.level - 1 :]:
        if lv.minutes is None or lv.number >= len(structure.levels):
            return None
        total += lv.minutes * 60_000 - (s.level_ms if lv.number == s.level else 0)
        if structure.break_after(lv.number) is not None:
            return max(total, 0)
    return None
