"""Statistics per table, pit, shift, dealer and game over a time range (docs/STATISTICS.md).

A hand counts with its ``drop`` (every chip wagered, minor units) and its ``win`` (the house's
result, minor units: minus the seats' nets in a banked game, the rake in a pot game); a void
hand counts as a hand with its wagers returned (drop and win 0). ``hold`` is ``win / drop`` as
an exact :class:`~fractions.Fraction`; hands per hour is the hands over the span from the first
hand's start to the last hand's end.

The storage layers aggregate in their database (:class:`StatsSource`); :func:`aggregate` is the
same aggregation over :class:`HandFact` rows, pure, for tests and small sources.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Protocol

from dealer_assist.errors import ConfigError
from dealer_assist.games.hold import Z95, Estimate

#: What a statistic can be grouped by. ``shift`` is the shift's start (:class:`ShiftPlan`);
#: ``hour`` and ``day`` are UTC time buckets (the plots' series).
GROUPS = ("table", "pit", "shift", "dealer", "game", "hour", "day")
#: The key of a hand's journal ``extra`` naming its dealer (``None``: not recorded).
DEALER_KEY = "dealer"
#: The alert kind of a hold outside its band (the floor's ``floor_alerts.kind``).
HOLD_VARIANCE = "hold_variance"
UNKNOWN = "-"


@dataclass(frozen=True)
class ShiftPlan:
    """The day's shifts by their UTC start hour (a named setting, default 06/14/22): a hand
    belongs to the shift that started last before it; a night shift keeps its start date."""

    starts: tuple[int, ...] = (6, 14, 22)

    def __post_init__(self) -> None:
        if not self.starts or sorted(set(self.starts)) != list(self.starts):
            raise ConfigError(f"shifts: start hours must be ascending and distinct: {self.starts}")
        if not all(0 <= h <= 23 for h in self.starts):
            raise ConfigError(f"shifts: start hours must be 0..23: {self.starts}")

    def start_of(self, when: datetime) -> datetime:
        """The UTC start of the shift ``when`` (aware) falls in."""
        day = when.replace(minute=0, second=0, microsecond=0)
        earlier = [h for h in self.starts if h <= when.hour]
        if earlier:
            return day.replace(hour=earlier[-1])
        return (day - timedelta(days=1)).replace(hour=self.starts[-1])

    def label(self, when: datetime) -> str:
        """``2026-12-01 06:00``: the shift's start."""
        return self.start_of(when).strftime("%Y-%m-%d %H:%M")


@dataclass(frozen=True)
class HandFact:
    """One hand as the statistics see it (times UTC-aware, money in minor units)."""

    table_id: str
    pit: str | None
    dealer: str | None
    game: str
    started_at: datetime
    ended_at: datetime
    drop: int
    win: int


@dataclass(frozen=True)
class StatsRow:
    """One group's figures. ``key``: the group's values in the order of ``by``; ``games``: the
    games it holds (one for a table); ``first``/``last``: the first start and last end."""

    by: tuple[str, ...]
    key: tuple[str, ...]
    games: tuple[str, ...]
    hands: int
    drop: int
    win: int
    first: datetime
    last: datetime

    @property
    def hold(self) -> Fraction:
        """``win / drop`` exactly (0 without drop)."""
        return Fraction(self.win, self.drop) if self.drop else Fraction(0)

    @property
    def hands_per_hour(self) -> Fraction | None:
        """Hands over the hours the group really dealt, from the first hand's start to the
        last hand's end (no floor under it: a one-minute minimum made 40 hands dealt in a few
        seconds read 2,400 an hour); ``None`` when that span is empty (not a rate)."""
        span = (self.last - self.first) // timedelta(microseconds=1)
        return Fraction(self.hands * 3_600_000_000, span) if span > 0 else None

    def hands_per_hour_text(self) -> str:
        """:attr:`hands_per_hour` to one decimal, ``—`` when there is none."""
        rate = self.hands_per_hour
        return "—" if rate is None else f"{float(rate):.1f}"

    def value(self, group: str) -> str:
        """This row's value of ``group`` (one of ``by``)."""
        return self.key[self.by.index(group)]


