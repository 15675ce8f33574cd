"""Game plug-ins. ``get_game(code)`` returns the rules object of a game code.

A game is a module with a ``RULES`` object (a :class:`~dealer_assist.engine.rules.GameRules`);
adding one means adding its module here and its table in ``config/``. Drivers, the journal, the
misdeal detector, the console and the simulations never change for a new game: what they need to
know of a game (boxes as drawn, titles, pay tables, the simulated players' strategy) is an
attribute of its rules, and no module outside this package names a game, a box or a street.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Protocol

from dealer_assist.errors import ConfigError

if TYPE_CHECKING:  # the banked games' machinery, for start-up: not loaded to settle a pot game
    # (no cycle: the engine never imports the games)
    from dealer_assist.engine.rules import GameRules

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


class PotGame(Protocol):
    """A pot game's plug-in (players against each other: GAMES.md "Pot games"): its code and
    the settlement of its hand records (HAND_RECORD.md "Pot games")."""

    code: str
    title: str
    """The game's name on screens (English; the consoles translate it)."""
    street_titles: Mapping[str, str]
    """street -> its title on screens."""
    streets: tuple[Any, ...]
    max_seats: int
    has_button: bool  # the table has a dealer button to place or draw before the first hand
    forced_bet_fields: tuple[str, ...]
    """The record fields that carry a level's forced bets and limits (:meth:`level_bets`' keys)."""

    def table_game(self, section: Mapping[str, Any]) -> Any:
        """The table's game settings from its ``[poker]`` section; ConfigError naming the key."""
        ...

    def level_bets(self, ante: int, bring_in: int, small: int, big: int) -> dict[str, Any]:
        """The forced bets and limits a hand record of this game posts at a tournament level
        (chips), under the record's own field names (HAND_RECORD.md "Pot games")."""
        ...

    def settle(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and settle one hand record; raises InvalidRecordError naming the field."""
        ...

    def new_hand(self, config: Any, session: Any, hand_uid: str) -> Any:
        """The next live hand (a PeerHand) at the table, from the table session."""
        ...

    def session_after(self, config: Any, session: Any, hand: Any) -> Any:
        """The table session once ``hand`` is journaled."""
        ...

    @property
    def player_styles(self) -> tuple[str, ...]:
        """The styles of the game's simulated players."""
        ...

    def simulated_player(self, style: str, rng: Any) -> Any:
        """A seeded simulated player of ``style`` for simulations."""
        ...

    def table_ops(self, config: Any) -> Any:
        """The table between hands (seat, top up, sit out/in, leave, button) for ``config``."""
        ...


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
