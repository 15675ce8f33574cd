"""Storage faults: a full disk, a journal locked beyond the busy timeout, a
dropped PostgreSQL connection.

:class:`ResilientJournal` is the :class:`~dealer_assist.storage.journal.Journal` a table uses:

- every call is retried with a bounded backoff when its failure may pass (:data:`RETRIES`: a
  lock another connection holds, a connection the server dropped; a full disk once, briefly),
  then raised as a :class:`~dealer_assist.errors.StorageFaultError` subclass naming what
  happened and what to do (:func:`translate`). Retrying is safe: a step written twice with the
  same content is stored once, a hand appended twice with the same ``hand_uid`` is stored once
  (so a commit the server made before the connection dropped is not repeated); an append
  without a ``hand_uid`` is not retried.
- PostgreSQL reconnects by itself: the engine pings a pooled connection before lending it
  (``pool_pre_ping``), and SQLAlchemy discards the pool's connections on a disconnect error, so
  the retry gets a new one.
- the free space of a SQLite journal's folder is checked at open and before writes (at most
  once per :data:`SPACE_CHECK_INTERVAL`, and before every new hand): below
  :attr:`DiskLimits.warn_bytes` a sentence is given once (``on_notice``), below
  :attr:`DiskLimits.refuse_bytes` no new hand starts (StorageFullError), while the hand in
  progress may still finish: SQLite's WAL needs about :data:`WAL_HEADROOM` to commit.

What a failed call leaves: nothing half-written (each write is one transaction), the hand in
progress in the step log, journaled or voided by the resume rules when the storage works again.
"""

from __future__ import annotations

import errno
import shutil
import sqlite3
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeVar

import sqlalchemy as sa

from dealer_assist.errors import (
    JournalError,
    StorageBusyError,
    StorageFaultError,
    StorageFullError,
    StorageLostError,
    StorageLowError,
)
from dealer_assist.ports import HandEntry, PendingStep, StoredHand
from dealer_assist.storage.engine import busy_timeout, journal_url
from dealer_assist.storage.journal import Journal

MiB = 1024 * 1024
WAL_HEADROOM = 4 * MiB
"""About what SQLite's write-ahead log grows to before a checkpoint (1000 pages of 4 KiB)."""
SPACE_CHECK_INTERVAL = 1.0
"""Seconds between two free-space checks before writes (a new hand always checks)."""

Fault = Literal["busy", "full", "lost"]
T = TypeVar("T")

# SQLite result codes (primary code: the low byte of sqlite_errorcode)
_SQLITE_BUSY, _SQLITE_LOCKED, _SQLITE_IOERR, _SQLITE_FULL = 5, 6, 10, 13
_FULL_ERRNOS = frozenset({errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)})
# PostgreSQL SQLSTATEs: lock not available, serialization failure, deadlock; operator
# intervention (admin shutdown, crash shutdown, cannot connect now); class 08 connection
_PG_BUSY = frozenset({"55P03", "40001", "40P01"})
_PG_LOST = frozenset({"57P01", "57P02", "57P03"})


@dataclass(frozen=True)
class RetryPolicy:
    """How often a call whose failure may pass is tried, and how long between tries.

    Attributes:
        attempts: tries in all (1: no retry).
        first_delay: seconds before the second try; each next delay is ``factor`` times
            longer, at most ``max_delay``.
    """

    attempts: int
    first_delay: float
    factor: float = 2.0
    max_delay: float = 4.0

    def delays(self) -> list[float]:
        """The waits between the tries (``attempts - 1`` of them), in seconds."""
        out, delay = [], self.first_delay
        for _ in range(max(0, self.attempts - 1)):
            out.append(min(delay, self.max_delay))
            delay *= self.factor
        return out


RETRIES: dict[Fault, RetryPolicy] = {
    # each try of a locked SQLite journal first waits its busy timeout (30 s by default)
    "busy": RetryPolicy(attempts=3, first_delay=0.5),
    # a restarting server: 0.25 + 0.5 + 1 + 2 + 4 s (each try's connect is bounded, 10 s)
    "lost": RetryPolicy(attempts=6, first_delay=0.25),
    # space freed meanwhile (a log rotated); a full disk rarely empties by itself
    "full": RetryPolicy(attempts=2, first_delay=0.5),
}
"""The retry policy of each kind of fault (the named setting, per kind)."""


