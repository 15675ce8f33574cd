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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from tqdm import tqdm

from dealer_assist.at_rest import data_folder
from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.errors import (
    ConfigError,
    JournalError,
    StorageFaultError,
    StorageFullError,
    TableError,
)
from dealer_assist.games import DEFAULT_GAME, GAME_CODES, POT_GAME_CODES
from dealer_assist.notary.settings import notary_settings
from dealer_assist.players import PlayerModel
from dealer_assist.storage.faults import DiskLimits, MiB, ResilientJournal
from dealer_assist.table.dealers import ensure_dealer
from dealer_assist.table.driving import HeadlessTable, play_hand
from dealer_assist.table.runner import TableRunner
from drivers.factory import open_source
from ui.commands.floor import start_forwarding, stop_forwarding
from ui.money import fmt_money
from ui.records import RecordsFile
from ui.stop import StopRequest

SIMULATE_BY = "simulate"  # who the journal says put a dealer on the box in a simulation

# A jam or a fault between hands clears on the device by itself or by the dealer's hand.
DEVICE_READY_TIMEOUT = 30.0


def frames_line(s: Any) -> str:
    """The summary's line of the link's frame counts (``LinkStats``), saying what a duplicate
    is: with no faults set the device may still resend a frame whose ACK it did not see in
    time (a loaded machine); the receiver drops it by its sequence number."""
    line = (
        f"frames: received {s.frames_received}, dropped {s.frames_dropped}, "
        f"duplicates {s.duplicates}, resend requests {s.resend_requests}, "
        f"command retries {s.command_retries}"
    )
    if s.write_timeouts:  # a device slow to take bytes; the link stayed up
        line += f", write timeouts {s.write_timeouts}"
    if s.duplicates:
        line += " (duplicates: frames the device sent again, dropped by sequence number; no card "
        line += "is counted twice)"
    return line


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


def open_journal(args: argparse.Namespace, config: TableConfig) -> ResilientJournal:
    """The job's journal (not opened yet): retries what may pass, says on stderr what the
    operator should know (a disk getting full, a fault it got over), ``--disk-*-mib``.

    Raises:
        ConfigError: disk limits that are negative or refuse above the warning.
    """
    warn, refuse = args.disk_warn_mib, args.disk_refuse_mib
    if not 0 <= refuse <= warn:
        raise ConfigError("--disk-refuse-mib and --disk-warn-mib: 0 <= refuse <= warn is needed")
    return ResilientJournal(
        config.journal_url,
        group=config.journal_group,
        notary=notary_settings(args.table).client(config.table_id),
        limits=DiskLimits(warn * MiB, refuse * MiB),
        on_notice=lambda notice: say(str(notice), sys.stderr, quiet=True),
    )


@contextmanager
def output_errors() -> Iterator[None]:
    """A full disk under the job's output (stdout sent to a file) is a StorageFullError
    naming it, said in a sentence, not a traceback (a closed pipe stays a BrokenPipeError)."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as e:
        raise StorageFullError(
            f"cannot write the job's output: {e.strerror or e}",
            advice="free space on the disk the output goes to",
        ) from e


def write_summary(write: Callable[[TextIO], None]) -> None:
    """``write(sys.stdout)``: the job's summary, once every hand is journaled; see
    :func:`output_errors`."""
    try:
        with output_errors():
            write(sys.stdout)
            sys.stdout.flush()
    except StorageFullError as e:  # only the summary is lost
        raise StorageFullError(f"{e}: {e.advice} (every hand is journaled)") from e


def say(text: str | None, stream: TextIO | None = None, *, quiet: bool = False) -> None:
    """Print one line now (flushed: nothing is left to fail at exit); see
    :func:`output_errors` (``quiet``: a line that cannot be written is dropped)."""
    if text is None:
        return
    try:
        with output_errors():
            print(text, file=stream or sys.stdout, flush=True)
    except StorageFullError:
        if not quiet:
            raise


def stopped(e: JournalError, pending: str | None) -> str:
    """The sentence of a job a storage error stopped: what happened, and what to do (the hand
    ``pending``, if any, stays in the step log for the next run)."""
    advice = f"{e.advice}, then run" if isinstance(e, StorageFaultError) else "run"
    if pending is None:
        return (
            f"stopped: {e}: {advice} the same command again"
            if advice != "run"
            else (f"stopped: {e}")
        )
    return (
        f"stopped: {e}; {pending} stays pending: {advice} the same command again on this "
        "journal to resume it"
    )


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


def put_dealer(runner: TableRunner[Any], badge: str | None, config: TableConfig) -> bool:
    """The dealer on the box before the first new hand: ``--dealer`` (replacing another), else
    the table's ``[table] dealer`` when nobody is on it yet; True when a change was journaled.
    Raises ConfigError for a bad badge (named), JournalError when it cannot be written."""
    try:
        if badge is not None:
            return ensure_dealer(runner, badge, by=SIMULATE_BY)
        return ensure_dealer(runner, config.dealer, by=SIMULATE_BY, keep_current=True)
    except TableError as e:
        raise ConfigError(f"--dealer: {e}") from e


def _stopped(e: JournalError, runner: HeadlessTable | None) -> str:
    """The sentence of a job stopped by a storage error (the hand stays pending)."""
    hand = runner.hand if runner is not None else None
    if hand is None or (hand.is_over and runner is not None and runner.stored is not None):
        return stopped(e, None)
    return stopped(e, f"hand {hand.hand_uid}")


def default_db(game: str) -> str:
    """The default journal of ``simulate --game GAME``: ``simulate-GAME.db`` in the data folder,
    one per game (a table's journal is of one game)."""
    folder = data_folder()  # 0700: the journal holds the cards of the hand in progress
    return str(folder / f"simulate-{game}.db")


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
