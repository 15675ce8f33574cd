"""A tournament's structure: the TOML file a tournament director edits (``config/tournaments``).

:class:`TournamentStructure` and its parts, as :mod:`dealer_assist.tournament.structure_reader`
gives them: ``load_structure(path)`` reads and checks one file, ``structure_from_dict(data)`` a
dict of the same shape (what ``TournamentStructure.to_dict()`` gives back, so a journal can hold
the structure a tournament ran with). Every rule of rules text 002 that a structure can break is
checked there, and a refusal is a :class:`StructureError` naming the file and the key path
(``levels[3].bring_in``). The keys are documented in ``docs/TOURNAMENTS.md``.

Money is integer cents (keys ending ``_cents``), chips are integer chips; no floats, except
prize percentages, read exactly to hundredths of a percent (basis points).
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from dealer_assist.evaluator import Category
from dealer_assist.games.tournament_levels import TOURNAMENT_GAMES, tournament_levels

GAMES = TOURNAMENT_GAMES
"""The pot games a tournament can play (their levels: ``dealer_assist.games.tournament_levels``)."""
BETTINGS = ("fixed_limit", "pot_limit", "no_limit")
MAX_SEATS = {code: tournament_levels(code).max_seats for code in GAMES}
"""Seats at one table (GAMES.md: Stud up to 8, Hold'em up to 10)."""
FEE_STEP_CENTS = 50
"""Fees are EUR 0.50 or a multiple of it (rules text 002, "Importi del diritto di
partecipazione")."""
PLAYER_CAP_CENTS = 25_000
"""What one player may pay for one tournament in all (entry + rebuys + add-on): EUR 250.00."""
TIME_BANK_MODES = ("automatic", "on_request")
PRIZE_KINDS = ("winner_takes_all", "percentages")
FORMULAS = ("single", "heats")
CATEGORY_CODES = tuple(c.code for c in Category)
BASIS_POINTS = 10_000
"""100 % in hundredths of a percent."""


def euros(cents: int) -> str:
    """``2500`` -> ``'EUR 25.00'`` (messages and exports)."""
    sign = "-" if cents < 0 else ""
    return f"{sign}EUR {abs(cents) // 100}.{abs(cents) % 100:02d}"


@dataclass(frozen=True)
class Level:
    """One level of the published schedule (rules text 002, "Importo del limite minore").

    Attributes:
        number: 1-based.
        small: Stud: the small limit; Hold'em: the small blind (chips).
        big: Stud: the big limit (twice the small limit, text 002); Hold'em: the big blind.
        ante: every player's ante (0: none).
        bring_in: Stud only (at most half the small limit); 0 in Hold'em.
        minutes: how long the level runs on the clock (None: not by time).
        hands: how many hands start in it (None: not by hands). With both, the level ends at
            whichever falls due first; the last level may have neither (it lasts to the end).
        action_seconds: the action clock for each decision at this level.
    """

    number: int
    small: int
    big: int
    ante: int
    bring_in: int
    minutes: int | None
    hands: int | None
    action_seconds: int


@dataclass(frozen=True)
class Break:
    """An announced pause after level ``after_level`` (its clock stopped), ``minutes`` long."""

    after_level: int
    minutes: int


@dataclass(frozen=True)
class RebuyRule:
    """Rebuys (text 002, "Il re-buy"): a player below the starting stack buys the starting stack
    again for the entry fee, at most ``max_count`` times, while the level is <= ``until_level``."""

    max_count: int
    until_level: int
    fee_cents: int
    chips: int


@dataclass(frozen=True)
class AddOnRule:
    """The add-on (text 002, "L' add-on"): at most one per player, for ``fee_cents`` (at most the
    entry fee) and ``chips`` (default: starting stack x fee / entry fee, rounded down to the
    chip), while the level is in ``from_level..until_level``."""

    fee_cents: int
    chips: int
    from_level: int
    until_level: int


@dataclass(frozen=True)
class SpecialPrize:
    """A prize for a hand shown (text 002: "ad esempio ... scala reale"): ``amount_cents`` to each
    player who shows ``category`` at a showdown, at most ``times`` awards in the tournament
    (0: no limit). Paid besides the prize pool."""

    category: str
    amount_cents: int
    times: int


@dataclass(frozen=True)
class TournamentStructure:
    """A loaded, checked structure. Chips are chips, money is cents.

    Attributes:
        name, game (``stud`` | ``holdem``), betting (``fixed_limit`` | ``pot_limit`` |
            ``no_limit``).
        chip: the smallest chip; every stack, limit, blind, ante and bring-in is a multiple of it.
        starting_stack: chips each player starts with (with Double Chance, in two halves).
        max_seats: players at one table; min_players: the fewest a tournament starts with.
        entry_fee_cents: 0 for a free tournament, else a multiple of 50 up to 25000.
        levels, breaks: the schedule; action_seconds: the default action clock;
            time_bank_seconds: each player's one reserve for the tournament; time_bank:
            ``automatic`` (drawn when the action clock runs out) or ``on_request``.
        rebuy, addon: None when the tournament has none.
        double_chance_level: the level that releases every player's second half (None: no
            Double Chance).
        prize_kind: ``winner_takes_all`` | ``percentages``; percentages_bp: per place, in basis
            points (sum 10000, best place first, non-increasing); guarantee_cents: the least
            prize pool (0: none).
        special_prizes; formula: ``single`` (one partita to a winner) | ``heats`` (each table a
            heat, its last ``qualifiers`` players go on to a final).
        source: the file it came from; sha256: of that file's bytes ("" from a dict).
        warnings: rules that only a purchase can break (the EUR 250 total), said in sentences.
    """

    name: str
    game: str
    betting: str
    chip: int
    starting_stack: int
    max_seats: int
    min_players: int
    entry_fee_cents: int
    levels: tuple[Level, ...]
    breaks: tuple[Break, ...]
    action_seconds: int
    time_bank_seconds: int
    time_bank: str
    rebuy: RebuyRule | None
    addon: AddOnRule | None
    double_chance_level: int | None
    prize_kind: str
    percentages_bp: tuple[int, ...]
    guarantee_cents: int
    special_prizes: tuple[SpecialPrize, ...]
    formula: str
    qualifiers: int
    source: str = "<dict>"
    sha256: str = ""
    warnings: tuple[str, ...] = ()

    def level(self, number: int) -> Level:
        """Level ``number`` (1-based); past the last, the last (it lasts to the end)."""
        return self.levels[min(max(number, 1), len(self.levels)) - 1]

    def break_after(self, number: int) -> Break | None:
        """The break after level ``number``, or None."""
        return next((b for b in self.breaks if b.after_level == number), None)

    @property
    def double_chance(self) -> bool:
        """True when stacks are given in two halves (text 002, "Double Chance")."""
        return self.double_chance_level is not None

    @property
    def max_total_cents(self) -> int:
        """The most one player could pay by the structure: entry + every rebuy + the add-on
        (the EUR 250 cap is enforced at each purchase, :mod:`dealer_assist.tournament.money`)."""
        rebuys = self.rebuy.max_count * self.rebuy.fee_cents if self.rebuy else 0
        return self.entry_fee_cents + rebuys + (self.addon.fee_cents if self.addon else 0)

    def to_dict(self) -> dict[str, Any]:
        """The structure in the file's shape: ``structure_from_dict(s.to_dict())`` is ``s``
        (without source and sha256), for journaling the structure a tournament runs with."""
        t: dict[str, Any] = {
            "name": self.name,
            "game": self.game,
            "betting": self.betting,
            "chip": self.chip,
            "starting_stack": self.starting_stack,
            "max_seats": self.max_seats,
            "min_players": self.min_players,
            "entry_fee_cents": self.entry_fee_cents,
            "formula": self.formula,
        }
        if self.formula == "heats":
            t["qualifiers"] = self.qualifiers
        out: dict[str, Any] = {
            "tournament": t,
            "clock": {
                "action_seconds": self.action_seconds,
                "time_bank_seconds": self.time_bank_seconds,
                "time_bank": self.time_bank,
            },
            "levels": [_level_dict(self.game, lv, self.action_seconds) for lv in self.levels],
            "breaks": [{"after_level": b.after_level, "minutes": b.minutes} for b in self.breaks],
            "prizes": {"kind": self.prize_kind, "guarantee_cents": self.guarantee_cents},
            "special_prizes": [
                {"category": p.category, "amount_cents": p.amount_cents, "times": p.times}
                for p in self.special_prizes
            ],
        }
        if self.prize_kind == "percentages":
            out["prizes"]["percentages"] = [percent_text(bp) for bp in self.percentages_bp]
        if self.rebuy:
            out["rebuy"] = {"max": self.rebuy.max_count, "until_level": self.rebuy.until_level}
        if self.addon:
            out["addon"] = {
                "fee_cents": self.addon.fee_cents,
                "chips": self.addon.chips,
                "from_level": self.addon.from_level,
                "until_level": self.addon.until_level,
            }
        if self.double_chance_level is not None:
            out["double_chance"] = {"second_half_level": self.double_chance_level}
        return out


def _level_dict(game: str, lv: Level, default_action: int) -> dict[str, Any]:
    d = tournament_levels(game).level_dict(lv.small, lv.big, lv.ante, lv.bring_in)
    if lv.minutes is not None:
        d["minutes"] = lv.minutes
    if lv.hands is not None:
        d["hands"] = lv.hands
    if lv.action_seconds != default_action:
        d["action_seconds"] = lv.action_seconds
    return d


def percent_text(bp: int) -> int | str:
    return bp // 100 if bp % 100 == 0 else f"{bp // 100}.{bp % 100:02d}".rstrip("0")


def shipped_structures() -> dict[str, Path]:
    """The structures shipped in ``config/tournaments``: ``{name: path}`` (``stud_freezeout``,
    ``holdem_rebuy``)."""
    folder = Path(str(resources.files("config").joinpath("tournaments")))
    return {p.stem: p for p in sorted(folder.glob("*.toml"))}
