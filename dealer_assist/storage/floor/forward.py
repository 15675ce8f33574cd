"""Store and forward: a table's journal tailed and pushed to the floor on a thread of its own.

The table deals and journals locally whatever the floor does; the :class:`Forwarder` follows
the journal (every ``poll_interval`` seconds, or at once after :meth:`Forwarder.wake`) and pushes
each committed record to the floor (:class:`~dealer_assist.storage.floor.push.Pusher`:
idempotent by table and position, in chain order, never a gap). While the floor is down or
unreachable it retries with a growing pause (``min_backoff`` doubling up to ``max_backoff``),
every attempt bounded by the floor engine's timeouts, and catches up when the floor is back.
A record the floor refuses (a chain break, a changed copy) stops the forwarding of that table
at the break, with the reason in :meth:`Forwarder.status`; it is retried at the longest pause.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime

from dealer_assist.errors import JournalError
from dealer_assist.events import utc_now
from dealer_assist.ports import StoredHand
from dealer_assist.storage.floor.checkpoints import Checkpoint
from dealer_assist.storage.floor.errors import FloorUnavailableError
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.floor.push import BATCH, LocalJournal, Pusher, PushResult
from dealer_assist.storage.journal import Journal

_log = logging.getLogger(__name__)

STOPPED, STARTING, FORWARDING, CAUGHT_UP = "stopped", "starting", "forwarding", "caught up"
UNREACHABLE, REFUSED, FAILING = "floor unreachable", "refused", "error"


@dataclass(frozen=True)
class ForwardStatus:
    """The forwarder as the console or a CLI shows it.

    Attributes:
        state: ``stopped``, ``starting``, ``forwarding``, ``caught up``, ``floor
            unreachable``, ``refused`` (the floor refused a record: see ``last_error``) or
            ``error`` (the journal cannot be read, another floor error).
        table_id: the table (None until its journal has an entry).
        local_position, floor_position: the journal's last position and the floor's head as
            last seen (``None`` before the floor was first reached); ``lag`` the records
            between (all of the journal's while the floor's head is not known).
        pending_since: ``recorded_at`` of the oldest record not yet on the floor, or None.
        last_forwarded_at: when the floor last stored records of this forwarder (UTC).
        last_error: the last failure as a sentence (kept until a round succeeds), or None.
        retry_in: seconds until the next attempt after a failure, else None.
    """

    state: str = STOPPED
    table_id: str | None = None
    local_position: int = 0
    floor_position: int | None = None
    pending_since: datetime | None = None
    last_forwarded_at: datetime | None = None
    last_error: str | None = None
    retry_in: float | None = None

    @property
    def lag(self) -> int:
        """Records of the journal not yet on the floor."""
        return max(0, self.local_position - (self.floor_position or 0))

    def lag_seconds(self, now: datetime | None = None) -> float:
        """Age of the oldest record not yet on the floor (0.0 when caught up)."""
        if self.pending_since is None or self.lag == 0:
            return 0.0
        return max(0.0, ((now or utc_now()) - self.pending_since).total_seconds())

    def sentence(self) -> str:
        """The status in one sentence (``floor: caught up at position 120``)."""
        head = f"floor ({self.table_id})" if self.table_id else "floor"
        if self.state == CAUGHT_UP:
            return f"{head}: caught up at position {self.floor_position}"
        lag = f"{self.lag} record(s) behind ({self.lag_seconds():.0f} s)" if self.lag else ""
        if self.floor_position is None and self.local_position:
            lag = f"the floor not reached yet, {self.local_position} record(s) in the journal"
        if self.state == FORWARDING:
            return f"{head}: forwarding, {lag or 'caught up'}"
        if self.last_error is not None:
            retry = f"; next try in {self.retry_in:.0f} s" if self.retry_in else ""
            return f"{head}: {self.state}: {self.last_error}{'; ' + lag if lag else ''}{retry}"
        return f"{head}: {self.state}"


def _refusal(result: PushResult) -> str | None:
    refused = result.refused
    return None if refused is None else f"{refused.reason} (alert #{refused.alert_id})"


class Forwarder:
    """Forwards the journal ``journal`` to the floor at ``floor_url`` on its own thread.

    Args:
        journal: the journal's path / URL (preferred): the forwarder opens its own
            connection to it (``create=False``, no supervision: the table's own open does
            that) and retries while it does not exist yet; or an open journal shared with the
            table (only read here; its owner opens and closes it). Not a table's SQLite
            :class:`~dealer_assist.storage.Journal` opened with ``create=True``: its engine sets
            the side files' modes on every new connection, opening and closing them, and a
            second connection made for this thread then drops the process's POSIX locks on
            them (a read-only audit of the live journal then crashed the table with SIGBUS).
        floor_url: ``postgresql+psycopg://…`` (FloorError at construction when it is not one).
        pit, public_key, signature_of: registered / stored with the records (see
            :class:`~dealer_assist.storage.floor.push.Pusher`).
        poll_interval: seconds between looks at the journal when caught up.
        min_backoff, max_backoff: the pause after a failure, doubling from min to max.
        batch: records per floor transaction.
        signed_only: hold back unsigned entries (a notary's journal; see the Pusher).
        checkpoint_of: the signer's head, sent with every batch and at least each minute
            (see the Pusher).

    ``start()`` / ``stop()`` are idempotent (``close()`` is ``stop()``); never call them from
    the thread itself. :meth:`status` is safe from any thread (the GUI's timer).
    """

    def __init__(
        self,
        journal: LocalJournal | str,
        floor_url: str,
        *,
        pit: str | None = None,
        public_key: str | None = None,
        signature_of: Callable[[StoredHand], str | None] | None = None,
        poll_interval: float = 0.25,
        min_backoff: float = 0.5,
        max_backoff: float = 30.0,
        batch: int = BATCH,
        signed_only: bool = False,
        checkpoint_of: Callable[[], Checkpoint | None] | None = None,
    ) -> None:
        self._journal_arg = journal
        self._floor = Floor(floor_url)
        self._pusher_args = {
            "pit": pit,
            "public_key": public_key,
            "signature_of": signature_of,
            "batch": batch,
            "signed_only": signed_only,
            "checkpoint_of": checkpoint_of,
        }
        self.poll_interval, self.min_backoff, self.max_backoff = (
            poll_interval,
            min_backoff,
            max_backoff,
        )
        self._lock = threading.Lock()
        self._status = ForwardStatus()
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._round = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        self._begun = self._finished = 0  # rounds begun / the last finished one's number

    # -- control (any thread but the forwarder's) -------------------------------------------

    def start(self) -> None:
        """Start the thread (no-op when running)."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        self._set(state=STARTING)
        self._thread = threading.Thread(target=self._run, name="floor-forwarder", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the thread and wait for it (at most ``timeout`` s: one attempt's bounds)."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            if not self._thread.is_alive():
                self._thread = None

    close = stop

    def wake(self) -> None:
        """Look at the journal now (e.g. just after the table journaled a hand)."""
        self._wake.set()

    def status(self) -> ForwardStatus:
        """A snapshot of the forwarder's state."""
        with self._lock:
            return self._status

    def wait_caught_up(self, timeout: float) -> bool:
        """Block until a round that began after this call ends with the floor holding the
        whole journal (True), or ``timeout`` s pass (False)."""
        with self._round:
            target = self._begun + 1
            self._wake.set()
            return self._round.wait_for(
                lambda: self._finished >= target and self._status.state == CAUGHT_UP, timeout
            )

    # -- the thread --------------------------------------------------------------------------

    def _run(self) -> None:
        journal: LocalJournal | None = None
        own: Journal | None = None
        pusher: Pusher | None = None
        backoff = self.min_backoff
        try:
            while not self._stop.is_set():
                with self._lock:
                    self._begun += 1
                    number = self._begun
                try:
                    if journal is None:
                        journal, own = self._open_journal()
                    self._floor.open()
                    if pusher is None:
                        pusher = Pusher(journal, self._floor, **self._pusher_args)  # type: ignore[arg-type]
                    result = pusher.push(limit=self._pusher_args["batch"])  # type: ignore[arg-type]
                except FloorUnavailableError as e:
                    self._failed(UNREACHABLE, str(e), backoff, journal)
                    self._floor.close()  # a fresh engine next time: new DNS, new sockets
                    if pusher is not None:
                        pusher.reset()
                    self._pause(backoff)
                    backoff = min(backoff * 2, self.max_backoff)
                    continue
                except JournalError as e:
                    self._failed(FAILING, str(e), backoff, journal)
                    if pusher is not None:
                        pusher.reset()
                    self._pause(backoff)
                    backoff = min(backoff * 2, self.max_backoff)
                    continue
                backoff = self.min_backoff
                self._done(result, number)
                if result.refused is not None:
                    pusher.reset()
                    self._pause(self.max_backoff)
                elif result.lag == 0 or result.sent == 0:
                    self._pause(self.poll_interval)
        except Exception as e:  # a bug must not kill the table: say it, stop forwarding
            _log.exception("floor forwarder stopped")
            self._set(state=FAILING, last_error=f"stopped by an internal error: {e!r}")
        finally:
            self._floor.close()
            if own is not None:
                own.close()
            with self._round:
                self._status = replace(self._status, state=STOPPED, retry_in=None)
                self._round.notify_all()

    def _open_journal(self) -> tuple[LocalJournal, Journal | None]:
        if not isinstance(self._journal_arg, str):
            return self._journal_arg, None
        journal = Journal(self._journal_arg, create=False, supervise=False)
        journal.open()
        return journal, journal

    def _pause(self, seconds: float) -> None:
        self._wake.wait(seconds)
        self._wake.clear()

    def _done(self, result: PushResult, number: int) -> None:
        with self._round:
            self._finished = number
            s = self._status
            state = (
                REFUSED
                if result.refused
                else (
                    CAUGHT_UP
                    if result.lag == 0 or (result.floor_position >= result.local_position)
                    else FORWARDING
                )
            )
            self._status = replace(
                s,
                state=state,
                table_id=result.table_id,
                local_position=result.local_position,
                floor_position=result.floor_position,
                pending_since=result.pending_since,
                last_forwarded_at=utc_now() if result.sent else s.last_forwarded_at,
                last_error=_refusal(result) or result.checkpoint_refused,
                retry_in=self.max_backoff if result.refused else None,
            )
            self._round.notify_all()

    def _failed(
        self, state: str, error: str, retry_in: float, journal: LocalJournal | None
    ) -> None:
        """Record a failed round; the journal's side still read, so the lag keeps counting
        while the floor is away (logged once per new error, not once per retry)."""
        if error != self._status.last_error:
            _log.warning("floor forwarder: %s", error)
        changes: dict[str, object] = {"state": state, "last_error": error, "retry_in": retry_in}
        if journal is not None:
            try:
                last = journal.last_hand()
                position = 0 if last is None else last.hand_id
                changes["local_position"] = position
                held = self._status.floor_position or 0
                if position > held:
                    changes["pending_since"] = journal.get_hand(held + 1).recorded_at
            except JournalError:
                pass  # the journal is the failure, or went with it: keep the last view
        self._set(**changes)

    def _set(self, **changes: object) -> None:
        with self._round:
            self._status = replace(self._status, **changes)  # type: ignore[arg-type]
            self._round.notify_all()
