"""The byte-transport interface every link (serial, TCP, USB) implements."""

from __future__ import annotations

from typing import Protocol


class Transport(Protocol):
    """A bidirectional byte stream with finite timeouts.

    ``open()``/``close()`` are idempotent. ``read`` and ``write`` raise
    :class:`~dealer_assist.errors.TransportError` when the link is closed or fails; one thread
    may read while another writes.
    """

    @property
    def url(self) -> str:
        """Where the transport leads, e.g. ``/dev/ttyUSB0`` or ``socket://127.0.0.1:7000``."""

    @property
    def is_open(self) -> bool:
        """True between a successful open() and close()."""

    def open(self) -> None:
        """Connect. Raises TransportError. No-op when already open."""

    def close(self) -> None:
        """Disconnect; safe to call twice, never raises."""

    def read(self, max_bytes: int, timeout: float) -> bytes:
        """Up to ``max_bytes`` bytes: returns as soon as some arrived, or b"" after ``timeout``
        seconds (finite, >= 0). Raises TransportError."""

    def write(self, data: bytes) -> None:
        """Send all of ``data`` within the write timeout. Raises TransportError."""
