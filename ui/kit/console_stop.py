"""What a console window says about an ordinary stop (SIGTERM from systemd or a supervisor,
SIGINT from Ctrl-C): one line on stdout once the table is open (a supervisor's log knows it is
up, and where its hand is), one sentence on stderr when a signal closed it.

A dealer's hand cannot be played to its end without the dealer: the step in progress is finished
by the worker (a command is never cut in two), every step already taken is in the journal's step
log, and the hand is *parked* there: the next start resumes it. The sentence is built from the
journal read back after the console closed (its pending steps), not from what the window last
showed, so it says what is durably there::

    stopped by SIGTERM: hand 12 parked at the flop (4 steps in the journal's step log), it
    resumes on the next start (voided, every wager returned, if the device cannot go on with
    its deck)
    stopped by SIGTERM between hands: nothing to resume
"""

from __future__ import annotations

import sys

from dealer_assist.errors import JournalError
from dealer_assist.table.payouts import PAYOUT_SUFFIX
from dealer_assist.table.steplog import ACK_SUFFIX
from ui.stop import StopRequest

_PHASES = {
    "bets_open": "with its bets open",
    "dealing": "in the deal",
    "showdown": "at the showdown",
    "revealed": "after the reveal",
    "posting": "at the forced bets",
    "awarding": "at the award of the pots",
    "settled": "settled (its payouts being marked)",
    "void": "voided",
}
_STREET_PHASES = ("decisions", "in_play", "dealing")


def describe(phase: object, street: str | None) -> str:
    """Where a hand is, in words: ``at the flop``, ``with its bets open``, ``in the deal of the
    turn``; "" before the first hand (``phase`` None)."""
    if phase is None or str(phase) == "":
        return ""
    name = str(phase)
    if street and name in _STREET_PHASES:
        return f"in the deal of the {street}" if name == "dealing" else f"at the {street}"
    return _PHASES.get(name, f"at {name.replace('_', ' ')}")


class ConsoleStopReport:
    """Follows a console's table state (:meth:`on_state`, from its snapshots on the GUI thread)
    and says, once, that it is open; :meth:`sentence` after a stop.

    Args:
        name: the command (``dealer-assist console``).
        table_id: the table, whose pending steps are read back.
        url: the console's journal (SQLite path or URL), opened read-only after the stop.
        announce: print the open line (not in a demo, which has its own report).
    """

    def __init__(self, name: str, table_id: str, url: str, *, announce: bool = True) -> None:
        self.name, self.table_id, self.url = name, table_id, url
        self.announce = announce
        self.hand_no = 0
        self.where = ""
        self._said = False

    def on_state(self, hand_no: int, phase: object, street: str | None) -> None:
        """A snapshot's hand number and phase; the first one with a hand prints the open line."""
        self.hand_no, self.where = hand_no, describe(phase, street)
        if self.announce and not self._said and self.where:
            self._said = True
            print(
                f"{self.name}: table {self.table_id} open: hand {hand_no} {self.where} "
                "(SIGTERM or Ctrl-C stops it cleanly)",
                flush=True,
            )

    def sentence(self, stop: StopRequest) -> str:
        """The stop in one sentence, from the journal's step logs read back (after the console
        closed its journal): the hand's steps, its payout marks, a void not yet acknowledged."""
        from dealer_assist.storage.journal import Journal

        try:
            with Journal(self.url, create=False, read_only=True) as journal:
                steps = journal.pending_steps(self.table_id)
                marks = len(journal.pending_steps(self.table_id + PAYOUT_SUFFIX))
        except JournalError as e:
            return f"stopped by {stop.name} (the journal could not be read back: {e})"
        hand = f"hand {self.hand_no}" if self.hand_no else "the hand"
        played = [s for s in steps if not s.hand_uid.endswith(ACK_SUFFIX)]
        if played:
            where = f" {self.where}" if self.where else ""
            return (
                f"stopped by {stop.name}: {hand} parked{where} ({len(played)} steps in the "
                "journal's step log), it resumes on the next start (voided, every wager "
                "returned, if the device cannot go on with its deck)"
            )
        if marks:
            return (
                f"stopped by {stop.name}: {hand} settled and journaled, its payouts being "
                f"marked ({marks} marks kept): the next start goes on with them"
            )
        if steps:
            return (
                f"stopped by {stop.name}: the void of the last hand waits for the dealer's "
                "acknowledgement on the next start"
            )
        return f"stopped by {stop.name} between hands: nothing to resume"

    def report(self, stop: StopRequest) -> None:
        """After the console closed: the sentence on stderr when a signal stopped it; the
        signal handlers restored."""
        stop.restore()
        if stop.requested:
            print(f"{self.name}: {self.sentence(stop)}", file=sys.stderr, flush=True)
