"""Reading a tournament structure (:mod:`dealer_assist.tournament.structure`) from its TOML
file (:func:`load_structure`) or a dict of the file's shape (:func:`structure_from_dict`): every
key checked, every rule of rules text 002 a structure can break refused with
:class:`StructureError` naming the file and the key path.
"""

from __future__ import annotations

import hashlib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import replace
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from dealer_assist.errors import quote
from dealer_assist.games.tournament_levels import tournament_levels
from dealer_assist.tournament.errors import StructureError
from dealer_assist.tournament.structure import (
    BASIS_POINTS,
    BETTINGS,
    CATEGORY_CODES,
    FEE_STEP_CENTS,
    FORMULAS,
    GAMES,
    MAX_SEATS,
    PLAYER_CAP_CENTS,
    PRIZE_KINDS,
    TIME_BANK_MODES,
    AddOnRule,
    Break,
    Level,
    RebuyRule,
    SpecialPrize,
    TournamentStructure,
    euros,
    percent_text,
)


def load_structure(path: str | Path) -> TournamentStructure:
    """Read and check a structure file (UTF-8, a BOM accepted).

    Raises:
        StructureError: unreadable file, bad TOML, or a value that breaks a rule; the message
            names the file and the key path.
    """
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as e:
        raise StructureError(str(p), "", f"cannot read: {e.strerror}") from e
    try:
        data = tomllib.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise StructureError(str(p), "", f"not UTF-8 (byte {e.start})") from e
    except tomllib.TOMLDecodeError as e:
        raise StructureError(str(p), "", f"not valid TOML: {e}") from e
    return structure_from_dict(data, source=str(p), sha256=hashlib.sha256(raw).hexdigest())


def structure_from_dict(
    data: Mapping[str, Any], *, source: str = "<dict>", sha256: str = ""
) -> TournamentStructure:
    """Check a structure given as a dict of the file's shape (see :func:`load_structure`).

    Raises:
        StructureError: naming ``source`` and the key path.
    """
    return _Reader(source).read(data, sha256)


