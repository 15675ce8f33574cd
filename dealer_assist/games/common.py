"""Small helpers shared by the casino-banked games: their settlement, their texts."""

from __future__ import annotations

from dealer_assist.engine.paytable import Odds, pay
from dealer_assist.engine.rules import BoxResult, SeatResult
from dealer_assist.evaluator import HandValue


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


def english(text: str) -> str:
    """Mark ``text`` as an English text the console shows for a game; returns it unchanged.

    The games stay free of Qt: ``ui/i18n/update.py`` has lupdate collect every literal marked
    so in ``dealer_assist/games`` (as ``QT_TR_NOOP``) into the console's catalogue, and the
    console translates the text when it shows it (``ui/console/texts.py``).
    """
    return text
