"""The pay-table model the games settle with: odds as ``(win, stake)`` pairs, and payouts.

A payout is ``stake * win // stake_ratio`` rounded down to the table's payout unit
(GAMES.md, "Money": a fractional payout rounds down). Tables are plain mappings from a line
name (a hand category code such as ``flush``, or a line of the game's own such as ``ak_suited``)
to odds; a line mapped to ``None`` does not pay (the game says whether the box then pushes or
loses). Each game's default tables are its ``GameRules.default_paytables``; overrides from a table
config or a hand record are applied by :func:`dealer_assist.paytables.build_paytables`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

Odds = tuple[int, int]
PayTable = Mapping[str, Odds | None]


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
