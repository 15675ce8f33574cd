"""The standby of a failover chain: a reopened higher-priority source until the next hand.

A source the failback thread reopened (:mod:`~drivers.failover.failback`) waits as the *standby*
(:class:`Standby`): its events are watched, not passed on (no hand runs on it), and kept in its
health (:class:`~dealer_assist.source.Readiness`). One whose link goes again or whose identity
changes is closed and tried again later; when the active source changes, a standby that became the
active source brings what its events said along, and one now below the active source is closed.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from dealer_assist.source import CardSource, LinkAware, Readiness
from drivers.failover.timer import RevivalTimer

log = logging.getLogger(__name__)

_STANDBY_DRAIN = 256  # events taken from a standby source per look (it keeps no backlog)


class Standby:
    """Which source of the chain is the standby (if any) and its health.

    Not locked itself: the chain calls it with its lock held.

    Args:
        sources: the chain, in priority order (indexes below are positions in it).
        name: the chain's name, for the log.
        timer: the failback's timer, restarted when the standby fails again.
    """

    def __init__(self, sources: Sequence[CardSource], name: str, timer: RevivalTimer) -> None:
        self._sources = tuple(sources)
        self._name = name
        self._timer = timer
        self.index: int | None = None
        self.health = Readiness()

    def hold(self, index: int) -> None:
        """``sources[index]`` (just opened) becomes the standby, with a fresh health."""
        self.index, self.health = index, Readiness()

    def drop(self) -> int | None:
        """No standby any more; returns the index there was (not closed here), or None."""
        index, self.index = self.index, None
        return index

    def works(self) -> bool:
        """Whether there is a standby whose link is up and whose identity held (its events
        drained first). One that failed again is closed and tried again later."""
        index = self.index
        if index is None:
            return False
        source = self._sources[index]
        self.watch()
        health = self.health
        link_state = source.link_status.state if isinstance(source, LinkAware) else "connected"
        if not health.identity_alarm and health.link_up and link_state == "connected":
            return True
        why = health.why_not_ready() or f"link {link_state}"
        log.warning("%s: %s failed again before the next hand: %s", self._name, source.name, why)
        self.index = None
        source.close()
        self._timer.schedule()
        return False

    def take_over(self) -> int | None:
        """At a new hand: the standby's index when it works and is ready (it is the standby no
        more), else None; one with a fault not cleared stays standby for a later hand."""
        index = self.index
        if index is None or not self.works():
            return None
        if not self.health.ready:
            why = self.health.why_not_ready()
            log.info("%s: %s stays standby: %s", self._name, self._sources[index].name, why)
            return None
        self.index = None
        return index

    def settle(self, active: int) -> Readiness | None:
        """After the active source became ``sources[active]``: a standby now below it is closed;
        one that became the active source is the standby no more, and its health (what its
        events said) is returned for the chain to carry over. None otherwise."""
        index = self.index
        if index is None:
            return None
        self.index = None
        if index > active:
            self._sources[index].close()
            return None
        if index < active:
            return None
        self.watch()
        return self.health

    def watch(self) -> None:
        """Take the standby's events (not passed on: no hand runs on it) into its health."""
        index = self.index
        if index is None:
            return
        source = self._sources[index]
        for _ in range(_STANDBY_DRAIN):
            event = source.next_event(0)
            if event is None:
                return
            self.health.update(event)
