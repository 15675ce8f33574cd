"""A seeded player model for simulations: sensible bets and each game's simple basic strategy.

Not a solver: the model plays the game's simplified strategy (``GameRules.strategy``) and, with
probability ``mistake_rate``, takes another legal decision (players at a real table do), so
simulations cover every branch of the rules (folds, checks, every Play multiple, side bets). The
bets come from the game's boxes: each mandatory box the dealer enters, the boxes that follow one,
and each optional side bet now and then.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.rules import Action
from dealer_assist.games import get_game

# Stakes without table limits, minor units.
_NO_LIMIT = (500, 5000)


class PlayerModel:
    """Bets and decisions of simulated players at one table.

    Args:
        config: the table (game, limits, chips).
        seed: seeds the model's own random generator (independent of the device's shuffle).
        side_bet_rate: probability of placing each optional side bet (e.g. a Trips or a Bonus).
        mistake_rate: probability of a random legal decision instead of the strategy's.
    """

    def __init__(
        self,
        config: TableConfig,
        seed: int,
        *,
        side_bet_rate: float = 0.4,
        mistake_rate: float = 0.05,
    ) -> None:
        self.config = config
        self.game = get_game(config.game)
        self.rng = random.Random(seed)
        self.side_bet_rate = side_bet_rate
        self.mistake_rate = mistake_rate

    def bets(self) -> dict[str, int]:
        """Initial bets of one seat (minor units), within the table limits, in chip multiples:
        every mandatory box (up to ten times its minimum; a followed box equals its box), and
        each optional box with a limit with probability ``side_bet_rate`` (up to five times its
        minimum)."""
        game = self.game
        bets: dict[str, int] = {}
        for box in game.required_boxes:
            if box in game.followed_boxes:
                continue
            lim = self.config.limits.get(box)
            lo, hi = (lim.minimum, lim.maximum) if lim else _NO_LIMIT
            bets[box] = self._amount(lo, min(hi, lo * 10))
        for box, source in game.followed_boxes.items():
            if source in bets:
                bets[box] = bets[source]
        for box in game.optional_boxes:
            lim = self.config.limits.get(box)
            if lim and self.rng.random() < self.side_bet_rate:
                bets[box] = self._amount(lim.minimum, min(lim.maximum, lim.minimum * 5))
        return bets

    def _amount(self, lo: int, hi: int) -> int:
        chip = min(self.config.chips)
        steps = max(0, (hi - lo) // chip)
        return lo + chip * self.rng.randint(0, steps)

    def decide(
        self, street: str, hole: Sequence[Card], board: Sequence[Card], legal: Sequence[Action]
    ) -> Action:
        """One decision among ``legal`` given the seat's hole cards and the visible board."""
        if not legal:
            raise ValueError("no legal action to choose from")
        if self.rng.random() < self.mistake_rate:
            return self.rng.choice(list(legal))
        want = self.game.strategy.choice(street, hole, board)
        for a in legal:
            if (a.action, a.multiple) == want:
                return a
        return legal[-1]
