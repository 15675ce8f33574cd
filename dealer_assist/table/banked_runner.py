"""The banked games' runner: the dealer's steps of a casino-banked hand (UTH, THB).

Each step builds the hand's operation and hands it to
:meth:`~dealer_assist.table.runner.TableRunner.perform` (verified, written, applied, then the
device deals what it opened). A step the hand is past (a fault voided it meanwhile) does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from dealer_assist.config import TableConfig
from dealer_assist.engine.banked import BankedHand, Phase, decisions
from dealer_assist.engine.operations import DealerRevealed, Decision, StreetClosed
from dealer_assist.games.base import Action
from dealer_assist.table.resume import ResumingRunner


class BankedRunner(ResumingRunner[BankedHand]):
    """Runs UTH/THB hands at one table (arguments as
    :class:`~dealer_assist.table.runner.TableRunner`)."""

    def make_state(self, config: TableConfig, hand_uid: str) -> BankedHand:
        """A new hand of the table's banked game."""
        return BankedHand(config, hand_uid)

    def close_bets(self) -> BankedHand:
        """ "Rien ne va plus": lock the bets; the deal follows the deck's SHUFFLED."""
        return self.perform(self._current().lock_operation())

    def act(self, seat: int, action: Action) -> None:
        """A seat's decision (raises IllegalActionError and leaves the hand as it was); nothing
        when the hand is no longer deciding (a fault voided it meanwhile)."""
        self.poll(0)
        hand = self._current()
        if hand.phase is Phase.DECISIONS:
            self.perform(Decision(seat=seat, street=action.street, action=action.action,
                                  multiple=action.multiple))  # fmt: skip

    def act_many(
        self,
        pairs: Sequence[tuple[int, Action]],
        *,
        advance: bool = False,
    ) -> None:
        """Several seats' decisions on the current street as ONE durable step (a terminal that
        collects a street at once, the simulator): one journal write instead of one per seat.
        All are checked first; an illegal or repeated one raises and none is applied.
        ``advance``: the same step also turns the next street, when no seat is left to act
        (else HandStateError names the seats and nothing is applied)."""
        self.poll(0)
        hand = self._current()
        if hand.phase is not Phase.DECISIONS or not pairs:
            if advance:
                self.advance()
            return
        self.perform(decisions(list(pairs), advance=advance))

    def advance(self) -> BankedHand:
        """Turn the next street (its cards are dealt first where the game deals them then)."""
        self.poll(0)
        hand = self._current()
        if hand.phase is Phase.DECISIONS:
            self.perform(StreetClosed())
        return hand

    def reveal(self) -> BankedHand:
        """The dealer turns their cards."""
        self.poll(0)
        hand = self._current()
        if hand.phase is Phase.SHOWDOWN:
            self.perform(DealerRevealed())
        return hand
