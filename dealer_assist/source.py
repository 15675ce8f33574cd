"""The card-source interface every driver implements (serial, USB, camera, manual, emulator).

The table talks to a source only through this protocol, so simulators and real devices are
interchangeable behind ``drivers.factory.open_source``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from dealer_assist.events import DeviceEvent


@dataclass
class LinkStats:
    """Counters of a link, for the summary and the audit screen.

    Attributes:
        frames_received: valid frames processed (duplicates excluded).
        frames_dropped: frames rejected for CRC, syntax or length.
        duplicates: retransmitted frames seen again and ignored.
        resend_requests: RESEND commands the host sent after a gap.
        command_retries: host commands sent again for want of ACK.
    """

    frames_received: int = 0
    frames_dropped: int = 0
    duplicates: int = 0
    resend_requests: int = 0
    command_retries: int = 0


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
