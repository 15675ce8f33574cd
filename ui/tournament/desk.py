"""The director's desk: what the director's console does, each step through the tournament
director (:class:`~dealer_assist.tournament.director.Director`) or with the same records it
journals, so every decision is a chained journal record naming who authorised it, and read back
through the same fold a restart uses (:class:`~dealer_assist.tournament.state.TournamentState`).

Qt-free. Every step checks first and journals after: a refused step (the core's sentence in a
:class:`~dealer_assist.tournament.errors.PurchaseRefused`, ``ClockError``, ``RankingError`` or
``HandStateError``) writes nothing and leaves the tournament as it was.

- :meth:`DirectorDesk.register` (the entry fee), :meth:`draw` (the seeded seat draw, then each
  player seated with the starting stack), :meth:`start` (the clock);
- :meth:`rebuy` and :meth:`addon` between hands, checked by :mod:`dealer_assist.tournament.money`
  at the moment of the purchase (the EUR 250 cap, the windows, the counts) and journaled as the
  table's ``top_up`` record, as the director journals them;
- :meth:`pause` / :meth:`resume` (the director's own, at the clock's moment now);
- :meth:`undo` (a bust taken back, the ranking folded again, the player back with a rebuy).

The desk's clock is the tournament's one clock (:meth:`Snapshot.clock_at`): a live tournament's
runs on the wall clock from the moment of its last record, and the director's pause and resume
happen at the wall clock's moment (the paused time is not run).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealer_assist.config import load_table_config
from dealer_assist.errors import HandStateError
from dealer_assist.events import utc_now
from dealer_assist.games.session import TableSession
from dealer_assist.ports import ChainJournal
from dealer_assist.tournament import money
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.clock import ClockState
from dealer_assist.tournament.director import Director
from dealer_assist.tournament.errors import PurchaseRefused, RankingError
from dealer_assist.tournament.ranking import EliminationRecord
from dealer_assist.tournament.records import journal_event
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.tables import TableJournalView, TournamentTable
from drivers.factory import open_source
from ui.tournament.board import Snapshot


@dataclass(frozen=True)
class Row:
    """One entrant as the director's console lists them.

    Attributes:
        player; table (1-based number, None when not seated), seat; chips; paid_cents (entry,
        rebuys, add-on); rebuys; addon (taken); status: ``registered`` (not seated yet),
        ``playing``, ``sitting_out``, ``moving`` or ``out``.
    """

    player: str
    table: int | None
    seat: int | None
    chips: int
    paid_cents: int
    rebuys: int
    addon: bool
    status: str


class DirectorDesk:
    """The director's steps on tournament ``tournament_id`` in ``journal`` (opened).

    Args:
        structure: the structure a new tournament opens with (a journal that has the
            tournament keeps its own).
        now: the wall clock (aware UTC).

    Raises (every step): JournalError; ChipsNotConserved; the refusals in the module doc.
    """

    def __init__(
        self,
        journal: ChainJournal,
        tournament_id: str,
        structure: TournamentStructure,
        *,
        now: Callable[[], datetime] = utc_now,
    ) -> None:
        self.journal = journal
        self.now = now
        self._structure = structure
        self.director = Director(
            journal, tournament_id, make_table=self._make_table, by="director", now=now
        )
        self.director.restarted()  # a live clock after a crash: paused (live_clock)
        self.seen_at = now()

    def _make_table(self, table_id: str, view: TableJournalView) -> TournamentTable:
        """A tournament table as the desk sees it: its seats and stacks (its dealer's console
        deals; the desk opens no card source)."""
        s = self._structure
        base = load_table_config(None, game=s.game)
        config = dataclasses.replace(
            base, table_id=table_id, seats=s.max_seats, journal_url="", sources=()
        )
        return TournamentTable(config, open_source("manual://", name=table_id), view, s)

    # -- what the screens read ------------------------------------------------------------------
    @property
    def state(self) -> TournamentState:
        """The tournament as its journal says."""
        return self.director.state

    @property
    def structure(self) -> TournamentStructure:
        """The structure in force (the journal's once open)."""
        return self.state.structure or self._structure

    def snapshot(self) -> Snapshot:
        """The room clock's snapshot of the tournament now. Raises ValueError before open."""
        return Snapshot.of_state(self.state, self.seen_at)

    def clock_now(self) -> ClockState:
        """The clock at the wall clock's moment (see the module doc)."""
        if self.state.structure is None:
            return self.state.clock
        return self.snapshot().clock_at(self.now())

    def rows(self) -> tuple[Row, ...]:
        """Every entrant in registration order."""
        st, out = self.state, []
        for name in st.ledger.players:
            e, acc = st.entrants.get(name), st.ledger.account(name)
            table = st.tables.index(e.table) + 1 if e and e.table in st.tables else None
            status = "registered"
            if e is not None and e.out:
                status = "out"
            elif e is not None and e.transit is not None:
                status = "moving"
            elif e is not None and e.table is not None:
                status = "sitting_out" if e.sitting_out else "playing"
            out.append(
                Row(
                    name,
                    table,
                    e.seat if e else None,
                    st.stack(name) if e else 0,
                    acc.paid_cents,
                    acc.rebuys,
                    acc.addon,
                    status,
                )
            )
        return tuple(out)

    def seats(self) -> tuple[tuple[int, int, str], ...]:
        """(table number, seat, player) of everyone seated now, by table and seat."""
        st = self.state
        return tuple(
            (i, seat, name)
            for i, tid in enumerate(st.tables, 1)
            for seat, name in sorted(st.at_table(tid).items())
        )

    def capacity(self) -> int:
        """Players the opened tables seat."""
        return len(self.state.tables) * self.structure.max_seats

    def refresh(self) -> None:
        """Read what the tables journaled since (hands, their records)."""
        before = self.state.seen
        self.director.catch_up()
        if self.state.seen != before:
            self.seen_at = self.now()

    # -- before the first hand ------------------------------------------------------------------
    def open(self, *, seed: int, players: int, by: str) -> None:
        """Open the tournament for up to ``players`` (its tables; once). Raises HandStateError
        below the structure's minimum."""
        self._as(by)
        self.director.open(self.structure, seed=seed, players=players, wall_clock=True)
        self._read()

    def register(self, player: str, *, by: str) -> None:
        """``player``'s entry with the entry fee. Raises PurchaseRefused (already registered,
        no name, registration closed, the tables full)."""
        name = player.strip()
        if name in self.state.ledger.accounts:
            raise PurchaseRefused(name, "entry", "already registered")
        if self.state.opened and len(self.state.ledger.players) >= self.capacity():
            raise PurchaseRefused(
                name, "entry", f"the tables opened seat {self.capacity()} players"
            )
        self._as(by)
        self.director.register(name, by=by)
        self._read()

    def draw(self, *, by: str) -> None:
        """The seeded seat draw, then everyone seated with the starting stack (or Double
        Chance's first half). Raises PurchaseRefused without enough players."""
        if self.state.draw is not None:
            raise HandStateError("the seats are already drawn")
        self._as(by)
        self.director.draw()
        self.director.seat()
        self._read()

    def start(self, *, by: str) -> None:
        """The clock starts. Raises HandStateError before the seats are drawn."""
        if self.state.draw is None:
            raise HandStateError("draw the seats before starting the clock")
        if self.state.started:
            raise HandStateError("the clock is already running")
        self._as(by)
        self.director.start()
        self._read()

    # -- purchases ------------------------------------------------------------------------------
    def rebuy(self, player: str, *, by: str) -> None:
        """A rebuy for ``player`` now (between hands), checked by the core (below the starting
        stack, inside the window, the count, the EUR 250 cap). Raises PurchaseRefused."""
        s, st, e = self.structure, self.state, self._seated(player, "rebuy")
        p = money.rebuy(
            s,
            st.ledger,
            player,
            stack=st.stack(player),
            level=self.director.level,
            authorised_by=by,
        )
        self._top_up(e.table, e.seat, p, ev.REBUY, by)

    def addon(self, player: str, *, by: str) -> None:
        """``player``'s add-on now, checked by the core (its window, one only, the EUR 250
        cap). Raises PurchaseRefused."""
        s, st, e = self.structure, self.state, self._seated(player, "addon")
        p = money.addon(s, st.ledger, player, level=self.director.level, authorised_by=by)
        self._top_up(e.table, e.seat, p, ev.ADDON, by)

    def quote(self, player: str, kind: str) -> money.Purchase:
        """What a ``rebuy`` or ``addon`` of ``player`` would be now (its fee and chips),
        checked by the core as :meth:`rebuy` and :meth:`addon` check it; nothing journaled
        (the director's console asks the director to confirm it). Raises PurchaseRefused."""
        s, st, _e = self.structure, self.state, self._seated(player, kind)
        if kind == "rebuy":
            return money.rebuy(
                s,
                st.ledger,
                player,
                stack=st.stack(player),
                level=self.director.level,
                authorised_by="?",
            )
        return money.addon(s, st.ledger, player, level=self.director.level, authorised_by="?")

    def undo_purchase(self, player: str, *, by: str) -> money.Purchase:
        """Take back ``player``'s last rebuy or add-on (a wrong tap, a player who changed their
        mind) while its chips have not been played: no hand dealt at the player's table since
        it. The fee is refunded (off the prize pool), the chips come off the player's stack;
        a player left with no chips (a rebuy after busting taken back) is out, ranked by the
        order of elimination. Returns the purchase taken back.

        Raises:
            PurchaseRefused: no rebuy or add-on to take back, a hand was dealt since it, the
                player moved table since, or the stack is short of its chips.
        """
        st = self.state
        e = self._seated(player, "undo")
        bought = st.last_purchase.get(player)
        if bought is None:
            raise PurchaseRefused(player, "undo", "no rebuy or add-on to take back")
        at, table, p = bought
        last = st.last_hand.get(table)
        if last is not None and last.hand_id > at:
            raise PurchaseRefused(
                player,
                "undo",
                f"a hand was dealt at {table} since the {p.kind}: its chips are in play",
            )
        if self.journal.pending_steps(table):
            raise PurchaseRefused(player, "undo", f"a hand is in progress at {table}")
        stack = st.stack(player)
        if e.table != table or stack < p.chips:
            raise PurchaseRefused(
                player,
                "undo",
                f"{player} has {stack} chips at {e.table}: not the {p.chips} chips of the {p.kind}",
            )
        self._as(by)
        rest, clock = stack - p.chips, self.clock_now()
        fields: dict[str, Any] = {"player": player, "undone": p.to_json()}
        out = self._part(ev.PURCHASE_UNDONE, clock, stage="out", **fields)
        if rest == 0:
            hand = last.hand_uid or "" if last is not None else "?"
            out["elimination"] = EliminationRecord("bust", player, hand, 0, by).to_json()
        desk_table = self.director.tables[table]
        desk_table.change("leave", e.seat, part=out, by=by)
        if rest > 0:
            back = self._part(ev.PURCHASE_UNDONE, clock, stage="in", **fields)
            desk_table.change("seat_player", e.seat, player, rest, part=back, by=by)
        self._read()
        self.state.check_chips(f"after the {p.kind} of {player} taken back")
        return p

    def _seated(self, player: str, kind: str) -> Any:
        e = self.state.entrants.get(player)
        if e is None:
            raise PurchaseRefused(player, kind, "not registered")
        if e.out:
            raise PurchaseRefused(player, kind, "eliminated")
        if e.table is None or e.seat is None:
            raise PurchaseRefused(player, kind, "not seated yet: draw the seats first")
        return e

    def _top_up(self, table: str, seat: int, p: money.Purchase, event: str, by: str) -> None:
        self._as(by)
        part = self._part(event, self.clock_now(), player=p.player, purchase=p.to_json())
        self.director.tables[table].change("top_up", seat, p.chips, part=part, by=by)
        self._read()
        self.state.check_chips(f"after the {event} of {p.player}")

    # -- the clock and the ranking --------------------------------------------------------------
    def pause(self, *, by: str) -> None:
        """The clock stops now (:meth:`Director.pause`). Raises ClockError (not started,
        already paused)."""
        moment = self._clock_moment()
        self._as(by)
        self.director.pause(moment)
        self._read()

    def resume(self, *, by: str) -> None:
        """The clock runs again from now (:meth:`Director.resume_clock`). Raises ClockError
        (not paused)."""
        moment = self._clock_moment()
        self._as(by)
        self.director.resume_clock(moment)
        self._read()

    def undo(self, player: str, *, by: str) -> None:
        """``player``'s bust taken back (rules text 002: the ranking folded again), and the
        player back in the game with a rebuy, seated at the free seat of the table with fewest
        players: the correction of a player marked out who was entitled to rebuy. Checked
        before anything is written.

        Raises:
            RankingError: the player is not out. PurchaseRefused: they cannot come back (no
                rebuy now: the window, the count, the EUR 250 cap; no free seat).
        """
        s, st = self.structure, self.state
        rec = EliminationRecord("undo", player, "", 0, by)
        if player not in st.entrants:
            raise RankingError(f"{player} is not registered")
        st.eliminations.apply(rec)  # refused here: nothing written
        try:
            p = money.rebuy(
                s, st.ledger, player, stack=0, level=self.director.level, authorised_by=by
            )
        except PurchaseRefused as e:
            raise PurchaseRefused(player, "undo", f"{player} cannot come back: {e.reason}") from e
        table, seat = self._free_seat(player)
        self._desk(ev.UNDONE, self.clock_now(), by, player=player, elimination=rec.to_json())
        part = self._part(ev.SEATED, self.clock_now(), player=player, purchase=p.to_json())
        self.director.tables[table].change("seat_player", seat, player, p.chips, part=part, by=by)
        self._read()
        self.state.check_chips(f"after the bust of {player} undone")

    def _free_seat(self, player: str) -> tuple[str, int]:
        st, cap = self.state, self.structure.max_seats
        live = [t for t in st.tables if st.at_table(t)] or list(st.tables)
        for t in sorted(live, key=lambda t: (len(st.at_table(t)), st.tables.index(t))):
            free = [n for n in range(1, cap + 1) if n not in st.at_table(t)]
            if free:
                return t, free[0]
        raise PurchaseRefused(player, "undo", "no free seat at the tournament's tables")

    def _clock_moment(self) -> datetime:
        c = self.clock_now()
        if c.as_of is None or not c.running:
            raise HandStateError("the clock has not started")
        if self.state.wall_clock:  # a live clock: its moments are the wall clock's (one clock)
            return max(self.now(), c.as_of)
        return c.as_of

    # -- journaling -----------------------------------------------------------------------------
    def _as(self, by: str) -> None:
        if not by.strip():
            raise HandStateError("who authorises it must be named (the operator)")
        self.director.by = by.strip()

    def _part(self, event: str, clock: ClockState, **fields: Any) -> dict[str, Any]:
        return {"id": self.state.tournament_id, "event": event, **fields, "clock": clock.to_json()}

    def _desk(self, event: str, clock: ClockState, by: str, **fields: Any) -> None:
        self._as(by)
        tid = self.state.tournament_id
        journal_event(
            self.director.desk,
            tid,
            self._part(event, clock, **fields),
            TableSession(tid),
            by=self.director.by,
            game=self.structure.game,
        )
        self._read()

    def _read(self) -> None:
        self.director.catch_up()
        self.seen_at = self.now()
