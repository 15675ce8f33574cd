"""``dealer-assist simulate``: the headless main job.

Deals N hands through a TCRP/1 card source (by default the built-in emulator on a real
pseudo-terminal), plays every seat with the seeded player model, settles by the rules, journals
every hand and prints a summary.

A restart on the same journal first settles, continues or voids (by the rules) the hand a crash
left in the step log, and says so in a sentence (:func:`~dealer_assist.table.driving.resume_table`).
A storage error in the middle of a hand stops the job with a sentence (exit 2) and leaves the
hand pending for the next run. ``--records`` is appended crash-safely (:mod:`ui.records`).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from collections import Counter
from typing import Any, TextIO

from tqdm import tqdm

from dealer_assist.config import load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.errors import (
    ConfigError,
    JournalError,
)
from dealer_assist.games import DEFAULT_GAME, GAME_CODES, POT_GAME_CODES
from dealer_assist.players import PlayerModel
from dealer_assist.storage.faults import DiskLimits, MiB
from dealer_assist.table.driving import HeadlessTable, play_hand
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
from ui.stop import StopRequest

# A jam or a fault between hands clears on the device by itself or by the dealer's hand.
DEVICE_READY_TIMEOUT = 30.0


def register(sub: Any) -> None:
    """Add the ``simulate`` sub-command."""
    p = sub.add_parser(
        "simulate",
        help="deal and settle N hands through a TCRP/1 card source (emulator by default)",
        description="Run hands end to end: emulated (or external) shuffler over a real serial "
        "link, seeded players, settlement, hash-chained journal, summary.",
    )
    p.add_argument("--game", choices=(*GAME_CODES, *POT_GAME_CODES), default=DEFAULT_GAME)
    p.add_argument("--hands", type=int, default=100, help="hands to deal (default 100)")
    p.add_argument("--seats", type=int, default=None, help="players at the table (default: all)")
    p.add_argument(
        "--players", type=int, default=None, help="pot games: players at the table (default 6)"
    )
    p.add_argument(
        "--stay-in",
        type=float,
        default=0.0,
        metavar="P",
        help="pot games: chance a player who would fold keeps calling",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of players and emulator shuffles")
    p.add_argument(
        "--source",
        help="TCRP/1 device URL (/dev/ttyUSB0, socket://127.0.0.1:PORT, ...); default: start the "
        "built-in emulator on a pseudo-terminal",
    )
    p.add_argument("--table", help="table TOML (default: the shipped one of --game)")
    p.add_argument("--db", help="journal: SQLite path or postgresql+psycopg:// URL")
    p.add_argument(
        "--floor",
        metavar="URL",
        help="forward the journal to this floor database "
        "as it is written (default: the --table TOML's [floor] url)",
    )
    p.add_argument(
        "--records",
        help="append each settled hand as a HAND_RECORD JSON line here "
        "(a restart appends the hands a crash kept out)",
    )
    p.add_argument(
        "--disk-warn-mib",
        type=int,
        default=DiskLimits.warn_bytes // MiB,
        metavar="MIB",
        help="warn when the journal's disk has less free space (default %(default)s)",
    )
    p.add_argument(
        "--disk-refuse-mib",
        type=int,
        default=DiskLimits.refuse_bytes // MiB,
        metavar="MIB",
        help="start no new hand when the journal's disk has less "
        "free space (default %(default)s; a hand needs about 4 MiB)",
    )
    p.add_argument(
        "--dealer",
        metavar="BADGE",
        help="the dealer's badge id on the box (a "
        "dealer_change table record when another is there; every hand carries "
        "it; default: the TOML's [table] dealer when nobody is on the box)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Run the simulation; 0 when every hand was settled or voided and journaled (a pot game:
    :func:`ui.commands.simulate_poker.run`)."""
    if args.game in POT_GAME_CODES:
        from ui.commands.simulate_poker import run as run_pot_game

        return run_pot_game(args)
    config = load_table_config(args.table, game=args.game)
    if config.game != args.game:
        raise ConfigError(f"--table is a {config.game} table but --game is {args.game}")
    n_seats = args.seats or config.seats
    if not 1 <= n_seats <= config.seats:
        raise ConfigError(f"--seats must be 1..{config.seats} for this table")
    if args.hands < 1:
        raise ConfigError("--hands must be at least 1")
    config = dataclasses.replace(config, journal_url=args.db or default_db(config.game))
    src_cfg = config.sources[0] if config.sources else None
    url = args.source or f"emulator://?seed={args.seed}&shuffle_time=0.01&card_interval=0.001"
    pins = (
        {}
        if args.source or src_cfg is None
        else {"pin_model": src_cfg.pin_model, "pin_serial": src_cfg.pin_serial}
    )
    source = open_source(url, name="serial", **pins)
    journal = open_journal(args, config)
    model = PlayerModel(config, args.seed)
    records = (
        RecordsFile(args.records, config.table_id, group=config.journal_group)
        if args.records
        else None
    )
    summary = _Summary()
    runner: HeadlessTable | None = None
    forwarder = None
    stop = StopRequest().install()  # SIGTERM/SIGINT: finish the hand in progress, then stop
    played = 0
    try:
        # the source first: a refused port (another table holds it) touches no journal file
        source.open()
        journal.open()
        forwarder = start_forwarding(journal, args)
        if records is not None:
            records.open(journal)  # before the resume: the hand it journals is appended
            if records.notice():
                say(records.notice())
        runner = HeadlessTable(config, source, journal)
        hand = runner.resume()
        for line in runner.resumed.sentences():
            say(line)
        seats = list(range(1, n_seats + 1))
        if hand is not None and runner.resumed.continued == hand.hand_uid:
            summary.resumed += 1
            summary.add(play_hand(runner, model, seats, hand, ready_timeout=DEVICE_READY_TIMEOUT))
        elif runner.resumed.journaled:
            summary.resumed += len(runner.resumed.journaled)
        put_dealer(runner.runner, getattr(args, "dealer", None), config)
        if records is not None:
            records.catch_up(journal)
        # no bar at all without progress: a disabled tqdm still starts its monitor thread
        bar = None if args.no_progress else tqdm(total=args.hands, unit="hand", file=sys.stderr)
        for _ in range(args.hands):
            if stop.requested:
                break
            summary.add(play_hand(runner, model, seats, ready_timeout=DEVICE_READY_TIMEOUT))
            played += 1
            if records is not None:
                records.catch_up(journal)
            if bar is not None:
                bar.set_postfix(voids=summary.voids_total(), refresh=False)
                bar.update()
        if bar is not None:
            bar.close()
        summary.stats = source.stats
    except JournalError as e:
        raise JournalError(_stopped(e, runner)) from e
    finally:
        stop.restore()
        stop_forwarding(forwarder)
        source.close()
        journal.close()
        if records is not None:
            records.close()
    write_summary(lambda out: summary.print(config, out))
    if stop.requested:
        done = f"after {played} of {args.hands} hands: the hand in progress was finished and"
        say(stop.sentence(done + " journaled, nothing is left to resume"), sys.stderr)
    return 0


