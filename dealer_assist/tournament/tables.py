"""The real tables of a tournament: a :class:`~dealer_assist.table.peer_runner.PeerRunner` per
table, all journaling into one hash chain, each hand played with the level in force at its start.

Several tables share one journal (one chain for the tournament), but a table's runner finds its
session (seats, stacks, button) in "the journal's last entry"
(:meth:`~dealer_assist.games.session.TableSession.of_journal`): :class:`TableJournalView` is the
journal as one table sees it, whose last entry is that table's own last entry; everything else
goes to the shared journal unchanged.

:class:`TournamentTable` is one table: the level set on its game before each hand
(:func:`game_at_level`: limits, ante and bring-in in Stud; blinds and ante in Hold'em), and the
tournament's changes between hands (a seat taken with the starting stack, a rebuy's chips, a
player moved or eliminated) as the table's own records (``buy_in``, ``top_up``, ``leave``)
carrying the tournament's part (:func:`~dealer_assist.table.records.tournament_part`), so a chip
check along the journal reads them as any table's.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from dealer_assist.config import TableConfig
from dealer_assist.errors import HandStateError, TableError
from dealer_assist.events import utc_now
from dealer_assist.games import get_pot_game
from dealer_assist.games.session import TableSession
from dealer_assist.games.tournament_levels import tournament_levels
from dealer_assist.ports import ChainJournal, HandEntry, PendingStep, StoredHand, VerifyResult
from dealer_assist.source import CardSource
from dealer_assist.table.peer_driving import HeadlessPeerTable
from dealer_assist.table.records import journal_table_record
from dealer_assist.tournament.records import journal_event
from dealer_assist.tournament.structure import Level, TournamentStructure

CHIPS_CAP = 10**12  # the table's "maximum buy-in": a tournament stack has no cap


class TableJournalView:
    """The shared journal as table ``table_id`` sees it (a :class:`ChainJournal`).

    Args:
        journal: the tournament's journal (opened).
        table_id: the table.
        last: that table's last entry in the journal (None: the table has none yet).

    :meth:`last_hand` is the table's own last entry; every append through the view updates it.
    Errors are the journal's (JournalError).
    """

    def __init__(self, journal: ChainJournal, table_id: str, last: StoredHand | None) -> None:
        self.journal = journal
        self.table_id = table_id
        self._last = last

    def append_hand(self, entry: HandEntry) -> StoredHand:
        """Append to the shared chain (the table's last entry when it is this table's)."""
        stored = self.journal.append_hand(entry)
        if stored.table_id == self.table_id:
            self._last = stored
        return stored

    def last_hand(self) -> StoredHand | None:
        """This table's last entry (a hand or a table record), or None."""
        return self._last

    def count(self) -> int:
        """Entries in the whole chain."""
        return self.journal.count()

    def write_step(
        self, table_id: str, hand_uid: str, step_no: int, kind: str, payload: dict[str, Any]
    ) -> PendingStep:
        """See :meth:`JournalPort.write_step`."""
        return self.journal.write_step(table_id, hand_uid, step_no, kind, payload)

    def pending_steps(self, table_id: str) -> list[PendingStep]:
        """See :meth:`JournalPort.pending_steps`."""
        return self.journal.pending_steps(table_id)

    def clear_steps(self, table_id: str, hand_uid: str) -> int:
        """See :meth:`JournalPort.clear_steps`."""
        return self.journal.clear_steps(table_id, hand_uid)

    def iter_hands(self, start: int | None = None) -> Iterator[StoredHand]:
        """The whole chain's entries from ``start``."""
        return self.journal.iter_hands(start)

    def verify(self) -> VerifyResult:
        """The whole chain's check."""
        return self.journal.verify()


def game_at_level(
    game: Any, structure: TournamentStructure, level: Level, tournament_id: str | None = None
) -> Any:
    """The table's game (a ``StudGame`` or ``HoldemGame``) with ``level``'s amounts: Stud's
    limits (small, twice the small), ante and bring-in; Hold'em's blinds and ante; the
    structure's betting and chip; stacks without a buy-in cap (rules text 002, "Importo del
    limite minore": the level decides the amounts of each hand). With ``tournament_id`` each
    hand record carries ``"tournament": {"id": tournament_id, "level": level.number}``.

    Raises:
        ConfigError: amounts the game refuses (e.g. a bring-in above half the small limit).
    """
    common: dict[str, Any] = {
        "betting": structure.betting,
        "chip": structure.chip,
        "buy_in": (structure.chip, CHIPS_CAP),
        "tournament": None if tournament_id is None else (tournament_id, level.number),
    }
    levels = tournament_levels(structure.game)
    return levels.game_at_level(game, level.small, level.big, level.ante, level.bring_in, **common)


