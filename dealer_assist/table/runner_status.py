"""What the table runner tells about the device and the table, and its STATE requests: a mixin
of :class:`dealer_assist.table.runner.TableRunner`, kept apart so that module stays small.

Read-only views for the screens (the device's status and state, the late-card and void alarms,
the unreadable card waiting, whether the runner waits for the device) and the STATUS requests:
:meth:`RunnerStatus.ask_status` (the answer comes as an event) and ``_ask_state`` (a wait for
the answer, then a callback; the restart and new-hand paths use it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from dealer_assist.engine.state import GameState
from dealer_assist.errors import DeviceError
from dealer_assist.source import CardSource, LinkAware, StatusRequester
from dealer_assist.table.device_status import DeviceStatus, ReadinessTracker
from dealer_assist.table.identification import Identification, PendingIdentification
from dealer_assist.table.late_cards import LateCardAlarm, LateCards
from dealer_assist.table.misdeal import DealWatch
from dealer_assist.table.steplog import VoidAlarm, VoidAlarms
from dealer_assist.table.waits import Waits

BUSY = frozenset({"DEALING", "SHUFFLING"})
STATUS_TIMEOUT = 2.0  # seconds for the device to answer a STATUS request


class RunnerStatus:
    """Status views and STATE requests of :class:`~dealer_assist.table.runner.TableRunner`
    (see the module docstring); the attributes are the runner's."""

    source: CardSource
    hand: GameState | None
    _readiness: ReadinessTracker
    _late: LateCards
    _voids: VoidAlarms
    _ident: Identification
    _waits: Waits
    _watch: DealWatch | None

    @property
    def device_status(self) -> DeviceStatus:
        """The device and its link now (fault codes, state, reconnection attempts)."""
        link = self.source.link_status if isinstance(self.source, LinkAware) else None
        alarm = self._late.alarm
        return self._readiness.status(link, late_card=alarm.text() if alarm else "")

    @property
    def late_card_alarm(self) -> LateCardAlarm | None:
        """Cards of the last settled hand's deck dealt after its settlement (naming the deck),
        until the next journaled hand carries them; None when there are none."""
        return self._late.alarm

    @property
    def device_state(self) -> str:
        """The device's last TCRP/1 STATE ("" when unknown)."""
        return self._readiness.state

    @property
    def device_busy(self) -> bool:
        """The device is still dealing or shuffling (a void hand's DEAL may still dispense)."""
        return self._readiness.state in BUSY

    @property
    def void_alarm(self) -> VoidAlarm | None:
        """The void the dealer has not acknowledged yet (blocks :meth:`new_hand`), or None."""
        return self._voids.first

    @property
    def identification(self) -> PendingIdentification | None:
        """The unreadable card waiting for the dealer and a pit boss, or None."""
        return self._ident.pending

    @property
    def waiting(self) -> bool:
        """The runner waits for the device (a deck, cards, a STATUS answer); False when only a
        person can move the table on."""
        dealing = self.hand is not None and bool(self.hand.pending_deal)
        return bool(self._waits) or (
            dealing and self._watch is not None and not self._ident.waiting
        )

    def ask_status(self) -> None:
        """Ask the device for its STATE (the answer arrives as an event); silently nothing when
        the source cannot report it or its link is down."""
        if isinstance(self.source, StatusRequester):
            with contextlib.suppress(DeviceError):  # the link is down: its status says so
                self.source.request_status()

    def _ask_state(self, then: Callable[[str], None]) -> None:
        """Ask the device's STATE and call ``then`` with it ("" when it cannot tell in time)."""
        if not isinstance(self.source, StatusRequester):
            then("")
            return
        before = self._readiness.state
        self._readiness.state = ""
        try:
            self.source.request_status()
        except DeviceError:
            self._readiness.state = before
            then("")
            return
        self._waits.add("status", lambda: bool(self._readiness.state), STATUS_TIMEOUT,
                       lambda _ok: then(self._readiness.state))  # fmt: skip