def _stopped(e: JournalError, runner: HeadlessTable | None) -> str:
    """The sentence of a job stopped by a storage error (the hand stays pending)."""
    hand = runner.hand if runner is not None else None
    if hand is None or (hand.is_over and runner is not None and runner.stored is not None):
        return stopped(e, None)
    return stopped(e, f"hand {hand.hand_uid}")


@dataclasses.dataclass
class _Summary:
    hands: int = 0
    settled: int = 0
    resumed: int = 0
    voids: Counter[str] = dataclasses.field(default_factory=Counter)
    wagered: int = 0
    player_net: int = 0
    stats: Any = None

    def add(self, hand: Any) -> None:
        """Count ``hand`` (a banked hand, settled or void) in."""
        self.hands += 1
        if hand.phase is Phase.SETTLED and hand.settlement is not None:
            self.settled += 1
            self.wagered += sum(s.staked for s in hand.settlement.seats)
            self.player_net += sum(s.net for s in hand.settlement.seats)
        elif hand.void_reason is not None:
            self.voids[hand.void_reason.code] += 1

    def voids_total(self) -> int:
        return sum(self.voids.values())

    def print(self, config: Any, out: TextIO) -> None:
        cur = config.currency
        hold_bp = -self.player_net * 10000 // self.wagered if self.wagered else 0
        voids = ", ".join(f"{k} {v}" for k, v in sorted(self.voids.items())) or "none"
        lines = [
            f"table {config.table_id} ({config.game}), journal {config.journal_url}",
            f"hands: {self.hands} (settled {self.settled}, void {self.voids_total()}, "
            f"resumed after a restart {self.resumed})",
            f"voids by reason: {voids}",
            f"total wagered: {fmt_money(self.wagered, cur)}",
            f"player net: {fmt_money(self.player_net, cur)}",
            f"house hold: {hold_bp / 100:.2f}% of the amount wagered",
        ]
        if self.stats is not None:
            s = self.stats
            lines.append(frames_line(s))
        lines.append(f"verify with: dealer-assist audit verify --db {config.journal_url}")
        out.write("\n".join(lines) + "\n")
