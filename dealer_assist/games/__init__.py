"""Game plug-ins. ``get_game(code)`` returns the rules object of a game code."""

from __future__ import annotations

from dealer_assist.errors import ConfigError
from dealer_assist.games.base import GameRules


def get_game(code: str) -> GameRules:
    """The rules of game ``code`` (``uth``, ``thb``). Raises ConfigError for an unknown code."""
    # Imported here so a game module is loaded only when a table plays it.
    if code == "uth":
        from dealer_assist.games.uth import RULES as uth

        return uth
    if code == "thb":
        from dealer_assist.games.thb import RULES as thb

        return thb
    raise ConfigError(f"unknown game {code!r} (known: {', '.join(GAME_CODES)})")


GAME_CODES = ("uth", "thb")
