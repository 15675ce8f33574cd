"""Pay tables of a table or a hand record: the game's defaults with overrides applied.

The defaults are the game's (``GameRules.default_paytables``, GAMES.md); a table config or a hand
record overrides them line by line. The model and the payout arithmetic (odds as ``(win, stake)``,
rounded down to the payout unit) are :mod:`dealer_assist.engine.paytable`, re-exported here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_assist.engine.paytable import Odds, PayTables
from dealer_assist.errors import ConfigError
from dealer_assist.games import get_game


def build_paytables(
    game: str, overrides: Mapping[str, Any] | None = None, where: str = ""
) -> PayTables:
    """The game's default pay tables with ``overrides`` applied line by line.

    Args:
        game: a game code (:data:`dealer_assist.games.GAME_CODES`).
        overrides: ``{box: {line: [win, stake] | null}}`` from a table config or a hand record.
        where: name of the overrides' origin for error messages (e.g. ``paytables``).

    Raises:
        ConfigError: unknown game, unknown box or line, or odds that are not two positive
            integers; the message names the key.
    """
    rules = get_game(game)
    defaults = rules.default_paytables
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
            if line not in defaults[box] and line not in rules.extra_paytable_lines.get(box, ()):
                raise ConfigError(f"{key}: unknown line")
            tables[box][line] = _parse_odds(odds, key)
    return PayTables(tables)


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
