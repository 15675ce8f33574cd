"""``dealer-assist soak``: the table under a noisy line, device faults and ``kill -9``.

The emulator runs in its own child process on a pseudo-terminal (a device does not die with the
host) and logs every card it deals. The table runs in another child process that this command
kills with SIGKILL ``--kill`` times at random moments and starts again; each new table process
resumes from the journal's step log (:meth:`HeadlessTable.resume`). At the end the journal is
cross-checked against the dealt log (:mod:`dealer_assist.table.crosscheck`) and a report is
printed: hands settled, voids by reason, frames dropped/resent, wrong cards accepted, hands lost
or duplicated, journal verify. Exit status 0 when nothing was wrong.

The table child is this module run as ``python -m ui.commands.soak --child ...``.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.engine.views import Phase
from dealer_assist.errors import ConfigError, DealerAssistError, DeviceError
from dealer_assist.games import DEFAULT_GAME, GAME_CODES
from dealer_assist.players import PlayerModel
from dealer_assist.storage.journal import Journal
from dealer_assist.table.crosscheck import CrossCheck, cross_check, read_dealt_log
from dealer_assist.table.driving import HeadlessTable, play_hand
from drivers.emulator.process import EmulatorProcess
from drivers.factory import open_source
from ui.stop import StopRequest

FAST_EMULATOR = ["--shuffle-time", "0.01", "--card-interval", "0.001"]
MAX_FAILED_STARTS = 20  # table children that exit on their own with an error
STALL_SECONDS = 60.0  # a table that journals nothing for this long is stuck: killed, counted


def register(sub: Any) -> None:
    """Add the ``soak`` sub-command."""
    p = sub.add_parser(
        "soak",
        help="run hands against the emulator with a noisy line, faults and kill -9 restarts",
        description="Soak test: N hands through the emulator with corrupted/dropped frames, "
        "random device faults and K random kill -9 of the table process, then a cross-check of "
        "the journal against what the emulator dealt.",
    )
    add_arguments(p)
    p.set_defaults(func=run)


def _fraction(text: str) -> float:
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be 0..1, got {text}")
    return value


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The soak options (shared with ``bench/soak.py``)."""
    p.add_argument("--hands", type=int, default=1000, help="hands to journal (default 1000)")
    p.add_argument(
        "--corrupt",
        type=_fraction,
        default=0.0,
        metavar="P",
        help="fraction of frames corrupted, both directions",
    )
    p.add_argument(
        "--drop",
        type=_fraction,
        default=0.0,
        metavar="P",
        help="fraction of frames dropped, both directions",
    )
    p.add_argument(
        "--faults",
        type=_fraction,
        default=0.0,
        metavar="P",
        help="chance of a random device fault at each card",
    )
    p.add_argument(
        "--forge-every",
        type=int,
        default=None,
        metavar="N",
        help="a second device on the line: before about one card in N, a "
        "forged CARD under the next seq (its hand must be void)",
    )
    p.add_argument("--kill", type=int, default=0, metavar="K", help="kill -9 the table K times")
    p.add_argument(
        "--kill-max-delay",
        type=float,
        default=2.5,
        metavar="S",
        help="a kill comes 0.05..S seconds after the table process starts",
    )
    p.add_argument("--seed", type=int, default=1, help="seed of shuffles, noise, players, kills")
    p.add_argument("--db", help="journal (SQLite path or URL); default: a new temporary file")
    p.add_argument("--game", choices=GAME_CODES, default=DEFAULT_GAME)
    p.add_argument("--seats", type=int, default=None, help="players (default: all seats)")
    p.add_argument("--workdir", help="folder for the dealt log and child logs (default: temp)")
    p.add_argument("--no-progress", action="store_true", help="no progress line")


@dataclass
class _Run:
    kills: int = 0
    starts: int = 0
    failed_exits: int = 0
    stalls: int = 0
    seconds: float = 0.0


