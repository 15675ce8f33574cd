"""The table's side of the floor's sign-off requests, on a thread of its own.

The table service (its worker thread) says what its payout walk waits for and what it signed;
the :class:`SignoffRelay` thread does the floor's part — posts the requests, cancels those
signed at the console first, says which confirmations the table applied, and reads the
confirmations given in the pit-boss application — every ``poll_interval`` seconds, each call
bounded by the floor engine's timeouts (connect 5 s, statements 30 s). The service never
waits for the floor: it hands work over (:meth:`SignoffRelay.offer`, :meth:`~SignoffRelay.withdraw`,
:meth:`~SignoffRelay.taken`) and takes the confirmations found (:meth:`~SignoffRelay.confirmations`)
at its own ticks, so the console's snapshot (a Qt signal of its worker) carries the result.

The floor down: the work waits in order and is sent when the floor is back, with a pause
doubling from ``min_backoff`` to ``max_backoff`` between attempts; a request closed (signed at
the console) before it was ever posted is dropped, never sent.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass

from dealer_assist.errors import JournalError
from dealer_assist.events import utc_now
from dealer_assist.pitboss.signoffs import SignoffKey, SignoffRequest, SignoffRow
from dealer_assist.storage.floor.errors import FloorUnavailableError
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.floor.signoffs import FloorSignoffs

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Close:
    key: SignoffKey
    by: str | None
    detail: str


@dataclass(frozen=True)
class _Taken:
    request_id: int


_Work = SignoffRequest | _Close | _Taken  # a post, a cancel, a confirmation taken


@dataclass(frozen=True)
class RelayStatus:
    """The relay as a status line shows it: ``reachable`` (the last round reached the floor),
    ``pending`` (posts, cancels and takes not yet on the floor), ``last_error`` (a sentence,
    None after a round that succeeded)."""

    reachable: bool = False
    pending: int = 0
    last_error: str | None = None


class SignoffRelay:
    """The sign-off requests of ``table_id`` relayed to the floor at ``floor_url``.

    Args:
        floor_url: ``postgresql+psycopg://…`` (FloorError at construction when it is not one).
        table_id: the table whose confirmations are read.
        poll_interval: seconds between rounds (the confirmations' pick-up delay).
        min_backoff, max_backoff: the pause after a failed round, doubling from min to max.

    ``start()``/``stop()`` are idempotent (``close()`` is ``stop()``); :meth:`offer`,
    :meth:`withdraw`, :meth:`taken`, :meth:`confirmations`, :meth:`status` are safe from any
    thread and return at once.
    """

    def __init__(
        self,
        floor_url: str,
        table_id: str,
        *,
        poll_interval: float = 0.5,
        min_backoff: float = 0.5,
        max_backoff: float = 15.0,
    ) -> None:
        self._floor = Floor(floor_url)
        self.table_id = table_id
        self.poll_interval, self.min_backoff, self.max_backoff = (
            poll_interval,
            min_backoff,
            max_backoff,
        )
        self._lock = threading.Lock()
        self._outbox: list[_Work] = []  # in the table's order
        self._offered: dict[SignoffKey, SignoffRequest] = {}
        self._attempted: set[SignoffKey] = set()  # posts sent to the floor (answered or not)
        self._delivered: set[int] = set()
        self._inbox: list[SignoffRow] = []
        self._status = RelayStatus()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self.rounds = 0  # rounds finished (successful or not): tests wait on it

    # -- from the table service (any thread) ------------------------------------------------
    def offer(self, request: SignoffRequest) -> None:
        """The walk waits on ``request``'s seat: post it (once; again after a restart is
        harmless, the floor keeps the first)."""
        with self._lock:
            if request.key in self._offered:
                return
            self._offered[request.key] = request
            self._outbox.append(request)
        self._wake.set()

    def withdraw(self, key: SignoffKey, by: str | None, detail: str) -> None:
        """The walk no longer waits on ``key``: signed at the console (``by`` the signer) or
        the walk ended. A request never posted is dropped; a posted one is cancelled."""
        with self._lock:
            if self._offered.pop(key, None) is None:
                return
            self._outbox = [
                w for w in self._outbox if not (isinstance(w, SignoffRequest) and w.key == key)
            ]
            if key in self._attempted:  # on the floor, or perhaps (an answer lost): cancel
                self._outbox.append(_Close(key, by, detail))
            self._inbox = [r for r in self._inbox if r.key != key]
        self._wake.set()

    def taken(self, row: SignoffRow) -> None:
        """The table applied confirmation ``row`` (signed the seat off)."""
        with self._lock:
            self._offered.pop(row.key, None)
            self._outbox.append(_Taken(row.id))
        self._wake.set()

    def confirmations(self) -> list[SignoffRow]:
        """The confirmations found since the last call (each handed over once), for requests
        the walk still waits on."""
        with self._lock:
            out = [r for r in self._inbox if r.key in self._offered]
            self._inbox = []
        return out

    def status(self) -> RelayStatus:
        """A snapshot of the relay's state."""
        with self._lock:
            return RelayStatus(self._status.reachable, len(self._outbox), self._status.last_error)

    def wake(self) -> None:
        """Run a round now."""
        self._wake.set()

    # -- control --------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the thread (no-op when running)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="floor-signoffs", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the thread and wait for it (at most ``timeout`` s: one call's bounds)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if not self._thread.is_alive():
                self._thread = None

    close = stop

    # -- the thread -----------------------------------------------------------------------------
    def _run(self) -> None:
        backoff = self.min_backoff
        try:
            while not self._stop.is_set():
                try:
                    self._round()
                except FloorUnavailableError as e:
                    self._failed(str(e))
                    self._floor.close()  # a fresh engine next time
                    self._pause(backoff)
                    backoff = min(backoff * 2, self.max_backoff)
                    continue
                except JournalError as e:  # FloorError: another database error; retried
                    self._failed(str(e))
                    self._pause(backoff)
                    backoff = min(backoff * 2, self.max_backoff)
                    continue
                backoff = self.min_backoff
                self._pause(self.poll_interval)
        except Exception:  # a bug must not kill the table: the console sign-off still works
            _log.exception("floor sign-off relay stopped")
        finally:
            self._floor.close()

    def _round(self) -> None:
        self._floor.open()
        desk = FloorSignoffs(self._floor)
        while True:  # the work in order; each item leaves the outbox once the floor has it
            with self._lock:
                if not self._outbox:
                    break
                work = self._outbox[0]
                if isinstance(work, SignoffRequest):
                    self._attempted.add(work.key)  # with the read: a close now cancels it
            if isinstance(work, SignoffRequest):
                desk.post(work)
            elif isinstance(work, _Close):
                desk.cancel(work.key, work.by, work.detail)
            else:
                desk.taken(work.request_id, utc_now())
            with self._lock:
                if self._outbox and self._outbox[0] is work:
                    self._outbox.pop(0)
        found = desk.confirmed(self.table_id)
        with self._lock:
            for row in found:
                if row.key in self._offered and row.id not in self._delivered:
                    self._delivered.add(row.id)
                    self._inbox.append(row)
            self._status = RelayStatus(True, len(self._outbox), None)
            self.rounds += 1

    def _failed(self, error: str) -> None:
        with self._lock:
            if error != self._status.last_error:
                _log.warning("floor sign-off relay: %s", error)
            self._status = RelayStatus(False, len(self._outbox), error)
            self.rounds += 1

    def _pause(self, seconds: float) -> None:
        self._wake.wait(seconds)
        self._wake.clear()
