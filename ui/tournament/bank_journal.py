"""The time banks of a live tournament table in its journal, so a crash resumes them (rules
text 002: one reserve per player for the whole tournament; issue 15 part 3).

A decision at the console that drew on a player's bank (or timed out with it open) is journaled
when it ends as a desk record of the tournament (kind ``"tournament"``, event
:data:`~dealer_assist.tournament.action_clock.TIME_BANK_EVENT`, the table's session untouched),
carrying the bank left, absolute: the last such record of a player is their bank, whatever was
read or retried before. At start :meth:`BankJournal.load` rebuilds the banks from them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from dealer_assist.storage.journal import Journal
from dealer_assist.table.records import tournament_part
from dealer_assist.table.session import TableSession
from dealer_assist.tournament.action_clock import (
    DecisionOutcome,
    TimeBanks,
    bank_part,
    journaled_banks,
)
from dealer_assist.tournament.records import journal_event


class BankJournal:
    """The banks' records in journal ``url`` (SQLite path or URL), opened on first use.

    Raises (every method): JournalError when the journal cannot be opened, read or written;
    ClockError for a corrupt bank record (:func:`journaled_banks`).
    """

    def __init__(self, url: str, *, by: str = "console") -> None:
        self.url = url
        self.by = by
        self._journal: Journal | None = None

    def _open(self) -> Journal:
        if self._journal is None:
            j = Journal(self.url, supervise=False)
            j.open()
            self._journal = j
        return self._journal

    def load(self, tournament_id: str) -> TimeBanks:
        """Each player's bank as the journal's last bank record left it (players without one:
        not in the result, their bank is full)."""
        return journaled_banks(self._parts(), tournament_id)

    def _parts(self) -> Iterator[dict[str, Any]]:
        for stored in self._open().iter_hands():
            part = tournament_part(stored)
            if part is not None:
                yield part

    def record(self, tournament_id: str, table_id: str, game: str, outcome: DecisionOutcome,
               hand_uid: str | None) -> None:  # fmt: skip
        """Journal ``outcome`` (a decision at ``table_id`` that drew on the bank) on the
        tournament's desk; committed when this returns."""
        part = bank_part(tournament_id, table_id, outcome, hand_uid)
        journal_event(self._open(), tournament_id, part, TableSession(tournament_id),
                      by=self.by, game=game)  # fmt: skip

    def close(self) -> None:
        """Release the journal (idempotent)."""
        if self._journal is not None:
            self._journal.close()
            self._journal = None
