"""A seeded player model for simulations: sensible bets and a simple basic strategy.

Not a solver: the model plays a well-known simplified strategy and, with probability
``mistake_rate``, takes another legal decision (players at a real table do), so simulations cover
every branch of the rules (folds, checks, every Play multiple, side bets).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.evaluator import Category, evaluate
from dealer_assist.games.base import Action


class PlayerModel:
    """Bets and decisions of simulated players at one table.

    Args:
        config: the table (game, limits, chips).
        seed: seeds the model's own random generator (independent of the device's shuffle).
        side_bet_rate: probability of placing the optional side bet (Trips / Bonus).
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
        self.rng = random.Random(seed)
        self.side_bet_rate = side_bet_rate
        self.mistake_rate = mistake_rate

    def bets(self) -> dict[str, int]:
        """Initial bets of one seat (minor units), within the table limits, in chip multiples."""
        ante_lim = self.config.limits.get("ante")
        lo, hi = (ante_lim.minimum, ante_lim.maximum) if ante_lim else (500, 5000)
        ante = self._amount(lo, min(hi, lo * 10))
        bets = {"ante": ante}
        if self.config.game == "uth":
            bets["blind"] = ante
        side = "trips" if self.config.game == "uth" else "bonus"
        side_lim = self.config.limits.get(side)
        if side_lim and self.rng.random() < self.side_bet_rate:
            bets[side] = self._amount(side_lim.minimum, min(side_lim.maximum, side_lim.minimum * 5))
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
        want = self._strategy(street, hole, board)
        for a in legal:
            if (a.action, a.multiple) == want:
                return a
        return legal[-1]

    def _strategy(
        self, street: str, hole: Sequence[Card], board: Sequence[Card]
    ) -> tuple[str, int | None]:
        if self.config.game == "uth":
            return _uth(street, hole, board)
        return _thb(street, hole, board)


def _uses_hole_card(hole: Sequence[Card], board: Sequence[Card]) -> bool:
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


def _uth(street: str, hole: Sequence[Card], board: Sequence[Card]) -> tuple[str, int | None]:
    hi, lo = sorted((c.rank for c in hole), reverse=True)
    suited = hole[0].suit == hole[1].suit
    if street == "preflop":
        # Simplified basic strategy: raise 4x with pairs 33+, any ace, good kings/queens/jacks.
        strong = (
            (hi == lo and hi >= 3)
            or hi == 14
            or (hi == 13 and (suited or lo >= 5))
            or (hi == 12 and (lo >= 8 or (suited and lo >= 6)))
            or (hi == 11 and (lo >= 10 or (suited and lo >= 8)))
        )
        return ("play", 4) if strong else ("check", None)
    if street == "flop":
        return ("play", 2) if _uses_hole_card(hole, board) else ("check", None)
    # River: play a made hand using a hole card, or a high kicker against a weak board.
    if _uses_hole_card(hole, board) or hi >= 13:
        return ("play", 1)
    return ("fold", None)


def _thb(street: str, hole: Sequence[Card], board: Sequence[Card]) -> tuple[str, int | None]:
    hi, lo = sorted((c.rank for c in hole), reverse=True)
    if street == "preflop":
        playable = hi == lo or hi >= 11 or (hole[0].suit == hole[1].suit and hi - lo <= 2)
        return ("bet", None) if playable or lo >= 8 else ("fold", None)
    return ("bet", None) if _uses_hole_card(hole, board) else ("check", None)
