"""Pay tables: odds as ``(win, stake)`` pairs, defaults from GAMES.md, overridable by config.

A payout is ``stake * win // stake_ratio`` rounded down to the table's payout unit
(GAMES.md, "Money": a fractional payout rounds down). Tables are plain mappings from a line
name (a hand category code such as ``flush``, or a Bonus line such as ``ak_suited``) to odds;
a line mapped to ``None`` is a push (the Blind below a straight).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.errors import ConfigError

Odds = tuple[int, int]
PayTable = Mapping[str, Odds | None]

# rules text 000, "Tabella pagamenti Blind": below a straight the Blind pushes.
UTH_BLIND: dict[str, Odds | None] = {
    "royal_flush": (500, 1),
    "straight_flush": (50, 1),
    "four_of_a_kind": (10, 1),
    "full_house": (3, 1),
    "flush": (3, 2),
    "straight": (1, 1),
}
# rules text 000, "Tabella pagamenti Trips": below three of a kind the Trips box loses.
UTH_TRIPS: dict[str, Odds | None] = {
    "royal_flush": (50, 1),
    "straight_flush": (40, 1),
    "four_of_a_kind": (30, 1),
    "full_house": (8, 1),
    "flush": (7, 1),
    "straight": (4, 1),
    "three_of_a_kind": (3, 1),
}
# rules text 004, Bonus table on the two hole cards.
THB_BONUS: dict[str, Odds | None] = {
    "aa": (30, 1),
    "ak_suited": (25, 1),
    "aq_aj_suited": (20, 1),
    "ak_offsuit": (15, 1),
    "kk_qq_jj": (10, 1),
    "aq_aj_offsuit": (5, 1),
    "pair_2_to_10": (3, 1),
}

DEFAULT_PAYTABLES: dict[str, dict[str, dict[str, Odds | None]]] = {
    "uth": {"blind": UTH_BLIND, "trips": UTH_TRIPS},
    "thb": {"bonus": THB_BONUS},
}


@dataclass(frozen=True)
class PayTables:
    """The pay tables of one game, by box name (e.g. ``{"blind": {...}, "trips": {...}}``)."""

    tables: Mapping[str, PayTable]

    def odds(self, box: str, line: str) -> Odds | None:
        """Odds of ``line`` in the ``box`` table, or None when the line does not pay."""
        return self.tables.get(box, {}).get(line)

    def to_json(self) -> dict[str, dict[str, list[int] | None]]:
        """JSON form: ``{"trips": {"flush": [7, 1], ...}, ...}``."""
        return {
            box: {line: (list(o) if o else None) for line, o in table.items()}
            for box, table in self.tables.items()
        }


def pay(stake: int, odds: Odds, unit: int = 1) -> int:
    """Winnings on ``stake`` minor units at ``odds`` = (win, stake), rounded down to ``unit``.

    Example: 3:2 on 1005 pays 1507 (GAMES.md: a fractional payout rounds down).
    """
    win, per = odds
    raw = stake * win // per
    return raw - raw % unit


def build_paytables(
    game: str, overrides: Mapping[str, Any] | None = None, where: str = ""
) -> PayTables:
    """The game's default pay tables with ``overrides`` applied line by line.

    Args:
        game: game code (``uth``, ``thb``).
        overrides: ``{box: {line: [win, stake] | null}}`` from a table config or a hand record.
        where: name of the overrides' origin for error messages (e.g. ``paytables``).

    Raises:
        ConfigError: unknown box or line, or odds that are not two positive integers; the message
            names the key.
    """
    defaults = DEFAULT_PAYTABLES.get(game, {})
    tables = {box: dict(table) for box, table in defaults.items()}
    prefix = where or "paytables"
    if overrides is None:
        return PayTables(tables)
    if not isinstance(overrides, Mapping):
        raise ConfigError(f"{prefix}: must be an object of pay tables")
    for box, lines in overrides.items():
        if box not in tables:
            raise ConfigError(f"{prefix}.{box}: {game} has no pay table for this box")
        if not isinstance(lines, Mapping):
            raise ConfigError(f"{prefix}.{box}: must be an object of lines")
        for line, odds in lines.items():
            key = f"{prefix}.{box}.{line}"
            if line not in defaults[box] and line not in _KNOWN_LINES.get(box, ()):
                raise ConfigError(f"{key}: unknown line")
            tables[box][line] = _parse_odds(odds, key)
    return PayTables(tables)


_KNOWN_LINES = {"blind": ("three_of_a_kind", "two_pair", "pair", "high_card")}


def _parse_odds(value: Any, key: str) -> Odds | None:
    if value is None:
        return None
    ok = (
        isinstance(value, list | tuple)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
        and value[0] >= 0
        and value[1] > 0
    )
    if not ok:
        raise ConfigError(
            f"{key}: odds must be [win, stake] with non-negative integers, got {value!r}"
        )
    return (int(value[0]), int(value[1]))
