"""The banked games' runner: the dealer's steps of a casino-banked hand (UTH, THB).

The table runner with the banked family (:class:`~dealer_assist.table.family.BankedFamily`)
and its resumer; each step here builds the hand's operation and hands it to
:meth:`~dealer_assist.table.runner.TableRunner.perform` (verified, written, applied, then the
device deals what it opened). A step the hand is past (a fault voided it meanwhile) does nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dealer_assist.config import TableConfig
from dealer_assist.engine.banked import BankedHand, decisions
from dealer_assist.engine.operations import (
    ActionUndone,
    DealerRevealed,
    Decision,
    DecisionCorrected,
    StreetClosed,
)
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.errors import DealerAssistError
from dealer_assist.events import utc_now
from dealer_assist.games import get_game
from dealer_assist.ports import JournalPort
from dealer_assist.record import parse_record
from dealer_assist.source import CardSource
from dealer_assist.table.family import BankedFamily
from dealer_assist.table.payouts import PayoutLog, PayoutMarks
from dealer_assist.table.resume import Resume
from dealer_assist.table.runner import TableRunner


class BankedRunner(TableRunner[BankedHand]):
    """Runs UTH/THB hands at one table (arguments as
    :class:`~dealer_assist.table.runner.TableRunner`, without ``family`` and ``resume``)."""

    def __init__(
        self, config: TableConfig, source: CardSource, journal: JournalPort | None, **kwargs: Any
    ) -> None:
        self._banked = BankedFamily(config, journal)
        super().__init__(config, source, journal, family=self._banked, resume=Resume, **kwargs)

    @property
    def payouts(self) -> PayoutLog:
        """The payout walk's marks (:mod:`dealer_assist.table.payouts`)."""
        return self._banked.payouts

    def start_payout(self) -> None:
        """The payouts of the revealed hand begin: marked durably before it is settled, so a
        crash from now on finds the list again (raises JournalError, nothing settled then)."""
        hand = self._current()
        self.payouts.start(hand.hand_uid, tuple(sorted(hand.seats, reverse=True)))

    def mark_paid(self, seat: int) -> bool:
        """The dealer moved past ``seat`` in the payouts (durable on return; raises
        JournalError); False when it was marked already or no walk is in progress."""
        hand = self._current()
        return self.payouts.mark(hand.hand_uid, seat)

    def restore_payout(self) -> PayoutMarks | None:
        """After :meth:`resume`: the payout walk a crash interrupted, with the hand it pays
        (the replayed hand, or the settled hand rebuilt from the journal's record); None (and
        the marks dropped) when there is none or its hand is not the last settled one."""
        marks = self.payouts.restore()
        if marks is None:
            return None
        hand = self.hand
        if hand is not None and hand.hand_uid == marks.hand_uid and hand.phase is Phase.SETTLED:
            return marks
        last = self.journal.last_hand() if self.journal is not None else None
        if (
            (hand is None or hand.is_over)
            and last is not None
            and (last.hand_uid == marks.hand_uid and last.status == "settled")
        ):
            try:
                record = parse_record(last.record)
            except DealerAssistError:
                record = None
            if record is not None:
                self.hand = BankedHand.settled(
                    get_game(self.config.game),
                    self.config,
                    marks.hand_uid,
                    record,
                    started_at=last.started_at,
                    ended_at=last.ended_at,
                )
                self.stored = last
                return marks
        self.payouts.finish()
        return None

    def close_bets(self) -> BankedHand:
        """ "Rien ne va plus": lock the bets; the deal follows the deck's SHUFFLED."""
        return self.perform(self._current().lock_operation())

    def act(self, seat: int, action: Action) -> None:
        """A seat's decision (raises IllegalActionError and leaves the hand as it was); nothing
        when the hand is no longer deciding (a fault voided it meanwhile)."""
        self.poll(0)
        hand = self._current()
        if hand.phase is Phase.DECISIONS:
            self.perform(
                Decision(
                    seat=seat, street=action.street, action=action.action, multiple=action.multiple
                )
            )

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

    def undo(self, seat: int, *, by: str | None = None) -> None:
        """Take back ``seat``'s decision on the street being decided (a mis-tap), until the next
        card is turned (raises HandStateError after, and changes nothing); ``by``: who (default
        the dealer on the box, ``dealer`` when nobody is logged in)."""
        self.poll(0)
        hand = self._current()
        if by is None:
            by = (self.session.dealer if self.session is not None else None) or "dealer"
        if hand.phase is Phase.DECISIONS:
            self.perform(ActionUndone(seat=seat, by=by, at=utc_now()))

    def correct(
        self,
        seat: int,
        action: Action,
        *,
        pit_boss: str,
        by: str | None = None,
        reason: str = "",
    ) -> None:
        """A pit boss (``pit_boss``, badge) authorises the correction of ``seat``'s last
        decision after the next cards were turned, made by ``by`` (a badge; default the dealer
        on the box) for ``reason``
        (:func:`~dealer_assist.engine.banked_checks.corrections` says which may replace it;
        IllegalActionError otherwise, nothing changed)."""
        self.poll(0)
        hand = self._current()
        if by is None:
            by = (self.session.dealer if self.session is not None else None) or ""
        st = hand.seats.get(seat)
        was = st.actions[-1] if st is not None and st.actions else None
        if hand.phase is Phase.DECISIONS:
            self.perform(
                DecisionCorrected(
                    seat=seat,
                    action=action.action,
                    multiple=action.multiple,
                    was=was.action if was is not None else "",
                    was_multiple=was.multiple if was is not None else None,
                    pit_boss=pit_boss,
                    by=by,
                    reason=reason,
                    at=utc_now(),
                )
            )

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
