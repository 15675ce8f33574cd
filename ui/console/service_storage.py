"""The table service over a storage fault: :class:`StorageFaults`, held by
:class:`ui.console.service.TableService`, owns the fault the table waits on and the banner.

The console's journal is a :class:`~dealer_assist.storage.faults.ResilientJournal`: it retries
what may pass and raises a :class:`~dealer_assist.errors.StorageFaultError` when it did not.
Then the hand stays pending in the step log (a write that failed applied nothing), the banner
says what happened and what to do (:func:`ui.kit.storage_notice.storage_text`, never the library's
words, which go to the log) and the table stops: no card is taken from the source, no step
runs. The next step, or *Retry*, asks the journal for a write; once it answers, the runner
journals a hand that finished meanwhile once (idempotent by ``hand_uid``) and the table goes
on from the step log's state (the same as the hand in memory); a restart meanwhile resumes it
from the step log (the runner's crash recovery). The journal's notices (a disk getting full,
a call that succeeded after retries) are shown too, as a banner the dealer may dismiss.

Everything here runs on the service's (worker) thread; the banner reaches the screen in the
snapshot, through the worker's Qt signal.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from dealer_assist.errors import JournalError
from dealer_assist.storage.faults import ResilientJournal, StorageNotice
from dealer_assist.storage.journal import Journal
from dealer_assist.table.banked_runner import BankedRunner
from ui.kit.refusals import command_error
from ui.kit.status import CommandError, StorageBanner
from ui.kit.storage_notice import RECOVERED, storage_text

log = logging.getLogger(__name__)

PROBE_HAND = "-storage-probe-"
"""The step log's hand a recovery writes and clears at once: does the journal take writes?"""


class StorageFaults:
    """The storage fault the table waits on and the banner shown for it (see the module
    docstring).

    Args:
        table_id: the table, named in the log.
    """

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.fault: JournalError | None = None  # the journal refused a write: the table waits
        self.banner: StorageBanner | None = None

    def watch(self, journal: Journal | None) -> None:
        """Take ``journal``'s notices (a ResilientJournal's ``on_notice``, keeping the one the
        caller gave): shown with the next snapshot unless a fault is shown."""
        if not isinstance(journal, ResilientJournal):
            return
        given = journal.on_notice

        def notice(n: StorageNotice) -> None:  # worker thread, inside a journal call
            if given is not None:
                given(n)
            if self.fault is None:
                self._set_banner(storage_text(n), fault=False)

        journal.on_notice = notice

    def refused(self, e: JournalError) -> CommandError:
        """The journal refused a write: the table waits; the dealer's sentence, and the
        library's words in the log."""
        self.fault = e
        self._set_banner(storage_text(e), fault=True)
        log.warning("table %s: storage fault, the hand stays pending: %s", self.table_id, e)
        return command_error(e)

    def opened(self) -> None:
        """The journal opened: no fault waits (the banner stays until the next one)."""
        self.fault = None

    def _set_banner(self, said: tuple[str, tuple[str, ...]], *, fault: bool) -> None:
        number = (self.banner.number if self.banner is not None else 0) + 1
        self.banner = StorageBanner(said[0], said[1], fault=fault, number=number)

    def recover(
        self, runner: BankedRunner | None, journal: Journal | None, counted: Callable[[], None]
    ) -> None:
        """After a storage fault: a write asked of ``journal`` (JournalError while it still
        fails, nothing changed), then the runner's path for what the storage refused
        (:meth:`~dealer_assist.table.runner.TableRunner.journal_unsaved`): a hand that
        finished meanwhile is journaled once (idempotent by ``hand_uid``); ``counted`` then
        numbers the hand from the journal (the fault stays if that fails too).

        The runner is kept: a write that failed applied nothing, so the hand in memory is the
        step log's (a fresh runner's :meth:`resume` would take the live shuffler for one that
        restarted and void the hand). A card the device gave while its step could not be
        written is missing from the deal: the deal's timeout voids the hand (rules text 000).

        Raises:
            JournalError: the storage still fails (the fault stays).
        """
        if runner is None or journal is None:
            self.fault = None
            return
        journal.write_step(self.table_id, PROBE_HAND, 0, "probe", {})
        journal.clear_steps(self.table_id, PROBE_HAND)
        runner.journal_unsaved()
        counted()
        self.fault = None
        self._set_banner((RECOVERED, ()), fault=False)
        log.warning("table %s: the journal answers again; the table resumed", self.table_id)
