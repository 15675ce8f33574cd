"""Source failover: a table's card sources in priority order behind one CardSource.

Issue 5, "Failover": a table lists its sources in priority order (serial shuffler, USB reader,
camera, manual). The first one that opens is used. A source that fails between hands is replaced
by the next one with a visible notice (:class:`SourceSwitched`); one that fails mid-hand voids the
hand, because its LinkLost reaches the table's misdeal detector first, and the next hand runs on
the next source. Every card keeps the name of the source that read it (``CardRead.source``), which
the journal stores per card.

"Failed" means: LinkLost not followed by LinkRestored within ``switch_after`` seconds (a replugged
USB reader or a reconnected serial line comes back on its own, so a short glitch does not cost the
table its best source), an identity alarm, or a transport error from a command. At a new hand
(:meth:`FailoverSource.shuffle`) a lost source is replaced at once. A fault the device reports and
clears itself (JAM, DOOR_OPEN) is not a failure: it voids the hand but the source stays. Nor is a
refusal (NAK, :class:`~dealer_assist.errors.CommandRefusedError`): the device answered, so it is
there; the refusal goes to the caller and the source stays. A command that got no answer is not a
failure by itself either: the heartbeat decides (LinkLost).

Failback: a higher-priority source that failed (or did not open at start) is opened again in a
background thread at most every ``failback_interval`` seconds, while a lower one is in use. One
that opens waits as the *standby* (its events are watched, not passed on) and takes over at the
next :meth:`~FailoverSource.shuffle`, i.e. between hands, never during one, with a
:class:`SourceSwitched` notice (a standby with a fault not cleared waits for a later hand; one
whose link goes again or whose identity changes is closed and tried again later; if the source in
use fails meanwhile, the standby replaces it at once). One that does not open stays failed until
the next attempt; the attempts never block a command or a hand, and each is bounded by the
source's own open timeouts. A source is reopened through its own ``open()`` after ``close()``:
every driver supports that (TcrpDevice on serial or USB starts a new session, an emulator://
source a new child, the camera a new worker).

A :class:`~drivers.manual.ManualSource` in the chain is opened with the chain and its cards are
always passed on, so the dealer's keypad can enter a card the reader missed whichever source is
active. The optional capabilities of a source (:class:`~dealer_assist.source.LinkAware`,
:class:`~dealer_assist.source.StatusRequester`, :class:`~dealer_assist.source.HistorySource`) are
always present here and are those of the active source, with the defaults of
:class:`~dealer_assist.source.ForwardingSource` when it lacks one.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Sequence
from urllib.parse import urlsplit

from dealer_assist.config import TableConfig
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
    CardSource,
    HistorySource,
    LinkAware,
    LinkStats,
    LinkStatus,
    Readiness,
    SourceIdentity,
    StatusRequester,
)
from drivers.manual import ManualSource

log = logging.getLogger(__name__)

__all__ = ["FailoverSource", "SourceSwitched", "open_table_sources"]

# command errors that mean the source itself is gone (a NAK or a timeout is not, by itself)
FAILURE_ERRORS = (TransportError, LinkLostError, DeviceIdentityError)
_STANDBY_DRAIN = 256  # events taken from a standby source per look (it keeps no backlog)
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

    Errors: open() raises DeviceError when no source opens; commands raise DeviceError (or a
    subclass) from the active source, or when no source is available.
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
        # failback: the reviver thread reopens sources above the active one (see _revive_once)
        self._failback_interval = failback_interval
        self._standby: int | None = None  # reopened, waiting for the next hand
        self._standby_health = Readiness()
        self._reviving: int | None = None  # being opened by the reviver right now
        self._revive_at = 0.0
        self._reviver: threading.Thread | None = None
        self._reviver_stop = threading.Event()

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
            index = self._standby
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
            self._standby = None
            skipped = self._activate(0, from_name=None, reason="not available at start")
            if self._active is None:
                if self._manual is not None:
                    self._manual.close()
                raise DeviceError("no card source could be opened: " + "; ".join(skipped))
            self._open = True
            if self._failback_interval is not None:
                self._reviver_stop = stop = threading.Event()
                self._reviver = threading.Thread(
                    target=self._revive_loop,
                    args=(stop,),
                    name=f"failback-{self.name}",
                    daemon=True,
                )
                self._reviver.start()

    def close(self) -> None:
        """Close every source this object opened (a failback attempt still opening one closes it
        when done; waits a few seconds for it); safe to call twice."""
        with self._lock:
            self._open = False
            self._reviver_stop.set()
            reviver, self._reviver = self._reviver, None
            active, self._active = self.active, None
            standby, self._standby = self._standby, None
            for source in (active, self._manual):
                if source is not None:
                    source.close()
            if standby is not None:
                self._sources[standby].close()
        if reviver is not None and reviver is not threading.current_thread():
            reviver.join(_REVIVER_JOIN)
            if reviver.is_alive():
                log.warning("%s: a failback attempt is still opening a source", self.name)

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
        self._watch_standby()
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
        usable = self._standby_works() and self._standby_health.ready
        start = self._standby if usable and self._standby is not None else index + 1
        skipped = self._activate(start, from_name=old.name, reason=reason)
        if self._active is None:
            self._notices.append(
                LinkLost(source=self.name, reason="no card source left: " + "; ".join(skipped))
            )

    # -- failback ------------------------------------------------------------------------------

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

    def _schedule_revival(self) -> None:
        if self._failback_interval is not None:
            self._revive_at = time.monotonic() + self._failback_interval

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

    def _activate(self, start: int, *, from_name: str | None, reason: str) -> list[str]:
        """Open sources from ``start`` (wrapping round) until one opens; queue a SourceSwitched
        when the source in use changes. Returns the ``name: error`` of those that did not open."""
        skipped: list[str] = []
        count = len(self._sources)
        for k in range(count):
            index = (start + k) % count
            source = self._sources[index]
            if index == self._reviving:
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
            self._settle_standby()
            self._schedule_revival()  # a source just left gets some time before a retry
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


def source_kind(url: str) -> str:
    """The kind of a source URL, used as its default name: ``serial``, ``usb``, ``camera``,
    ``file``, ``manual`` or ``emulator``."""
    scheme = urlsplit(url.strip()).scheme.lower() if "://" in url else ""
    if scheme in ("usb", "camera", "file", "manual", "emulator"):
        return scheme
    return "serial"


def open_table_sources(
    config: TableConfig,
    *,
    manual_last: bool = True,
    switch_after: float = 5.0,
    retry_interval: float = 5.0,
    failback_interval: float | None = 5.0,
) -> FailoverSource:
    """The table's card sources (``config.sources``, in order) as one FailoverSource, built with
    :func:`drivers.factory.open_source` and not yet opened (call ``open()``).

    Each source is named after its kind (``serial``, ``usb``, ``camera``, ``file``, ``manual``,
    ``emulator``; ``-2``, ``-3`` ... when repeated) unless its options give a ``name``; the
    journal records that name for every card. With ``manual_last`` a ``manual`` source is added
    at the end when the configuration has none: the dealer's hand is the last resort.
    ``switch_after``, ``retry_interval`` and ``failback_interval`` are as for FailoverSource.

    Raises:
        ConfigError: no source, or a source that cannot be built (names ``sources[i]``).
    """
    from drivers.factory import open_source

    if not config.sources and not manual_last:
        raise ConfigError("sources: the table lists no card source")
    built: list[CardSource] = []
    names: set[str] = set()
    for i, sc in enumerate(config.sources):
        options = dict(sc.options)
        given = options.pop("name", None)
        if given is not None and (not isinstance(given, str) or not given.strip()):
            raise ConfigError(f"sources[{i}].name: must be a non-empty text, got {given!r}")
        name = _unique(given or source_kind(sc.url), names)
        try:
            source = open_source(
                sc.url, pin_model=sc.pin_model, pin_serial=sc.pin_serial, name=name, **options
            )
        except DealerAssistError as e:
            raise ConfigError(f"sources[{i}] ({sc.url}): {e}") from e
        built.append(source)
    if manual_last and not any(isinstance(s, ManualSource) for s in built):
        built.append(ManualSource(name=_unique("manual", names)))
    return FailoverSource(
        built,
        switch_after=switch_after,
        retry_interval=retry_interval,
        failback_interval=failback_interval,
    )


def _unique(name: str, taken: set[str]) -> str:
    candidate, n = name, 1
    while candidate in taken:
        n += 1
        candidate = f"{name}-{n}"
    taken.add(candidate)
    return candidate
