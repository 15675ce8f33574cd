"""The between-hands changes the console asks of the peer runner (a thin adapter).

The runner's own methods (``seat_player``, ``top_up``, ``sit_out``, ``sit_in``, ``leave``,
``set_button``: journaled as table records) are used when it has them; a runner without one gets
the change from the game's table rules (:mod:`dealer_assist.games.holdem_table`) applied to its
session in memory (not journaled: the next hand's ``open`` step carries the session).
"""

from __future__ import annotations

import inspect
from typing import Any

from dealer_assist.config import TableConfig
from dealer_assist.errors import HandStateError
from dealer_assist.table.peer_runner import PeerRunner
from dealer_assist.table.session import TableSession


class Seating:
    """The table changes between hands on ``runner`` (every method raises TableError naming the
    seat and the rule, or HandStateError during a hand).

    Args:
        runner: the table's runner (its ``session`` is the table).
        config: the table (``config.poker`` the game, ``config.seats``).
        by: who makes the changes (recorded with them).
    """

    def __init__(self, runner: PeerRunner, config: TableConfig, by: str = "dealer") -> None:
        self.runner = runner
        self.config = config
        self.by = by

    @property
    def session(self) -> TableSession:
        """The table now (read from the journal the first time)."""
        r = self.runner
        if r.session is None:
            r.session = TableSession.of_journal(self.config.table_id, r.journal)
        return r.session

    @property
    def in_hand(self) -> bool:
        """A hand is in progress (no change now)."""
        hand = self.runner.hand
        return hand is not None and not hand.is_over

    def _table(self) -> Any:
        from dealer_assist.games.holdem_table import PokerTable

        return PokerTable.of_game(self.config.poker, self.config.seats)

    def _rules(self) -> Any:
        from dealer_assist.games import holdem_table

        return holdem_table

    def _apply(self, name: str, *args: Any, **kw: Any) -> TableSession:
        own = getattr(self.runner, name, None)
        if callable(own):
            params = inspect.signature(own).parameters
            own(*args, **{k: v for k, v in kw.items() if k in params})
            return self.session
        if self.in_hand:
            raise HandStateError("changes at the table only between hands: finish the hand first")
        rules = self._rules()
        session = self.session
        if name in ("seat_player", "top_up"):
            new = getattr(rules, name)(session, self._table(), *args, in_hand=False, **kw)
        elif name == "sit_in":
            new = rules.sit_in(session, *args, table=self._table(), in_hand=False, **kw)
        else:
            new = getattr(rules, name)(session, *args, in_hand=False, **kw)
        self.runner.session = new
        return self.session

    def seat_player(self, seat: int, name: str, buy_in: int) -> TableSession:
        """A player sits down in ``seat`` with ``buy_in`` (minor units, within the buy-in)."""
        return self._apply("seat_player", seat, name, buy_in, by=self.by)

    def top_up(self, seat: int, amount: int) -> TableSession:
        """``amount`` more chips for the player in ``seat`` (the stack at most the maximum)."""
        return self._apply("top_up", seat, amount, by=self.by)

    def sit_out(self, seat: int) -> TableSession:
        """The player in ``seat`` sits out from the next hand."""
        return self._apply("sit_out", seat, by=self.by)

    def sit_in(self, seat: int) -> TableSession:
        """The player in ``seat`` is dealt in again from the next hand."""
        return self._apply("sit_in", seat, by=self.by)

    def leave(self, seat: int) -> TableSession:
        """The player in ``seat`` leaves with their stack."""
        return self._apply("leave", seat, by=self.by)

    def set_button(self, seat: int) -> TableSession:
        """The dealer places the button in front of ``seat``."""
        return self._apply("set_button", seat, by=self.by)
