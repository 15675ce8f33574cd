"""The Seven Card Stud plug-in of the pot games (:data:`POT_RULES`, what
:func:`dealer_assist.games.get_pot_game` returns for ``stud``): it binds the game's modules, the
rules as data (:mod:`~dealer_assist.games.stud`), the record reader
(:mod:`~dealer_assist.games.stud_record`, settled by :mod:`dealer_assist.engine.pot_settle`),
the live hand and the table between hands (:mod:`~dealer_assist.games.stud_hand`) and the
simulated players (the Hold'em players': :mod:`~dealer_assist.games.holdem_players`).

It sits above all of them, so no module it imports imports it back. The live table's modules
are imported inside the methods that use them, for start-up alone: settling a record
(``dealer-assist settle``) loads no table, no operations and no simulated players.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealer_assist.engine.pot_settle import settle_pot_hand
from dealer_assist.games.stud import CODE, DEFAULT_SETTINGS, MAX_SEATS, STREETS
from dealer_assist.games.stud_record import parse_stud


class StudRules:
    """The Stud plug-in of the pot games: code, streets, settings, settlement, and the live
    table (:mod:`dealer_assist.games.stud_hand`)."""

    code = CODE
    title = "Seven Card Stud"
    max_seats = MAX_SEATS
    has_button = False  # no button: the deal starts from seat 1 (rules text 002)
    streets = STREETS
    settings = DEFAULT_SETTINGS

    def table_game(self, section: Mapping[str, Any]) -> Any:
        """The table's :class:`~dealer_assist.games.stud_hand.StudGame` from ``[poker]``."""
        from dealer_assist.games.stud_hand import stud_game  # start-up: module doc

        return stud_game(section)

    def new_hand(self, config: Any, session: Any, hand_uid: str) -> Any:
        """The next live hand (a PeerHand) at the table, from the table session."""
        from dealer_assist.games.stud_hand import new_stud_hand  # start-up: module doc

        return new_stud_hand(config, session, hand_uid)

    def session_after(self, config: Any, session: Any, hand: Any) -> Any:
        """The table session after ``hand`` is journaled."""
        from dealer_assist.games.stud_hand import stud_session_after  # start-up: module doc

        return stud_session_after(config, session, hand)

    def table_ops(self, config: Any) -> Any:
        """The table between hands (generic seats: buy-in, top-up, sit out/in, leave)."""
        from dealer_assist.games.stud_hand import StudTableOps  # start-up: module doc

        return StudTableOps(config)

    @property
    def player_styles(self) -> tuple[str, ...]:
        """The simulated players' styles (the Hold'em players' styles serve Stud too)."""
        from dealer_assist.games.holdem_players import STYLES  # start-up: module doc

        return tuple(sorted(STYLES))

    def simulated_player(self, style: str, rng: Any) -> Any:
        """A seeded simulated player of ``style``."""
        from dealer_assist.games.holdem_players import Player  # start-up: module doc

        return Player(style, rng)

    forced_bet_fields = ("ante", "bring_in", "limits")

    def level_bets(self, ante: int, bring_in: int, small: int, big: int) -> dict[str, Any]:
        """The record's forced bets at a tournament level: ante, bring-in and the fixed limits
        (chips; rules text 002)."""
        return {"ante": ante, "bring_in": bring_in, "limits": [small, big]}

    def settle(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and settle one ``stud`` hand record (HAND_RECORD.md "Pot games").

        Raises:
            InvalidRecordError: naming the field (``actions[3]``, ``players[1].cards`` ...).
        """
        return settle_pot_hand(parse_stud(obj, self))


POT_RULES = StudRules()
"""The plug-in :func:`dealer_assist.games.get_pot_game` returns for ``stud``."""
