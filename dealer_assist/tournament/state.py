"""The tournament's state as a fold over its journal: the same code reads a record the moment
the director journals it and when a restart reads the chain from the start, so a crash resumes
the tournament exactly (registrations, the seat draw, purchases, levels and breaks, sit-outs,
eliminations and their undo, every table's seats and stacks).

:meth:`TournamentState.take` takes the next journal entry: a tournament record
(:mod:`dealer_assist.tournament.records`), a hand of one of the tournament's tables (settled:
the clock runs a hand; void: nothing moves), or a plain table record of one of them. Entries of
other tables are skipped. Chips are chips, money is cents.

The clock (:class:`~dealer_assist.tournament.clock.ClockState`) is taken from the last record's
snapshot and run forward by each settled hand after it: a hand starts at the simulated moment
the clock stands at and lasts ``seconds_per_hand`` divided by the tables in play (they play at
once in a room; a simulation's clock, stated when the tournament opens). Void hands do not run
it: a hand voided by a restart and dealt again is the same hand of the tournament.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.games.session import TableSession
from dealer_assist.ports import StoredHand
from dealer_assist.tournament import records as ev
from dealer_assist.tournament.action_clock import TimeBanks
from dealer_assist.tournament.clock import SIM_EPOCH, ClockState
from dealer_assist.tournament.decisions import decisions_of, walk
from dealer_assist.tournament.live_clock import run_hand
from dealer_assist.tournament.money import Ledger, Purchase
from dealer_assist.tournament.prizes import SpecialAward, special_prizes_won
from dealer_assist.tournament.ranking import EliminationRecord, Eliminations
from dealer_assist.tournament.seating import SeatDraw
from dealer_assist.tournament.structure import TournamentStructure
from dealer_assist.tournament.structure_reader import structure_from_dict


class ChipsNotConserved(DealerAssistError):
    """The chips in play do not add up to the chips given out (starting stacks, rebuys,
    add-ons, second halves): names the hand or record and the numbers."""


@dataclass
class Entrant:
    """One registered player as the tournament knows them.

    Attributes:
        name: as registered. table, seat: where they sit (None before the seating, while
            moving, and once out). transit: chips carried from a table to another (a move
            half done by a crash), None otherwise. out: eliminated. sitting_out: the
            tournament's sit-out (dealt in, folded when the action reaches them), with
            ``back_at``: the tournament hand count they come back at. qualified: (heats)
            goes on to the final.
    """

    name: str
    table: str | None = None
    seat: int | None = None
    transit: int | None = None
    out: bool = False
    sitting_out: bool = False
    back_at: int = 0
    qualified: bool = False


@dataclass
class LevelLine:
    """The per-level summary: hands played at it, players left and their average stack after
    its last hand."""

    level: int
    hands: int = 0
    players_left: int = 0
    average_stack: int = 0


@dataclass
class TournamentState:
    """What the journal says of tournament ``tournament_id`` so far.

    Attributes:
        structure: the structure it runs with; seconds_per_hand: the simulated clock's
            length of a hand; seed: the tournament's seed (seat draw, simulated players).
        tables: its tables' ids (desk first: the tournament's own id holds desk records).
        ledger: the purchases (:class:`~dealer_assist.tournament.money.Ledger`); draw: the seat
            draw; entrants: by name, in registration order; eliminations: the busts and
            their undo (:class:`~dealer_assist.tournament.ranking.Eliminations`).
        clock: the clock after the last settled hand or record; hands: settled hands;
            table_hands: by table; voids: void hands seen.
        sessions: each table's last session; last_hand: each table's last hand entry.
        chips_in: chips brought to the tables (seats, rebuys, add-ons, second halves).
        level_in_force: the level of the last level record (0 before the first).
        left_at: the table and seat each eliminated player left; out_at: the settled hands
            before each elimination; last_purchase: each player's last rebuy or add-on
            (its record's hand_id, the table, the purchase) until it is taken back.
        moves: the players moved between tables, in order: (settled hands before the move,
            player, from table, to table, seat); moving_from: the table a player in transit
            left.
        simulated_decisions: the decisions are simulated on the action clock
            (:mod:`dealer_assist.tournament.decisions`); banks: each player's time bank left;
            timed_out: players whose action clock ran out, until their sit-out is journaled.
        wall_clock: a live tournament: the clock runs on wall time
            (:mod:`dealer_assist.tournament.live_clock`), not the simulated one.
        final: the heats formula's final once drawn (:class:`FinalState`); until then
            ``eliminations`` are the heats', after it the final's.
        finished: the results record once the tournament ended.
        seen: the last journal entry taken.
    """

    tournament_id: str
    structure: TournamentStructure | None = None
    seconds_per_hand: int = 0
    seed: int = 0
    tables: list[str] = field(default_factory=list)
    ledger: Ledger = field(default_factory=Ledger.empty)
    draw: SeatDraw | None = None
    entrants: dict[str, Entrant] = field(default_factory=dict)
    eliminations: Eliminations = field(default_factory=Eliminations)
    clock: ClockState = field(default_factory=ClockState)
    started: bool = False
    hands: int = 0
    table_hands: dict[str, int] = field(default_factory=dict)
    voids: int = 0
    sessions: dict[str, TableSession] = field(default_factory=dict)
    last_hand: dict[str, StoredHand] = field(default_factory=dict)
    last_entry: dict[str, StoredHand] = field(default_factory=dict)
    chips_in: int = 0
    specials: tuple[SpecialAward, ...] = ()
    simulated_decisions: bool = False
    wall_clock: bool = False
    banks: TimeBanks = field(default_factory=TimeBanks)
    timed_out: set[str] = field(default_factory=set)
    levels: dict[int, LevelLine] = field(default_factory=dict)
    last_level: int = 1
    level_in_force: int = 0
    left_at: dict[str, tuple[str, int]] = field(default_factory=dict)
    out_at: dict[str, int] = field(default_factory=dict)
    last_purchase: dict[str, tuple[int, str, Purchase]] = field(default_factory=dict)
    moves: list[tuple[int, str, str, str, int]] = field(default_factory=list)
    moving_from: dict[str, str] = field(default_factory=dict)
    final: FinalState | None = None
    finished: dict[str, Any] | None = None
    seen: int = 0

    # -- what the director asks ---------------------------------------------------------------
    @property
    def opened(self) -> bool:
        """The tournament's opening record is in the journal."""
        return self.structure is not None

    def now(self) -> datetime:
        """The clock's moment (the simulated time after the last settled hand or record)."""
        return self.clock.as_of or SIM_EPOCH

    def stack(self, name: str) -> int:
        """``name``'s chips now (at a table, or carried between tables; 0 when out)."""
        e = self.entrants[name]
        if e.transit is not None:
            return e.transit
        if e.table is None or e.seat is None:
            return 0
        p = self.sessions.get(e.table, TableSession(e.table)).seats.get(e.seat)
        return int(p.stack or 0) if p is not None else 0

    def stacks(self) -> dict[str, int]:
        """Every entrant's chips now."""
        return {n: self.stack(n) for n in self.entrants}

    def alive(self) -> list[str]:
        """Players not out, in registration order."""
        return [n for n, e in self.entrants.items() if not e.out]

    def at_table(self, table_id: str) -> dict[int, str]:
        """seat -> player at ``table_id`` now."""
        return {
            s: p.name for s, p in self.sessions.get(table_id, TableSession(table_id)).seats.items()
        }

    def chips_in_play(self) -> int:
        """Chips in every table's stacks and in transit."""
        total = sum(int(p.stack or 0) for s in self.sessions.values() for p in s.seats.values())
        return total + sum(e.transit or 0 for e in self.entrants.values())

    def check_chips(self, where: str) -> None:
        """Chips in play == chips brought to the tables == (once everyone is seated) the chips
        the ledger issued. Raises ChipsNotConserved naming ``where`` and the numbers."""
        in_play = self.chips_in_play()
        f = self.final or FinalState()
        if in_play != self.chips_in - f.retired:
            raise ChipsNotConserved(
                f"{where}: {in_play} chips in play, but {self.chips_in} "
                f"were brought to the tables and {f.retired} taken off "
                "at the heats' end"
            )
        if self.started and self.chips_in != self.ledger.chips_issued + f.chips:
            raise ChipsNotConserved(
                f"{where}: {self.chips_in} chips at the tables, but the "
                f"purchases issued {self.ledger.chips_issued} and the "
                f"final's stacks {f.chips}"
            )

    # -- the fold -----------------------------------------------------------------------------
    def take(self, stored: StoredHand) -> None:
        """Take the next journal entry (see the module docstring). Raises ChipsNotConserved
        for a hand whose stacks do not add up; PurchaseRefused for a purchase record the
        ledger refuses (a corrupt journal)."""
        self.seen = max(self.seen, stored.hand_id)
        tid = stored.table_id
        part = ev.part_of(stored, self.tournament_id)
        ours = tid == self.tournament_id or tid in self.tables
        if not ours and (part is None or part.get("event") != ev.OPENED):
            return
        if part is not None:
            self._event(stored, part)
        if tid in self.tables:
            saved = stored.extra.get("session")
            if isinstance(saved, Mapping) and saved.get("table_id") == tid:
                self.sessions[tid] = TableSession.from_json(saved)
            self.last_entry[tid] = stored
            if stored.status in ("settled", "void"):
                self._hand(stored)

    def _hand(self, stored: StoredHand) -> None:
        if stored.status != "settled" or self.structure is None:
            self.voids += stored.status == "void"
            return
        s = self.structure
        start = sum(int(p["stack"]) for p in stored.record.get("players", []))
        end = sum(int(p["stack"]) for p in (stored.settlement or {}).get("seats", []))
        if start != end:
            raise ChipsNotConserved(
                f"hand {stored.hand_id} ({stored.hand_uid}): the stacks "
                f"were {start} at the start and {end} at the end"
            )
        now = self.now()
        if self.wall_clock:  # a live table: the hand ran on wall time (live_clock)
            self.clock, number = run_hand(self.clock, s, stored.started_at, stored.ended_at)
            level = s.level(number)
        else:
            self.clock, level = self.clock.start_hand(s, now)
        if self.simulated_decisions:  # the action clock and the banks of its decisions
            sitting = {n for n, e in self.entrants.items() if e.sitting_out}
            moves = decisions_of(stored.record, self.at_table(stored.table_id), sitting)
            self.banks, self.timed_out = walk(
                s,
                level.number,
                self.banks,
                moves,
                seed=self.seed,
                number=self.hands,
                timed_out=self.timed_out,
            )
        # the tables play at once in a room: with n tables in play, a hand at one of them
        # moves the room's clock by 1/n of a hand (the simulation deals them one at a time)
        live = max(
            1, sum(1 for t in self.tables if self.sessions.get(t) and self.sessions[t].seats)
        )
        ms = self.seconds_per_hand * 1000 // live
        if not self.wall_clock:
            self.clock = self.clock.end_hand(s, now + timedelta(milliseconds=ms))
        self.hands += 1
        self.table_hands[stored.table_id] = self.table_hands.get(stored.table_id, 0) + 1
        self.last_hand[stored.table_id] = stored
        self.last_level = level.number
        self._specials(stored)
        line = self.levels.setdefault(level.number, LevelLine(level.number))
        line.hands += 1
        self._level_line()

    def _specials(self, stored: StoredHand) -> None:
        """The special prizes the hand's showdown won (hands shown, not mucked)."""
        if self.structure is None or not self.structure.special_prizes:
            return
        names = self.at_table(stored.table_id)
        mucked = set(stored.record.get("mucked", []))
        rows = (stored.settlement or {}).get("seats", [])
        shown = {
            names[r["seat"]]: str(r["hand"]["category"])
            for r in rows
            if r.get("hand") and r["seat"] not in mucked and r["seat"] in names
        }
        self.specials += special_prizes_won(
            self.structure, stored.hand_uid or "", shown, self.specials
        )

    def _level_line(self) -> None:
        line = self.levels.get(self.last_level)
        if line is None:
            return
        alive = self.alive()
        line.players_left = len(alive)
        line.average_stack = self.chips_in_play() // len(alive) if alive else 0

    def _event(self, stored: StoredHand, part: Mapping[str, Any]) -> None:
        event = part.get("event")
        clock = part.get("clock")
        if isinstance(clock, Mapping):
            self.clock = ClockState.from_json(clock)
        name = str(part.get("player", ""))
        purchase = part.get("purchase")
        if isinstance(purchase, Mapping):
            p = Purchase.from_json(purchase)
            self.ledger = self.ledger.apply(p, self.structure)
            if p.kind == "entry":
                self.entrants.setdefault(p.player, Entrant(p.player))
        if event == ev.OPENED:
            self.structure = structure_from_dict(part["structure"], source="journal")
            self.seed = int(part["seed"])
            self.seconds_per_hand = int(part["seconds_per_hand"])
            self.tables = [str(t) for t in part["tables"]]
            self.simulated_decisions = bool(part.get("simulated_decisions", False))
            self.wall_clock = bool(part.get("wall_clock", False))
        elif event == ev.SEAT_DRAW:
            self.draw = SeatDraw.from_json(part["draw"])
        elif event == ev.STARTED and self.structure is not None:
            self.started = True
            self.banks = TimeBanks.full(self.structure, self.ledger.players)
        elif event in (ev.SEATED, ev.MOVED_IN):
            e = self.entrants[name]
            if event == ev.MOVED_IN:  # from the table it left (its moved_out record)
                src = self.moving_from.pop(name, "")
                self.moves.append(
                    (self.hands, name, src, stored.table_id, int(stored.record["seat"]))
                )
            e.table, e.seat, e.transit = stored.table_id, int(stored.record["seat"]), None
            self.chips_in += int(stored.record["amount"]) if event == ev.SEATED else 0
        elif event in (ev.REBUY, ev.ADDON, ev.SECOND_HALF):
            self.chips_in += int(stored.record["amount"])
            if isinstance(purchase, Mapping) and event != ev.SECOND_HALF:
                self.last_purchase[name] = (
                    stored.hand_id,
                    stored.table_id,
                    Purchase.from_json(purchase),
                )
            if stored.record.get("kind") == "buy_in":  # back in a seat (a bust undone)
                e = self.entrants[name]
                e.table, e.seat, e.out = stored.table_id, int(stored.record["seat"]), False
        elif event == ev.PURCHASE_UNDONE:
            self._purchase_undone(stored, part, name)
        elif event == ev.LEVEL:
            self.level_in_force = int(part["level"])
        elif event == ev.MOVED_OUT:
            e = self.entrants[name]
            self.moving_from[name] = stored.table_id
            e.table = e.seat = None
            e.transit = int(stored.record["amount"])
        elif event == ev.ELIMINATED:
            e = self.entrants[name]
            self.left_at[name] = (stored.table_id, int(stored.record["seat"]))
            self.out_at[name] = self.hands
            e.table = e.seat = None
            e.out, e.sitting_out = True, False
            self.timed_out.discard(name)
            self.eliminations = self.eliminations.apply(
                EliminationRecord.from_json(part["elimination"])
            )
            self._level_line()
        elif event == ev.UNDONE:
            self.eliminations = self.eliminations.apply(
                EliminationRecord.from_json(part["elimination"])
            )
            self.entrants[name].out = False
            self._level_line()
        elif event == ev.SAT_OUT:
            e = self.entrants[name]
            e.sitting_out, e.back_at = True, int(part["back_at"])
            self.timed_out.discard(name)
        elif event == ev.SAT_IN:
            self.entrants[name].sitting_out = False
        elif event == ev.QUALIFIED:
            e = self.entrants[name]
            e.qualified = True
            if stored.record.get("kind") == "leave":  # off the heat's table, chips retired
                e.table = e.seat = None
                self.final = self.final or FinalState()
                self.final.retired += int(stored.record["amount"])
        elif event == ev.FINAL_DRAW:
            f = self.final = self.final or FinalState()
            f.draw = SeatDraw.from_json(part["draw"])
            f.tables = [str(t) for t in part["tables"]]
            f.heats, self.eliminations = self.eliminations, Eliminations()
            self.tables += [t for t in f.tables if t not in self.tables]
        elif event == ev.FINAL_SEATED and self.final is not None:
            e = self.entrants[name]
            e.table, e.seat = stored.table_id, int(stored.record["seat"])
            e.out = e.sitting_out = False
            self.chips_in += int(stored.record["amount"])
            self.final.chips += int(stored.record["amount"])
        elif event == ev.FINAL_STARTED and self.final is not None:
            self.final.started = True
        elif event == ev.FINISHED:
            self.finished = dict(part["results"])

    def _purchase_undone(self, stored: StoredHand, part: Mapping[str, Any], name: str) -> None:
        """A rebuy or add-on taken back (records.PURCHASE_UNDONE): its leave record takes the
        player's stack off the table, the purchase off the ledger and its chips out of play
        (the rest carried to the buy_in record, or the player out with nothing left)."""
        e = self.entrants[name]
        if part.get("stage") != "out":  # the buy_in record: back in the seat with the rest
            e.table, e.seat, e.transit = stored.table_id, int(stored.record["seat"]), None
            return
        p = Purchase.from_json(part["undone"])
        self.ledger = self.ledger.without(p)
        self.last_purchase.pop(name, None)
        self.chips_in -= p.chips
        rest = int(stored.record["amount"]) - p.chips
        e.table = e.seat = None
        if "elimination" not in part:
            e.transit = rest
            return
        self.left_at[name] = (stored.table_id, int(stored.record["seat"]))
        self.out_at[name] = self.hands
        e.out, e.sitting_out = True, False
        self.eliminations = self.eliminations.apply(
            EliminationRecord.from_json(part["elimination"])
        )


@dataclass
class FinalState:
    """The heats formula's final (rules text 002, "Formule di gioco"): its seat draw and tables,
    the heats' eliminations (kept for the ranking), the chips the qualifiers took off their
    heats' tables (``retired``), the chips the final's fresh stacks issued (``chips``), and
    whether its clock started."""

    draw: SeatDraw | None = None
    tables: list[str] = field(default_factory=list)
    heats: Eliminations = field(default_factory=Eliminations)
    retired: int = 0
    chips: int = 0
    started: bool = False
