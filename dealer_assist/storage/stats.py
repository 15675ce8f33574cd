"""Statistics of one table's SQLite journal (docs/STATISTICS.md): the hands of a time range read
through the journal's own code, summed by :func:`dealer_assist.audit.stats.aggregate`.

Drop and win come from each hand's settlement exactly as the floor reads them at ingest
(:func:`dealer_assist.storage.search_columns.search_columns`), so a journal and the floor's copy
give the same figures. One journal is one table: enough for its own shift report.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from datetime import datetime

from dealer_assist.audit.stats import (
    HandFact,
    ShiftPlan,
    StatsRow,
    aggregate,
    check_groups,
)
from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.search_columns import search_columns


def hand_fact(hand: StoredHand, pit: str | None = None) -> HandFact | None:
    """The :class:`HandFact` of a journal entry (``None`` for a table record); a void hand or a
    settlement this code cannot read counts with drop and win 0."""
    if hand.status == TABLE_RECORD:
        return None
    cols = search_columns(hand)  # the dealer as the floor's column has it (1..64 characters)
    return HandFact(
        hand.table_id,
        pit,
        cols["dealer"],
        hand.game,
        hand.started_at,
        hand.ended_at,
        int(cols["wagered"] or 0),
        int(cols["house_net"] or 0),
    )


class JournalStats:
    """:class:`~dealer_assist.audit.stats.StatsSource` over the SQLite journal at ``path``,
    opened read-only for each query (a live table keeps dealing). ``pit``: the pit the table
    stands in (a journal does not know it)."""

    def __init__(self, path: str, *, pit: str | None = None, shifts: ShiftPlan | None = None):
        self.path = path
        self.pit = pit
        self.shifts = shifts or ShiftPlan()

    def facts(self, start: datetime, end: datetime) -> Iterator[HandFact]:
        """The hands recorded in ``[start, end)`` (the floor's range, on its index). Raises
        JournalError (missing or unreadable journal)."""
        with Journal(self.path, create=False, read_only=True) as journal:
            for hand in journal.iter_hands():
                if start <= hand.recorded_at < end:
                    fact = hand_fact(hand, self.pit)
                    if fact is not None:
                        yield fact

    def stats(
        self,
        start: datetime,
        end: datetime,
        by: Sequence[str],
        *,
        pit: str | None = None,
        table_id: str | None = None,
    ) -> list[StatsRow]:
        """See :meth:`dealer_assist.audit.stats.StatsSource.stats`."""
        groups = check_groups(by)
        facts = [
            f
            for f in self.facts(start, end)
            if (pit is None or f.pit == pit) and (table_id is None or f.table_id == table_id)
        ]
        return aggregate(facts, groups, self.shifts)
