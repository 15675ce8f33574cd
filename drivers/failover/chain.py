"""The failover chain: a table's card sources in priority order behind one CardSource.

:class:`FailoverSource` uses the first source that opens, passes on its events (and those of a
:class:`~drivers.manual.ManualSource` in the chain), and switches to the next source with a
:class:`~dealer_assist.events.SourceSwitched` notice when the one in use fails: at once at a new
hand, or once its link stayed lost ``switch_after`` seconds. What "fails" means, and the policy
as a whole: :mod:`drivers.failover`. Going back to a recovered higher-priority source between
hands is done with two collaborators, each owning its own state: the failback thread
(:class:`~drivers.failover.failback.Failback`) and the standby it reopens
(:class:`~drivers.failover.standby.Standby`).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Sequence

from dealer_assist.cards import Card
from dealer_assist.errors import (
    CommandRefusedError,
    ConfigError,
    DealerAssistError,
    DeviceError,
    DeviceIdentityError,
    LinkLostError,
    TransportError,
)
from dealer_assist.events import (
    DeviceEvent,
    IdentityChanged,
    LinkLost,
    LinkRestored,
    SourceSwitched,
)
from dealer_assist.source import (
    CardLoader,
    CardSource,
    HistorySource,
    LinkAware,
    LinkStats,
    LinkStatus,
    PartialDeckSource,
    SourceIdentity,
    StatusRequester,
)
from drivers.failover.failback import Failback
from drivers.failover.standby import Standby
from drivers.failover.timer import RevivalTimer
from drivers.manual import ManualSource

log = logging.getLogger(__name__)

# command errors that mean the source itself is gone (a NAK or a timeout is not, by itself)
FAILURE_ERRORS = (TransportError, LinkLostError, DeviceIdentityError)
_REVIVER_JOIN = 5.0  # seconds close() waits for a failback attempt still opening a source


class FailoverSource:
    """The first healthy source of ``sources``, as a :class:`~dealer_assist.source.CardSource`.

    Args:
        sources: card sources in priority order, not yet opened (this object opens and closes
            them; a source may appear only once).
        name: this source's own name (on its LinkLost when no source is left).
        switch_after: seconds a lost source may take to come back before the next one takes over
            (0 = at once); at a new hand it is replaced at once.
        retry_interval: seconds between attempts to open any source when none works.
        failback_interval: seconds between attempts to reopen a failed higher-priority source
            while a lower one is in use (finite); None = never go back (stay on the source in
            use until it fails).

    Events: those of the active source and of a ManualSource in the chain, plus
    :class:`SourceSwitched` when the active source changes (also when the table goes back to a
    recovered higher-priority source at a new hand) and LinkLost (source ``name``) when no
    source is left.

    Errors: the constructor raises ConfigError for an empty chain, a source listed twice or a
    time that is not finite seconds; open() raises DeviceError when no source opens; commands
    raise DeviceError (or a subclass) from the active source, or when no source is available.
    """

    def __init__(
        self,
        sources: Sequence[CardSource],
        *,
        name: str = "failover",
        switch_after: float = 5.0,
        retry_interval: float = 5.0,
        failback_interval: float | None = 5.0,
    ) -> None:
        if not sources:
            raise ConfigError("a failover needs at least one card source")
        if len({id(s) for s in sources}) != len(sources):
            raise ConfigError("a card source appears twice in the failover chain")
        if not 0 <= switch_after < 3600 or not 0 < retry_interval < 3600:
            raise ConfigError("switch_after and retry_interval must be finite seconds")
        if failback_interval is not None and not 0 < failback_interval < 3600:
            raise ConfigError(
                f"failback_interval must be finite seconds > 0 or None, got {failback_interval!r}"
            )
        self.name = name
        self._sources = tuple(sources)
        self._manual = next((s for s in sources if isinstance(s, ManualSource)), None)
        self._switch_after = switch_after
        self._retry_interval = retry_interval
        self._lock = threading.RLock()
        self._notices: deque[DeviceEvent] = deque()
        self._history: list[SourceSwitched] = []
        self._open = False
        self._active: int | None = None
        self._lost_since: float | None = None
        self._lost_reason = ""
        self._failure: str | None = None
        self._last_failed = ""
        self._retry_at = 0.0
        self._timer = RevivalTimer(failback_interval)
        self._standby = Standby(self._sources, name, self._timer)
        self._failback = Failback(
            self._sources,
            name=name,
            lock=self._lock,
            timer=self._timer,
            standby=self._standby,
            active_index=lambda: self._active,
            skip=self._manual,
        )

    # -- what is in use ------------------------------------------------------------------------

    @property
    def sources(self) -> tuple[CardSource, ...]:
        """The chain, in priority order."""
        return self._sources

    @property
    def active(self) -> CardSource | None:
        """The source in use, or None when none works."""
        index = self._active
        return self._sources[index] if index is not None else None

    @property
    def active_index(self) -> int | None:
        """Position of the source in use in :attr:`sources`."""
        return self._active

    @property
    def manual(self) -> ManualSource | None:
        """The chain's ManualSource (the keypad enters cards there), if any."""
        return self._manual

    @property
    def standby(self) -> CardSource | None:
        """A higher-priority source than the active one that opened again and takes over at the
        next :meth:`shuffle` (the next hand), or None."""
        with self._lock:
            index = self._standby.index
            return self._sources[index] if index is not None else None

    @property
    def switches(self) -> tuple[SourceSwitched, ...]:
        """Every switch since open, oldest first."""
        with self._lock:
            return tuple(self._history)

    @property
    def identity(self) -> SourceIdentity | None:
        """The active source's identity."""
        active = self.active
        return active.identity if active is not None else None

    @property
    def stats(self) -> LinkStats:
        """The active source's link counters (zeros when none)."""
        active = self.active
        return active.stats if active is not None else LinkStats()

    @property
    def link_status(self) -> LinkStatus:
        """The active source's link (``connected`` for sources without one, ``lost`` while a
        LinkLost is pending); ``reconnecting`` with the time to the next try when no source
        works; ``closed`` when not open."""
        with self._lock:
            active = self.active
            if not self._open:
                return LinkStatus("closed")
            if active is None:
                wait = max(0.0, self._retry_at - time.monotonic())
                return LinkStatus(
                    "reconnecting", next_attempt_in=wait, last_error=self._lost_reason
                )
            if isinstance(active, LinkAware):
                return active.link_status
            if self._lost_since is not None:
                return LinkStatus("lost", last_error=self._lost_reason)
            return LinkStatus("connected")

    # -- CardSource ------------------------------------------------------------------------------

    def open(self) -> None:
        """Open the manual source (if any) and the first source that opens, in order; start the
        failback thread (when ``failback_interval`` is set). No-op when open.

        Raises:
            DeviceError: no source could be opened (each one's error is in the message).
        """
        with self._lock:
            if self._open:
                return
            if self._manual is not None:
                self._manual.open()
            self._notices.clear()
            self._history.clear()
            self._standby.drop()
            skipped = self._activate(0, from_name=None, reason="not available at start")
            if self._active is None:
                if self._manual is not None:
                    self._manual.close()
                raise DeviceError("no card source could be opened: " + "; ".join(skipped))
            self._open = True
            if self._timer.interval is not None:
                self._failback.start()

    def close(self) -> None:
        """Close every source this object opened (a failback attempt still opening one closes it
        when done; waits a few seconds for it); safe to call twice."""
        with self._lock:
            self._open = False
            reviver = self._failback.stop()
            active, self._active = self.active, None
            standby = self._standby.drop()
            for source in (active, self._manual):
                if source is not None:
                    source.close()
            if standby is not None:
                self._sources[standby].close()
        if reviver is not None and reviver is not threading.current_thread():
            reviver.join(_REVIVER_JOIN)
            if reviver.is_alive():
                log.warning("%s: a failback attempt is still opening a source", self.name)

    def expect_partial_deck(self, count: int) -> None:
        """Forwarded to the active source when it sizes its decks from the host (the keypad:
        :class:`~dealer_assist.source.PartialDeckSource`); a device counts its own."""
        active = self.active
        if isinstance(active, PartialDeckSource):
            active.expect_partial_deck(count)

    def load_cards(self, cards: Sequence[Card]) -> None:
        """Forwarded to the active source when the dealer can load it (the emulator:
        :class:`~dealer_assist.source.CardLoader`); a real device finds the cards itself."""
        active = self.active
        if isinstance(active, CardLoader):
            active.load_cards(cards)

    def shuffle(self) -> None:
        """Start a new deck on the active source. A new hand is where the source may change: a
        recovered higher-priority source (the standby) takes over, or a lost or failing source is
        replaced (a SourceSwitched event follows either way); then the source shuffles.

        Raises:
            CommandRefusedError: the source refused (NAK, e.g. ``BUSY``): it stays in use.
            DeviceError: no source is available, or another error of the active one.
        """
        with self._lock:
            self._require_open()
            if self._manual is not None and self.active is not self._manual:
                self._manual.new_deck()  # the keypad's duplicate check starts over each hand
            self._fail_back()
            for _ in range(len(self._sources) + 1):
                if self._active is not None and (
                    self._failure is not None or self._lost_since is not None
                ):
                    self._switch(self._failure or f"link lost ({self._lost_reason})")
                if self._active is None:
                    self._activate(0, from_name=self._last_failed, reason="retry")
                source = self.active
                if source is None:
                    raise DeviceError("no card source available")
                try:
                    source.shuffle()
                    return
                except CommandRefusedError:
                    raise  # it answered: the device is there, the refusal is the caller's
                except FAILURE_ERRORS as e:
                    log.warning("%s: shuffle failed: %s", source.name, e)
                    self._failure = f"shuffle failed: {e}"
            raise DeviceError("no card source could shuffle")

    def deal(self, n: int) -> None:
        """Ask the active source for ``n`` cards. A transport failure marks it failed (LinkLost
        follows if the source did not report it) and is raised, so the hand voids. A refusal
        (NAK) or a command without answer is raised and leaves the source in use.

        Raises:
            CommandRefusedError: the source refused (e.g. ``NO_DECK``).
            DeviceError: from the active source, or when none is available.
        """
        with self._lock:
            self._require_open()
            source = self.active
            if source is None:
                raise DeviceError("no card source available")
        try:
            source.deal(n)
        except CommandRefusedError:
            with self._lock:  # it answered: the device is there, whatever its link said before
                if source is self.active:
                    self._lost_since = None
            raise
        except FAILURE_ERRORS as e:
            with self._lock:
                if source is self.active:
                    self._failure = f"deal failed: {e}"
                    if self._lost_since is None:
                        self._lost_since = time.monotonic()
                        self._notices.append(LinkLost(source=source.name, reason=str(e)))
            raise

    def request_status(self) -> None:
        """Ask the active source for its state (TCRP/1 STATUS; a STATE event follows).

        Raises:
            DeviceError: no source, or the active one cannot report a state (camera, manual).
        """
        with self._lock:
            self._require_open()
            source = self.active
        if not isinstance(source, StatusRequester):
            name = source.name if source is not None else "no card source"
            raise DeviceError(f"{name} cannot report its state")
        source.request_status()

    def recover_history(self, timeout: float) -> list[DeviceEvent]:
        """What the active device said before this session (after a host restart), oldest
        first; [] for sources that keep no history. Waits at most ``timeout`` seconds."""
        with self._lock:
            source = self.active if self._open else None
        if not isinstance(source, HistorySource):
            return []
        return source.recover_history(timeout)

    def next_event(self, timeout: float) -> DeviceEvent | None:
        """The next event of the active source, of the manual source, or a notice of this one,
        waiting at most ``timeout`` seconds; None on timeout. Switching happens here."""
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            with self._lock:
                self._maintain(time.monotonic())
                if self._notices:
                    return self._notices.popleft()
                source = self.active
                if self._manual is not None and source is not self._manual:
                    event = self._manual.next_event(0)
                    if event is not None:
                        return event
            # short waits while the keypad's cards must be watched too
            slice_ = 0.02 if self._manual is not None and source is not self._manual else 0.1
            left = deadline - time.monotonic()
            if source is None:
                if left <= 0:
                    return None
                time.sleep(min(left, slice_))
                continue
            event = source.next_event(max(0.0, min(left, slice_)))
            if event is not None:
                with self._lock:
                    if source is self.active:
                        self._track(event)
                        return event
                continue  # from a source switched away meanwhile: dropped
            if deadline - time.monotonic() <= 0:
                return None

    # -- internals ---------------------------------------------------------------------------

    def _fail_back(self) -> None:
        """At a new hand: a working, ready standby takes over with a SourceSwitched notice (one
        with a fault not cleared waits for a later hand). Called with the lock held."""
        active = self._active
        if active is None:
            return
        index = self._standby.take_over()
        if index is None:
            return
        source, old = self._sources[index], self._sources[active]
        self._active = index
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
        self._timer.schedule()

    def _require_open(self) -> None:
        if not self._open:
            raise DeviceError(f"{self.name} is not open")

    def _track(self, event: DeviceEvent) -> None:
        if isinstance(event, LinkLost):
            if self._lost_since is None:
                self._lost_since = time.monotonic()
            self._lost_reason = event.reason
        elif isinstance(event, LinkRestored):
            self._lost_since = None
        elif isinstance(event, IdentityChanged):
            self._failure = f"identity changed: {event.expected} -> {event.got}"

    def _maintain(self, now: float) -> None:
        if not self._open:
            return
        self._standby.watch()
        if self._active is None:
            if now >= self._retry_at:
                self._activate(0, from_name=self._last_failed, reason="retry")
            return
        if self._failure is not None:
            self._switch(self._failure)
        elif self._lost_since is not None and now - self._lost_since >= self._switch_after:
            self._switch(f"link lost ({self._lost_reason})")

    def _switch(self, reason: str) -> None:
        """Leave the active source for the next one that opens (wrapping round, the failed one
        last)."""
        index = self._active
        if index is None:
            return
        old = self._sources[index]
        log.warning("%s: leaving %s: %s", self.name, old.name, reason)
        self._active = None
        self._last_failed = old.name
        if old is not self._manual:
            old.close()
        # a working standby comes first, then the sources after the old one
        usable = self._standby.works() and self._standby.health.ready
        standby = self._standby.index
        start = standby if usable and standby is not None else index + 1
        skipped = self._activate(start, from_name=old.name, reason=reason)
        if self._active is None:
            self._notices.append(
                LinkLost(source=self.name, reason="no card source left: " + "; ".join(skipped))
            )

    def _activate(self, start: int, *, from_name: str | None, reason: str) -> list[str]:
        """Open sources from ``start`` (wrapping round) until one opens; queue a SourceSwitched
        when the source in use changes. Returns the ``name: error`` of those that did not open."""
        skipped: list[str] = []
        count = len(self._sources)
        for k in range(count):
            index = (start + k) % count
            source = self._sources[index]
            if index == self._failback.reviving:
                skipped.append(f"{source.name}: being reopened by a failback attempt")
                continue
            try:
                source.open()  # the standby is open already: a no-op
            except DealerAssistError as e:  # DeviceError, or a ConfigError found only at open
                log.warning("%s: %s cannot be opened: %s", self.name, source.name, e)
                skipped.append(f"{source.name}: {e}")
                continue
            self._active = index
            self._lost_since = None
            self._failure = None
            carried = self._standby.settle(index)
            if carried is not None and carried.identity_alarm:
                self._failure = "identity changed while standby"
            elif carried is not None and not carried.link_up:
                self._lost_since, self._lost_reason = time.monotonic(), "lost while standby"
            self._timer.schedule()  # a source just left gets some time before a retry
            first = self._sources[0].name
            if from_name or skipped:
                notice = SourceSwitched(
                    source=source.name,
                    from_source=from_name or first,
                    to_source=source.name,
                    reason=reason if from_name else f"{reason}: {skipped[0]}",
                    skipped=tuple(skipped),
                )
                self._notices.append(notice)
                self._history.append(notice)
                log.warning("%s: now reading cards from %s", self.name, source.name)
            return skipped
        self._active = None
        self._retry_at = time.monotonic() + self._retry_interval
        return skipped