def run(args: argparse.Namespace) -> int:
    """Run the soak; 0 when no wrong card, lost or duplicated hand and the chain verifies."""
    if args.hands < 1 or args.kill < 0 or args.kill_max_delay <= 0.05:
        raise ConfigError("--hands must be >= 1, --kill >= 0, --kill-max-delay > 0.05")
    if args.forge_every is not None and args.forge_every < 1:
        raise ConfigError("--forge-every must be >= 1")
    config = load_table_config(game=args.game)
    seats = args.seats or config.seats
    if not 1 <= seats <= config.seats:
        raise ConfigError(f"--seats must be 1..{config.seats}")
    with contextlib.ExitStack() as stack:
        work = Path(args.workdir or stack.enter_context(tempfile.TemporaryDirectory()))
        work.mkdir(parents=True, exist_ok=True)
        db = args.db or str(work / "soak.db")
        files = _Files(work)
        with Journal(db) as journal:
            first = journal.count() + 1
        emulator = EmulatorProcess(_emulator_args(args, files), stderr=subprocess.DEVNULL)
        stop = StopRequest().install()  # SIGTERM/SIGINT: the table finishes its hand, then stop
        try:
            device = emulator.start()
            stats = _drive_children(args, device, db, first - 1 + args.hands, files, seats, stop)
        finally:
            stop.restore()
            emulator.stop()
        with Journal(db, create=False) as journal:
            pending = {s.hand_uid for s in journal.pending_steps(config.table_id)}
            check = cross_check(
                journal,
                read_dealt_log(files.dealt),
                started=files.started_uids(),
                pending=pending,
                first_hand_id=first,
            )
        _report(sys.stdout, args, config, db, check, stats, files)
    if stop.requested:
        print(
            stop.sentence(
                f"after {check.hands} hands: the table finished the hand in progress "
                "and the cross-check covers every hand journaled"
            ),
            file=sys.stderr,
            flush=True,
        )
    return 0 if check.ok and stats.failed_exits == stats.stalls == 0 else 1


class _Files:
    def __init__(self, work: Path) -> None:
        self.dealt = work / "dealt.jsonl"
        self.emulator_stats = work / "emulator-stats.json"
        self.started = work / "started.txt"
        self.link_stats = work / "link-stats.jsonl"
        self.child_log = work / "table.log"

    def started_uids(self) -> list[str]:
        if not self.started.exists():
            return []
        return [u for u in self.started.read_text(encoding="utf-8").split() if u]


def _emulator_args(args: argparse.Namespace, files: _Files) -> list[str]:
    out = [
        *FAST_EMULATOR,
        "--seed",
        str(args.seed),
        "--dealt-log",
        str(files.dealt),
        "--stats-file",
        str(files.emulator_stats),
    ]
    for name in ("corrupt", "drop"):
        value = getattr(args, name)
        if value:
            out += [f"--{name}", str(value), f"--{name}-in", str(value)]
    if args.forge_every:
        out += ["--forge-every", str(args.forge_every)]
    if args.faults:
        out += [
            "--fault-rate",
            str(args.faults),
            "--fault-code",
            "ANY",
            "--fault-clear-after",
            "0.3",
        ]
    return out


def _drive_children(
    args: argparse.Namespace,
    device: str,
    db: str,
    target: int,
    files: _Files,
    seats: int,
    stop: StopRequest,
) -> _Run:
    """Start table children until one journals ``target`` hands, killing ``--kill`` of them;
    on a stop request the running child is sent SIGTERM (it finishes its hand) and no other
    starts."""
    rng = random.Random(f"{args.seed}:kills")
    stats = _Run()
    began = time.monotonic()
    with files.child_log.open("ab") as log, Journal(db, create=False) as monitor:
        progress = _Progress(monitor, target, enabled=not args.no_progress)
        while True:
            stats.starts += 1
            cmd = [
                sys.executable,
                "-m",
                "ui.commands.soak",
                "--child",
                "--device",
                device,
                "--db",
                db,
                "--target",
                str(target),
                "--game",
                args.game,
                "--seats",
                str(seats),
                "--seed",
                str(args.seed * 1000 + stats.starts),
                "--started-log",
                str(files.started),
                "--stats-log",
                str(files.link_stats),
            ]
            child = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
            kill_at = rng.uniform(0.05, args.kill_max_delay) if stats.kills < args.kill else None
            started = time.monotonic()
            watchdog = _Watchdog(monitor)
            passed_on = False
            while child.poll() is None:
                if stop.requested and not passed_on:
                    os.kill(child.pid, signal.SIGTERM)  # the child finishes its hand
                    passed_on, kill_at = True, None
                if kill_at is not None and time.monotonic() - started >= kill_at:
                    os.kill(child.pid, signal.SIGKILL)
                    child.wait()
                    stats.kills += 1
                    break
                if watchdog.stuck():
                    os.kill(child.pid, signal.SIGKILL)
                    child.wait()
                    stats.stalls += 1
                    break
                progress.show(stats.kills)
                time.sleep(0.02)
            if child.returncode == 0 or stop.requested:
                break
            if child.returncode != -signal.SIGKILL:
                stats.failed_exits += 1
                if stats.failed_exits >= MAX_FAILED_STARTS:
                    raise DeviceError(f"the table process keeps failing: see {files.child_log}")
    progress.done()
    stats.seconds = time.monotonic() - began
    return stats


