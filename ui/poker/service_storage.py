"""The poker service over a storage fault (docs/FAULTS.md): a mixin of
:class:`ui.poker.service.PokerService`, kept apart so that module stays small.

A step the journal refused (JournalError after its retries) leaves the hand pending in the step
log; the fault is latched (nothing is dealt) and said in the banner
(:func:`ui.kit.storage_notice.storage_text`); the journal's notices are shown unless a fault is.
``_recover`` asks the journal for a write, then a new runner resumes the step log. The banked
console's counterpart is :mod:`ui.console.service_storage`.
"""

from __future__ import annotations

from dealer_assist.config import TableConfig
from dealer_assist.errors import JournalError
from dealer_assist.events import DeviceEvent
from dealer_assist.storage.faults import StorageNotice
from dealer_assist.storage.journal import Journal
from dealer_assist.table.peer_runner import PeerRunner
from ui.kit.status import CommandError, StorageBanner
from ui.kit.storage_notice import RECOVERED, storage_text
from ui.poker.seating import Seating

PROBE_HAND = "-storage-probe-"
"""The hand uid of the write that asks the journal whether it takes writes again (a step
clearing that deletes nothing: no hand has this uid)."""


class PokerStorageSteps:
    """Storage faults of :class:`~ui.poker.service.PokerService` (see the module docstring); the
    attributes are the service's."""

    config: TableConfig
    journal: Journal | None
    runner: PeerRunner | None
    seating: Seating | None
    dealer: str
    _resumed: str
    _want_until: float | None
    _fault: JournalError | None
    _banner: StorageBanner | None

    def _runner(self) -> PeerRunner:
        raise NotImplementedError  # the service's

    def _on_event(self, event: DeviceEvent) -> None:
        raise NotImplementedError  # the service's

    def _storage_fault(self, e: JournalError) -> CommandError:
        self._fault = e
        self._want_until = None
        self._set_banner(storage_text(e), fault=True)
        return CommandError("storage", str(e))

    def _storage_notice(self, notice: StorageNotice) -> None:
        """A notice of the journal (on the worker thread, inside a journal call): shown with
        the next snapshot, unless a fault is shown."""
        if self._fault is None:
            self._set_banner(storage_text(notice), fault=False)

    def _set_banner(self, said: tuple[str, tuple[str, ...]], *, fault: bool) -> None:
        number = (self._banner.number if self._banner is not None else 0) + 1
        self._banner = StorageBanner(said[0], said[1], fault=fault, number=number)

    def _recover(self) -> None:
        """After a storage fault: a write asked of the journal (JournalError while it still
        fails), then the runner's resume path: a new runner over the same source resumes the
        step log (the hand in progress, or journals the finished one) and takes the old one's
        place."""
        old = self._runner()
        if self.journal is not None:
            self.journal.clear_steps(self.config.table_id, PROBE_HAND)
        fresh = PeerRunner(self.config, old.source, self.journal, card_timeout=old.card_timeout,
                           shuffle_timeout=old.shuffle_timeout, on_event=self._on_event,
                           signoff=self.config.signoff)  # fmt: skip
        hand = fresh.resume()
        self.runner = fresh
        self.seating = Seating(fresh, self.config, self.dealer)
        self._resumed = hand.hand_uid if hand is not None and not hand.is_over else ""
        self._fault = None
        self._set_banner((RECOVERED, ()), fault=False)
