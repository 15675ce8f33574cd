"""``dealer-assist simulate`` at a pot game's table: players against each other (Hold'em, Stud).

Seeded simulated players of varied styles sit down with a buy-in inside the table's bounds and
play hand after hand; their stacks carry from hand to hand in the table session, a busted
player buys in again, now and then a player sits out for a few hands or leaves and another takes
the seat. A game with a button has it drawn before the first hand; a forced bet a seat decides
on (Stud's bring-in) is posted or, now and then, folded; ``--stay-in P`` makes a player who
would fold keep calling with probability P (8 players reaching seventh street run the deck
short: the burns go back into the shoe for a new deck). Every hand is dealt by a TCRP/1 source
(by default the built-in emulator on a real pseudo-terminal, as the banked ``simulate``), every
device event goes through the runner, every hand and every change between hands is journaled.
A restart on the same journal first finishes the hand a crash interrupted
(:meth:`~dealer_assist.table.peer_runner.PeerRunner.resume`) and says in a sentence what it did
(:func:`~dealer_assist.table.driving.resume_table`); ``--records`` is appended crash-safely,
with the hands a crash kept out of it (:mod:`ui.records`).

The summary counts hands, pots, side pots, split pots, odd chips, rake, voids, the streets dealt
from a new deck (a community card or the burns reshuffled) and the forced bets folded, and
checks the chips of every hand along the journal
(:class:`~dealer_assist.table.chip_ledger.ChipLedger`): a hand whose chips do not add up is
named and the command exits 1.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, TextIO

from tqdm import tqdm

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.engine.operations import BetKind
from dealer_assist.engine.state import ActionSpace
from dealer_assist.errors import ConfigError, JournalError
from dealer_assist.games import get_pot_game
from dealer_assist.games.session import TableSession
from dealer_assist.ports import TABLE_RECORD, StoredHand
from dealer_assist.storage.journal import Journal
from dealer_assist.table.chip_ledger import BUY_KINDS, OUT_KINDS, ChipLedger, session_stacks
from dealer_assist.table.driving import resume_table
from dealer_assist.table.peer_driving import HeadlessPeerTable, SeatPlayer, play_hand
from drivers.factory import open_source
from ui.commands.floor import start_forwarding, stop_forwarding
from ui.commands.simulate_job import (
    default_db,
    frames_line,
    open_journal,
    put_dealer,
    say,
    stopped,
    write_summary,
)
from ui.money import fmt_money
from ui.records import RecordsFile

BY = "simulate"
DEFAULT_PLAYERS = 6
SIT_OUT_RATE = 0.02  # per player and hand: sits out ...
SIT_IN_RATE = 0.4  # ... and comes back with this probability each hand after
LEAVE_RATE = 0.01  # per player and hand: cashes out; a new player takes the seat next hand
FORCED_FOLD_RATE = 0.15  # a seat owing a forced bet it may fold instead (the bring-in) folds

# the kinds of a Bet operation the simulated players choose among (the protocol's BetKind)
FOLD: BetKind = "fold"
CHECK: BetKind = "check"
CALL: BetKind = "call"
BRING_IN: BetKind = "bring_in"


def run(args: argparse.Namespace) -> int:
    """The pot-game simulation (see the module docstring); 0 when every hand was journaled
    and its chips add up, 1 when a hand's do not.

    Raises:
        ConfigError: a bad option (names it). DeviceError: as the table's. JournalError: a
            storage error, said in a sentence (the hand in progress stays pending).
    """
    config = load_table_config(args.table, game=args.game)
    if config.game != args.game:
        raise ConfigError(f"--table is a {config.game} table but --game is {args.game}")
    players = args.players or args.seats or min(DEFAULT_PLAYERS, config.seats)
    if not 2 <= players <= config.seats:
        raise ConfigError(f"--players must be 2..{config.seats} for this table")
    if args.hands < 1:
        raise ConfigError("--hands must be at least 1")
    stay_in = float(args.stay_in or 0.0)
    if not 0.0 <= stay_in <= 1.0:
        raise ConfigError(f"--stay-in must be a probability 0..1, got {args.stay_in}")
    config = dataclasses.replace(config, journal_url=args.db or default_db(config.game))
    url = args.source or f"emulator://?seed={args.seed}&shuffle_time=0.01&card_interval=0.001"
    src_cfg = config.sources[0] if config.sources else None
    pins = (
        {}
        if args.source or src_cfg is None
        else {"pin_model": src_cfg.pin_model, "pin_serial": src_cfg.pin_serial}
    )
    source = open_source(url, name="serial", **pins)
    journal = open_journal(args, config)
    records = (
        RecordsFile(args.records, config.table_id, group=config.journal_group)
        if args.records
        else None
    )
    tables: list[HeadlessPeerTable] = []
    forwarder = None
    try:
        # the source first: a refused port (another table holds it) touches no journal file
        source.open()
        journal.open()
        forwarder = start_forwarding(journal, args)
        if records is not None:
            records.open(journal)  # before the resume: the hand it journals is appended
            if records.notice():
                say(records.notice())
        summary = simulate(
            config,
            source,
            journal,
            hands=args.hands,
            players=players,
            seed=args.seed,
            records=records,
            stay_in=stay_in,
            progress=not args.no_progress,
            tables=tables,
            dealer=getattr(args, "dealer", None),
        )
        summary.stats = getattr(source, "stats", None)
    except JournalError as e:  # a storage error: the hand in progress stays in the step log
        raise JournalError(stopped(e, _pending(tables))) from e
    finally:
        stop_forwarding(forwarder)
        source.close()
        journal.close()
        if records is not None:
            records.close()
    write_summary(lambda out: summary.print(config, out))
    return 0 if summary.conserved else 1


def _pending(tables: list[HeadlessPeerTable]) -> str | None:
    """The hand a storage error left pending ("hand UID"), None when there is none."""
    runner = tables[0].runner if tables else None
    hand = runner.hand if runner is not None else None
    if hand is None or (hand.is_over and runner is not None and runner.stored is not None):
        return None
    return f"hand {hand.hand_uid}"


def simulate(
    config: TableConfig,
    source: Any,
    journal: Journal,
    *,
    hands: int,
    players: int,
    seed: int,
    records: RecordsFile | None = None,
    progress: bool = False,
    stay_in: float = 0.0,
    tables: list[HeadlessPeerTable] | None = None,
    dealer: str | None = None,
) -> Summary:
    """Play ``hands`` new hands at the table of ``config`` over the opened ``source``, journaled
    in the opened ``journal`` (after the hand a crash left, if any, said in a sentence on
    stdout); the :class:`Summary`. ``records``: opened, caught up after each hand.
    ``stay_in``: the probability a player who would fold calls or checks instead (0..1).
    ``tables``: the table is put in it (the caller names the hand a storage error left).
    ``dealer``: the badge put on the box before the first new hand (else ``[table] dealer``
    when nobody is on it: :func:`ui.commands.simulate_job.put_dealer`)."""
    rng = random.Random(seed)
    table = HeadlessPeerTable(config, source, journal)
    if tables is not None:
        tables.append(table)
    first = journal.count() + 1
    report = resume_table(table.runner, table.resume)
    for line in report.sentences():
        say(line)
    resumed = table.hand if report.continued or report.journaled else None
    session = _session_at(journal, config.table_id, first)
    summary = Summary(ledger=ChipLedger(config.table_id, session_stacks(session)))
    seating = Seating(table, rng, players, stay_in=stay_in)
    seen = first - 1
    if resumed is not None:  # the hand a crash interrupted, finished first
        summary.resumed += 1
        if not resumed.is_over:
            seating.players_of(table.runner.session)
            play_hand(table, seating.players, rng, resumed, by=BY)
    put_dealer(table.runner, dealer, config)
    seen = summary.take(journal.iter_hands(seen + 1), seen)
    if records is not None:
        records.catch_up(journal)
    # no bar at all without progress: a disabled tqdm still starts its monitor thread
    bar = tqdm(total=hands, unit="hand", file=sys.stderr) if progress else None
    for _ in range(hands):
        seating.between_hands()
        play_hand(table, seating.players, rng, by=BY)
        seen = summary.take(journal.iter_hands(seen + 1), seen)
        if records is not None:
            records.catch_up(journal)
        if bar is not None:
            bar.set_postfix(voids=summary.voids_total(), refresh=False)
            bar.update()
    if bar is not None:
        bar.close()
    return summary


def _session_at(journal: Journal, table_id: str, first: int) -> dict[str, Any] | None:
    """The table's session as the journal had it before entry ``first``."""
    if first <= 1:
        return None
    last = journal.get_hand(first - 1)
    saved = last.extra.get("session")
    ok = isinstance(saved, dict) and saved.get("table_id") == table_id
    return saved if ok else None