class TournamentTable:
    """One table of the tournament over its own card source, journaling into the shared chain.

    Args:
        config: the table (its ``table_id``, ``seats``, ``poker`` game; the level's amounts are
            set by :meth:`set_level`).
        source: its card source (opened by the caller).
        view: the tournament's journal as this table sees it (:class:`TableJournalView`).
        structure: the tournament's structure.
        tournament_id: the tournament's id, carried by each hand record with its level (the
            director sets it on the tables it makes).
    """

    def __init__(
        self,
        config: TableConfig,
        source: CardSource,
        view: TableJournalView,
        structure: TournamentStructure,
        tournament_id: str | None = None,
    ) -> None:
        self.base = config
        self.tournament_id = tournament_id
        self.source = source
        self.structure = structure
        self.view = view
        self.table = HeadlessPeerTable(config, source, view)
        self.level_number = 1
        self.set_level(1)  # the tournament's game from the start: stacks without a buy-in cap

    @property
    def table_id(self) -> str:
        """The table's id."""
        return self.base.table_id

    @property
    def runner(self) -> Any:
        """The table's :class:`~dealer_assist.table.peer_runner.PeerRunner`."""
        return self.table.runner

    def session(self) -> TableSession:
        """The table between hands as its journal left it."""
        runner = self.table.runner
        if runner.session is None:
            runner.session = TableSession.of_journal(self.table_id, self.view)
        session: TableSession = runner.session
        return session

    def set_level(self, number: int) -> None:
        """The next hand is played with level ``number``'s amounts (:func:`game_at_level`);
        set before a hand starts, and before a resume replays the hand a crash left (the level
        in force at its start)."""
        level = self.structure.level(number)
        game = game_at_level(self.base.poker, self.structure, level, self.tournament_id)
        self.table.runner.config = dataclasses.replace(self.base, poker=game)
        self.level_number = number

    def change(self, name: str, *args: Any, part: Mapping[str, Any], by: str) -> TableSession:
        """A table operation between hands (``seat_player``, ``top_up``, ``leave``) journaled
        as the table's record with the tournament's ``part`` added, then taken by the table.

        Raises:
            HandStateError: a hand is in progress. TableError: the table refuses it (names the
                seat and the rule). JournalError: the journal refuses it (nothing changed).
        """
        runner = self.table.runner
        if runner.hand is not None and not runner.hand.is_over:
            raise HandStateError(f"{name.replace('_', ' ')}: only between hands")
        session = self.session()
        ops = get_pot_game(runner.config.game).table_ops(runner.config)
        new: TableSession = getattr(ops, name)(session, *args, at=utc_now(), by=by)
        if new.change is None:
            raise TableError(None, f"{name}: the table made no change")
        payload = {**new.change.payload, "tournament": dict(part)}
        journal_table_record(
            self.view, self.table_id, new.change.kind, payload, new, game=runner.config.game
        )
        runner.session = new
        return new

    def take_entry(self, stored: StoredHand) -> None:
        """``stored``, this table's entry journaled by another process (its dealer's console:
        a hand; a time-out's record): the changes between hands start from it, not from the
        session this object last journaled. Between hands only (a hand in progress here keeps
        its own)."""
        last = self.view.last_hand()
        if stored.table_id != self.table_id or (
            last is not None and last.hand_id >= stored.hand_id
        ):
            return
        self.view._last = stored
        runner = self.table.runner
        if runner.hand is None or runner.hand.is_over:
            runner.session = None  # read again from the entry (TableSession.of_journal)

    def record(self, part: Mapping[str, Any], *, by: str) -> StoredHand:
        """A tournament record that moves no chips (kind ``"tournament"``), on this table with
        its session as it is. Raises JournalError."""
        return journal_event(
            self.view, self.table_id, part, self.session(), by=by, game=self.base.game
        )