@dataclass(frozen=True)
class DiskLimits:
    """Free space of the journal's folder below which the table warns, and refuses a new hand.

    Attributes:
        warn_bytes: below this, one sentence (again when the space went above and back below).
        refuse_bytes: below this no new hand starts (the hand in progress may finish: the WAL
            needs about :data:`WAL_HEADROOM`).
    """

    warn_bytes: int = 64 * MiB
    refuse_bytes: int = 8 * MiB

    def __post_init__(self) -> None:
        if not 0 <= self.refuse_bytes <= self.warn_bytes:
            raise JournalError(
                f"disk limits: 0 <= refuse ({self.refuse_bytes}) <= warn ({self.warn_bytes}) "
                "bytes is needed"
            )


@dataclass(frozen=True)
class StorageNotice:
    """What the operator or the dealer should know while the table goes on.

    Attributes:
        kind: ``low_space`` (the journal's disk is getting full) or ``recovered`` (a call
            succeeded after a fault, after ``seconds`` of retries).
        text: the English sentence (``str(notice)``).
        free_bytes, refuse_bytes: ``low_space``: the free space and the refusal threshold.
        seconds: ``recovered``: how long the retries took.
    """

    kind: Literal["low_space", "recovered"]
    text: str
    free_bytes: int = 0
    refuse_bytes: int = 0
    seconds: float = 0.0

    def __str__(self) -> str:
        return self.text


