"""The poker presenter's taps between hands: a seat selected, then a player seated with a
buy-in, a top-up, sitting out or in, leaving, the button moved. A mixin of
:class:`ui.poker.presenter.PokerPresenter`, kept apart so that module stays small; the amounts
are checked against ``config.poker.buy_in`` here, the rest by the core.
"""

from __future__ import annotations

from dealer_assist.config import TableConfig
from ui.poker.service import PokerCommand
from ui.poker.snapshot import PokerSnapshot
from ui.poker.views import Message


class SeatTaps:
    """Between-hands taps of :class:`~ui.poker.presenter.PokerPresenter` (see the module
    docstring); the attributes are the presenter's."""

    config: TableConfig
    has_button: bool
    snap: PokerSnapshot
    selected: int | None
    amount: int
    _typed: str | None
    name: str
    message: Message | None
    _waiting: set[int]

    def _double(self, key: str) -> bool:
        raise NotImplementedError  # the presenter's

    def _changed(self) -> None:
        raise NotImplementedError  # the presenter's

    def _say(self, message: Message) -> None:
        raise NotImplementedError  # the presenter's

    def _command(self, cmd: PokerCommand) -> None:
        raise NotImplementedError  # the presenter's

    def tap_seat(self, seat: int) -> None:
        """Select ``seat`` for a change between hands (again: unselect)."""
        if self.snap.in_hand or self._double(f"seat:{seat}"):
            return  # a double tap would select and unselect at once
        self.selected = None if self.selected == seat else seat
        self.amount, self._typed = 0, None
        self.message = None
        self._changed()

    def set_name(self, name: str) -> None:
        """The new player's name (or badge)."""
        self.name = name.strip()
        self._changed()

    def tap_seat_player(self) -> None:
        """Seat a player in the selected seat with the keyed buy-in (within the bounds)."""
        seat = self._chosen("seat_player")
        if seat is None:
            return
        low, high = self.config.poker.buy_in
        if not low <= self.amount <= high:
            self._say(Message("buy_in_bounds", (low, high)))
            return
        self._command(PokerCommand("seat_player", seat=seat, name=self.name, amount=self.amount))
        self.name, self.amount, self._typed = "", 0, None

    def tap_top_up(self) -> None:
        """More chips for the selected player (the stack at most the maximum buy-in)."""
        seat = self._chosen("top_up")
        if seat is None:
            return
        player = self.snap.seat(seat)
        high = self.config.poker.buy_in[1]
        room = high - (player.stack if player else 0)
        if self.amount <= 0 or self.amount > room:
            self._say(Message("top_up_max", (max(room, 0), high)))
            return
        self._command(PokerCommand("top_up", seat=seat, amount=self.amount))
        self.amount, self._typed = 0, None

    def tap_seat_change(self, kind: str) -> None:
        """``sit_out``, ``sit_in``, ``leave`` or ``button`` for the selected seat."""
        if kind == "button" and not self.has_button:
            return  # a game without a button (its button is never drawn)
        seat = self._chosen(kind)
        if seat is not None:
            self._command(PokerCommand(kind, seat=seat))
            if kind == "leave":
                self.selected = None

    def _chosen(self, key: str) -> int | None:
        if self._double(key) or self._waiting or self.snap.in_hand:
            return None
        if self.selected is None:
            self._say(Message("select_seat", error=False))
            return None
        return self.selected
