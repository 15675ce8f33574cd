"""Small settlement helpers shared by the casino-banked games."""

from __future__ import annotations

from dealer_assist.evaluator import HandValue
from dealer_assist.games.base import BoxResult, SeatResult
from dealer_assist.games.paytable import Odds, pay


def compare(player: HandValue, dealer: HandValue) -> SeatResult:
    """``win``, ``lose`` or ``tie`` of the player's best five against the dealer's."""
    if player.value > dealer.value:
        return "win"
    if player.value < dealer.value:
        return "lose"
    return "tie"


def win_even(box: str, stake: int) -> BoxResult:
    """A box paid 1:1."""
    return BoxResult(box, stake, "win", stake)


def lose(box: str, stake: int) -> BoxResult:
    """A box collected by the dealer."""
    return BoxResult(box, stake, "lose", -stake)


def push(box: str, stake: int) -> BoxResult:
    """A box left to the player."""
    return BoxResult(box, stake, "push", 0)


def odds_box(box: str, stake: int, odds: Odds | None, unit: int, *, else_push: bool) -> BoxResult:
    """A box paid by a pay-table line; without a line it pushes (``else_push``) or loses."""
    if odds is None:
        return push(box, stake) if else_push else lose(box, stake)
    return BoxResult(box, stake, "win", pay(stake, odds, unit))
