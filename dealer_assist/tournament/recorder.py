"""The director's records: each journaled in the shared hash chain, then read back by the fold.

:class:`TournamentRecorder` owns the journal side of a
:class:`~dealer_assist.tournament.director.Director`: the desk's view of the journal, the
tournament's tables (opened once the fold knows them) and who authorises what is journaled
(the records' ``by``). Every record it writes is taken back through the same fold a restart
uses (:meth:`TournamentRecorder.catch_up`), so what the director knows is what the journal says.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.games.session import TableSession
from dealer_assist.ports import ChainJournal, StoredHand
from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.records import journal_event
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.tables import TableJournalView, TournamentTable


class TournamentRecorder:
    """Journals tournament ``state``'s records in ``journal`` and folds every entry back.

    Args:
        journal: the tournament's journal (opened), hands and records in one chain.
        state: the fold the records go into (the director's).
        by: who authorises the records (their ``by``; may be changed between records).
        make_table: opens table ``table_id`` (its source opened; its journal the view given).
        clock_now: the tournament's clock now (put on each record unless it names its own).

    Raises (every record): JournalError; ChipsNotConserved after a table's record.
    """

    def __init__(
        self,
        journal: ChainJournal,
        state: TournamentState,
        *,
        by: str,
        make_table: Callable[[str, TableJournalView], TournamentTable],
        clock_now: Callable[[], ClockState],
    ) -> None:
        self.journal = journal
        self.state = state
        self.by = by
        self._make_table = make_table
        self._clock_now = clock_now
        self.tables: dict[str, TournamentTable] = {}
        self.desk = TableJournalView(journal, state.tournament_id, None)

    def catch_up(self) -> None:
        """Take every journal entry not taken yet (the director's own records, the hands the
        tables journaled, what a restart's resume journaled); open the tables the fold names."""
        st = self.state
        for stored in self.journal.iter_hands(st.seen + 1):
            st.take(stored)
            if stored.table_id == st.tournament_id:
                self.desk._last = stored
            elif stored.table_id in self.tables:  # journaled by the table's own console
                self.tables[stored.table_id].take_entry(stored)
        if st.opened:
            for tid in st.tables:
                if tid not in self.tables:
                    view = TableJournalView(self.journal, tid, st.last_entry.get(tid))
                    table = self.tables[tid] = self._make_table(tid, view)
                    if isinstance(table, TournamentTable) and table.tournament_id is None:
                        # its hand records name the tournament
                        table.tournament_id = st.tournament_id
                        table.set_level(table.level_number)

    def part(self, event: str, clock: ClockState | None = None, **fields: Any) -> dict[str, Any]:
        """A record's tournament part; ``clock``: the clock after it (default: as it is)."""
        return {
            "id": self.state.tournament_id,
            "event": event,
            **fields,
            "clock": (clock or self._clock_now()).to_json(),
        }

    def desk_record(self, event: str, clock: ClockState | None = None, **fields: Any) -> StoredHand:
        """A desk record; the state takes it (and its clock) once it is journaled."""
        st = self.state
        session = TableSession(st.tournament_id)
        game = st.structure.game if st.structure else "tournament"
        part = self.part(event, clock, **fields)
        stored = journal_event(self.desk, st.tournament_id, part, session, by=self.by, game=game)
        self.catch_up()
        return stored

    def table_change(self, table_id: str, name: str, *args: Any, event: str, **fields: Any) -> None:
        """Table ``table_id``'s change ``name`` (``seat_player``, ``leave``, ``top_up``,
        ``draw_button``) with ``args``, journaled as its record ``event``; chips checked."""
        self.tables[table_id].change(name, *args, part=self.part(event, **fields), by=self.by)
        self.catch_up()
        self.state.check_chips(f"after the {event} record")

    def table_record(self, table_id: str, event: str, **fields: Any) -> None:
        """A record of table ``table_id`` that changes no seat (a sit-out, back in)."""
        self.tables[table_id].record(self.part(event, **fields), by=self.by)
        self.catch_up()
