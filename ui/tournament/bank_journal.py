"""The time banks of a live tournament table in its journal, so a crash resumes them (rules
text 002: one reserve per player for the whole tournament).

A decision at the console that drew on a player's bank (or timed out with it open) is journaled
when it ends as a desk record of the tournament (kind ``"tournament"``, event
:data:`~dealer_assist.tournament.action_clock.TIME_BANK_EVENT`, the table's session untouched),
carrying the bank left, absolute: the last such record of a player is their bank, whatever was
read or retried before. While a bank is being drawn the strip journals what is left every
:data:`INTERIM_SECONDS` too, so a crash mid-decision loses at most that much of it. At start the
banks are rebuilt from those records.

The journal is read and written on this module's own thread, never the GUI's (a tournament's
journal holds every hand of it; a write waits for the disk): :meth:`BankJournal.request_load`
and :meth:`BankJournal.submit` queue the work, in order, and the results come back as Qt
signals.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from typing import Any

from PySide6.QtCore import QObject, Signal

from dealer_assist.errors import DealerAssistError
from dealer_assist.games.session import TableSession
from dealer_assist.storage.journal import Journal
from dealer_assist.table.records import tournament_part
from dealer_assist.tournament.action_clock import (
    DecisionOutcome,
    TimeBanks,
    bank_part,
    journaled_banks,
)
from dealer_assist.tournament.records import journal_event

#: While a bank is drawn, what is left is journaled this often (seconds of the strip's clock).
INTERIM_SECONDS = 5
JOIN_SECONDS = 5.0

_Job = tuple[str, tuple[Any, ...]]


class BankJournal(QObject):
    """The banks' records in journal ``url`` (SQLite path or URL), opened on first use by the
    worker thread (started by the first request).

    Signals:
        loaded(str, TimeBanks): a tournament's banks as its records left them (players without
            one are not in it: their bank is full).
        failed(str, str): ``"load"`` or ``"record"`` and what went wrong (JournalError when the
            journal cannot be opened, read or written; ClockError for a corrupt bank record).
    """

    loaded = Signal(str, object)
    failed = Signal(str, str)

    def __init__(self, url: str, *, by: str = "console") -> None:
        super().__init__()
        self.url = url
        self.by = by
        self._journal: Journal | None = None
        self._jobs: queue.Queue[_Job | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._idle = threading.Event()
        self._idle.set()

    # -- called on the GUI thread ----------------------------------------------------------------
    def request_load(self, tournament_id: str) -> None:
        """Read ``tournament_id``'s banks back; answered by ``loaded`` or ``failed``."""
        self._queue("load", (tournament_id,))

    def submit(
        self,
        tournament_id: str,
        table_id: str,
        game: str,
        outcome: DecisionOutcome,
        hand_uid: str | None,
    ) -> None:
        """Journal ``outcome`` (a decision at ``table_id`` that drew on the bank, or what is
        left of a bank being drawn) on the tournament's desk, after what was queued before;
        a failure comes back as ``failed``."""
        self._queue("record", (tournament_id, table_id, game, outcome, hand_uid))

    def submit_part(self, tournament_id: str, game: str, part: dict[str, Any]) -> None:
        """Journal the tournament record ``part`` (a sit-out, a return: no ``clock``, so it
        moves no clock) on the tournament's desk, after what was queued before."""
        self._queue("part", (tournament_id, game, part))

    def wait_idle(self, timeout: float) -> bool:
        """True once everything queued is done (within ``timeout`` seconds)."""
        return self._idle.wait(timeout)

    def close(self) -> None:
        """Finish what is queued (at most :data:`JOIN_SECONDS`), then release the journal
        (idempotent)."""
        if self._thread is not None:
            self._jobs.put(None)
            self._thread.join(JOIN_SECONDS)
            self._thread = None

    def _queue(self, kind: str, args: tuple[Any, ...]) -> None:
        self._idle.clear()
        self._jobs.put((kind, args))
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="time-bank-journal", daemon=True)
            self._thread.start()

    # -- the worker thread -----------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            job = self._jobs.get()
            if job is None:
                break
            kind, args = job
            try:
                if kind == "load":
                    self.loaded.emit(args[0], self.load(args[0]))
                elif kind == "part":
                    tid, game, part = args
                    journal_event(self._open(), tid, part, TableSession(tid), by=self.by, game=game)
                else:
                    self.record(*args)
            except DealerAssistError as e:
                self.failed.emit(kind, str(e))
            if self._jobs.empty():
                self._idle.set()
        if self._journal is not None:
            self._journal.close()
            self._journal = None
        self._idle.set()

    def _open(self) -> Journal:
        if self._journal is None:
            j = Journal(self.url, supervise=False)
            j.open()
            self._journal = j
        return self._journal

    def load(self, tournament_id: str) -> TimeBanks:
        """Each player's bank as the journal's last bank record left it (players without one:
        not in the result, their bank is full). Blocking: the worker's, or a tool's."""
        return journaled_banks(self._parts(), tournament_id)

    def _parts(self) -> Iterator[dict[str, Any]]:
        for stored in self._open().iter_hands():
            part = tournament_part(stored)
            if part is not None:
                yield part

    def record(
        self,
        tournament_id: str,
        table_id: str,
        game: str,
        outcome: DecisionOutcome,
        hand_uid: str | None,
    ) -> None:
        """:meth:`submit`'s work, committed when this returns. Blocking: the worker's."""
        part = bank_part(tournament_id, table_id, outcome, hand_uid)
        journal_event(
            self._open(), tournament_id, part, TableSession(tournament_id), by=self.by, game=game
        )
