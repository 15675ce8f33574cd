"""What both consoles' services report besides the hand: the card source's status, a source
switch, a refused step, the journal's storage banner. Immutable, Qt-free, safe across threads."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True)
class DeviceStatus:
    """The card source as the status bar shows it.

    Attributes:
        connected: the link is up (opened, no LinkLost since the last LinkRestored).
        model, serial, firmware: from the TCRP/1 handshake ("" before it).
        last_heard: UTC time the host last received a valid frame (heartbeats every 1 s), or None.
        faults: TCRP/1 fault codes raised and not yet cleared.
        ready: the runner would start a new hand (no fault, not door open, link up).
        state: last TCRP/1 STATE (``IDLE``, ``READY``, ...), "" before the first one.
        link: ``connected``, ``lost``, ``reconnecting`` or ``closed`` ("" before opening).
        reconnect_attempts: attempts since the link was lost.
        why_not_ready: the core's short English reason, "" when ready.
        error: why the source could not be opened, "" otherwise.
        source: name of the card source in use (``emulator``, ``usb``, ``manual``...).
        source_kind: ``device`` (a shuffler or reader), ``camera`` or ``manual`` (keypad).
        next_attempt_in: seconds to the next reconnection attempt, None when not reconnecting.
        last_error: why the last reconnection attempt failed, "" if none.
    """

    connected: bool = False
    model: str = ""
    serial: str = ""
    firmware: str = ""
    last_heard: datetime | None = None
    faults: tuple[str, ...] = ()
    ready: bool = False
    state: str = ""
    link: str = ""
    reconnect_attempts: int = 0
    why_not_ready: str = ""
    error: str = ""
    source: str = ""
    source_kind: str = ""
    next_attempt_in: float | None = None
    last_error: str = ""


@dataclass(frozen=True)
class SourceNotice:
    """The table changed card source (``drivers.failover.SourceSwitched``): a notice for the
    dealer. ``number`` counts switches since the console started (1, 2, ...), so the screen knows
    which one the dealer has already dismissed; ``manual``: cards are now typed on the keypad."""

    number: int
    from_source: str
    to_source: str
    reason: str
    manual: bool = False


@dataclass(frozen=True)
class CommandError:
    """A step the service refused: ``code`` (``device_not_ready``, ``device``, ``bet``,
    ``illegal``, ``state``, ``journal``, ``other``) and the core's English ``message``."""

    code: str
    message: str
    args: tuple[str, ...] = ()  # ``journal``: the dealer's sentence is ``message`` % args


@dataclass(frozen=True)
class StorageBanner:
    """The journal's storage as the dealer must know it, drawn as a banner.

    Attributes:
        text, args: the English source of the dealer's sentence and its ``%1``... arguments
            (:func:`ui.kit.storage_notice.storage_text`; the bar says it with ``trf``).
        fault: the journal refused a write: the hand stays pending and the table deals nothing
            until the storage answers again (the dealer taps Retry, or the next step works);
            False: a notice (the disk getting full, the journal answering again).
        number: counts the banners (a notice the dealer dismissed stays dismissed).
    """

    text: str
    args: tuple[str, ...] = ()
    fault: bool = False
    number: int = 0
