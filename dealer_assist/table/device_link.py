"""The table's device as the runner sees it: what its events said (faults, STATE, link) and
the STATUS requests.

:class:`DeviceLink` owns the card source and the readiness its events build
(:class:`~dealer_assist.table.device_status.ReadinessTracker`); the runner hands it every event
(:meth:`DeviceLink.update`) and asks it for the status the screens show. A STATUS request's
answer comes as an event: :meth:`DeviceLink.ask_status` only asks, :meth:`DeviceLink.ask_state`
waits for the answer (in the runner's waits, with a finite deadline), then calls back; the
restart and new-hand paths use it.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable

from dealer_assist.errors import DeviceError
from dealer_assist.events import DeviceEvent
from dealer_assist.source import CardSource, LinkAware, StatusRequester
from dealer_assist.table.device_status import DeviceStatus, ReadinessTracker
from dealer_assist.table.waits import Waits

BUSY = frozenset({"DEALING", "SHUFFLING"})
STATUS_TIMEOUT = 2.0  # seconds for the device to answer a STATUS request


class DeviceLink:
    """One opened card source and its readiness (see the module docstring).

    Attributes:
        source: the card source (opened by the caller).
        readiness: faults, STATE and readiness from the events handed to :meth:`update`.
    """

    def __init__(self, source: CardSource) -> None:
        self.source = source
        self.readiness = ReadinessTracker()

    def update(self, event: DeviceEvent) -> bool:
        """Note ``event`` (a fault, a STATE, a card ...); returns whether the device is ready."""
        self.readiness.update(event)
        return self.readiness.ready

    def status(self, late_card: str = "") -> DeviceStatus:
        """The device and its link now (fault codes, state, reconnection attempts); ``late_card``
        the late-card alarm's text, if any."""
        link = self.source.link_status if isinstance(self.source, LinkAware) else None
        return self.readiness.status(link, late_card=late_card)

    @property
    def state(self) -> str:
        """The device's last TCRP/1 STATE ("" when unknown)."""
        return self.readiness.state

    @property
    def busy(self) -> bool:
        """The device is still dealing or shuffling (a void hand's DEAL may still dispense)."""
        return self.readiness.state in BUSY

    def ask_status(self) -> None:
        """Ask the device for its STATE (the answer arrives as an event); silently nothing when
        the source cannot report it or its link is down."""
        if isinstance(self.source, StatusRequester):
            with contextlib.suppress(DeviceError):  # the link is down: its status says so
                self.source.request_status()

    def ask_state(self, waits: Waits, then: Callable[[str], None]) -> None:
        """Ask the device's STATE and call ``then`` with it ("" when it cannot tell within
        :data:`STATUS_TIMEOUT` s), waiting in ``waits``."""
        if not isinstance(self.source, StatusRequester):
            then("")
            return
        before = self.readiness.state
        self.readiness.state = ""
        try:
            self.source.request_status()
        except DeviceError:
            self.readiness.state = before
            then("")
            return
        waits.add(
            "status",
            lambda: bool(self.readiness.state),
            STATUS_TIMEOUT,
            lambda _ok: then(self.readiness.state),
        )