def classify(error: BaseException) -> Fault | None:
    """The kind of storage fault behind ``error`` (its chain of causes is followed): ``busy``
    (locked), ``full`` (no space, a file size limit, a write the disk refused), ``lost`` (the
    database server's connection), or None (a fault no retry mends: a bad entry, a broken
    chain, a removed file...)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        kind = _kind_of(current)
        if kind is not None:
            return kind
        cause = current.__cause__
        current = (
            cause if cause is not None or current.__suppress_context__ else (current.__context__)
        )
    return None


def _kind_of(error: BaseException) -> Fault | None:
    if isinstance(error, sa.exc.DBAPIError) and error.connection_invalidated:
        return "lost"
    if isinstance(error, sqlite3.Error):
        code = getattr(error, "sqlite_errorcode", 0) & 0xFF
        text = str(error).lower()
        if code in (_SQLITE_BUSY, _SQLITE_LOCKED) or "is locked" in text:
            return "busy"
        if code in (_SQLITE_FULL, _SQLITE_IOERR) or "disk is full" in text or "i/o error" in text:
            return "full"
        return None
    if isinstance(error, OSError) and error.errno in _FULL_ERRNOS:
        return "full"
    return _pg_kind(error)


def _pg_kind(error: BaseException) -> Fault | None:
    try:
        import psycopg
    except ImportError:  # the postgres extra is not installed: no PostgreSQL error either
        return None
    if isinstance(error, psycopg.InterfaceError):
        return "lost"  # "the connection is closed"
    if not isinstance(error, psycopg.OperationalError):
        return None
    state = error.sqlstate or ""
    if state in _PG_BUSY:
        return "busy"
    if not state or state.startswith("08") or state in _PG_LOST:
        return "lost"  # no SQLSTATE: the connection failed before the server could answer
    return None


def translate(error: JournalError, *, where: str, free: int | None = None) -> JournalError:
    """``error`` as the StorageFaultError subclass of its fault (:func:`classify`), its message
    kept and what happened said (``where``: the journal, e.g. its file); ``error`` itself when
    it is no storage fault or already translated."""
    if isinstance(error, StorageFaultError):
        return error
    kind = classify(error)
    if kind == "busy":
        return StorageBusyError(f"{error} (the journal {where} is locked by another connection)")
    if kind == "lost":
        return StorageLostError(
            f"{error} (the connection to the journal's database was lost "
            "and could not be made again)"
        )
    if kind == "full":
        space = f", {free / MiB:.1f} MiB free" if free is not None else ""
        return StorageFullError(
            f"{error} (the disk of the journal {where} is full or refused the write{space})"
        )
    return error


class DiskSpace:
    """The free space of ``folder``, looked at most once per ``interval`` seconds.

    Args:
        folder: the journal's folder (its ``-wal`` grows there).
        limits: the warning and refusal thresholds.
        on_notice: called with the warning sentence when the space falls below the warning.
        interval: seconds a reading is reused.
    """

    def __init__(
        self,
        folder: Path,
        limits: DiskLimits,
        on_notice: Callable[[StorageNotice], None] | None = None,
        interval: float = SPACE_CHECK_INTERVAL,
    ) -> None:
        self.folder = folder
        self.limits = limits
        self.on_notice = on_notice
        self.interval = interval
        self.free: int | None = None
        self.warned = False
        self._at = -float("inf")

    def check(self, *, now: float | None = None, force: bool = False) -> int | None:
        """The free bytes (None when the folder cannot be read: the write itself will say);
        a warning given once when below :attr:`DiskLimits.warn_bytes`."""
        now = time.monotonic() if now is None else now
        if not force and now - self._at < self.interval:
            return self.free
        self._at = now
        try:
            self.free = shutil.disk_usage(self.folder).free
        except OSError:
            self.free = None
            return None
        low = self.free < self.limits.warn_bytes
        if low and not self.warned and self.on_notice is not None:
            self.on_notice(self.warning())
        self.warned = low
        return self.free

    def warning(self) -> StorageNotice:
        """The notice of a disk getting full."""
        free = (self.free or 0) / MiB
        text = (
            f"the disk of the journal ({self.folder}) has only {free:.1f} MiB free: free space "
            f"soon; below {self.limits.refuse_bytes / MiB:.0f} MiB no new hand starts (the "
            f"journal needs about {WAL_HEADROOM // MiB} MiB to write a hand)"
        )
        return StorageNotice("low_space", text, self.free or 0, self.limits.refuse_bytes)

    def before_new_hand(self) -> None:
        """Raise StorageLowError (a StorageFullError) when the free space is below the refusal
        threshold."""
        free = self.check(force=True)
        refuse = self.limits.refuse_bytes
        if free is not None and free < refuse:
            raise StorageLowError(
                f"no new hand: the disk of the journal ({self.folder}) has only "
                f"{free / MiB:.1f} MiB free, less than {refuse / MiB:.0f} MiB",
                free_bytes=free,
                refuse_bytes=refuse,
            )


class ResilientJournal(Journal):
    """A :class:`Journal` that retries what may pass, says what did not, and watches the
    free space of its folder (see the module docstring).

    Args:
        url_or_path, options: as :class:`Journal` (``create``, ``group``, ``read_only``...).
        retries: the policy per fault kind (default :data:`RETRIES`).
        limits: the free-space thresholds (SQLite; a PostgreSQL server's disk is its own).
        on_notice: called with a :class:`StorageNotice` for the operator or the dealer: a
            disk getting full, a call that succeeded after a fault (how long it took).
        sleep: how to wait between tries (tests may count the waits).

    Raises (every method): as :class:`Journal`, the faults of :func:`classify` as
    :class:`~dealer_assist.errors.StorageFaultError` subclasses after the retries.
    """

    def __init__(
        self,
        url_or_path: str,
        *,
        retries: dict[Fault, RetryPolicy] | None = None,
        limits: DiskLimits | None = None,
        on_notice: Callable[[StorageNotice], None] | None = None,
        sleep: Callable[[float], None] = time.sleep,
        **options: Any,
    ) -> None:
        super().__init__(url_or_path, **options)
        self.retries = RETRIES if retries is None else retries
        self.on_notice = on_notice
        self.sleep = sleep
        self.faults = 0  # faults met (each try that failed with one)
        self.recovered = 0  # calls that succeeded after a fault
        url = journal_url(url_or_path)
        self.busy_timeout = busy_timeout(url)
        db = url.database if url.get_backend_name() == "sqlite" else None
        folder = Path(db).parent if db else None
        self._where = db or "database"
        self.space = (
            DiskSpace(folder, limits or DiskLimits(), on_notice) if folder is not None else None
        )

    # -- lifecycle ---------------------------------------------------------------------------
    def open(self) -> None:
        """:meth:`Journal.open` with retries; then the folder's free space looked at."""
        if self.is_open:
            return
        self._retry("open", super().open, idempotent=True)
        if self.space is not None and not self.read_only:
            self.space.check(force=True)

    # -- the port ----------------------------------------------------------------------------
    def append_hand(self, entry: HandEntry) -> StoredHand:
        """:meth:`Journal.append_hand`, retried when ``entry.hand_uid`` makes it idempotent."""
        self._look_at_space()
        call = super().append_hand
        return self._retry("append", lambda: call(entry), idempotent=entry.hand_uid is not None)

    def write_step(
        self, table_id: str, hand_uid: str, step_no: int, kind: str, payload: dict[str, Any]
    ) -> PendingStep:
        """:meth:`Journal.write_step`, retried (idempotent); a new hand's first step (``open``)
        is refused below the disk's refusal threshold."""
        if step_no == 0 and kind == "open" and self.space is not None:
            self.space.before_new_hand()
        else:
            self._look_at_space()
        call = super().write_step
        return self._retry(
            "step", lambda: call(table_id, hand_uid, step_no, kind, payload), idempotent=True
        )

    def clear_steps(self, table_id: str, hand_uid: str) -> int:
        """:meth:`Journal.clear_steps`, retried."""
        call = super().clear_steps
        return self._retry("clear", lambda: call(table_id, hand_uid), idempotent=True)

    def pending_steps(self, table_id: str) -> list[PendingStep]:
        """:meth:`Journal.pending_steps`, retried."""
        call = super().pending_steps
        return self._retry("read", lambda: call(table_id), idempotent=True)

    def last_hand(self) -> StoredHand | None:
        """:meth:`Journal.last_hand`, retried."""
        return self._retry("read", super().last_hand, idempotent=True)

    def count(self, *, hands_only: bool = False) -> int:
        """:meth:`Journal.count`, retried."""
        call = super().count
        return self._retry("read", lambda: call(hands_only=hands_only), idempotent=True)

    def get_hand(self, hand_id: int) -> StoredHand:
        """:meth:`Journal.get_hand`, retried."""
        call = super().get_hand
        return self._retry("read", lambda: call(hand_id), idempotent=True)

    def iter_hands(self, start: int | None = None) -> Iterator[StoredHand]:
        """:meth:`Journal.iter_hands`; a page that fails is read again from the hand after the
        last one given (at most the retries of its fault)."""
        next_id = 1 if start is None else start
        pages = super().iter_hands
        tries: dict[Fault, int] = {}
        while True:
            try:
                for hand in pages(next_id):
                    yield hand
                    next_id = hand.hand_id + 1
                return
            except JournalError as e:
                kind = classify(e)
                policy = self.retries.get(kind) if kind is not None else None
                if kind is None or policy is None:
                    raise self._translate(e) from e
                tries[kind] = n = tries.get(kind, 0) + 1
                self.faults += 1
                if n >= policy.attempts:
                    raise self._translate(e) from e
                self.sleep(policy.delays()[n - 1])

    # -- helpers -----------------------------------------------------------------------------
    def _look_at_space(self) -> None:
        if self.space is not None:
            self.space.check()

    def _translate(self, error: JournalError) -> JournalError:
        free = None
        if self.space is not None and classify(error) == "full":
            free = self.space.check(force=True)
        return translate(error, where=self._where, free=free)

    def _retry(self, what: str, call: Callable[[], T], *, idempotent: bool) -> T:
        """``call()``; tried again per its fault's policy when it may pass and is idempotent."""
        tries: dict[Fault, int] = {}
        began = time.monotonic()
        while True:
            try:
                result = call()
            except JournalError as e:
                kind = classify(e)
                policy = self.retries.get(kind) if kind is not None else None
                if kind is None or policy is None or not idempotent:
                    raise self._translate(e) from e
                tries[kind] = n = tries.get(kind, 0) + 1
                self.faults += 1
                if n >= policy.attempts:
                    raise self._translate(e) from e
                self.sleep(policy.delays()[n - 1])
                continue
            if tries:
                self.recovered += 1
                if self.on_notice is not None:
                    took = time.monotonic() - began
                    text = (
                        f"the journal {self._where} answered again after a storage fault "
                        f"({what}: {took:.1f} s of retries); play goes on"
                    )
                    self.on_notice(StorageNotice("recovered", text, seconds=took))
            return result
