"""Who a TCRP/1 device says it is, HELLO after HELLO (DEVICE_PROTOCOL.md, "Security").

:class:`IdentityWatch` owns one session's HELLOs: how many came and the last one (the
handshake waits for them), the identity accepted at the handshake, and the alarm raised when a
later HELLO names another model or serial. The worker's receive loop hands it every in-order
HELLO (:meth:`IdentityWatch.heard`); the device's caller thread reads it.
"""

from __future__ import annotations

import logging
import threading

from dealer_assist.events import DeviceEvent, DeviceHello, IdentityChanged
from dealer_assist.source import SourceIdentity

log = logging.getLogger(__name__)


class IdentityWatch:
    """The HELLOs of one session and the identity they must keep naming.

    Args:
        name: the device's source name (on the events, in the log).
        cond: the device's condition, held while the HELLOs are read or written and notified
            when one arrives (a command waiting for the handshake's HELLO wakes up).
    """

    def __init__(self, name: str, cond: threading.Condition) -> None:
        self._name = name
        self._cond = cond
        self._count = 0
        self._last: tuple[str, SourceIdentity] | None = None
        self.identity: SourceIdentity | None = None  # accepted at the handshake
        self.alarm = False  # a HELLO with another model/serial arrived

    @property
    def count(self) -> int:
        """HELLOs received this session (read with the condition held to wait on it)."""
        return self._count

    def heard(self, protocol: str, ident: SourceIdentity, *, restarted: bool) -> DeviceEvent:
        """One in-order HELLO: counted and kept, waiters notified. Returns the event to queue:
        :class:`~dealer_assist.events.IdentityChanged` (and the alarm raised) when it names
        another model or serial than the session's, else a
        :class:`~dealer_assist.events.DeviceHello` (the session's firmware updated)."""
        with self._cond:
            self._last = (protocol, ident)
            self._count += 1
            self._cond.notify_all()
        session = self.identity
        if session is not None and (ident.model, ident.serial) != (session.model, session.serial):
            self.alarm = True
            log.error("%s: device identity changed to %s/%s", self._name, ident.model, ident.serial)
            return IdentityChanged(
                source=self._name,
                expected=f"{session.model}/{session.serial}",
                got=f"{ident.model}/{ident.serial}",
            )
        if session is not None:
            self.identity = ident  # same device; the firmware may have been updated
        return DeviceHello(
            source=self._name,
            model=ident.model,
            firmware=ident.firmware,
            serial=ident.serial,
            restarted=restarted,
        )

    def wait_after(self, seen: int, timeout: float) -> tuple[str, SourceIdentity] | None:
        """The (protocol, identity) of the last HELLO once more than ``seen`` came, waiting at
        most ``timeout`` seconds; None when none came."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._count > seen, timeout):
                return None
            return self._last
