"""What a tournament needs to know of each pot game (rules text 002; GAMES.md "Tournaments").

A tournament level's amounts differ by game: Stud has a small limit (the big limit is twice it),
an ante and a bring-in; Hold'em has a small and a big blind and an ante. The tournament code
(``dealer_assist.tournament``) reads the level keys, the default betting, the seats per table and
the text of a level's amounts here, never naming a game itself.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from dealer_assist.games import holdem, stud


@dataclass(frozen=True)
class TournamentLevels:
    """How one pot game's tournament levels are written and played.

    Attributes:
        code: the pot game's code.
        small_key: the level key of the small amount (Stud's small limit, Hold'em's small blind).
        big_key: the level key of the big amount (Stud's big limit, Hold'em's big blind).
        ante_key: the level key of every player's ante.
        bring_in_key: the level key of the bring-in; None in a game without one.
        big_is_twice_small: the big amount is twice the small one (Stud's limits, rules text
            002): it defaults to that and must be that; written back without it.
        default_betting: the betting when the structure names none.
        max_seats: seats at one table (GAMES.md: Stud up to 8, Hold'em up to 10).
        amounts_word: how a level's small/big pair is called in messages (``limits``,
            ``blinds``).
    """

    code: str
    small_key: str
    big_key: str
    ante_key: str
    bring_in_key: str | None
    big_is_twice_small: bool
    default_betting: str
    max_seats: int
    amounts_word: str

    @property
    def keys(self) -> set[str]:
        """The amount keys a level of this game may have."""
        out = {self.small_key, self.big_key, self.ante_key}
        if self.bring_in_key is not None:
            out.add(self.bring_in_key)
        return out

    def amounts_text(self, small: int, big: int, ante: int, bring_in: int) -> str:
        """``'limits 10/20, ante 2, bring-in 5'`` or ``'blinds 10/20, ante 0'`` (messages)."""
        text = f"{self.amounts_word} {small}/{big}, ante {ante}"
        if self.bring_in_key is not None:
            text += f", bring-in {bring_in}"
        return text

    def level_dict(self, small: int, big: int, ante: int, bring_in: int) -> dict[str, Any]:
        """A level's amounts as the structure file writes them (the big limit left out where it
        is twice the small one; the bring-in only in a game with one)."""
        d: dict[str, Any] = {self.small_key: small}
        if not self.big_is_twice_small:
            d[self.big_key] = big
        d[self.ante_key] = ante
        if self.bring_in_key is not None:
            d[self.bring_in_key] = bring_in
        return d

    def game_at_level(
        self, game: Any, small: int, big: int, ante: int, bring_in: int, **common: Any
    ) -> Any:
        """The table's game (a ``StudGame`` or ``HoldemGame``) with the level's amounts and
        ``common`` settings (betting, chip, buy-in): Stud's limits, ante and bring-in; Hold'em's
        blinds (no limits) and ante.

        Raises:
            ConfigError: amounts the game refuses (e.g. a bring-in above half the small limit).
        """
        if self.bring_in_key is not None:
            return dataclasses.replace(
                game, limits=(small, big), ante=ante, bring_in=bring_in, **common
            )
        return dataclasses.replace(game, blinds=(small, big), limits=None, ante=ante, **common)


TOURNAMENT_LEVELS = {
    stud.CODE: TournamentLevels(
        code=stud.CODE,
        small_key="small_limit",
        big_key="big_limit",
        ante_key="ante",
        bring_in_key="bring_in",
        big_is_twice_small=True,
        default_betting="fixed_limit",
        max_seats=stud.MAX_SEATS,
        amounts_word="limits",
    ),
    holdem.CODE: TournamentLevels(
        code=holdem.CODE,
        small_key="small_blind",
        big_key="big_blind",
        ante_key="ante",
        bring_in_key=None,
        big_is_twice_small=False,
        default_betting="no_limit",
        max_seats=holdem.MAX_SEATS,
        amounts_word="blinds",
    ),
}
"""game code -> its tournament levels; the tournament games in the order messages list them."""
TOURNAMENT_GAMES = tuple(TOURNAMENT_LEVELS)


def tournament_levels(code: str) -> TournamentLevels:
    """The tournament levels of pot game ``code``. Raises KeyError for a game without
    tournaments (the structure reader checks the code against :data:`TOURNAMENT_GAMES` first)."""
    return TOURNAMENT_LEVELS[code]
