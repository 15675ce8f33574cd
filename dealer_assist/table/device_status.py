"""Whether the card source may start the next hand, and how its link is doing.

Between hands, a fault puts the table in "device not ready" and blocks the next deal
until it clears; the driver reconnects by itself with capped backoff and the console shows it.
:class:`ReadinessTracker` follows the device events (FAULT/CLEAR, STATE, link lost/restored,
identity alarm, restart) and merges them with the link a driver that reconnects reports
(:class:`~dealer_assist.source.LinkStatus`, through the optional
:class:`~dealer_assist.source.LinkAware` capability; the capabilities of a source are declared in
:mod:`dealer_assist.source`).

Once frames went missing on the table's link (a link lost with pyserial's "multiple
access" words, a command refused while the link reopened, a void for skipped or missing cards),
another program may be reading the port. The tracker keeps that evidence, and every later text of
the core about the link or its frames (:meth:`ReadinessTracker.why_not_ready`, a void's detail
through :meth:`ReadinessTracker.noted_void`, a refused command through
:meth:`ReadinessTracker.noted_error`) carries :data:`SECOND_READER`, which :func:`fault_kind`
reads: the dealer is told each time, not only at the one alarm whose driver text happened to say so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import DeviceError
from dealer_assist.events import DeviceEvent, LinkLost, SourceSwitched
from dealer_assist.source import LinkStatus, Readiness


@dataclass(frozen=True)
class DeviceStatus:
    """The card source as the table sees it.

    Attributes:
        ready: a new hand may start (link up, no fault, not door open, no identity alarm).
        link: :attr:`LinkStatus.state`, or ``connected``/``lost`` from events when the driver
            has no link status.
        state: the last TCRP/1 STATE (``IDLE`` ``READY`` ...), "" before the first one.
        faults: fault codes raised and not cleared; ``LATE_CARD`` while ``late_card`` is set.
        identity_alarm: another device answered; it must be re-pinned (close and reopen).
        reconnect_attempts, next_attempt_in, last_error: from :class:`LinkStatus`.
        why_not_ready: short English reason, "" when ready.
        late_card: the late-card alarm (cards of the settled hand's deck dealt after it,
            naming the deck; :mod:`dealer_assist.table.late_cards`), "" when none.
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
    late_card: str = ""


class ReadinessTracker(Readiness):
    """Follows device events (:class:`~dealer_assist.source.Readiness`) and says whether the table
    may start a hand, as a :class:`DeviceStatus` merged with the driver's link.

    ``second_reader``: frames went missing on this source's link (see the module doc); kept
    until the table switches to another source (a program reading the port does not go away
    when the link comes back)."""

    def __init__(self) -> None:
        super().__init__()
        self.second_reader = False

    def update(self, event: DeviceEvent) -> None:
        """Account one device event; a link lost in words that say frames went missing
        (:data:`SECOND_READER_KINDS`) is evidence of a second reader."""
        super().update(event)
        if isinstance(event, SourceSwitched):
            self.second_reader = False  # another device, another port
        elif isinstance(event, LinkLost) and fault_kind(event.reason) in SECOND_READER_KINDS:
            self.second_reader = True

    def why_not_ready(self) -> str:
        """:meth:`Readiness.why_not_ready`; a lost link after frames went missing says
        ``link lost`` with :data:`SECOND_READER`."""
        why = super().why_not_ready()
        return self._noted(why) if why == "link lost" else why

    @property
    def ready(self) -> bool:
        """True when :meth:`why_not_ready` is empty (asked here, so the base class does not call
        back into this override)."""
        return not self.why_not_ready()

    def noted_void(self, reason: VoidReason) -> VoidReason:
        """``reason`` as the void alarm and the journal should carry it: a void for skipped or
        missing cards is evidence of a second reader; after such evidence a void of the link
        (``link_lost``) or of a command or frame that did not come through (a ``device_fault``
        in the table's own words, not a device's fault code) has :data:`SECOND_READER` added
        to its detail. Other voids (a JAM the device reported, a restart...) are unchanged."""
        if reason.code in ("index_gap", "missing_cards"):
            self.second_reader = True
            return reason
        if reason.code == "link_lost":
            detail = reason.detail or "link lost"
        elif reason.code == "device_fault" and not _FAULT_CODE.fullmatch(reason.detail):
            detail = reason.detail  # the table's own words: no SHUFFLED, a DEAL that failed
        else:
            return reason
        if fault_kind(detail) in SECOND_READER_KINDS:
            self.second_reader = True  # its own words say so
        noted = self._noted(detail)
        return reason if noted == detail else VoidReason(reason.code, noted, reason.causes)

    def noted_error(self, e: DeviceError) -> DeviceError:
        """A command that could not be sent or got no answer (``e``), of the same class with
        :data:`SECOND_READER` once frames went missing; ``e`` itself otherwise, when its words
        already say so, or when the device answered it (a NAK proves the link works)."""
        if fault_kind(str(e)) in SECOND_READER_KINDS:
            self.second_reader = True
        noted = self._noted(str(e))
        if noted == str(e):
            return e
        try:
            return type(e)(noted)
        except TypeError:  # a class of its own arguments
            return DeviceError(noted)

    def _noted(self, text: str) -> str:
        """``text`` with :data:`SECOND_READER` after it once there is evidence, when it is about
        the link or a frame that did not come (:data:`_NOTED_KINDS`); unchanged otherwise."""
        if not self.second_reader or SECOND_READER in text or fault_kind(text) not in _NOTED_KINDS:
            return text
        return f"{text}; {SECOND_READER}"

    def status(self, link: LinkStatus | None, *, late_card: str = "") -> DeviceStatus:
        """A snapshot, merged with the driver's link status when it has one, and the runner's
        late-card alarm (``late_card``, "" when none: it does not stop the next hand)."""
        why = self.why_not_ready()
        if link is not None and link.state != "connected" and not why:
            why = self._noted(f"link {link.state}")
        state = link.state if link is not None else ("connected" if self.link_up else "lost")
        return DeviceStatus(
            ready=not why,
            link=state,
            state=self.state,
            faults=(*self.faults, *(("LATE_CARD",) if late_card else ())),
            identity_alarm=self.identity_alarm,
            reconnect_attempts=link.attempts if link is not None else 0,
            next_attempt_in=link.next_attempt_in if link is not None else None,
            last_error=link.last_error if link is not None else "",
            why_not_ready=why,
            late_card=late_card,
        )


