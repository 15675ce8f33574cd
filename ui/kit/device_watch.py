"""The device as a console's table service sees it, two collaborators held by both services
(:class:`ui.console.service.TableService`, :class:`ui.poker.service.PokerService`):
:class:`DeviceWatch` remembers when the device was last heard and why it could not be opened,
and builds the :class:`~ui.kit.status.DeviceStatus` of each snapshot; :class:`DeferredHand`
holds a new hand asked for while the device is still busy. Qt-free."""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any, Literal

from dealer_assist.events import utc_now
from dealer_assist.source import CardSource
from dealer_assist.table.runner import TableRunner
from ui.kit.sources import source_kind
from ui.kit.status import DeviceStatus


class DeviceWatch:
    """When the device was last heard (BEAT frames are not events: a growing frame counter
    shows the device is alive) and the error of the last failed open."""

    def __init__(self) -> None:
        self.open_error = ""
        self._frames = -1
        self._last_heard: datetime = utc_now()

    def opened(self, error: str = "") -> None:
        """The source was opened (``error``: why not; "" when it was)."""
        self.open_error = error
        if not error:
            self._last_heard = utc_now()

    def status(
        self, runner: TableRunner[Any] | None, source: CardSource | None, active: CardSource | None
    ) -> DeviceStatus:
        """The device's status for the snapshot: ``source`` is the table's (a failover chain),
        ``active`` the one reading cards now."""
        if runner is None or source is None:
            return DeviceStatus(error=self.open_error)
        frames = source.stats.frames_received
        if frames != self._frames:
            self._frames, self._last_heard = frames, utc_now()
        status = runner.device_status
        ident = source.identity
        return DeviceStatus(
            connected=status.link == "connected",
            model=ident.model if ident else "",
            serial=ident.serial if ident else "",
            firmware=ident.firmware if ident else "",
            last_heard=self._last_heard,
            faults=(*status.faults, *(("IDENTITY",) if status.identity_alarm else ())),
            ready=status.ready and runner.device_ready,
            state=status.state,
            link=status.link,
            reconnect_attempts=status.reconnect_attempts,
            why_not_ready=status.why_not_ready,
            source=active.name if active is not None else "",
            source_kind=source_kind(active),
            next_attempt_in=status.next_attempt_in,
            last_error=status.last_error,
        )


class DeferredHand:
    """A new hand asked for while the device is still busy with the last one: opened at a tick
    once the device is idle, or after ``shuffle_timeout`` anyway (its SHUFFLE then says whether
    the device can); STATUS asked once a second meanwhile, as a state whose change went unheard
    would hold it for ever.

    Args:
        clock: monotonic seconds.
        ask_every: seconds between the STATUS requests while it waits (None: none asked, the
            device's own reports are waited for).
    """

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, ask_every: float | None = 1.0
    ) -> None:
        self.wanted = False
        self._clock = clock
        self._ask_every = ask_every
        self._until = 0.0  # then the hand opens anyway (the device decides)
        self._ask_at = 0.0  # the next STATUS request

    def want(self, shuffle_timeout: float) -> None:
        """Ask for the hand (a second ask keeps the first one's limit)."""
        if not self.wanted:
            self.wanted = True
            self._until = self._clock() + shuffle_timeout
            self._ask_at = 0.0

    def due(self, runner: TableRunner[Any]) -> Literal["idle", "late"] | None:
        """``idle``: the device is idle, open the hand; ``late``: ``shuffle_timeout`` passed,
        open it anyway; None: wait (STATUS asked of ``runner`` every ``ask_every`` s)."""
        if not runner.waiting and not runner.device_busy:
            return "idle"
        now = self._clock()
        if now >= self._until:
            return "late"
        if self._ask_every is not None and now >= self._ask_at:
            self._ask_at = now + self._ask_every
            runner.ask_status()
        return None
