"""The poker service over a storage fault (docs/FAULTS.md): :class:`PokerStorage`, held by
:class:`ui.poker.service.PokerService` as ``storage``, owns the fault the table waits on and
the banner that says it.

A step the journal refused (JournalError after its retries) leaves the hand pending in the step
log; the fault is latched (nothing is dealt) and said in the banner
(:func:`ui.kit.storage_notice.storage_text`); the journal's notices are shown unless a fault is.
The service's recovery asks the journal for a write (:meth:`PokerStorage.probe`), then a new
runner resumes the step log (:meth:`PokerStorage.recovered` once it has).
"""

from __future__ import annotations

from dealer_assist.errors import JournalError
from dealer_assist.storage.faults import ResilientJournal, StorageNotice
from dealer_assist.storage.journal import Journal
from ui.kit.status import CommandError, StorageBanner
from ui.kit.storage_notice import RECOVERED, storage_text

PROBE_HAND = "-storage-probe-"
"""The hand uid of the write that asks the journal whether it takes writes again (a step
clearing that deletes nothing: no hand has this uid)."""


class PokerStorage:
    """The storage fault the poker table waits on and its banner (see the module docstring).

    ``fault`` is the journal's refusal the table waits on (None: none); ``banner`` what the
    snapshot shows (None: nothing yet), numbered so the presenter knows a new one.
    """

    def __init__(self) -> None:
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
        """The journal refused a write: the table waits; the snapshot's error (the screen says
        the banner's sentence, never the library's words)."""
        self.fault = e
        self._set_banner(storage_text(e), fault=True)
        return CommandError("storage", str(e))

    def opened(self) -> None:
        """The journal opened: a fault it had is over."""
        if self.fault is not None:
            self.recovered()

    def probe(self, journal: Journal | None, table_id: str) -> None:
        """Ask ``journal`` for a write (a clearing of :data:`PROBE_HAND`'s steps).

        Raises:
            JournalError: the storage still fails (the fault stays).
        """
        if journal is not None:
            journal.clear_steps(table_id, PROBE_HAND)

    def recovered(self) -> None:
        """The journal takes writes again and the table resumed: the fault is over."""
        self.fault = None
        self._set_banner((RECOVERED, ()), fault=False)

    def _set_banner(self, said: tuple[str, tuple[str, ...]], *, fault: bool) -> None:
        number = (self.banner.number if self.banner is not None else 0) + 1
        self.banner = StorageBanner(said[0], said[1], fault=fault, number=number)
