"""The card-source interface every driver implements (serial, USB, camera, manual, emulator).

The table talks to a source only through this protocol, so simulators and real devices are
interchangeable behind ``drivers.factory.open_source``.

Beyond :class:`CardSource` a source may have optional capabilities, each a runtime-checkable
protocol here and checked with ``isinstance`` (never ``getattr``): :class:`LinkAware` (it reports
its link as a :class:`LinkStatus`), :class:`StatusRequester` (it can be asked for its state) and
:class:`HistorySource` (it can replay what the device said before this session). A source that
wraps another one derives from :class:`ForwardingSource`, which forwards the whole API and has
every capability, with safe defaults when the wrapped source lacks one. :class:`Readiness`
follows a source's events (faults, state, link, identity) and says whether a hand may start on it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from dealer_assist.cards import Card
from dealer_assist.errors import DeviceError
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


@dataclass
class LinkStats:
    """Counters of a link, for the summary and the audit screen.

    Attributes:
        frames_received: valid frames processed (duplicates excluded).
        frames_dropped: frames rejected for CRC, syntax or length.
        duplicates: retransmitted frames seen again and ignored.
        resend_requests: RESEND commands the host sent after a gap.
        command_retries: host commands sent again for want of ACK.
        write_timeouts: writes the far end did not take within the write timeout (each
            one an ACK the device sends its frame again for, or a command attempt).
    """

    frames_received: int = 0
    frames_dropped: int = 0
    duplicates: int = 0
    resend_requests: int = 0
    command_retries: int = 0
    write_timeouts: int = 0


@dataclass(frozen=True)
class SourceIdentity:
    """Who the device says it is (TCRP/1 HELLO)."""

    model: str
    firmware: str
    serial: str


class CardSource(Protocol):
    """A source of dealt cards.

    ``open()`` and ``close()`` are explicit and idempotent; the constructor only stores settings.
    Commands never block longer than their documented timeout; results and everything the
    device says arrive as :class:`~dealer_assist.events.DeviceEvent` through :meth:`next_event`.
    """

    name: str

    def open(self) -> None:
        """Connect and handshake. Raises DeviceError (or a subclass) on failure."""

    def close(self) -> None:
        """Disconnect; safe to call twice."""

    @property
    def identity(self) -> SourceIdentity | None:
        """The identity from the last handshake, or None before it."""

    @property
    def stats(self) -> LinkStats:
        """Link counters so far."""

    def shuffle(self) -> None:
        """Ask for a new shuffled deck; a DeckShuffled event follows. Raises DeviceError."""

    def deal(self, n: int) -> None:
        """Ask the device to dispense ``n`` cards; CardRead events follow. Raises DeviceError."""

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next event, waiting at most ``timeout`` seconds; None on timeout."""


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


@runtime_checkable
class LinkAware(Protocol):
    """A source that reports its link (TCRP/1 devices, the emulator, failover, wrappers).

    A source without it is judged from the LinkLost/LinkRestored events it reports.
    """

    @property
    def link_status(self) -> LinkStatus:
        """The link now; never raises."""


@runtime_checkable
class StatusRequester(Protocol):
    """A source that can be asked for its state (TCRP/1 STATUS); a STATE event follows."""

    def request_status(self) -> None:
        """Send STATUS.

        Raises:
            DeviceError: the request failed, or (a wrapper) the source behind cannot report its
                state.
        """


@runtime_checkable
class HistorySource(Protocol):
    """A source that can replay what the device said before this session (TCRP/1: the device
    keeps its last 256 frames and resends them on RESEND)."""

    def recover_history(self, timeout: float) -> list[DeviceEvent]:
        """Events of the frames the device sent before this session's first frame, oldest first,
        waiting at most ``timeout`` seconds; [] when there are none. Never raises for a silent
        device."""


@runtime_checkable
class PartialDeckSource(Protocol):
    """A source whose shuffle the host must size: the dealer's keypad, where no device counts
    the cards. Before the shuffle of a short street's deck (Stud's seventh street: the burns
    with the stub, rules text 002) the runner says how many cards it holds."""

    def expect_partial_deck(self, count: int) -> None:
        """The next shuffle is a deck of ``count`` cards (then full decks again)."""


