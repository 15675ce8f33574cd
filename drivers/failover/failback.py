"""Failback: back to a higher-priority source that works again, between hands only.

While a lower source is in use, a background thread (:class:`Failback`) opens the sources above
it again, best first, at most every ``failback_interval`` seconds
(:class:`~drivers.failover.timer.RevivalTimer`); one that opens becomes the standby
(:class:`~drivers.failover.standby.Standby`), which takes over at the next new hand
(:meth:`~drivers.failover.chain.FailoverSource.shuffle`). The attempts never block a command or
a hand: a source is opened outside the chain's lock.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence

from dealer_assist.errors import DealerAssistError
from dealer_assist.source import CardSource
from drivers.failover.standby import Standby
from drivers.failover.timer import RevivalTimer

log = logging.getLogger(__name__)


class Failback:
    """The failback thread: reopens the sources above the active one; one that opens is held
    as the standby.

    Args:
        sources: the chain, in priority order.
        name: the chain's name (thread name, log).
        lock: the chain's lock, held while the chain's state is read or the standby set.
        timer: when the next attempt is due (its interval must not be None to :meth:`start`).
        standby: the chain's standby, set here when a source opens again.
        active_index: the position of the source in use, or None (called with ``lock`` held).
        skip: a source never reopened here (the keypad), or None.
    """

    def __init__(
        self,
        sources: Sequence[CardSource],
        *,
        name: str,
        lock: threading.RLock,
        timer: RevivalTimer,
        standby: Standby,
        active_index: Callable[[], int | None],
        skip: CardSource | None,
    ) -> None:
        self._sources = tuple(sources)
        self._name = name
        self._lock = lock
        self._timer = timer
        self._standby = standby
        self._active_index = active_index
        self._skip = skip
        self.reviving: int | None = None  # the index being opened right now (read under lock)
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    def start(self) -> None:
        """Start the thread (a fresh one per open of the chain)."""
        self._stop = stop = threading.Event()
        self._thread = threading.Thread(
            target=self._loop, args=(stop,), name=f"failback-{self._name}", daemon=True
        )
        self._thread.start()

    def stop(self) -> threading.Thread | None:
        """Tell the thread to end; returns it (to join outside the lock), or None."""
        self._stop.set()
        thread, self._thread = self._thread, None
        return thread

    def _loop(self, stop: threading.Event) -> None:
        """One attempt whenever one is due, until ``stop``."""
        interval = self._timer.interval or 1.0
        while not stop.wait(max(0.01, min(interval, self._timer.due_at - time.monotonic()))):
            try:
                self._revive_once(stop)
            except Exception:  # a bug in a source's open() must not end the failback for good
                log.exception("%s: failback attempt failed", self._name)

    def _revive_once(self, stop: threading.Event) -> None:
        """Open the sources above the active one, best first, until one opens; that one becomes
        the standby. Opens outside the lock (an open may take seconds): the index being opened
        is marked in :attr:`reviving`, and the chain leaves it alone meanwhile."""
        with self._lock:
            if stop.is_set() or time.monotonic() < self._timer.due_at:
                return
            self._timer.schedule()  # at most one round per interval, whatever happens in it
            active = self._active_index()
            if active is None or self._standby.index is not None:
                return
            candidates = [i for i in range(active) if self._sources[i] is not self._skip]
        for index in candidates:
            with self._lock:
                active = self._active_index()
                if stop.is_set() or active is None or index >= active:
                    return
                self.reviving = index
            source = self._sources[index]
            try:
                try:
                    source.open()
                except DealerAssistError as e:
                    log.info("%s: %s still fails: %s", self._name, source.name, e)
                    continue
                with self._lock:
                    active = self._active_index()
                    keep = (
                        not stop.is_set()
                        and active is not None
                        and index < active
                        and self._standby.index is None
                    )
                    if keep:
                        self._standby.hold(index)
                        log.warning(
                            "%s: %s works again; back to it at the next hand",
                            self._name,
                            source.name,
                        )
                if not keep:
                    source.close()  # closed meanwhile, or no longer above the active source
                return
            finally:
                with self._lock:
                    self.reviving = None
