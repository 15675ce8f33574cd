"""What the table service does for the payout walk, the pit boss's corrections and the hand
history, apart from running the step (:meth:`ui.console.service.TableService._run` does):

- :func:`mark_paid`: the dealer moved past a seat in the payouts; the mark is written to the
  journal's step log before the snapshot says so (:mod:`dealer_assist.table.payouts`);
- :func:`correct`: a pit boss corrects a decision after the next cards were turned;
- :class:`HandHistory`: the last hands from the journal; with a pit boss's badge and PIN the
  seats' hole cards too.
"""

from __future__ import annotations

from typing import TypedDict

from dealer_assist.config import TableConfig
from dealer_assist.engine.rules import Action
from dealer_assist.errors import ConfigError, HandStateError
from dealer_assist.storage.journal import Journal
from dealer_assist.table.banked_runner import BankedRunner
from dealer_assist.table.payouts import PayoutMarks
from ui.console import signoff
from ui.console.history import HistoryHand, read_history
from ui.kit.pitboss import PitBossRoster, check_badge
from ui.kit.status import CommandError

NO_ROSTER = "no pit boss roster at this table: a correction needs a pit boss's badge and PIN"


def mark_paid(config: TableConfig, runner: BankedRunner, seat: int) -> CommandError | None:
    """Mark ``seat`` of the settled hand paid (durable on return), or the refusal while its
    large payout waits for a sign-off (nothing written)."""
    refused = signoff.refuse_unsigned(config, runner, seat)
    if refused is not None:
        return refused
    runner.mark_paid(seat)
    return None


def pit_boss_refusal(roster: PitBossRoster | None, badge: str, pin: str) -> CommandError | None:
    """None when ``badge`` (and ``pin``, with a roster) names a pit boss, else the refusal
    (``pit_boss``)."""
    try:
        check_badge(badge)
    except ConfigError as e:
        return CommandError("pit_boss", str(e))
    if roster is not None and roster.badges and not roster.verify(badge, pin):
        return CommandError("pit_boss", "unknown badge or wrong PIN")
    return None


def correct(
    runner: BankedRunner | None,
    roster: PitBossRoster | None,
    seat: int,
    action: Action,
    badge: str,
    pin: str,
) -> CommandError | None:
    """A pit boss (badge and PIN, checked against the table's roster) corrects ``seat``'s last
    decision, journaled with the pit boss. Without a roster nothing is corrected
    (``no_roster``: a badge alone proves nothing); a wrong badge or PIN changes nothing
    (``pit_boss``).

    Raises:
        HandStateError: no hand in progress.
        DealerAssistError: the decision cannot replace it (the core's refusal).
    """
    if roster is None or not roster.badges:
        return CommandError("no_roster", NO_ROSTER)
    refused = pit_boss_refusal(roster, badge, pin)
    if refused is not None:
        return refused
    if runner is None:
        raise HandStateError("no hand in progress")
    runner.correct(seat, action, pit_boss=badge)
    return None


class HandHistory:
    """The hand history on the screen: the last hands (newest first) while it is open, and
    whether it shows their hole cards (a pit boss opened it)."""

    def __init__(self) -> None:
        self.hands: tuple[HistoryHand, ...] | None = None
        self.holes = False

    def open(
        self,
        journal: Journal | None,
        config: TableConfig,
        roster: PitBossRoster | None,
        badge: str,
        pin: str,
    ) -> CommandError | None:
        """Read the last hands of ``journal``; with ``badge`` (and ``pin``, checked against the
        roster when there is one) the hole cards too. A wrong badge or PIN leaves the history
        as it was (``pit_boss``).

        Raises:
            HandStateError: the table keeps no journal.
            JournalError: the journal cannot be read.
        """
        if journal is None:
            raise HandStateError("this table keeps no journal: no history")
        holes = bool(badge)
        refused = pit_boss_refusal(roster, badge, pin) if holes else None
        if refused is not None:
            return refused
        self.hands = read_history(journal, config.table_id, holes=holes)
        self.holes = holes
        return None

    def close(self) -> None:
        """Close the history (the hole cards leave the snapshot)."""
        self.hands, self.holes = None, False


def walk_marks(runner: BankedRunner | None) -> PayoutMarks | None:
    """The payout walk of the hand in memory, if it is marked."""
    marks = runner.payouts.current() if runner is not None else None
    hand = runner.hand if runner is not None else None
    if marks is None or hand is None or marks.hand_uid != hand.hand_uid:
        return None
    return marks


class WalkFields(TypedDict):
    """The payout walk's part of a snapshot's :class:`~ui.console.snapshot.Extras`."""

    walk: bool
    paid: tuple[int, ...]
    signoff_waiting: tuple[int, ...]
    signed: tuple[int, ...]


def walk_fields(config: TableConfig, runner: BankedRunner | None) -> WalkFields:
    """The walk of ``runner``'s hand for the snapshot: whether it is marked, the seats paid,
    those waiting for a sign-off and those signed."""
    marks = walk_marks(runner)
    if marks is None:
        return WalkFields(walk=False, paid=(), signoff_waiting=(), signed=())
    return WalkFields(
        walk=True,
        paid=marks.paid,
        signoff_waiting=signoff.waiting(config, runner),
        signed=tuple(s.seat for s in marks.signed),
    )
