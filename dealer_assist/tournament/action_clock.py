"""The action clock of each decision and each player's time bank (rules text 002, "Tempo per la
giocata"), pure: the moments are passed in.

Each decision has the level's ``action_seconds``. The time bank is one reserve of seconds per
player for the whole tournament, used once but possibly across several hands: what a decision
draws from it is gone for the next. With ``time_bank = "automatic"`` it is drawn as soon as the
action clock runs out; with ``"on_request"`` only if the player asked for it before then
(:meth:`DecisionClock.open_bank`). When both are used up the player times out: put in sit-out,
their hand checked if it can be, else folded (:func:`timeout_action`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from dealer_assist.tournament.clock import elapsed_ms
from dealer_assist.tournament.errors import ClockError
from dealer_assist.tournament.structure import TournamentStructure


def timeout_action(can_check: bool) -> str:
    """What a timed-out player's hand does (rules text 002; GAMES.md "Action clock"): ``check``
    if it can, else ``fold``; the player is then in sit-out."""
    return "check" if can_check else "fold"


@dataclass(frozen=True)
class TimeBanks:
    """Each player's time bank left, in milliseconds (``banks[player]``)."""

    banks: Mapping[str, int] = field(default_factory=dict)

    @classmethod
    def full(cls, structure: TournamentStructure, players: Iterable[str]) -> TimeBanks:
        """Every player with the structure's whole ``time_bank_seconds``."""
        return cls({p: structure.time_bank_seconds * 1000 for p in players})

    def left(self, player: str) -> int:
        """Milliseconds left to ``player`` (0 for a player without a bank)."""
        return self.banks.get(player, 0)

    def with_left(self, player: str, ms: int) -> TimeBanks:
        """The banks with ``player``'s set to ``ms``."""
        return TimeBanks({**self.banks, player: max(ms, 0)})

    def settle(self, outcome: DecisionOutcome) -> TimeBanks:
        """The banks after a decision's outcome."""
        return self.with_left(outcome.player, outcome.bank_ms_left)

    def to_json(self) -> dict[str, int]:
        """``{player: ms}``."""
        return dict(self.banks)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TimeBanks:
        """What ``to_json`` wrote. Raises ClockError for a value that is not whole ms >= 0."""
        for k, v in data.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ClockError(f"time banks: {k}: whole milliseconds expected, got {v!r}")
        return cls(dict(data))


@dataclass(frozen=True)
class DecisionStatus:
    """A decision's clock at a moment: ms left of the action clock and of the bank (as it would
    stand if the player acted now), whether the bank is being drawn, whether time is up."""

    action_ms_left: int
    bank_ms_left: int
    drawing_bank: bool
    timed_out: bool


@dataclass(frozen=True)
class DecisionOutcome:
    """How a decision's time ended: ``timed_out`` (then the hand checks or folds and the player
    sits out) or acted after ``elapsed_ms``; ``bank_ms_left``: the player's bank after it."""

    player: str
    elapsed_ms: int
    bank_ms_used: int
    bank_ms_left: int
    timed_out: bool


