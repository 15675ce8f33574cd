"""A live tournament table (a dealer's console opened on one of the tournament's tables): each
hand posts the ante, bring-in, blinds and limits of the level in force when it starts (rules
text 002, "Importo del limite minore"; GAMES.md "Levels": a level that changes during a hand
starts with the next hand), in chips, and its record says which tournament and level it was
(``"tournament": {"id": ..., "level": N}``).

:class:`LiveTable` folds the tournament's journal (the same fold the director and a restart
use, :class:`~dealer_assist.tournament.state.TournamentState`) each time a hand is about to
start, and sets the table runner's game to the level in force at that moment on the
tournament's one clock (:func:`~dealer_assist.tournament.live_clock.clock_at`). It refuses the
hand while the director's pause or a break stops the clock. Before the runner resumes a hand a
crash left, it sets the level that hand started at (the level is kept in the session of the
hand's first step, ``TableSession.level``), so a hand resumed after a ``kill -9`` goes on at
its own level even if the clock has moved on since.

Before each hand the table's session is read again from the journal: the director seats,
rebuys, moves and eliminates players with the table's own records in the same chain, from
another process. A table with a button (Hold'em) draws it before its first hand, seeded from
the tournament's seed as the headless director does.

Pure (no Qt): the console's service calls it on its worker thread.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from datetime import datetime, timedelta
from typing import Any

from dealer_assist.config import TableConfig
from dealer_assist.errors import HandStateError
from dealer_assist.events import utc_now
from dealer_assist.games import get_pot_game
from dealer_assist.games.session import TableSession
from dealer_assist.ports import ChainJournal, JournalPort
from dealer_assist.table.records import tournament_part
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.live_clock import clock_at
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import Level, TournamentStructure
from dealer_assist.tournament.tables import game_at_level

LOOK_EVERY = timedelta(seconds=1)  # between hands, the journal looked at for the director's changes

CHIPS = "chips"
"""A tournament table's ``currency``: amounts are chips, never money (the screens say
``5,000 chips``, not ``EUR 50.00``)."""


class TournamentClockStopped(HandStateError):
    """No hand starts now: the tournament is not open or started, its clock is paused or on a
    break, or it is over (the sentence says which)."""


def find_tournament(journal: ChainJournal, table_id: str | None = None) -> str | None:
    """The id of the last tournament opened in ``journal`` (playing at ``table_id`` when given),
    None when there is none. Raises JournalError."""
    found = None
    for stored in journal.iter_hands(1):
        part = tournament_part(stored)
        if part is None or part.get("event") != ev.OPENED:
            continue
        if table_id is None or table_id in [str(t) for t in part.get("tables", [])]:
            found = str(part.get("id"))
    return found


def table_name(tournament_id: str, table: str) -> str:
    """The table's id from what the director names it: ``T1`` -> ``ROOM-T1``; a full id is
    kept."""
    return table if table.startswith(f"{tournament_id}-") else f"{tournament_id}-{table}"


def tournament_table_config(
    base: TableConfig, structure: TournamentStructure, table_id: str, journal_url: str
) -> TableConfig:
    """The table a tournament assigns: ``base`` (the game's shipped table) with the
    tournament's table id, seats, chips (its ``chip`` and multiples for the keypad), amounts
    in chips, and level 1's game (each hand sets its own)."""
    chip = structure.chip
    chips = tuple(chip * m for m in (1, 4, 20, 40, 200))
    game = game_at_level(base.poker, structure, structure.level(1))
    return dataclasses.replace(
        base,
        table_id=table_id,
        seats=structure.max_seats,
        currency=CHIPS,
        chips=chips,
        poker=game,
        journal_url=journal_url,
    )


class LiveTable:
    """The tournament ``tournament_id`` as table ``table_id`` plays it (module doc).

    Args:
        config: the table (its game's defaults; the level's amounts are set per hand).
        tournament_id: the tournament (None: the last one opened in the journal at this table).
        now: the wall clock (aware UTC); the tournament's clock runs on it.
    """

    def __init__(
        self,
        config: TableConfig,
        tournament_id: str | None = None,
        *,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.base = config
        self.tournament_id = tournament_id
        self.now = now
        self.state: TournamentState | None = None
        self.level: Level | None = None  # the level of the hand last set
        self._looked: datetime | None = None  # when the journal was last looked at between hands
        self._seen = 0  # the journal's last entry then

    # -- the fold ---------------------------------------------------------------------------------
    def catch_up(self, journal: ChainJournal) -> TournamentState:
        """The tournament's state with every journal entry taken.

        Raises:
            TournamentClockStopped: no tournament is open in the journal (for this table).
            JournalError: the journal cannot be read.
        """
        if self.state is None:
            tid = self.tournament_id or find_tournament(journal, self.base.table_id)
            if tid is None:
                raise TournamentClockStopped(
                    f"table {self.base.table_id}: no tournament opened in this journal plays here"
                )
            self.state = TournamentState(tid)
        for stored in journal.iter_hands(self.state.seen + 1):
            self.state.take(stored)
        if self.state.structure is None:
            raise TournamentClockStopped(
                f"tournament {self.state.tournament_id}: not opened in this journal"
            )
        return self.state

    def clock(self, journal: ChainJournal) -> ClockState:
        """The tournament's one clock now (the fold's, run on the wall clock)."""
        st = self.catch_up(journal)
        if st.structure is None or not st.wall_clock:  # a simulation's clock is its own
            return st.clock
        return clock_at(st.clock, st.structure, self.now())

    def level_now(self, journal: ChainJournal) -> Level:
        """The level a hand starting now is played at.

        Raises:
            TournamentClockStopped: not started, paused, on a break, over (the sentence).
        """
        st = self.catch_up(journal)
        s = st.structure
        if s is None:
            raise TournamentClockStopped(f"tournament {st.tournament_id}: not opened")
        if st.finished is not None:
            raise TournamentClockStopped(f"tournament {st.tournament_id} is over")
        if not st.started or not st.clock.running:
            raise TournamentClockStopped(
                f"tournament {st.tournament_id}: the director has not started the clock yet"
            )
        c = self.clock(journal)
        if c.paused:
            raise TournamentClockStopped(
                "the tournament clock is paused: no hand starts until the director resumes it"
            )
        lv = c.next_hand_level(s, c.as_of or self.now())
        if lv is None:
            raise TournamentClockStopped(
                f"break after level {c.level}: no hand starts until it is over"
            )
        return lv

    # -- the runner's hooks -----------------------------------------------------------------------
    def set_level(self, runner: Any, number: int) -> None:
        """``runner`` (a :class:`~dealer_assist.table.peer_runner.PeerRunner`) plays its next
        hand at level ``number`` of the tournament, its record naming them."""
        st = self.state
        if st is None or st.structure is None:
            raise TournamentClockStopped("no tournament")
        level = st.structure.level(number)
        game = game_at_level(self.base.poker, st.structure, level, st.tournament_id)
        runner.config = dataclasses.replace(runner.config, poker=game)
        self.level = level

    def before_hand(self, runner: Any) -> None:
        """Before ``runner.new_hand()``: the table's session read again (the director's
        changes), the level in force now set, and kept in the session the hand opens with.

        Raises:
            TournamentClockStopped: no hand may start now. JournalError.
        """
        journal = runner.journal
        level = self.level_now(journal)
        session = runner.session = TableSession.of_journal(self.base.table_id, journal)
        self.set_level(runner, level.number)
        st = self.state
        if session.button is None and get_pot_game(self.base.game).has_button and st:
            # a table with a button (Hold'em) has it drawn before its first hand, seeded from
            # the tournament's seed as the director draws it (journaled as the table's record)
            seed = int(draw_number(st.seed, "button", self.base.table_id) * 2**32)
            session = runner.draw_button(seed, by="dealer")
        runner.session = dataclasses.replace(session, level=level.number)

    def between_hands(self, runner: Any) -> bool:
        """Between hands, the table's session read again once the journal has a new entry
        (the director seats, moves, rebuys and eliminates from another process: the console
        shows them before its next hand), at most once a second of ``now``. True when the
        session changed. Raises JournalError."""
        hand = runner.hand
        if hand is not None and not hand.is_over:
            return False
        now = self.now()
        if self._looked is not None and timedelta(0) <= now - self._looked < LOOK_EVERY:
            return False
        self._looked = now
        last = runner.journal.last_hand() if runner.journal is not None else None
        if last is None or last.hand_id == self._seen:
            return False
        self._seen = last.hand_id
        session = TableSession.of_journal(self.base.table_id, runner.journal)
        if session == runner.session:
            return False
        runner.session = session
        return True

    def before_resume(self, runner: Any) -> None:
        """Before ``runner.resume()``: the level the hand a crash left started at (its first
        step's session), else the level in force now. A tournament not readable yet leaves the
        runner as it is (the resume goes on; the next hand asks again)."""
        journal = runner.journal
        try:
            st = self.catch_up(journal)
        except TournamentClockStopped:
            return
        number = pending_level(journal, self.base.table_id)
        if number is None:
            try:
                number = self.level_now(journal).number
            except TournamentClockStopped:
                number = st.clock.level
        self.set_level(runner, number)


def pending_level(journal: JournalPort, table_id: str) -> int | None:
    """The level of the hand ``table_id``'s step log holds (its ``open`` step's session), None
    when there is none or it has no level. Raises JournalError."""
    level = None
    for step in journal.pending_steps(table_id):
        if step.kind != "open":
            continue
        session = step.payload.get("session")
        if isinstance(session, Mapping) and isinstance(session.get("level"), int):
            level = int(session["level"])
    return level
