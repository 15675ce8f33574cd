"""Failback: back to a higher-priority source that works again, between hands only.

While a lower source is in use, a background thread (:meth:`Failback._revive_loop`) opens the
sources above it again, best first, at most every ``failback_interval`` seconds; one that opens
becomes the standby (:mod:`~drivers.failover.standby`). At the next new hand
(:meth:`Failback._fail_back`, called by :meth:`~drivers.failover.chain.FailoverSource.shuffle`)
a working, ready standby takes over with a :class:`~dealer_assist.events.SourceSwitched` notice;
one with a fault not cleared waits for a later hand. The attempts never block a command or a
hand: a source is opened outside the lock.
"""

from __future__ import annotations

import logging
import threading
import time

from dealer_assist.errors import DealerAssistError
from dealer_assist.events import SourceSwitched
from dealer_assist.source import Readiness
from drivers.failover.standby import StandbyWatch

log = logging.getLogger(__name__)


class Failback(StandbyWatch):
    """The failback thread's attempts, and the standby's taking over at a new hand."""

    def _fail_back(self) -> None:
        """At a new hand: the standby takes over when it works and is ready; one with a fault not
        cleared waits for a later hand. Called with the lock held."""
        index, active = self._standby, self._active
        if index is None or active is None or not self._standby_works():
            return
        source = self._sources[index]
        if not self._standby_health.ready:
            why = self._standby_health.why_not_ready()
            log.info("%s: %s stays standby: %s", self.name, source.name, why)
            return
        old = self._sources[active]
        self._standby, self._active = None, index
        self._lost_since, self._failure = None, None
        if old is not self._manual:
            old.close()
        notice = SourceSwitched(
            source=source.name,
            from_source=old.name,
            to_source=source.name,
            reason=f"{source.name} works again (higher priority)",
        )
        self._notices.append(notice)
        self._history.append(notice)
        log.warning("%s: back to %s from %s", self.name, source.name, old.name)
        self._schedule_revival()

    def _revive_loop(self, stop: threading.Event) -> None:
        """The failback thread: one attempt whenever one is due, until ``stop``."""
        interval = self._failback_interval or 1.0
        while not stop.wait(max(0.01, min(interval, self._revive_at - time.monotonic()))):
            try:
                self._revive_once(stop)
            except Exception:  # a bug in a source's open() must not end the failback for good
                log.exception("%s: failback attempt failed", self.name)

    def _revive_once(self, stop: threading.Event) -> None:
        """Open the sources above the active one, best first, until one opens; that one becomes
        the standby. Opens outside the lock (an open may take seconds): the index being opened
        is marked, and :meth:`_activate` leaves it alone meanwhile."""
        with self._lock:
            if stop.is_set() or time.monotonic() < self._revive_at:
                return
            self._schedule_revival()  # at most one round per interval, whatever happens in it
            if self._active is None or self._standby is not None:
                return
            candidates = [i for i in range(self._active) if self._sources[i] is not self._manual]
        for index in candidates:
            with self._lock:
                if stop.is_set() or self._active is None or index >= self._active:
                    return
                self._reviving = index
            source = self._sources[index]
            try:
                try:
                    source.open()
                except DealerAssistError as e:
                    log.info("%s: %s still fails: %s", self.name, source.name, e)
                    continue
                with self._lock:
                    keep = (
                        not stop.is_set()
                        and self._active is not None
                        and index < self._active
                        and self._standby is None
                    )
                    if keep:
                        self._standby, self._standby_health = index, Readiness()
                        log.warning(
                            "%s: %s works again; back to it at the next hand",
                            self.name,
                            source.name,
                        )
                if not keep:
                    source.close()  # closed meanwhile, or no longer above the active source
                return
            finally:
                with self._lock:
                    self._reviving = None