@dataclass(frozen=True)
class DecisionClock:
    """The clock of one decision, from ``started_at``.

    Attributes:
        player; started_at (aware); action_ms: the level's action clock; bank_ms: the player's
        bank when the decision began; bank_open: the bank may be drawn (automatic mode: from
        the start; on request: once asked).
    """

    player: str
    started_at: datetime
    action_ms: int
    bank_ms: int
    bank_open: bool

    @classmethod
    def begin(
        cls,
        structure: TournamentStructure,
        level: int,
        player: str,
        now: datetime,
        banks: TimeBanks,
    ) -> DecisionClock:
        """The action reaches ``player`` at ``now`` during a hand played at ``level``."""
        elapsed_ms(now, now)  # refuses a naive timestamp
        bank = banks.left(player)
        return cls(
            player,
            now,
            structure.level(level).action_seconds * 1000,
            bank,
            structure.time_bank == "automatic" and bank > 0,
        )

    def deadline(self) -> datetime:
        """When the player times out if they do not act (the bank included once open)."""
        extra = self.bank_ms if self.bank_open else 0
        return self.started_at + timedelta(milliseconds=self.action_ms + extra)

    def status(self, now: datetime) -> DecisionStatus:
        """The clock at ``now``. Raises ClockError for a naive or earlier ``now``."""
        t = elapsed_ms(self.started_at, now)
        over = max(t - self.action_ms, 0)
        bank_left = self.bank_ms - over if self.bank_open else self.bank_ms
        timed_out = t >= self.action_ms + (self.bank_ms if self.bank_open else 0)
        return DecisionStatus(
            max(self.action_ms - t, 0),
            max(bank_left, 0),
            self.bank_open and over > 0 and not timed_out,
            timed_out,
        )

    def open_bank(self, now: datetime) -> DecisionClock:
        """The player asks for the time bank at ``now`` (``on_request``).

        Raises:
            ClockError: no bank left, already open, or the action clock already ran out.
        """
        if self.bank_open:
            raise ClockError(f"{self.player}: the time bank is already in use")
        if self.bank_ms <= 0:
            raise ClockError(f"{self.player}: no time bank left")
        if elapsed_ms(self.started_at, now) >= self.action_ms:
            raise ClockError(f"{self.player}: the action clock has run out")
        return replace(self, bank_open=True)

    def finish(self, now: datetime) -> DecisionOutcome:
        """The player acted at ``now`` (or ``now`` is the tick that found the time up): how the
        decision's time ended and the bank left. Past the deadline it is a time-out, with the
        bank drawn to 0 if it was open."""
        st = self.status(now)
        t = elapsed_ms(self.started_at, now)
        if st.timed_out:
            used = self.bank_ms if self.bank_open else 0
            return DecisionOutcome(self.player, t, used, self.bank_ms - used, True)
        used = max(t - self.action_ms, 0) if self.bank_open else 0
        return DecisionOutcome(self.player, t, used, self.bank_ms - used, False)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "player": self.player,
            "started_at": self.started_at.isoformat(),
            "action_ms": self.action_ms,
            "bank_ms": self.bank_ms,
            "bank_open": self.bank_open,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DecisionClock:
        """What ``to_json`` wrote. Raises ClockError naming a bad field."""
        try:
            started = datetime.fromisoformat(data["started_at"])
            player, action, bank, open_ = (
                data["player"],
                data["action_ms"],
                data["bank_ms"],
                data["bank_open"],
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ClockError(f"decision clock: bad or missing field: {e}") from e
        if (
            not isinstance(player, str)
            or started.tzinfo is None
            or not isinstance(open_, bool)
            or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in (action, bank)
            )
        ):
            raise ClockError(f"decision clock: bad field in {dict(data)!r}")
        return cls(player, started, action, bank, open_)


# -- the banks in the journal (a live table) ----------------------------------------------------
TIME_BANK_EVENT = "time_bank"
"""A desk record's tournament event: a live table's decision drew on a player's time bank."""


def bank_part(
    tournament_id: str, table_id: str, outcome: DecisionOutcome, hand_uid: str | None
) -> dict[str, Any]:
    """The tournament part of the record of a decision that drew on ``outcome.player``'s bank
    (rules text 002: one reserve for the whole tournament): the ms used and, absolute, the ms
    left, so reading it twice never counts the use twice. No ``clock``: it moves no clock."""
    return {
        "id": tournament_id,
        "event": TIME_BANK_EVENT,
        "player": outcome.player,
        "table": table_id,
        "hand_uid": hand_uid,
        "bank_ms_used": outcome.bank_ms_used,
        "bank_ms_left": outcome.bank_ms_left,
        "timed_out": outcome.timed_out,
    }


def journaled_banks(parts: Iterable[Mapping[str, Any]], tournament_id: str) -> TimeBanks:
    """Each player's bank as the last :data:`TIME_BANK_EVENT` part of ``tournament_id`` in
    ``parts`` (journal order) left it; players without one are not in the result (full bank).

    Raises:
        ClockError: such a part without a player name or whole ms >= 0 left (a corrupt record).
    """
    banks: dict[str, int] = {}
    for part in parts:
        if part.get("id") != tournament_id or part.get("event") != TIME_BANK_EVENT:
            continue
        player, left = part.get("player"), part.get("bank_ms_left")
        if not isinstance(player, str) or not player:
            raise ClockError(f"time bank record: bad player {player!r}")
        if not isinstance(left, int) or isinstance(left, bool) or left < 0:
            raise ClockError(f"time bank record of {player}: bad bank_ms_left {left!r}")
        banks[player] = left
    return TimeBanks(banks)
