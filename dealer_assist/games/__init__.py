"""Game plug-ins. ``get_game(code)`` returns the rules object of a game code.

A game is a module with a ``RULES`` object (a :class:`~dealer_assist.engine.rules.GameRules`);
adding one means adding its module here and its table in ``config/``. Drivers, the journal, the
misdeal detector, the console and the simulations never change for a new game: what they need to
know of a game (boxes as drawn, titles, pay tables, the simulated players' strategy) is an
attribute of its rules, and no module outside this package names a game, a box or a street.
A pot game's plug-in (:class:`~dealer_assist.games.pot_types.PotGame`, ``get_pot_game(code)``)
is the ``POT_RULES`` of its plug-in module.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from dealer_assist.errors import ConfigError

if TYPE_CHECKING:  # for start-up: a pot game's settle loads no banked engine, builds no Protocol
    # (no cycle: the engine never imports the games, pot_types no game)
    from dealer_assist.engine.rules import GameRules
    from dealer_assist.games.pot_types import PotGame

# code -> module; imported on first use so a table loads only the game it plays.
_MODULES = {
    "uth": "dealer_assist.games.uth",
    "thb": "dealer_assist.games.thb",
}
GAME_CODES = tuple(_MODULES)
DEFAULT_GAME = "uth"
"""The game of the shipped default table (``config/uth.toml``): what a command plays unless told."""


def get_game(code: str) -> GameRules:
    """The rules of game ``code`` (``uth``, ``thb``). Raises ConfigError for an unknown code."""
    module = _MODULES.get(code)
    if module is None:
        raise ConfigError(f"unknown game {code!r} (known: {', '.join(GAME_CODES)})")
    rules: GameRules = importlib.import_module(module).RULES
    return rules


# code -> module of the pot games (a ``POT_RULES`` object each); the banked games above.
_POT_MODULES = {
    "holdem": "dealer_assist.games.holdem_plugin",
    "stud": "dealer_assist.games.stud_plugin",
}
POT_GAME_CODES = tuple(_POT_MODULES)


_POT_RULES: dict[str, PotGame] = {}  # imported once: every settle asks (speed)


def get_pot_game(code: str) -> PotGame:
    """The plug-in of pot game ``code`` (``holdem``, ``stud``); ConfigError for an unknown one."""
    known = _POT_RULES.get(code)
    if known is not None:
        return known
    module = _POT_MODULES.get(code)
    if module is None:
        raise ConfigError(f"unknown pot game {code!r} (known: {', '.join(POT_GAME_CODES)})")
    rules: PotGame = importlib.import_module(module).POT_RULES
    _POT_RULES[code] = rules
    return rules