class _Watchdog:
    """Says when the table has journaled nothing for STALL_SECONDS (checked every 5 s)."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal
        self.count = -1
        self.since = self.next = time.monotonic()

    def stuck(self) -> bool:
        now = time.monotonic()
        if now < self.next:
            return False
        self.next = now + 5.0
        try:
            count = self.journal.count()
        except DealerAssistError:
            return False
        if count != self.count:
            self.count, self.since = count, now
        return now - self.since > STALL_SECONDS


class _Progress:
    def __init__(self, journal: Journal, target: int, *, enabled: bool) -> None:
        self.journal, self.target, self.enabled = journal, target, enabled
        self._next = 0.0

    def show(self, kills: int) -> None:
        now = time.monotonic()
        if not self.enabled or now < self._next:
            return
        self._next = now + 1.0
        try:
            count = self.journal.count()
        except DealerAssistError:
            return
        print(f"\rhands {count}/{self.target}, kills {kills}", end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.enabled:
            print(file=sys.stderr)


def _report(
    out: TextIO,
    args: argparse.Namespace,
    config: TableConfig,
    db: str,
    check: CrossCheck,
    stats: _Run,
    files: _Files,
) -> None:
    voids = ", ".join(f"{k} {v}" for k, v in sorted(check.voids.items())) or "none"
    emu = _read_json(files.emulator_stats)
    host = _host_link_stats(files.link_stats)
    lines = [
        f"soak: {config.game}, {args.hands} hands, corrupt {args.corrupt:g}, drop {args.drop:g}, "
        f"faults {args.faults:g}, kills {stats.kills}/{args.kill}, seed {args.seed}",
        f"journal: {db}",
        f"hands settled: {check.settled}",
        f"hands void: {check.void} (by reason: {voids})",
        f"hands resumed after a kill: {check.resumed} (settled {check.resumed_settled}, "
        f"void {check.resumed - check.resumed_settled})",
        f"frames: device sent {emu.get('frames', 0)}, dropped {emu.get('dropped', 0)}, "
        f"corrupted {emu.get('corrupted', 0)}, retransmitted {emu.get('retransmitted', 0)}, "
        f"resent on RESEND {emu.get('resent', 0)}; host frames dropped {emu.get('dropped_in', 0)}"
        f", corrupted {emu.get('corrupted_in', 0)}",
        f"host link: frames rejected {host.get('frames_dropped', 0)}, duplicates "
        f"{host.get('duplicates', 0)}, RESEND requests {host.get('resend_requests', 0)}, "
        f"command retries {host.get('command_retries', 0)}, frames lost {host.get('lost', 0)}",
        f"device faults injected: {emu.get('faults', 0)}",
        f"forged frames injected: {emu.get('forged', 0)}; frame conflicts seen by the host "
        f"{host.get('conflicts', 0)}; hands with a conflict {check.conflicted} "
        f"({check.conflicted_void} voided, {len(check.conflicted_not_void)} not; later "
        "conflicts came after their hand was void, or between hands)",
        f"wrong cards accepted: {len(check.wrong_cards)} (of {check.cards} journal cards)",
        f"hands lost: {len(check.lost)}, duplicated: {len(check.duplicated)}",
        f"settlements that differ when settled again: {len(check.bad_settlements)}",
        f"journal verify: {'OK' if check.verify_ok else 'FAILED'} ({check.verify_reason})",
        f"table processes: {stats.starts} started, {stats.kills} killed, "
        f"{stats.failed_exits} failed on their own, {stats.stalls} stuck; {stats.seconds:.1f} s",
    ]
    details = check.wrong_cards[:5] + check.lost[:5] + check.duplicated[:5]
    details += [f"hand {h}: a frame conflict, not voided" for h in check.conflicted_not_void]
    lines += [f"  ! {d}" for d in details]
    out.write("\n".join(lines) + "\n")


def _read_json(path: Path) -> dict[str, Any]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _host_link_stats(path: Path) -> dict[str, int]:
    """Sum of each table process's last counters (a killed process keeps its last line)."""
    last: dict[str, dict[str, int]] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError, KeyError, TypeError):
                row = json.loads(line)
                last[str(row["pid"])] = row
    total: dict[str, int] = {}
    for row in last.values():
        for key, value in row.items():
            if key != "pid" and isinstance(value, int):
                total[key] = total.get(key, 0) + value
    return total


