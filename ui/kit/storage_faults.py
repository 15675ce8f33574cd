"""A table service over a storage fault (docs/FAULTS.md): :class:`StorageFaults`, held by both
consoles' services (through :class:`ui.kit.table_link.TableLink`), owns the fault the table waits
on and the banner that says it.

The journal is a :class:`~dealer_assist.storage.faults.ResilientJournal`: it retries what may
pass and raises a :class:`~dealer_assist.errors.StorageFaultError` when it did not. Then the
hand stays pending in the step log (a write that failed applied nothing), the fault is latched
(the service takes no card and runs no step), and the banner says what happened and what to do
(:func:`ui.kit.storage_notice.storage_text`, never the library's words, which go to the log).
The dealer's next step, or *Retry*, first asks the journal for a write
(:meth:`StorageFaults.probe`); once it answers, the service picks the table up again (each
family its own way: the banked runner journals a hand that finished meanwhile, the peer runner
resumes the step log) and says so (:meth:`StorageFaults.recovered`). The journal's notices (a
disk getting full, a call that succeeded after retries) are shown too, unless a fault is.

Everything here runs on the service's (worker) thread; the banner reaches the screen in the
snapshot, through the worker's Qt signal. Qt-free.
"""

from __future__ import annotations

import logging

from dealer_assist.errors import JournalError
from dealer_assist.storage.faults import ResilientJournal, StorageNotice
from dealer_assist.storage.journal import Journal
from ui.kit.refusals import command_error
from ui.kit.status import CommandError, StorageBanner
from ui.kit.storage_notice import RECOVERED, storage_text

log = logging.getLogger(__name__)

PROBE_HAND = "-storage-probe-"
"""The step log's hand a probe writes and clears at once: does the journal take writes? (No
hand has this uid.)"""


class StorageFaults:
    """The storage fault a table waits on and the banner shown for it (see the module
    docstring).

    Args:
        table_id: the table, named in the probe's step and in the log.

    ``fault`` is the journal's refusal the table waits on (None: none); ``banner`` what the
    snapshot shows (None: nothing yet), numbered so that the presenter knows a new one.
    """

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.fault: JournalError | None = None
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
        """The journal refused a write: the table waits. The snapshot's refusal (code
        ``journal``, the dealer's sentence: :func:`ui.kit.refusals.command_error`); the
        library's words go to the log."""
        self.fault = e
        self._set_banner(storage_text(e), fault=True)
        log.warning("table %s: storage fault, the hand stays pending: %s", self.table_id, e)
        return command_error(e)

    def opened(self) -> None:
        """The journal opened: a fault it had is over (said as recovered)."""
        if self.fault is not None:
            self.recovered()

    def probe(self, journal: Journal | None) -> None:
        """Ask ``journal`` for a write (a step of :data:`PROBE_HAND`, cleared at once); nothing
        without a journal.

        Raises:
            JournalError: the storage still fails (the fault stays).
        """
        if journal is not None:
            journal.write_step(self.table_id, PROBE_HAND, 0, "probe", {})
            journal.clear_steps(self.table_id, PROBE_HAND)

    def recovered(self) -> None:
        """The journal takes writes again and the table goes on: the fault is over."""
        self.fault = None
        self._set_banner((RECOVERED, ()), fault=False)
        log.warning("table %s: the journal answers again; the table resumed", self.table_id)

    def _set_banner(self, said: tuple[str, tuple[str, ...]], *, fault: bool) -> None:
        number = (self.banner.number if self.banner is not None else 0) + 1
        self.banner = StorageBanner(said[0], said[1], fault=fault, number=number)
