"""Whether the card source may start the next hand, and how its link is doing.

Issue 4, "Between hands": a fault puts the table in "device not ready" and blocks the next deal
until it clears; the driver reconnects by itself with capped backoff and the console shows it.
:class:`ReadinessTracker` follows the device events (FAULT/CLEAR, STATE, link lost/restored,
identity alarm, restart) and merges them with the link a driver that reconnects reports
(:class:`~dealer_assist.source.LinkStatus`, through the optional
:class:`~dealer_assist.source.LinkAware` capability; the capabilities of a source are declared in
:mod:`dealer_assist.source`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

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
    may start a hand, as a :class:`DeviceStatus` merged with the driver's link."""

    def status(self, link: LinkStatus | None, *, late_card: str = "") -> DeviceStatus:
        """A snapshot, merged with the driver's link status when it has one, and the runner's
        late-card alarm (``late_card``, "" when none: it does not stop the next hand)."""
        why = self.why_not_ready()
        if link is not None and link.state != "connected" and not why:
            why = f"link {link.state}"
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


#: what went wrong with a card source, in the dealer's terms (issue 17, 5): the console says
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
        ("port_missing", r"no such file|no such device|errno (?:2|19)\b|no usb device|"
                         r"not found|connection refused|errno 111\b"),
        ("identity", r"identity|another device answered|pinned"),
        ("restart", r"hello seq 0|restarted"),
        ("no_answer", r"no answer|did not answer|timed? ?out|no SHUFFLED"),
        ("frames_missing", r"\bgaps?\b|frames? (?:lost|missing|given up)"),
        # also a command sent while the link was down and reopening ("... is not open")
        ("link_lost_or_shared", r"returned no data|multiple access|is not open"),
        ("link_lost", r"transport:|link (?:lost|down|closed)|(?:read from|write to) .* failed|"
                      r"input/output|errno 5\b|broken pipe|disconnected|"
                      r"hung up|heartbeat|connection reset|reconnect"),
    )
)  # fmt: skip


def fault_kind(detail: str) -> str:
    """The :data:`FAULT_KINDS` entry of a driver's or the core's English fault text (a
    :class:`~dealer_assist.errors.DeviceError`'s message, a ``LinkLost`` reason, the link's
    ``last_error``, :meth:`ReadinessTracker.why_not_ready`), ``other`` when none fits. The serial
    transport's refused open says ``in use by another program``
    (:data:`drivers.transport.serial_port.PORT_BUSY`)."""
    for kind, pattern in _KIND_PATTERNS:
        if pattern.search(detail):
            return kind
    return "other"
