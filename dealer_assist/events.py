"""Events a card source reports to the table, independent of transport and vendor.

Drivers (``drivers``) translate TCRP/1 frames, USB packets or camera reads into these; the
table session and the misdeal detector consume them. Every event carries ``at``, a UTC-aware
timestamp of when the host received it, and ``source``, the name of the card source.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.errors import JournalError


def utc_now() -> datetime:
    """The current time, UTC and timezone-aware."""
    return datetime.now(UTC)


@dataclass(frozen=True, kw_only=True)
class DeviceEvent:
    """Base of all source events. ``source`` names the card source (e.g. ``serial``)."""

    source: str = ""
    at: datetime = field(default_factory=utc_now)

    @property
    def kind(self) -> str:
        """Short name of the event type, e.g. ``card`` (used in the journal)."""
        return _KIND_BY_TYPE.get(type(self), type(self).__name__)


@dataclass(frozen=True, kw_only=True)
class DeviceHello(DeviceEvent):
    """The device identified itself (TCRP/1 HELLO). ``restarted`` when it came with seq 0."""

    model: str
    firmware: str
    serial: str
    restarted: bool = False


@dataclass(frozen=True, kw_only=True)
class DeviceStateChanged(DeviceEvent):
    """TCRP/1 STATE: ``IDLE SHUFFLING READY DEALING DOOR_OPEN FAULT``."""

    state: str


@dataclass(frozen=True, kw_only=True)
class DeckShuffled(DeviceEvent):
    """A shuffle finished; ``count`` cards were found in the new deck (52 expected)."""

    deck_id: str
    count: int


@dataclass(frozen=True, kw_only=True)
class CardRead(DeviceEvent):
    """One card left the device (or was read by camera / entered by hand).

    Attributes:
        deck_id: the deck it came from.
        index: 1, 2, 3 ... within that deck.
        card: the card, or ``None`` when unreadable (TCRP/1 ``XX``).
        manual: entered by the dealer rather than read.
    """

    deck_id: str
    index: int
    card: Card | None
    manual: bool = False


@dataclass(frozen=True, kw_only=True)
class DeviceFault(DeviceEvent):
    """TCRP/1 FAULT: ``JAM DOOR_OPEN MISSING_CARD EXTRA_CARD DUPLICATE_CARD MISREAD ELEVATOR
    POWER INTERNAL`` with optional detail."""

    code: str
    detail: str = ""


@dataclass(frozen=True, kw_only=True)
class FaultCleared(DeviceEvent):
    """TCRP/1 CLEAR: the fault condition ``code`` ended."""

    code: str


@dataclass(frozen=True, kw_only=True)
class LinkLost(DeviceEvent):
    """Nothing received for the heartbeat timeout, or the transport failed."""

    reason: str


@dataclass(frozen=True, kw_only=True)
class LinkRestored(DeviceEvent):
    """Frames arrive again after :class:`LinkLost`."""


@dataclass(frozen=True, kw_only=True)
class SourceSwitched(LinkRestored):
    """The table now reads cards from ``to_source`` instead of ``from_source`` (visible notice).

    A LinkRestored for the table: cards flow again, from a device that starts afresh (its
    faults, state and identity alarm belong to the source that was left).

    Attributes:
        from_source: the source that failed (or could not be opened at start-up).
        to_source: the source now in use.
        reason: why the previous one was left.
        skipped: sources between them that could not be opened, as ``"name: error"``.
    """

    from_source: str
    to_source: str
    reason: str
    skipped: tuple[str, ...] = ()


@dataclass(frozen=True, kw_only=True)
class IdentityChanged(DeviceEvent):
    """The device answered with a model/serial other than the pinned or previous one."""

    expected: str
    got: str


@dataclass(frozen=True, kw_only=True)
class FrameConflict(DeviceEvent):
    """Two valid frames came with one sequence number and different contents: a second device
    on the line, or forged frames (DEVICE_PROTOCOL.md, Reliability). Neither was taken.

    Attributes:
        seq: the device sequence number both frames carried.
        first: the frame held or taken first, as ``TYPE,field,...`` (e.g. ``CARD,D3,7,Qc``).
        second: the frame that came later with the same seq.
    """

    seq: int
    first: str
    second: str


_KIND_BY_TYPE: dict[type, str] = {
    DeviceHello: "hello",
    DeviceStateChanged: "state",
    DeckShuffled: "shuffled",
    CardRead: "card",
    DeviceFault: "fault",
    FaultCleared: "clear",
    LinkLost: "link_lost",
    LinkRestored: "link_restored",
    SourceSwitched: "source_switched",
    IdentityChanged: "identity_changed",
    FrameConflict: "frame_conflict",
}


def iso_utc(moment: datetime) -> str:
    """``moment`` as ISO-8601 in UTC with microseconds, e.g. ``2026-01-02T03:04:05.000000+00:00``.

    Raises:
        JournalError: ``moment`` is naive (no timezone), so its instant is unknown.
    """
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise JournalError(f"timestamp without timezone: {moment.isoformat()} (UTC required)")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def event_to_json(event: DeviceEvent) -> dict[str, Any]:
    """One device event as a JSON object.

    Shape: ``{"kind": "card", "at": "<ISO-8601 UTC>", "source": "serial", ...}`` followed by the
    event's own fields (events.py); cards become their text (``"As"``), an unreadable card
    ``None``, datetimes ISO UTC.

    Raises:
        JournalError: the event's timestamp is naive.
    """
    out: dict[str, Any] = {"kind": event.kind}
    for f in dataclasses.fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, datetime):
        return iso_utc(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value