#: what went wrong with a card source, in the dealer's terms (5): the console says
#: each kind as a sentence with what to do; the driver's own words stay in the log
FAULT_KINDS = (
    "port_busy",  # another program holds the port (EBUSY, the lock)
    "permission",  # the port exists and this user may not open it
    "port_missing",  # no such port or USB device: cable out, device off, wrong path
    "identity",  # another device answered than the pinned one
    "restart",  # the device restarted (a HELLO seq 0)
    "no_answer",  # the port opens and the device does not answer
    "frames_missing",  # frames keep going missing: maybe another reader on the port
    # pyserial's "returned no data (device disconnected or multiple access on port?)": a USB
    # adapter pulled, or another program reading the port between the table's select and read
    "link_lost_or_shared",
    "link_lost",  # the link broke under the table: cable pulled, device switched off
    "other",
)
_KIND_PATTERNS = tuple(
    (kind, re.compile(pattern, re.IGNORECASE))
    for kind, pattern in (
        ("port_busy", r"in use by another program|resource busy|exclusively lock|errno 16\b"),
        ("permission", r"permission denied|errno 13\b|access denied|not permitted"),
        (
            "port_missing",
            r"no such file|no such device|errno (?:2|19)\b|no usb device|"
            r"not found|connection refused|errno 111\b",
        ),
        ("identity", r"identity|another device answered|pinned"),
        ("restart", r"hello seq 0|restarted"),
        ("no_answer", r"no answer|did not answer|timed? ?out|no SHUFFLED"),
        ("frames_missing", r"\bgaps?\b|frames? (?:lost|missing|given up)"),
        # also a command sent while the link was down and reopening ("... is not open")
        ("link_lost_or_shared", r"returned no data|multiple access|is not open"),
        (
            "link_lost",
            r"transport:|link (?:lost|down|closed)|(?:read from|write to) .* failed|"
            r"input/output|errno 5\b|broken pipe|disconnected|"
            r"hung up|heartbeat|nothing received|connection reset|reconnect",
        ),
    )
)
#: the kinds whose texts say frames went missing on the link: evidence of a second reader
SECOND_READER_KINDS = frozenset({"frames_missing", "link_lost_or_shared"})
#: what the core adds to a text about the link or its frames once frames went missing on it
#: (:class:`ReadinessTracker`); matched by none of the patterns above, read by :func:`fault_kind`
SECOND_READER = "frames went missing before: maybe a second reader on the port"
#: the kinds a text gets :data:`SECOND_READER` in (those of SECOND_READER_KINDS say it already; a
#: port another program holds, another device, a NAK or a text of no kind are said as they are)
_NOTED_KINDS = frozenset({"link_lost", "no_answer"})
_FAULT_CODE = re.compile(r"[A-Z][A-Z0-9_]*")  # a device's TCRP/1 fault code or state (JAM, FAULT)


def fault_kind(detail: str) -> str:
    """The :data:`FAULT_KINDS` entry of a driver's or the core's English fault text (a
    :class:`~dealer_assist.errors.DeviceError`'s message, a ``LinkLost`` reason, the link's
    ``last_error``, :meth:`ReadinessTracker.why_not_ready`), ``other`` when none fits. The serial
    transport's refused open says ``in use by another program``
    (:data:`drivers.transport.serial_port.PORT_BUSY`). A text with :data:`SECOND_READER` is a
    kind that names the second reader: ``link_lost_or_shared`` for a broken link,
    ``frames_missing`` for a frame or an answer that did not come; any other kind stays as it
    is."""
    shared = SECOND_READER in detail
    text = detail.replace(SECOND_READER, "") if shared else detail
    kind = next((k for k, pattern in _KIND_PATTERNS if pattern.search(text)), "other")
    if shared and kind in ("link_lost", "link_lost_or_shared"):
        return "link_lost_or_shared"
    if shared and kind == "no_answer":
        return "frames_missing"
    return kind