class StatsSource(Protocol):
    """What answers the statistics: a table's journal or the floor."""

    def stats(
        self,
        start: datetime,
        end: datetime,
        by: Sequence[str],
        *,
        pit: str | None = None,
        table_id: str | None = None,
    ) -> list[StatsRow]:
        """Rows of the hands recorded in ``[start, end)`` (the journal's ``recorded_at``: the
        floor's time index; buckets such as ``hour`` go by the hand's start) grouped ``by``
        (from :data:`GROUPS`), optionally of one pit or table, sorted by key. Raises
        DealerAssistError."""
        ...


def check_groups(by: Sequence[str]) -> tuple[str, ...]:
    """``by`` as a tuple. Raises ConfigError naming an unknown group."""
    bad = [g for g in by if g not in GROUPS]
    if bad or not by:
        raise ConfigError(f"group by: unknown {', '.join(bad) or 'nothing'} (one of {GROUPS})")
    return tuple(by)


def group_value(fact: HandFact, group: str, shifts: ShiftPlan) -> str:
    """The value of ``group`` for ``fact``."""
    if group == "table":
        return fact.table_id
    if group == "pit":
        return fact.pit or UNKNOWN
    if group == "dealer":
        return fact.dealer or UNKNOWN
    if group == "game":
        return fact.game
    if group == "shift":
        return shifts.label(fact.started_at)
    if group == "hour":
        return fact.started_at.strftime("%Y-%m-%d %H:00")
    return fact.started_at.strftime("%Y-%m-%d")


def aggregate(
    facts: Iterable[HandFact], by: Sequence[str], shifts: ShiftPlan | None = None
) -> list[StatsRow]:
    """Group ``facts`` by ``by`` and sum them (see the module doc); rows sorted by key.

    Raises:
        ConfigError: an unknown group.
    """
    groups = check_groups(by)
    plan = shifts or ShiftPlan()
    acc: dict[tuple[str, ...], list[HandFact]] = {}
    for f in facts:
        acc.setdefault(tuple(group_value(f, g, plan) for g in groups), []).append(f)
    return [
        StatsRow(
            groups,
            key,
            tuple(sorted({f.game for f in fs})),
            len(fs),
            sum(f.drop for f in fs),
            sum(f.win for f in fs),
            min(f.started_at for f in fs),
            max(f.ended_at for f in fs),
        )
        for key, fs in sorted(acc.items())
    ]


@dataclass(frozen=True)
class VarianceAlert:
    """A hold outside its 95% band: the row, the band (fractions of the drop) and how many
    standard errors away the hold is (``z``)."""

    row: StatsRow
    theoretical: Fraction
    band: tuple[float, float]
    z: float

    def sentence(self) -> str:
        """English text for the floor's alert and the report."""
        name = " / ".join(self.row.key)
        return (
            f"{name}: hold {float(self.row.hold):.2%} over {self.row.hands} hands is outside "
            f"the 95% band {self.band[0]:.2%} .. {self.band[1]:.2%} of the theoretical "
            f"{float(self.theoretical):.2%} (z = {self.z:+.1f})"
        )


def variance_alerts(
    rows: Iterable[StatsRow],
    theory: Callable[[str], Estimate | None],
    z: float = Z95,
    min_hands: int = 30,
) -> list[VarianceAlert]:
    """The rows of one game whose hold lies outside ``theoretical ± z·sd/sqrt(hands)``
    (:meth:`Estimate.band` at ``z`` = 1.96: the 95% band), for the statistical variance
    investigation; rows of several games, of a game without a theoretical hold (``theory``
    returns ``None``: the pot games) or under ``min_hands`` hands are not judged."""
    out: list[VarianceAlert] = []
    for row in rows:
        if len(row.games) != 1 or row.hands < min_hands or row.drop <= 0:
            continue
        est = theory(row.games[0])
        if est is None:
            continue
        lo, hi = est.band(row.hands)
        scale = z / Z95
        mid = float(est.hold)
        lo, hi = mid - (mid - lo) * scale, mid + (hi - mid) * scale
        hold = float(row.hold)
        if not lo <= hold <= hi:
            sd = (hi - mid) / z if hi > mid else 1.0
            out.append(VarianceAlert(row, est.hold, (lo, hi), (hold - mid) / sd))
    return out
