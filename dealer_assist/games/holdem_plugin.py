"""The Hold'em plug-in of the pot games (:data:`POT_RULES`, what
:func:`dealer_assist.games.get_pot_game` returns for ``holdem``): it binds the game's modules, the
rules as data (:mod:`~dealer_assist.games.holdem`), the record reader
(:mod:`~dealer_assist.games.holdem_record`, settled by :mod:`dealer_assist.engine.pot_settle`),
the live hand and the table between hands (:mod:`~dealer_assist.games.holdem_hand`) and the
simulated players (:mod:`~dealer_assist.games.holdem_players`).

It sits above all of them, so no module it imports imports it back. The live table's modules
are imported inside the methods that use them, for start-up alone: settling a record
(``dealer-assist settle``) loads no table, no operations and no simulated players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from dealer_assist.engine.pot_settle import settle_pot_hand
from dealer_assist.games.holdem import CODE, DEFAULT_SETTINGS, MAX_SEATS, STREETS
from dealer_assist.games.holdem_record import parse_holdem


class HoldemRules:
    """The Hold'em plug-in of the pot games: code, streets, settings, settlement."""

    code = CODE
    title = "Texas Hold'em"
    street_titles: ClassVar[Mapping[str, str]] = {
        "preflop": "Preflop",
        "flop": "Flop",
        "turn": "Turn",
        "river": "River",
    }
    max_seats = MAX_SEATS
    has_button = True  # the button moves hand to hand; drawn for the first hand
    streets = STREETS
    settings = DEFAULT_SETTINGS

    def table_game(self, section: Mapping[str, Any]) -> Any:
        """The table's :class:`~dealer_assist.games.holdem_hand.HoldemGame` from its
        ``[poker]`` section. Raises ConfigError naming the key."""
        from dealer_assist.games.holdem_hand import holdem_game  # start-up: module doc

        return holdem_game(section)

    def new_hand(self, config: Any, session: Any, hand_uid: str) -> Any:
        """The next hand at the table (a PeerHand) from the table session."""
        from dealer_assist.games.holdem_hand import new_holdem_hand  # start-up: module doc

        return new_holdem_hand(config, session, hand_uid)

    def session_after(self, config: Any, session: Any, hand: Any) -> Any:
        """The table session after ``hand`` is journaled."""
        from dealer_assist.games.holdem_hand import holdem_session_after  # start-up: module doc

        return holdem_session_after(config, session, hand)

    @property
    def player_styles(self) -> tuple[str, ...]:
        """The styles of the game's simulated players (:mod:`holdem_players`)."""
        from dealer_assist.games.holdem_players import STYLES  # start-up: module doc

        return tuple(sorted(STYLES))

    def simulated_player(self, style: str, rng: Any) -> Any:
        """A seeded simulated player of ``style`` (``choose(space, ...)``: its action)."""
        from dealer_assist.games.holdem_players import Player  # start-up: module doc

        return Player(style, rng)

    def table_ops(self, config: Any) -> Any:
        """The table between hands bound to ``config`` (seat, top up, sit out/in, leave,
        button): :class:`~dealer_assist.games.holdem_hand.HoldemTableOps`."""
        from dealer_assist.games.holdem_hand import HoldemTableOps  # start-up: module doc

        return HoldemTableOps(config)

    forced_bet_fields = ("ante", "blinds")

    def level_bets(self, ante: int, bring_in: int, small: int, big: int) -> dict[str, Any]:
        """The record's forced bets at a tournament level: ante and blinds (chips); Hold'em has
        no bring-in, so ``bring_in`` is unused."""
        return {"ante": ante, "blinds": [small, big]}

    def settle(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and settle one ``holdem`` hand record (HAND_RECORD.md "Pot games").

        Raises:
            InvalidRecordError: naming the field (``actions[3]``, ``players[1].hole`` ...).
        """
        return settle_pot_hand(parse_holdem(obj, self))


POT_RULES = HoldemRules()
"""The plug-in :func:`dealer_assist.games.get_pot_game` returns for ``holdem``."""