class Seating:
    """The simulated players at the table and what they do between hands.

    Args:
        table: the table (its runner makes and journals the changes between hands).
        rng: every draw (styles, buy-ins, sit-outs, the players' decisions) comes from it.
        players: how many players sit at the table (the seats 1..players).
        stay_in: the probability a player who would fold keeps calling (:class:`SimulatedSeat`).
    """

    def __init__(
        self, table: HeadlessPeerTable, rng: random.Random, players: int, *, stay_in: float = 0.0
    ) -> None:
        self.table = table
        self.rng = rng
        self.stay_in = stay_in
        self.seats = list(range(1, players + 1))
        self.game = get_pot_game(table.config.game)
        self.players: dict[int, SimulatedSeat] = {}
        self._joined = 0
        game = table.config.poker
        self.low: int = game.buy_in[0]
        self.high: int = game.buy_in[1]
        self.chip: int = game.chip

    def players_of(self, session: TableSession | None) -> None:
        """A simulated player for everyone seated in ``session`` (the style from the name
        they sat down with, ``style#n``)."""
        for seat, p in session.seats.items() if session else ():
            if seat not in self.players:
                style = p.name.split("#")[0]
                styles = self.game.player_styles
                style = style if style in styles else styles[0]
                self.players[seat] = self._player(style)

    def between_hands(self) -> None:
        """Empty seats taken, busted players buying in again, sit-outs, returns, departures,
        the first button drawn (a game with a button); each change made (and journaled) by the
        runner."""
        runner = self.table.runner
        session = runner.session or TableSession(runner.config.table_id)
        self.players_of(session)
        for seat in self.seats:
            p = session.seats.get(seat)
            if p is None:
                self._joined += 1
                style = self.rng.choice(self.game.player_styles)
                runner.seat_player(seat, f"{style}#{self._joined}", self._buy_in(), by=BY)
                self.players[seat] = self._player(style)
            elif p.sitting_out:
                if self.rng.random() < SIT_IN_RATE:
                    runner.sit_in(seat, by=BY)
            elif not p.stack:
                runner.top_up(seat, self._buy_in(), by=BY)
            elif self.rng.random() < LEAVE_RATE:
                runner.leave(seat, by=BY)
                self.players.pop(seat, None)
            elif self.rng.random() < SIT_OUT_RATE:
                runner.sit_out(seat, by=BY)
        first = runner.session is not None and runner.session.button is None
        if first and self.game.has_button:
            runner.draw_button(self.rng.randrange(2**32), by=BY)  # the table's first hand

    def _player(self, style: str) -> SimulatedSeat:
        return SimulatedSeat(self.game.simulated_player(style, self.rng), self.rng, self.stay_in)

    def _buy_in(self) -> int:
        """A buy-in inside the table's bounds, in whole chips."""
        low = -(-self.low // self.chip)
        return self.chip * self.rng.randint(low, max(low, self.high // self.chip))


class SimulatedSeat:
    """A seat's simulated player as the table drives it (a :class:`SeatPlayer`).

    The plug-in's player (``inner``) rates two cards of its own with the cards it shares with
    others, so it is given the seat's first two cards as its own and the rest of the seat's
    cards with the board (Hold'em: the two hole cards and the board; Stud: the two first down
    cards, the up cards and the seventh card, the community card). On top of it:

    - a forced bet the seat may fold instead (Stud's bring-in, rules text 002: the obligation
      then passes on) is posted, or folded with probability :data:`FORCED_FOLD_RATE`;
    - ``stay_in``: a fold the player chose (or a forced bet it would fold) becomes a call or a
      check with that probability.

    Every draw comes from ``rng`` (none when a probability is 0).
    """

    def __init__(self, inner: SeatPlayer, rng: random.Random, stay_in: float = 0.0) -> None:
        self.inner = inner
        self.rng = rng
        self.stay_in = stay_in

    def choose(
        self,
        space: ActionSpace,
        *,
        hole: Sequence[Card],
        board: Sequence[Card],
        pot: int,
        to_call: int,
    ) -> tuple[str, int | None]:
        """See :meth:`dealer_assist.table.peer_driving.SeatPlayer.choose`; ``hole``: every card
        of the seat in deal order."""
        if BRING_IN in space.kinds:
            folds = FOLD in space.kinds and self.rng.random() < FORCED_FOLD_RATE
            return (FOLD if folds and not self._stays() else BRING_IN), None
        kind, to = self.inner.choose(
            space, hole=hole[:2], board=[*hole[2:], *board], pot=pot, to_call=to_call
        )
        if kind == FOLD and self._stays():
            return (CALL if CALL in space.kinds else CHECK), None
        return kind, to

    def _stays(self) -> bool:
        return self.stay_in > 0 and self.rng.random() < self.stay_in


@dataclasses.dataclass
class Summary:
    """What a pot-game simulation journaled, counted from its journal entries."""

    ledger: ChipLedger
    hands: int = 0
    settled: int = 0
    resumed: int = 0
    voids: Counter[str] = dataclasses.field(default_factory=Counter)
    pots: int = 0
    side_pots: int = 0
    split_pots: int = 0
    odd_chips: int = 0
    rake: int = 0
    pot_chips: int = 0
    buy_ins: int = 0
    bought: int = 0
    cash_outs: int = 0
    cashed: int = 0
    changes: Counter[str] = dataclasses.field(default_factory=Counter)
    community_cards: int = 0
    reshuffles: int = 0
    forced_folds: int = 0
    forced_decisions: bool = False
    stats: Any = None

    @property
    def conserved(self) -> bool:
        """Every hand's chips added up."""
        return not self.ledger.failures

    def voids_total(self) -> int:
        """Void hands."""
        return sum(self.voids.values())

    def take(self, entries: Iterable[StoredHand], seen: int) -> int:
        """Count the journal entries after ``seen`` (this table's); the last id taken."""
        for entry in entries:
            seen = entry.hand_id
            if entry.table_id != self.ledger.table_id:
                continue
            self.ledger.add(entry)
            if entry.status == TABLE_RECORD:
                self._change(entry)
            else:
                self._hand(entry)
        return seen

    def _change(self, entry: StoredHand) -> None:
        kind = str(entry.record.get("kind", ""))
        self.changes[kind] += 1
        amount = int(entry.record.get("amount", 0) or 0)
        if kind in BUY_KINDS:
            self.buy_ins += 1
            self.bought += amount
        elif kind in OUT_KINDS:
            self.cash_outs += 1
            self.cashed += amount

    def _hand(self, entry: StoredHand) -> None:
        self.hands += 1
        self._deck_and_forced(entry)
        settlement = entry.settlement or {}
        if entry.status != "settled":
            void = settlement.get("void") or entry.extra.get("void") or {}
            self.voids[str(void.get("code", "unknown"))] += 1
            return
        self.settled += 1
        self.rake += int(settlement.get("rake", 0))
        pots = settlement.get("pots", [])
        self.pots += len(pots)
        self.side_pots += max(0, len(pots) - 1)
        for pot in pots:
            self.pot_chips += int(pot.get("amount", 0))
            winners = pot.get("winners", [])
            self.split_pots += len(winners) > 1
            self.odd_chips += sum(1 for w in winners if w.get("odd_chip"))

    def _deck_and_forced(self, entry: StoredHand) -> None:
        """A street dealt from a new deck (its cards from a second deck id: the community card
        of the record's ``community``, else the burns reshuffled with the stub), and the folds
        of a forced bet's seat before it was posted (a record with a ``bring_in`` amount: the
        first actions, until one posts it, are those folds; HAND_RECORD.md "Pot games")."""
        decks = {c.get("deck_id") for c in entry.extra.get("cards", ()) if isinstance(c, dict)}
        if len(decks) > 1:
            if entry.record.get("community"):
                self.community_cards += 1
            else:
                self.reshuffles += 1
        if not entry.record.get(BRING_IN):
            return
        self.forced_decisions = True
        for action in entry.record.get("actions", ()):
            if action.get("action") != FOLD:
                break
            self.forced_folds += 1

    def lines(self, config: TableConfig) -> list[str]:
        """The summary's lines (the journal's URL first)."""
        cur = config.currency
        voids = ", ".join(f"{k} {v}" for k, v in sorted(self.voids.items())) or "none"
        changes = ", ".join(f"{k} {v}" for k, v in sorted(self.changes.items())) or "none"
        checks = self.ledger.checks
        failed = self.ledger.failures
        out = [
            f"table {config.table_id} ({config.game}), journal {config.journal_url}",
            f"hands: {self.hands} (settled {self.settled}, void {self.voids_total()}, "
            f"resumed after a restart {self.resumed})",
            f"voids by reason: {voids}",
            f"pots: {self.pots} (side pots {self.side_pots}), split pots: {self.split_pots}, "
            f"odd chips: {self.odd_chips}",
            f"chips in pots: {fmt_money(self.pot_chips, cur)}, rake: {fmt_money(self.rake, cur)}",
            f"buy-ins: {self.buy_ins} ({fmt_money(self.bought, cur)}), cash-outs: "
            f"{self.cash_outs} ({fmt_money(self.cashed, cur)})",
            f"table changes: {changes}",
        ]
        if self.forced_decisions or self.community_cards or self.reshuffles:
            out.append(
                f"shortage: {self.community_cards} community card, {self.reshuffles} reshuffle"
            )
            out.append(f"bring-in folds: {self.forced_folds}")
        if failed:
            out.append(f"chips conserved: NO, {len(failed)} of {len(checks)} hands:")
            out += [f"  {c.describe()}" for c in failed]
        else:
            out.append(f"chips conserved: yes, every hand ({len(checks)} checked)")
        if self.stats is not None:
            s = self.stats
            out.append(frames_line(s))
        out.append(f"verify with: dealer-assist audit verify --db {config.journal_url}")
        return out

    def print(self, config: TableConfig, out: TextIO) -> None:
        """Write :meth:`lines` to ``out``."""
        out.write("\n".join(self.lines(config)) + "\n")
