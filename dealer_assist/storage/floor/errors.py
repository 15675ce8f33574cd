"""The floor's errors (under :class:`~dealer_assist.errors.JournalError`: the floor is storage)."""

from __future__ import annotations

from dealer_assist.errors import JournalError


class FloorError(JournalError):
    """The floor database could not be read or written, or holds no floor schema."""


class FloorUnavailableError(FloorError):
    """The floor database cannot be reached now (refused, timed out, connection lost): a
    forwarder retries later; nothing was half-written (every write is one transaction)."""
