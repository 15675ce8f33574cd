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
