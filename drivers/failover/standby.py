"""The standby watch of a failover chain: a reopened higher-priority source until the next hand.

A source the failback thread reopened (:mod:`~drivers.failover.failback`) waits as the *standby*:
its events are watched, not passed on (no hand runs on it), and kept in its health
(:class:`~dealer_assist.source.Readiness`). One whose link goes again or whose identity changes
is closed and tried again later; when the active source changes, a standby that became the active
source brings what its events said along, and one now below the active source is closed.
"""

from __future__ import annotations

import logging
import time

from dealer_assist.source import LinkAware
from drivers.failover.state import ChainState

log = logging.getLogger(__name__)

_STANDBY_DRAIN = 256  # events taken from a standby source per look (it keeps no backlog)


class StandbyWatch(ChainState):
    """The standby's events taken into its health, and what follows from them."""

    def _standby_works(self) -> bool:
        """Whether there is a standby whose link is up and whose identity held (its events
        drained first). One that failed again is closed and tried again later."""
        index = self._standby
        if index is None:
            return False
        source = self._sources[index]
        self._watch_standby()
        health = self._standby_health
        link_state = source.link_status.state if isinstance(source, LinkAware) else "connected"
        if not health.identity_alarm and health.link_up and link_state == "connected":
            return True
        why = health.why_not_ready() or f"link {link_state}"
        log.warning("%s: %s failed again before the next hand: %s", self.name, source.name, why)
        self._standby = None
        source.close()
        self._schedule_revival()
        return False

    def _settle_standby(self) -> None:
        """After the active source changed: a standby that became the active source is one no
        more (what its events said carries over), one now below the active source is closed."""
        index, active = self._standby, self._active
        if index is None or active is None:
            return
        self._standby = None
        if index > active:
            self._sources[index].close()
            return
        if index == active:
            self._watch_standby()
            health = self._standby_health
            if health.identity_alarm:
                self._failure = "identity changed while standby"
            elif not health.link_up:
                self._lost_since, self._lost_reason = time.monotonic(), "lost while standby"

    def _watch_standby(self) -> None:
        """Take the standby's events (not passed on: no hand runs on it) into its health."""
        index = self._standby
        if index is None:
            return
        source = self._sources[index]
        for _ in range(_STANDBY_DRAIN):
            event = source.next_event(0)
            if event is None:
                return
            self._standby_health.update(event)
