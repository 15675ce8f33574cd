"""The tournament's journal read off the GUI thread: :class:`JournalFeed` folds the journal
(read-only) through :class:`~dealer_assist.tournament.state.TournamentState` on its own thread
every ``interval`` seconds and publishes a :class:`~ui.tournament.board.Snapshot` as a Qt signal
each time the fold moved; what goes wrong is published too (a code and the detail), never
swallowed.

Which tournament: ``tournament_id`` when given, else the last tournament opened in the journal
(with ``table_id``: the last one that plays at that table).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from dealer_assist.errors import DealerAssistError
from dealer_assist.events import utc_now
from dealer_assist.storage.journal import Journal
from dealer_assist.table.records import tournament_part
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.state import TournamentState
from ui.tournament.board import Snapshot

NO_JOURNAL = "no_journal"  # the journal file does not exist
UNREADABLE = "unreadable"  # the journal refused to open or to be read (detail: why)
NO_TOURNAMENT = "no_tournament"  # no tournament opened in it (for the table)
JOIN_SECONDS = 3.0


def find_tournament(
    journal: Journal, table_id: str | None = None, start: int = 1
) -> tuple[str | None, int]:
    """The id of the last tournament opened in ``journal`` from entry ``start`` on (playing at
    ``table_id`` when given), and the last entry read. Raises JournalError."""
    found, last = None, start - 1
    for stored in journal.iter_hands(start):
        last = stored.hand_id
        part = tournament_part(stored)
        if part is None or part.get("event") != ev.OPENED:
            continue
        if table_id is None or table_id in [str(t) for t in part.get("tables", [])]:
            found = str(part.get("id"))
    return found, last


class JournalFeed(QObject):
    """Reads journal ``url`` (SQLite path or URL) every ``interval`` seconds on its own thread.

    Signals:
        snapshot(Snapshot): the fold moved (also its first reading).
        problem(str, str): a code (NO_JOURNAL, UNREADABLE, NO_TOURNAMENT) and the detail.

    ``start()`` starts the thread, ``stop()`` ends it (joins it, at most JOIN_SECONDS).
    """

    snapshot = Signal(object)
    problem = Signal(str, str)

    def __init__(
        self,
        url: str,
        *,
        tournament_id: str | None = None,
        table_id: str | None = None,
        interval: float = 1.0,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        super().__init__()
        self.url = url
        self.tournament_id = tournament_id
        self.table_id = table_id
        self.interval = interval
        self.now = now
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._said: tuple[str, str] | None = None

    def start(self) -> None:
        """Start reading (once)."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="tournament-feed", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop reading and wait for the thread (idempotent)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(JOIN_SECONDS)
            self._thread = None

    def _say(self, code: str, detail: str) -> None:
        if (code, detail) != self._said:  # said once, not every second
            self._said = (code, detail)
            self.problem.emit(code, detail)

    def _run(self) -> None:
        journal: Journal | None = None
        state: TournamentState | None = None
        seen, scanned = -1, 0
        while not self._stop.is_set():
            try:
                if journal is None:
                    if "://" not in self.url and not Path(self.url).exists():
                        self._say(NO_JOURNAL, self.url)
                        self._stop.wait(self.interval)
                        continue
                    journal = Journal(self.url, read_only=True)
                    journal.open()
                if state is None:
                    tid = self.tournament_id
                    if tid is None:  # only the entries not scanned yet, each second
                        tid, scanned = find_tournament(journal, self.table_id, scanned + 1)
                    if tid is None:
                        self._say(NO_TOURNAMENT, self.table_id or self.url)
                    else:
                        state = TournamentState(tid)
                if state is not None:
                    for stored in journal.iter_hands(state.seen + 1):
                        state.take(stored)
                    if state.seen != seen and state.structure is not None:
                        seen = state.seen
                        self._said = None
                        self.snapshot.emit(Snapshot.of_state(state, self.now()))
                    elif state.structure is None:
                        self._say(NO_TOURNAMENT, state.tournament_id)
            except DealerAssistError as e:
                self._say(UNREADABLE, str(e))
                if journal is not None:
                    journal.close()
                journal, state, seen, scanned = None, None, -1, 0
            self._stop.wait(self.interval)
        if journal is not None:
            journal.close()