# -- the table child -------------------------------------------------------------------------------


def _child(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(prog="soak --child")
    p.add_argument("--child", action="store_true")
    for name in ("--device", "--db", "--game", "--started-log", "--stats-log"):
        p.add_argument(name, required=True)
    for name in ("--target", "--seats", "--seed"):
        p.add_argument(name, type=int, required=True)
    a = p.parse_args(argv)
    logging.basicConfig(
        level=logging.WARNING, format="%(asctime)s %(process)d %(name)s: %(message)s"
    )
    config = replace(load_table_config(game=a.game), journal_url=a.db)
    seats = list(range(1, a.seats + 1))
    model = PlayerModel(config, a.seed)
    started = os.open(a.started_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    stop = StopRequest().install()  # the parent's SIGTERM: finish the hand, then exit 0
    with Journal(a.db) as journal, open(a.stats_log, "a", encoding="utf-8") as stats_out:
        source = _open_device(a.device)
        try:
            runner = HeadlessTable(config, source, journal, card_timeout=2.0, shuffle_timeout=5.0)
            hand = runner.resume()
            for line in runner.resumed.sentences():  # into the table log: what the kill left
                print(line, flush=True)
            while True:
                if hand is None or hand.phase in (Phase.SETTLED, Phase.VOID):
                    runner.acknowledge_void("soak")
                    if journal.count() >= a.target:
                        return 0
                    if stop.requested:
                        print(stop.sentence("between hands: nothing is left to resume"), flush=True)
                        return 0
                    hand = _new_hand(runner)
                    if hand is None:
                        continue
                    os.write(started, (hand.hand_uid + "\n").encode())
                play_hand(
                    runner,
                    model,
                    seats,
                    hand,
                    by="soak",
                    ready_timeout=10.0,
                    street_as_one_step=False,
                )
                _write_link_stats(stats_out, source)
        finally:
            source.close()
            os.close(started)


def _open_device(url: str) -> Any:
    deadline = time.monotonic() + 15.0
    while True:
        source = open_source(url, name="serial", exclusive=True)  # one table on the port
        try:
            source.open()
            return source
        except DeviceError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.2)


def _new_hand(runner: HeadlessTable) -> Any:
    if not runner.wait_device_ready(10.0):
        return None
    try:
        return runner.new_hand()
    except DeviceError:  # a fault or a refused SHUFFLE: wait and try again
        time.sleep(0.1)
        return None


def _write_link_stats(out: TextIO, source: Any) -> None:
    row = {
        "pid": os.getpid(),
        **asdict(source.stats),
        "lost": getattr(source, "lost_frames", 0),
        "conflicts": getattr(source, "frame_conflicts", 0),
    }
    out.write(json.dumps(row) + "\n")
    out.flush()


def _child_main(argv: Sequence[str]) -> int:
    """The table child's exit status: a product error is a sentence in the table log (exit 2,
    the hand left pending for the next child), not a traceback."""
    try:
        return _child(argv)
    except DealerAssistError as e:
        print(f"soak table: stopped: {e}", file=sys.stderr, flush=True)
        return 2


if __name__ == "__main__":
    sys.exit(_child_main(sys.argv[1:]))