@runtime_checkable
class CardLoader(Protocol):
    """A simulated device the simulated dealer puts cards into (the emulator): the burns go
    back with the stub before a short street's shuffle. A real shuffler finds them itself."""

    def load_cards(self, cards: Sequence[Card]) -> None:
        """The dealer puts ``cards`` into the device's shoe."""


class ForwardingSource:
    """A card source that wraps another one: the base of every wrapping source.

    Forwards the :class:`CardSource` API (``name`` is taken from ``inner`` at construction) and
    has every optional capability, with safe defaults when ``inner`` lacks it:
    :attr:`link_status` is the inner one's, or judged from the LinkLost/LinkRestored events
    passed on; :meth:`request_status` raises DeviceError; :meth:`recover_history` returns [].
    Subclasses override what they change and call ``super()`` to forward.

    Args:
        inner: the wrapped source; this object opens and closes it on request only.

    Errors are the inner source's, plus DeviceError from :meth:`request_status` when it cannot
    report its state.
    """

    def __init__(self, inner: CardSource) -> None:
        self.inner = inner
        self.name = inner.name
        self._lost = False
        self._lost_reason = ""

    @property
    def identity(self) -> SourceIdentity | None:
        """The inner source's identity."""
        return self.inner.identity

    @property
    def stats(self) -> LinkStats:
        """The inner source's link counters."""
        return self.inner.stats

    @property
    def link_status(self) -> LinkStatus:
        """The inner source's link status, or ``lost`` (with the reason) after a LinkLost passed
        on and not yet followed by a LinkRestored, else ``connected``."""
        inner = self.inner
        if isinstance(inner, LinkAware):
            return inner.link_status
        if self._lost:
            return LinkStatus("lost", last_error=self._lost_reason)
        return LinkStatus("connected")

    def open(self) -> None:
        """Open the inner source. Raises its DeviceError."""
        self.inner.open()

    def close(self) -> None:
        """Close the inner source; safe to call twice."""
        self.inner.close()

    def shuffle(self) -> None:
        """Forwarded. Raises the inner source's DeviceError."""
        self.inner.shuffle()

    def expect_partial_deck(self, count: int) -> None:
        """Forwarded when the inner source sizes its decks from the host (the keypad)."""
        if isinstance(self.inner, PartialDeckSource):
            self.inner.expect_partial_deck(count)

    def load_cards(self, cards: Sequence[Card]) -> None:
        """Forwarded when the dealer can load the inner source (the emulator)."""
        if isinstance(self.inner, CardLoader):
            self.inner.load_cards(cards)

    def deal(self, n: int) -> None:
        """Forwarded. Raises the inner source's DeviceError."""
        self.inner.deal(n)

    def request_status(self) -> None:
        """The inner source's STATUS request.

        Raises:
            DeviceError: ``<name> cannot report its state`` when the inner source has none, or
                the inner source's own error.
        """
        inner = self.inner
        if not isinstance(inner, StatusRequester):
            raise DeviceError(f"{self.name} cannot report its state")
        inner.request_status()

    def recover_history(self, timeout: float) -> list[DeviceEvent]:
        """The inner source's history (at most ``timeout`` seconds), [] when it keeps none."""
        inner = self.inner
        if not isinstance(inner, HistorySource):
            return []
        return inner.recover_history(timeout)

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The inner source's next event (at most ``timeout`` seconds; None on timeout); a
        LinkLost or LinkRestored among them updates :attr:`link_status`."""
        event = self.inner.next_event(timeout)
        if isinstance(event, LinkLost):
            self._lost, self._lost_reason = True, event.reason
        elif isinstance(event, LinkRestored):
            self._lost = False
        return event


class Readiness:
    """Follows a source's device events and says whether a hand may start on it.

    Attributes (what the events said so far): ``link_up`` (no LinkLost pending), ``state`` (the
    last TCRP/1 STATE, "" before one), ``faults`` (codes raised and not cleared),
    ``identity_alarm`` (another device answered). The table's
    :class:`~dealer_assist.table.device_status.ReadinessTracker` adds the status snapshot;
    failover watches a standby source with it.
    """

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
