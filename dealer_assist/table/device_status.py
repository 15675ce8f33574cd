"""Whether the card source may start the next hand, and how its link is doing.

Issue 4, "Between hands": a fault puts the table in "device not ready" and blocks the next deal
until it clears; the driver reconnects by itself with capped backoff and the console shows it.
:class:`ReadinessTracker` follows the device events (FAULT/CLEAR, STATE, link lost/restored,
identity alarm, restart); drivers that reconnect expose a :class:`LinkStatus` through the
optional :class:`LinkAware` protocol. Optional capabilities a source may have beyond
:class:`~dealer_assist.source.CardSource` are protocols here too, checked with ``isinstance``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from dealer_assist.events import (
    DeviceEvent,
    DeviceFault,
    DeviceHello,
    DeviceStateChanged,
    FaultCleared,
    IdentityChanged,
    LinkLost,
    LinkRestored,
    SourceSwitched,
)

LinkState = Literal["connected", "lost", "reconnecting", "closed"]
_NOT_READY_STATES = frozenset({"FAULT", "DOOR_OPEN"})


@dataclass(frozen=True)
class LinkStatus:
    """A driver's link as the status bar shows it.

    Attributes:
        state: ``connected``; ``lost`` (nothing heard for the heartbeat timeout, probing);
            ``reconnecting`` (the transport failed and is being reopened); ``closed``.
        attempts: reconnection attempts since the link was lost (0 when connected).
        next_attempt_in: seconds to the next attempt (capped backoff), None when connected.
        last_error: why the last attempt failed, "" if none.
    """

    state: LinkState
    attempts: int = 0
    next_attempt_in: float | None = None
    last_error: str = ""


@dataclass(frozen=True)
class DeviceStatus:
    """The card source as the table sees it.

    Attributes:
        ready: a new hand may start (link up, no fault, not door open, no identity alarm).
        link: :attr:`LinkStatus.state`, or ``connected``/``lost`` from events when the driver
            has no link status.
        state: the last TCRP/1 STATE (``IDLE`` ``READY`` ...), "" before the first one.
        faults: fault codes raised and not cleared.
        identity_alarm: another device answered; it must be re-pinned (close and reopen).
        reconnect_attempts, next_attempt_in, last_error: from :class:`LinkStatus`.
        why_not_ready: short English reason, "" when ready.
    """

    ready: bool
    link: str
    state: str
    faults: tuple[str, ...]
    identity_alarm: bool
    reconnect_attempts: int = 0
    next_attempt_in: float | None = None
    last_error: str = ""
    why_not_ready: str = ""


@runtime_checkable
class LinkAware(Protocol):
    """A source that reports its link (TCRP/1 devices)."""

    @property
    def link_status(self) -> LinkStatus:
        """The link now."""


@runtime_checkable
class StatusRequester(Protocol):
    """A source that can be asked for its state (TCRP/1 STATUS); a STATE event follows."""

    def request_status(self) -> None:
        """Send STATUS. Raises DeviceError."""


@runtime_checkable
class HistorySource(Protocol):
    """A source that can replay what the device said before this session (TCRP/1: the device
    keeps its last 256 frames and resends them on RESEND)."""

    def recover_history(self, timeout: float) -> list[DeviceEvent]:
        """Events of the frames the device sent before this session's first frame, oldest first,
        waiting at most ``timeout`` seconds; [] when there are none. Never raises for a silent
        device."""


class ReadinessTracker:
    """Follows device events and says whether the table may start a hand."""

    def __init__(self) -> None:
        self.link_up = True
        self.state = ""
        self.faults: list[str] = []
        self.identity_alarm = False

    def update(self, event: DeviceEvent) -> None:
        """Account one device event."""
        if isinstance(event, DeviceFault):
            if event.code not in self.faults:
                self.faults.append(event.code)
        elif isinstance(event, FaultCleared):
            self.faults = [f for f in self.faults if f != event.code]
        elif isinstance(event, DeviceStateChanged):
            self.state = event.state
            if event.state in ("READY", "IDLE"):
                self.faults = []  # working again: a CLEAR that was lost on the line cannot block
        elif isinstance(event, LinkLost):
            self.link_up = False
        elif isinstance(event, SourceSwitched):
            # Another device now: the faults, state and alarm of the one left no longer apply.
            self.faults, self.state, self.link_up, self.identity_alarm = [], "", True, False
        elif isinstance(event, LinkRestored):
            self.link_up = True
        elif isinstance(event, IdentityChanged):
            self.identity_alarm = True
        elif isinstance(event, DeviceHello) and event.restarted:
            self.faults, self.state, self.link_up = [], "", True  # a fresh device

    def why_not_ready(self) -> str:
        """Why no hand may start now, "" when one may."""
        if self.identity_alarm:
            return "another device answered (identity changed)"
        if not self.link_up:
            return "link lost"
        if self.faults:
            return "fault " + ", ".join(self.faults)
        if self.state in _NOT_READY_STATES:
            return f"device state {self.state}"
        return ""

    @property
    def ready(self) -> bool:
        """True when :meth:`why_not_ready` is empty."""
        return not self.why_not_ready()

    def status(self, link: LinkStatus | None) -> DeviceStatus:
        """A snapshot, merged with the driver's link status when it has one."""
        why = self.why_not_ready()
        if link is not None and link.state != "connected" and not why:
            why = f"link {link.state}"
        state = link.state if link is not None else ("connected" if self.link_up else "lost")
        return DeviceStatus(
            ready=not why,
            link=state,
            state=self.state,
            faults=tuple(self.faults),
            identity_alarm=self.identity_alarm,
            reconnect_attempts=link.attempts if link is not None else 0,
            next_attempt_in=link.next_attempt_in if link is not None else None,
            last_error=link.last_error if link is not None else "",
            why_not_ready=why,
        )
