"""What ties a console's table service to its table, the same for both consoles:
:class:`TableLink`, which :class:`ui.console.service.TableService` and
:class:`ui.poker.service.PokerService` each own as ``link`` (composition: each service runs its
own family's runner and steps around it).

The link owns the journal and the collaborators that do not depend on the game: the card source
(:class:`~ui.kit.card_source.TableSource`), the device's status
(:class:`~ui.kit.device_watch.DeviceWatch`), the storage fault
(:class:`~ui.kit.storage_faults.StorageFaults`), the sign-offs offered to the floor
(:class:`~ui.kit.floor_relay.FloorRelay`), the pit-boss application's users (``signers``) and the
stop signal. It opens and closes them in order (:meth:`TableLink.connect`,
:meth:`TableLink.close`), puts a dealer on the box (:meth:`TableLink.change_dealer`) and follows
the failover chain's switches (:meth:`TableLink.on_event`). :func:`wait_idle` is the headless
callers' loop over a service's ticks. Qt-free; everything but the keypad's cards runs on the
service's (worker) thread.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from typing import Any, TypeVar

from dealer_assist.config import TableConfig
from dealer_assist.errors import DealerAssistError, JournalError
from dealer_assist.events import DeviceEvent, SourceSwitched
from dealer_assist.pitboss.users import UserStore
from dealer_assist.source import CardSource
from dealer_assist.storage.journal import Journal
from dealer_assist.table.runner import TableRunner
from ui.kit.card_source import DEFAULT_TIMEOUTS, TableSource, Timeouts
from ui.kit.dealer_change import change_dealer
from ui.kit.device_watch import DeviceWatch
from ui.kit.floor_relay import FloorRelay
from ui.kit.sources import WAIT_STEP, SourceFactory
from ui.kit.status import CommandError, DeviceStatus
from ui.kit.storage_faults import StorageFaults

Snap = TypeVar("Snap")


class TableLink:
    """One table's journal, card source, device status, storage fault and floor relay (see the
    module docstring).

    Args:
        table_id: the table (its storage fault's probe and log).
        make_source: builds the (unopened) card source, e.g. ``lambda: open_source(url)``.
        journal: an unopened journal, or None to keep no record (tests of the view only); its
            storage faults and notices reach the screen through ``storage``.
        timeouts: what the runner waits, by the source in use.

    ``signers`` (the pit-boss application's users) and ``floor.relay`` are None until the
    console's start sets them; ``stop_signal`` is True once SIGTERM/SIGINT asked the console to
    close (then :meth:`close` forgets a hand that was only opened).
    """

    def __init__(
        self,
        table_id: str,
        make_source: SourceFactory,
        journal: Journal | None,
        timeouts: Timeouts = DEFAULT_TIMEOUTS,
    ) -> None:
        self.journal = journal
        self.card_source = TableSource(make_source, timeouts)
        self.device = DeviceWatch()
        self.storage = StorageFaults(table_id)
        self.floor = FloorRelay()
        self.signers: UserStore | None = None
        self.stop_signal = False
        self.storage.watch(journal)

    def connect(self) -> CardSource | CommandError:
        """Open the journal, then the card source: the source, or the refusal to show (a
        storage fault, latched in ``storage``; a source that cannot be opened, code ``device``,
        also in the device's status). Call again to retry."""
        try:
            if self.journal is not None:
                self.journal.open()
        except JournalError as e:
            return self.storage.refused(e)
        self.storage.opened()
        try:
            source = self.card_source.open()
        except DealerAssistError as e:
            self.device.opened(str(e))
            return CommandError("device", str(e))
        self.device.opened()
        return source

    def close(self, runner: TableRunner[Any] | None) -> None:
        """Close the floor relay, the source and the journal; safe to call twice. After a stop
        signal, ``runner``'s hand that was only opened (nothing dealt) is forgotten first
        (:meth:`~dealer_assist.table.runner.TableRunner.forget_unstarted`): an ordinary stop;
        any other hand stays in the step log and resumes at the next start."""
        if self.stop_signal and runner is not None:
            with contextlib.suppress(DealerAssistError):
                runner.forget_unstarted()
        self.floor.stop()
        self.card_source.close()
        if self.journal is not None:
            self.journal.close()

    def on_event(self, event: DeviceEvent, runner: TableRunner[Any] | None) -> None:
        """A runner's device event (worker thread): a failover switch becomes the source
        notice, and ``runner`` gets the timeouts of the source now in use."""
        if isinstance(event, SourceSwitched):
            self.card_source.switched(event)
            self.card_source.prepare(runner)

    def device_status(self, runner: TableRunner[Any] | None) -> DeviceStatus:
        """The device's status for a snapshot (:meth:`~ui.kit.device_watch.DeviceWatch.status`)."""
        cs = self.card_source
        return self.device.status(runner, cs.source, cs.active)

    def change_dealer(
        self, config: TableConfig, runner: TableRunner[Any] | None, badge: str
    ) -> CommandError | None:
        """The incoming dealer's ``badge`` on the box at ``runner``'s table ``config``, between
        hands (:func:`ui.kit.dealer_change.change_dealer`, checked against ``signers``): the
        refusal, or None once journaled; ``state`` when not connected.

        Raises:
            JournalError: the table record cannot be written (a storage fault).
        """
        if runner is None:
            return CommandError("state", "not connected")
        return change_dealer(config, runner, badge, users=self.signers)


def wait_idle(
    tick: Callable[[float], Snap],
    busy: Callable[[], bool],
    timeout: float,
    each: Callable[[Snap], None] | None = None,
) -> Snap:
    """Tick a service until it waits for nothing from the device (``busy()`` false), at most
    ``timeout`` seconds, passing each snapshot to ``each`` (headless callers: tests, a
    typist); the last snapshot. The first tick takes no time, the next each
    :data:`~ui.kit.sources.WAIT_STEP` at most."""
    deadline = time.monotonic() + timeout
    snap = tick(0.0)
    while True:
        if each is not None:
            each(snap)
        if not busy() or time.monotonic() >= deadline:
            return snap
        snap = tick(WAIT_STEP)
