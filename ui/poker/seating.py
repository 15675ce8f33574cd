"""The between-hands changes the console asks of the peer runner (a thin adapter).

The runner's own methods (``seat_player``, ``top_up``, ``sit_out``, ``sit_in``, ``leave``,
``set_button``): each change is journaled as a chained table record before the table takes it.
"""

from __future__ import annotations

from typing import Any

from dealer_assist.config import TableConfig
from dealer_assist.games.session import TableSession
from dealer_assist.table.peer_runner import PeerRunner


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

    def _apply(self, name: str, *args: Any, **kw: Any) -> TableSession:
        getattr(self.runner, name)(*args, **kw)  # journaled as a table record by the runner
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