class _Reader:
    """Reads one structure, raising StructureError(source, key, reason)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, key: str, reason: str) -> StructureError:
        return StructureError(self.source, key, reason)

    # -- typed getters ------------------------------------------------------------------------

    def table(
        self, data: Mapping[str, Any], key: str, allowed: set[str]
    ) -> Mapping[str, Any] | None:
        """Section ``key`` checked for unknown keys, or None when absent."""
        return self.section(data, key, allowed) if key in data else None

    def section(self, data: Mapping[str, Any], key: str, allowed: set[str]) -> Mapping[str, Any]:
        """Required section ``key`` checked for unknown keys."""
        if key not in data:
            raise self.fail(key, "missing")
        value = data[key]
        if not isinstance(value, Mapping):
            raise self.fail(key, f"must be a table, got {quote(value)}")
        self.keys(value, allowed, key)
        return value

    def keys(self, value: Mapping[str, Any], allowed: set[str], path: str) -> None:
        unknown = sorted(set(value) - allowed)
        if unknown:
            raise self.fail(
                f"{path}.{unknown[0]}", f"unknown key (known: {', '.join(sorted(allowed))})"
            )

    def int_(
        self,
        obj: Mapping[str, Any],
        key: str,
        path: str,
        default: int | None = None,
        *,
        low: int = 0,
        high: int | None = None,
    ) -> int:
        where = f"{path}.{key}" if path else key
        if key not in obj:
            if default is None:
                raise self.fail(where, "missing")
            return default
        value = obj[key]
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.fail(where, f"must be a whole number, got {quote(value)}")
        if value < low or (high is not None and value > high):
            bound = f"from {low} to {high}" if high is not None else f"at least {low}"
            raise self.fail(where, f"must be {bound}, got {value}")
        return value

    def opt_int(self, obj: Mapping[str, Any], key: str, path: str, low: int = 1) -> int | None:
        return self.int_(obj, key, path, low=low) if key in obj else None

    def str_(
        self,
        obj: Mapping[str, Any],
        key: str,
        path: str,
        choices: Sequence[str] = (),
        default: str | None = None,
    ) -> str:
        where = f"{path}.{key}" if path else key
        if key not in obj:
            if default is None:
                raise self.fail(where, "missing")
            return default
        value = obj[key]
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, f"must be a non-empty text, got {quote(value)}")
        if choices and value not in choices:
            raise self.fail(where, f"must be one of {', '.join(choices)}, got {quote(value)}")
        return value

    def fee(self, obj: Mapping[str, Any], key: str, path: str, default: int | None = None) -> int:
        cents = self.int_(obj, key, path, default)
        if cents % FEE_STEP_CENTS:
            raise self.fail(
                f"{path}.{key}",
                f"must be a multiple of EUR 0.50 (50 cents), got {cents} (rules text 002, fees)",
            )
        return cents

    def chips(
        self,
        obj: Mapping[str, Any],
        key: str,
        path: str,
        chip: int,
        low: int = 1,
        default: int | None = None,
    ) -> int:
        value = self.int_(obj, key, path, default, low=low)
        if value % chip:
            raise self.fail(f"{path}.{key}", f"must be a multiple of the chip {chip}, got {value}")
        return value

    def list_(self, data: Mapping[str, Any], key: str, required: bool = False) -> list[Any]:
        if key not in data:
            if required:
                raise self.fail(key, "missing")
            return []
        value = data[key]
        if not isinstance(value, list):
            raise self.fail(key, f"must be an array, got {quote(value)}")
        return value

    # -- the structure ------------------------------------------------------------------------

    def read(self, data: Mapping[str, Any], sha256: str) -> TournamentStructure:
        if not isinstance(data, Mapping):
            raise self.fail("", "must be a table of sections")
        sections = {
            "tournament",
            "clock",
            "levels",
            "breaks",
            "rebuy",
            "addon",
            "double_chance",
            "prizes",
            "special_prizes",
        }
        unknown = sorted(set(data) - sections)
        if unknown:
            raise self.fail(unknown[0], f"unknown section (known: {', '.join(sorted(sections))})")
        t = self.section(
            data,
            "tournament",
            {
                "name",
                "game",
                "betting",
                "chip",
                "starting_stack",
                "max_seats",
                "min_players",
                "entry_fee_cents",
                "formula",
                "qualifiers",
            },
        )
        game = self.str_(t, "game", "tournament", GAMES)
        betting = self.str_(
            t, "betting", "tournament", BETTINGS, tournament_levels(game).default_betting
        )
        chip = self.int_(t, "chip", "tournament", low=1)
        stack = self.chips(t, "starting_stack", "tournament", chip)
        seats = self.int_(
            t, "max_seats", "tournament", MAX_SEATS[game], low=2, high=MAX_SEATS[game]
        )
        min_players = self.int_(t, "min_players", "tournament", 2, low=2)
        entry = self.fee(t, "entry_fee_cents", "tournament")
        if entry > PLAYER_CAP_CENTS:
            raise self.fail(
                "tournament.entry_fee_cents",
                f"at most {euros(PLAYER_CAP_CENTS)} (rules text 002), got {entry}",
            )
        formula = self.str_(t, "formula", "tournament", FORMULAS, "single")
        qualifiers = 1
        if formula == "heats":
            qualifiers = self.int_(t, "qualifiers", "tournament", low=1, high=seats - 1)
        elif "qualifiers" in t:
            raise self.fail("tournament.qualifiers", 'only with formula = "heats"')

        c = self.table(data, "clock", {"action_seconds", "time_bank_seconds", "time_bank"}) or {}
        action = self.int_(c, "action_seconds", "clock", 30, low=1)
        bank = self.int_(c, "time_bank_seconds", "clock", 0)
        bank_mode = self.str_(c, "time_bank", "clock", TIME_BANK_MODES, "automatic")

        levels = self.levels(data, game, chip, action)
        breaks = self.breaks(data, len(levels))
        rebuy = self.rebuy(data, entry, stack, len(levels))
        addon = self.addon(data, entry, stack, chip, len(levels))
        dc = self.double_chance(data, stack, chip, len(levels))
        kind, percents, guarantee = self.prizes(data, entry, min_players)
        specials = self.specials(data)
        warnings: list[str] = []
        s = TournamentStructure(
            name=self.str_(t, "name", "tournament"),
            game=game,
            betting=betting,
            chip=chip,
            starting_stack=stack,
            max_seats=seats,
            min_players=min_players,
            entry_fee_cents=entry,
            levels=levels,
            breaks=breaks,
            action_seconds=action,
            time_bank_seconds=bank,
            time_bank=bank_mode,
            rebuy=rebuy,
            addon=addon,
            double_chance_level=dc,
            prize_kind=kind,
            percentages_bp=percents,
            guarantee_cents=guarantee,
            special_prizes=specials,
            formula=formula,
            qualifiers=qualifiers,
            source=self.source,
            sha256=sha256,
        )
        if s.max_total_cents > PLAYER_CAP_CENTS:
            warnings.append(
                f"entry + {rebuy.max_count if rebuy else 0} rebuys + add-on come to "
                f"{euros(s.max_total_cents)}, above the {euros(PLAYER_CAP_CENTS)} a player may "
                "pay (rules text 002): the purchase that would pass it will be refused"
            )
        return replace(s, warnings=tuple(warnings))

    def levels(
        self, data: Mapping[str, Any], game: str, chip: int, action: int
    ) -> tuple[Level, ...]:
        raw = self.list_(data, "levels", required=True)
        if not raw:
            raise self.fail("levels", "at least one level")
        spec = tournament_levels(game)
        amounts = spec.keys
        out: list[Level] = []
        for i, item in enumerate(raw):
            path = f"levels[{i}]"
            if not isinstance(item, Mapping):
                raise self.fail(path, f"must be a table, got {quote(item)}")
            self.keys(item, amounts | {"minutes", "hands", "action_seconds"}, path)
            ante = self.chips(item, spec.ante_key, path, chip, low=0, default=0)
            small = self.chips(item, spec.small_key, path, chip)
            if spec.big_is_twice_small:  # Stud's limits
                big = self.chips(item, spec.big_key, path, chip, default=2 * small)
                if big != 2 * small:
                    raise self.fail(
                        f"{path}.{spec.big_key}",
                        f"must be twice the small limit {small} (rules text 002), got {big}",
                    )
            else:  # Hold'em's blinds
                big = self.chips(item, spec.big_key, path, chip)
            if spec.bring_in_key is not None:
                bring_in = self.chips(item, spec.bring_in_key, path, chip)
                if 2 * bring_in > small:
                    raise self.fail(
                        f"{path}.{spec.bring_in_key}",
                        f"at most half the small limit {small} (rules text 002, bring-in), "
                        f"got {bring_in}",
                    )
                if ante >= small:
                    raise self.fail(
                        f"{path}.{spec.ante_key}",
                        f"must be a fraction of the small limit {small} (rules text 002, ante), "
                        f"got {ante}",
                    )
            else:
                bring_in = 0
                if big < small:
                    raise self.fail(
                        f"{path}.{spec.big_key}",
                        f"must be at least the small blind {small}, got {big}",
                    )
                if ante > big:
                    raise self.fail(
                        f"{path}.{spec.ante_key}", f"at most the big blind {big}, got {ante}"
                    )
            minutes = self.opt_int(item, "minutes", path)
            hands = self.opt_int(item, "hands", path)
            if minutes is None and hands is None and i < len(raw) - 1:
                raise self.fail(
                    path, "needs minutes and/or hands (only the last level may last to the end)"
                )
            lv = Level(
                i + 1,
                small,
                big,
                ante,
                bring_in,
                minutes,
                hands,
                self.int_(item, "action_seconds", path, action, low=1),
            )
            if out:
                prev = out[-1]
                now_, then = (
                    (lv.small, lv.big, lv.ante, lv.bring_in),
                    (prev.small, prev.big, prev.ante, prev.bring_in),
                )
                if any(a < b for a, b in zip(now_, then, strict=True)) or now_ == then:
                    raise self.fail(
                        f"{path}.{spec.small_key}",
                        f"levels must increase: level {i + 1} ({_amounts(game, lv)}) is not "
                        f"above level {i} ({_amounts(game, prev)})",
                    )
            out.append(lv)
        return tuple(out)

    def breaks(self, data: Mapping[str, Any], n_levels: int) -> tuple[Break, ...]:
        out: list[Break] = []
        for i, item in enumerate(self.list_(data, "breaks")):
            path = f"breaks[{i}]"
            if not isinstance(item, Mapping):
                raise self.fail(path, f"must be a table, got {quote(item)}")
            self.keys(item, {"after_level", "minutes"}, path)
            after = self.int_(item, "after_level", path, low=1, high=max(n_levels - 1, 1))
            if any(b.after_level == after for b in out):
                raise self.fail(f"{path}.after_level", f"a second break after level {after}")
            out.append(Break(after, self.int_(item, "minutes", path, low=1)))
        return tuple(sorted(out, key=lambda b: b.after_level))

    def rebuy(self, data: Mapping[str, Any], entry: int, stack: int, n: int) -> RebuyRule | None:
        r = self.table(data, "rebuy", {"max", "until_level", "fee_cents", "chips"})
        if r is None:
            return None
        # text 002: the rebuy costs the entry fee and gives the starting stack; say so if not
        if self.fee(r, "fee_cents", "rebuy", entry) != entry:
            raise self.fail(
                "rebuy.fee_cents", f"a rebuy costs the entry fee {entry} (rules text 002, re-buy)"
            )
        if self.int_(r, "chips", "rebuy", stack) != stack:
            raise self.fail(
                "rebuy.chips", f"a rebuy gives the starting stack {stack} (rules text 002, re-buy)"
            )
        return RebuyRule(
            self.int_(r, "max", "rebuy", low=1),
            self.int_(r, "until_level", "rebuy", low=1, high=n),
            entry,
            stack,
        )

    def addon(
        self, data: Mapping[str, Any], entry: int, stack: int, chip: int, n: int
    ) -> AddOnRule | None:
        a = self.table(data, "addon", {"fee_cents", "chips", "from_level", "until_level"})
        if a is None:
            return None
        fee = self.fee(a, "fee_cents", "addon", entry)
        if fee > entry:
            raise self.fail(
                "addon.fee_cents",
                f"at most the entry fee {entry} (rules text 002, add-on), got {fee}",
            )
        if fee == 0 and entry:
            raise self.fail("addon.fee_cents", "an add-on is paid for (above 0)")
        default = stack * fee // entry // chip * chip if entry else stack
        chips = self.chips(a, "chips", "addon", chip, default=default)
        until = self.int_(a, "until_level", "addon", low=1, high=n)
        start = self.int_(a, "from_level", "addon", 1, low=1, high=until)
        return AddOnRule(fee, chips, start, until)

    def double_chance(self, data: Mapping[str, Any], stack: int, chip: int, n: int) -> int | None:
        d = self.table(data, "double_chance", {"second_half_level"})
        if d is None:
            return None
        if stack % (2 * chip):
            raise self.fail(
                "tournament.starting_stack",
                f"Double Chance splits it in two equal halves of whole chips {chip}, got {stack}",
            )
        return self.int_(d, "second_half_level", "double_chance", low=2, high=n)

    def prizes(
        self, data: Mapping[str, Any], entry: int, min_players: int
    ) -> tuple[str, tuple[int, ...], int]:
        p = self.section(data, "prizes", {"kind", "percentages", "guarantee_cents"})
        kind = self.str_(p, "kind", "prizes", PRIZE_KINDS)
        guarantee = self.int_(p, "guarantee_cents", "prizes", 0)
        bps: tuple[int, ...] = (BASIS_POINTS,)
        if kind == "percentages":
            raw = p.get("percentages")
            if not isinstance(raw, list) or not raw:
                raise self.fail(
                    "prizes.percentages",
                    "an array of percentages by place, best first, e.g. [50, 30, 20]",
                )
            bps = tuple(self.percent(v, f"prizes.percentages[{i}]") for i, v in enumerate(raw))
            for i in range(1, len(bps)):
                if bps[i] > bps[i - 1]:
                    raise self.fail(
                        f"prizes.percentages[{i}]",
                        "a place cannot pay more than the place above it",
                    )
            if sum(bps) != BASIS_POINTS:
                raise self.fail(
                    "prizes.percentages",
                    f"must add up to 100, they add up to {percent_text(sum(bps))}",
                )
        elif "percentages" in p:
            raise self.fail("prizes.percentages", 'only with kind = "percentages"')
        # text 002, "Determinazione e assegnazione delle vincite": the highest prize is always
        # above the entry fee; the least pool is min_players entries (or the guarantee)
        pool = max(min_players * entry, guarantee)
        paid = bps[:min_players]
        first = pool * paid[0] // sum(paid)
        if first <= entry:
            key = "prizes.guarantee_cents" if entry == 0 else "prizes.percentages"
            raise self.fail(
                key,
                f"the first prize must be above the entry fee {euros(entry)} "
                f"(rules text 002): with {min_players} players it would be "
                f"{euros(first)}",
            )
        return kind, bps, guarantee

    def percent(self, value: Any, path: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float | str):
            raise self.fail(path, f"must be a percentage, got {quote(value)}")
        try:
            exact = Decimal(str(value)) * 100
        except InvalidOperation as e:
            raise self.fail(path, f"must be a percentage, got {quote(value)}") from e
        if exact != exact.to_integral_value() or not 0 < exact <= BASIS_POINTS:
            raise self.fail(
                path, f"must be above 0 and at most 100, in hundredths at most, got {quote(value)}"
            )
        return int(exact)

    def specials(self, data: Mapping[str, Any]) -> tuple[SpecialPrize, ...]:
        out: list[SpecialPrize] = []
        for i, item in enumerate(self.list_(data, "special_prizes")):
            path = f"special_prizes[{i}]"
            if not isinstance(item, Mapping):
                raise self.fail(path, f"must be a table, got {quote(item)}")
            self.keys(item, {"category", "amount_cents", "times"}, path)
            category = self.str_(item, "category", path, CATEGORY_CODES)
            if any(s.category == category for s in out):
                raise self.fail(f"{path}.category", f"a second prize for {category}")
            amount = self.int_(item, "amount_cents", path, low=1)
            out.append(SpecialPrize(category, amount, self.int_(item, "times", path, 1)))
        return tuple(out)


def _amounts(game: str, lv: Level) -> str:
    return tournament_levels(game).amounts_text(lv.small, lv.big, lv.ante, lv.bring_in)
