"""What a game tells the seeded simulated players: how they decide.

:class:`dealer_assist.players.PlayerModel` drafts the bets from the game's boxes and asks the
game's :class:`PlayerStrategy` (``GameRules.strategy``) for each decision; the console's demo,
which never sees the hole cards, uses the strategy's :attr:`~PlayerStrategy.money_in_rates`.
Not a solver: each game's strategy is a well-known simplified one.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence

from dealer_assist.cards import Card
from dealer_assist.evaluator import Category, evaluate

Choice = tuple[str, int | None]
"""A wanted decision: the action kind and its multiple (None when it has none)."""


class PlayerStrategy(ABC):
    """A game's basic strategy for simulated players (stateless; randomness is the caller's)."""

    # Chance that a player who never sees the cards (the console's demo) puts money in rather
    # than taking the street's last option (check or fold), by street; 0.5 on other streets.
    money_in_rates: Mapping[str, float]

    def money_in_rate(self, street: str) -> float:
        """:attr:`money_in_rates` of ``street`` (0.5 for a street it does not name)."""
        return self.money_in_rates.get(street, 0.5)

    @abstractmethod
    def choice(self, street: str, hole: Sequence[Card], board: Sequence[Card]) -> Choice:
        """The decision the strategy wants on ``street`` with these hole cards and the visible
        ``board`` (the caller falls back to the street's last legal option when it is not
        legal)."""


def uses_hole_card(hole: Sequence[Card], board: Sequence[Card]) -> bool:
    """Pair or better that a hole card helps make (not the board alone)."""
    if len(board) < 3:
        return hole[0].rank == hole[1].rank
    with_hole = evaluate([*hole, *board])
    if with_hole.category < Category.PAIR:
        return False
    if len(board) >= 5:
        return with_hole.value > evaluate(board).value
    board_ranks = [c.rank for c in board]
    return any(c.rank in board_ranks for c in hole) or hole[0].rank == hole[1].rank
