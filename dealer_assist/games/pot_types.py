"""The pot games' plug-in interface, as types: :class:`PotGame`, what
:func:`dealer_assist.games.get_pot_game` returns (``holdem_plugin``, ``stud_plugin``), and
:class:`RecordRules`, the part of it a game's record reader (``holdem_record``, ``stud_record``)
reads. The plug-in imports its reader, so the reader types it by this module, below both, and
never imports the plug-in back.

The core imports this module for annotations only (under ``TYPE_CHECKING``): building these
``Protocol`` classes costs ``settle`` about 2.5 million instructions at start-up (0.8 %) that it
has no use for.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from dealer_assist.engine.peer import StreetSpec


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


class RecordRules(Protocol):
    """The plug-in's facts a record is read against: its code, seats and streets."""

    @property
    def code(self) -> str:
        """The game code a record carries (``holdem``, ``stud``)."""
        ...

    @property
    def max_seats(self) -> int:
        """The most seats a record of the game may have."""
        ...

    @property
    def streets(self) -> tuple[StreetSpec, ...]:
        """The game's streets, in order."""
        ...
