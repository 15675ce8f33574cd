"""What a game family brings to the table runner: how a hand is made, what its deal needs, what
falls due without anyone deciding it, what the table keeps beside it.

The runner (:class:`~dealer_assist.table.runner.TableRunner`) is one class; a family is a
collaborator it owns (:class:`BankedFamily` here, :class:`~dealer_assist.table.peer_family.
PeerFamily` for the poker room), with its own state, asked at fixed points of a hand and never
calling back into the runner: it answers, or changes the hand and the deal state it is handed.
"""

from __future__ import annotations

from typing import Protocol, TypeVar

from dealer_assist.config import TableConfig
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.operations import Operation
from dealer_assist.engine.state import GameState
from dealer_assist.games import get_game
from dealer_assist.games.session import TableSession
from dealer_assist.ports import JournalPort, StoredHand
from dealer_assist.table.card_intake import CardIntake
from dealer_assist.table.dealing import DealState
from dealer_assist.table.payouts import PayoutLog

S = TypeVar("S", bound=GameState)
S_co = TypeVar("S_co", bound=GameState, covariant=True)


class Resumer(Protocol[S_co]):
    """What picks a table up after a restart (:class:`~dealer_assist.table.resume.Resume`)."""

    def run(self) -> S_co | None:
        """Replay the step log and catch up with the device; the hand in play, or None."""
        ...

    def journal_unsaved(self) -> StoredHand | None:
        """Journal a finished hand a storage fault kept out of the journal."""
        ...

    def forget_unstarted(self) -> bool:
        """Clear the step log of a hand that has only opened (an ordinary stop)."""
        ...


class HandFamily(Protocol[S]):
    """A game family as the runner uses it.

    ``automatic``: the family's hands apply what falls due themselves (forced bets, pots, the
    settlement) and are journaled the moment they are settled; the runner then deals what the
    hand needs after every step. Otherwise the dealer's steps settle the hand.
    """

    automatic: bool

    def make_state(self, config: TableConfig, hand_uid: str, session: TableSession | None) -> S:
        """A new hand (HandStateError when none can start now)."""
        ...

    def session_after(self, config: TableConfig, session: TableSession, hand: S) -> TableSession:
        """The table session once ``hand`` is journaled."""
        ...

    def opened(self) -> None:
        """A new hand opened (its first step written, the deck asked for)."""
        ...

    def resuming(self) -> None:
        """A restart is about to replay the step log."""
        ...

    def keep_records(self, open_uid: str, session: TableSession | None) -> None:
        """Journal what the family keeps beside the journaled hands (not ``open_uid``, the hand
        in play); a journal that refuses leaves it for the next try."""
        ...

    def before_apply(self, hand: S, op: Operation, cards: CardIntake) -> None:
        """``op`` is about to be applied (live or in a replay)."""
        ...

    def after_apply(self, hand: S, op: Operation, deal: DealState) -> None:
        """``op`` was applied: what falls due now is applied too."""
        ...

    def may_deal(self, hand: S) -> bool:
        """The device may be asked for the hand's pending positions now."""
        ...

    def deals_after(self, op: Operation) -> bool:
        """After the written step ``op`` the hand may need its next deal (automatic hands)."""
        ...


class BankedFamily:
    """The casino-banked games (UTH, THB): a hand per config, the session moved on by one hand,
    the dealer's steps settle it; the payout walk's marks are kept here
    (:mod:`dealer_assist.table.payouts`)."""

    automatic = False

    def __init__(self, config: TableConfig, journal: JournalPort | None) -> None:
        self._config = config
        self._journal = journal
        self._payouts: PayoutLog | None = None

    @property
    def payouts(self) -> PayoutLog:
        """The payout walk's marks (opened on first use)."""
        if self._payouts is None:
            self._payouts = PayoutLog(self._journal, self._config.table_id)
        return self._payouts

    def make_state(
        self, config: TableConfig, hand_uid: str, session: TableSession | None
    ) -> BankedHand:
        """A new hand of the table's banked game."""
        return BankedHand(get_game(config.game), config, hand_uid)

    def session_after(
        self, config: TableConfig, session: TableSession, hand: BankedHand
    ) -> TableSession:
        """One more hand played."""
        return session.after_hand()

    def opened(self) -> None:
        """The last hand's payout marks go once the next hand opened."""
        self.payouts.finish()

    def resuming(self) -> None:
        """Nothing: the payout walk is restored on its own (``restore_payout``)."""

    def keep_records(self, open_uid: str, session: TableSession | None) -> None:
        """Nothing: a banked hand's sign-offs are the console's."""

    def before_apply(self, hand: BankedHand, op: Operation, cards: CardIntake) -> None:
        """Nothing: a banked hand has one deck."""

    def after_apply(self, hand: BankedHand, op: Operation, deal: DealState) -> None:
        """Nothing falls due in a banked hand without the dealer."""

    def may_deal(self, hand: BankedHand) -> bool:
        """Always: the deck never runs short."""
        return True

    def deals_after(self, op: Operation) -> bool:
        """Never: the dealer's steps deal."""
        return False
