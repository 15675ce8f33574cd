"""The table service's steps for the payout walk, corrections and the hand history:
a mixin of :class:`ui.console.service.TableService`, kept apart so that module stays small.

- ``mark_paid``: the dealer moved past a seat in the payouts; the mark is written to the
  journal's step log before the snapshot says so (:mod:`dealer_assist.table.payouts`).
- ``undo``: a mis-tapped decision taken back before the next card is turned.
- ``open_history`` / ``close_history``: the last hands from the journal; with a pit boss's badge
  and PIN the seats' hole cards too.
"""

from __future__ import annotations

from collections.abc import Callable

from dealer_assist.config import TableConfig
from dealer_assist.engine.rules import Action
from dealer_assist.errors import ConfigError, HandStateError
from dealer_assist.pitboss.users import UserStore
from dealer_assist.storage.journal import Journal
from dealer_assist.table.banked_runner import BankedRunner
from dealer_assist.table.payouts import PayoutMarks
from ui.console import signoff
from ui.console.history import HistoryHand, read_history
from ui.console.snapshot import TableSnapshot
from ui.kit.pitboss import PitBossRoster, check_badge
from ui.kit.status import CommandError

NO_ROSTER = "no pit boss roster at this table: a correction needs a pit boss's badge and PIN"


class WalkSteps:
    """Steps of :class:`~ui.console.service.TableService` (see the module docstring)."""

    config: TableConfig
    journal: Journal | None
    roster: PitBossRoster | None
    signers: UserStore | None = None  # the pit-boss application's users, when configured
    runner: BankedRunner | None
    _history: tuple[HistoryHand, ...] | None = None
    _history_holes: bool = False
    _resumed_uid: str = ""
    _last_bets: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()

    def _run(self, seq: int, step: Callable[[], object]) -> TableSnapshot:
        raise NotImplementedError  # TableService's

    def mark_paid(self, seat: int, seq: int = 0) -> TableSnapshot:
        """The dealer paid (or collected) ``seat`` of the settled hand and moved on: marked
        durably, so a restart shows it ticked."""

        def step() -> CommandError | None:
            runner = self.runner
            if runner is None or runner.hand is None:
                raise HandStateError("no hand in progress")
            refused = signoff.refuse_unsigned(self.config, runner, seat)  # a large payout
            if refused is not None:
                return refused
            runner.mark_paid(seat)
            return None

        return self._run(seq, step)

    def sign_off(self, seat: int, badge: str, pin: str, seq: int = 0) -> TableSnapshot:
        """A pit boss (or shift manager, as the tier asks) signs off ``seat``'s large payout
        with badge and PIN (:mod:`ui.console.signoff`); a wrong badge or PIN changes nothing."""

        def step() -> CommandError | None:
            runner = self.runner
            if runner is None or runner.hand is None:
                raise HandStateError("no hand in progress")
            return signoff.sign(self.config, runner, self.roster, self.signers, seat, badge, pin)

        return self._run(seq, step)

    def undo(self, seat: int, seq: int = 0) -> TableSnapshot:
        """Take back ``seat``'s decision on this street (before the next card is turned)."""

        def step() -> None:
            if self.runner is None:
                raise HandStateError("no hand in progress")
            self.runner.undo(seat)

        return self._run(seq, step)

    def open_history(self, seq: int = 0, badge: str = "", pin: str = "") -> TableSnapshot:
        """Open the hand history (the last hands, newest first); with ``badge`` (and ``pin``,
        checked against the roster when there is one) the hole cards too. A wrong badge or PIN
        leaves the history as it was (``pit_boss``)."""

        def step() -> CommandError | None:
            if self.journal is None:
                raise HandStateError("this table keeps no journal: no history")
            holes = bool(badge)
            refused = self._pit_boss(badge, pin) if holes else None
            if refused is not None:
                return refused
            self._history = read_history(self.journal, self.config.table_id, holes=holes)
            self._history_holes = holes
            return None

        return self._run(seq, step)

    def correct_decision(
        self, seat: int, action: Action, badge: str, pin: str, seq: int = 0
    ) -> TableSnapshot:
        """A pit boss (badge and PIN, checked against the table's roster) corrects ``seat``'s
        last decision after the next cards were turned, journaled with the dealer on the box,
        the pit boss, the decision it replaces and when. Without a roster nothing is corrected
        (``no_roster``: a badge alone proves nothing); a wrong badge or PIN changes nothing
        (``pit_boss``), nor does a decision that cannot replace it (``illegal``)."""

        def step() -> CommandError | None:
            if self.roster is None or not self.roster.badges:
                return CommandError("no_roster", NO_ROSTER)
            refused = self._pit_boss(badge, pin)
            if refused is not None:
                return refused
            if self.runner is None:
                raise HandStateError("no hand in progress")
            self.runner.correct(seat, action, pit_boss=badge)
            return None

        return self._run(seq, step)

    def _pit_boss(self, badge: str, pin: str) -> CommandError | None:
        """None when ``badge`` (and ``pin``, with a roster) names a pit boss, else the refusal."""
        try:
            check_badge(badge)
        except ConfigError as e:
            return CommandError("pit_boss", str(e))
        roster = self.roster
        if roster is not None and roster.badges and not roster.verify(badge, pin):
            return CommandError("pit_boss", "unknown badge or wrong PIN")
        return None

    def close_history(self, seq: int = 0) -> TableSnapshot:
        """Close the hand history (the hole cards leave the snapshot)."""

        def step() -> None:
            self._history, self._history_holes = None, False

        return self._run(seq, step)

    def _walk_marks(self) -> PayoutMarks | None:
        """The payout walk of the hand in memory, if it is marked."""
        runner = self.runner
        marks = runner.payouts.current() if runner is not None else None
        hand = runner.hand if runner is not None else None
        if marks is None or hand is None or marks.hand_uid != hand.hand_uid:
            return None
        return marks
