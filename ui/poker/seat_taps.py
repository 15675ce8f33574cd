"""The poker console's taps between hands: a seat selected, then a player seated with a
buy-in, a top-up, sitting out or in, leaving, the button moved. Qt-free; :class:`SeatTaps` is
a collaborator of :class:`ui.poker.presenter.PokerPresenter`. The amounts are checked against
``config.poker.buy_in`` here, the rest by the core.
"""

from __future__ import annotations

from functools import partial

from dealer_assist.config import TableConfig
from ui.poker.amount_keys import AmountKeys
from ui.poker.commands import Leave, PlaceButton, SeatChange, SeatPlayer, SitIn, SitOut, TopUp
from ui.poker.desk import Console
from ui.poker.views import Message

CHANGES: dict[str, type[SeatChange]] = {
    "sit_out": SitOut,
    "sit_in": SitIn,
    "leave": Leave,
    "button": PlaceButton,
}
"""The command of each seat change button."""


class SeatTaps:
    """Between-hands taps (see the module docstring).

    Args:
        console: the presenter (:class:`~ui.poker.desk.Console`); the seat selected is its
            screen's ``selected``.
        config: the table (``config.poker.buy_in``).
        amount: the amount keyed (the buy-in or top-up).
        has_button: the game has a dealer button to place.

    ``name`` is the new player's name (or badge) typed.
    """

    def __init__(
        self, console: Console, config: TableConfig, amount: AmountKeys, has_button: bool
    ) -> None:
        self.console = console
        self.buy_in = config.poker.buy_in
        self.amount = amount
        self.has_button = has_button
        self.name = ""

    def tap_seat(self, seat: int) -> None:
        """Select ``seat`` for a change between hands (again: unselect)."""
        console = self.console
        screen = console.screen
        if screen.snap.in_hand or console.double(f"seat:{seat}"):
            return  # a double tap would select and unselect at once
        screen.selected = None if screen.selected == seat else seat
        self.amount.reset()
        screen.message = None
        console.changed()

    def set_name(self, name: str) -> None:
        """The new player's name (or badge)."""
        self.name = name.strip()
        self.console.changed()

    def tap_seat_player(self) -> None:
        """Seat a player in the selected seat with the keyed buy-in (within the bounds)."""
        seat = self._chosen("seat_player")
        if seat is None:
            return
        low, high = self.buy_in
        amount = self.amount.amount
        if not low <= amount <= high:
            self.console.say(Message("buy_in_bounds", (low, high)))
            return
        self.console.command(partial(SeatPlayer, seat=seat, name=self.name, amount=amount))
        self.name = ""
        self.amount.reset()

    def tap_top_up(self) -> None:
        """More chips for the selected player (the stack at most the maximum buy-in)."""
        seat = self._chosen("top_up")
        if seat is None:
            return
        player = self.console.screen.snap.seat(seat)
        high = self.buy_in[1]
        room = high - (player.stack if player else 0)
        amount = self.amount.amount
        if amount <= 0 or amount > room:
            self.console.say(Message("top_up_max", (max(room, 0), high)))
            return
        self.console.command(partial(TopUp, seat=seat, amount=amount))
        self.amount.reset()

    def tap_seat_change(self, kind: str) -> None:
        """``sit_out``, ``sit_in``, ``leave`` or ``button`` for the selected seat."""
        change = CHANGES.get(kind)
        if change is None or (change is PlaceButton and not self.has_button):
            return  # not a change; a game without a button (its button is never drawn)
        seat = self._chosen(kind)
        if seat is not None:
            self.console.command(partial(change, seat=seat))
            if kind == "leave":
                self.console.screen.selected = None

    def _chosen(self, key: str) -> int | None:
        console = self.console
        if console.double(key) or console.busy or console.screen.snap.in_hand:
            return None
        if console.screen.selected is None:
            console.say(Message("select_seat", error=False))
            return None
        return console.screen.selected
