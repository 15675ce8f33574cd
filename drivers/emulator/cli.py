"""Command line of the emulator, shared by ``python -m drivers.emulator`` and
``dealer-assist emulator``.

The first stdout line is where to connect (the pty path, or ``socket://127.0.0.1:PORT``),
flushed at once; logs go to stderr. SIGTERM or SIGINT stops it cleanly (exit status 0). With
``--control`` the dealer's commands (``LOAD As Kd``, :mod:`drivers.emulator.control`) are read
from stdin and answered on stdout, one line each.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import secrets
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from types import FrameType
from typing import IO

from dealer_assist.errors import ConfigError, DealerAssistError
from drivers.emulator.control import ControlChannel
from drivers.emulator.runner import serve_pty, serve_tcp
from drivers.emulator.settings import ANY_FAULT, FAULT_CODES, DealtCard, EmulatorConfig
from drivers.emulator.shuffler import EmulatedShuffler

PARENT_CHECK = 0.25  # seconds between checks that the table that started it still runs
log = logging.getLogger("drivers.emulator")


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from e
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be 0..1, got {text}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from e
    if not 0.0 <= value < 86400:
        raise argparse.ArgumentTypeError(f"seconds must be 0..86400, got {text}")
    return value


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"not an integer: {text!r}") from e
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {text}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the emulator options to ``parser`` (used by both entry points)."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--pty", action="store_true", help="serve on a new pseudo-terminal")
    where.add_argument("--tcp", type=_count, metavar="PORT", help="serve on 127.0.0.1:PORT")
    d = EmulatorConfig()
    parser.add_argument("--seed", type=int, help="shuffle/fault seed (default: random)")
    parser.add_argument(
        "--model", default=d.model, help="model name in the HELLO reply (default %(default)s)"
    )
    parser.add_argument(
        "--serial", default=d.serial, help="serial number in the HELLO reply (default %(default)s)"
    )
    parser.add_argument(
        "--firmware", default=d.firmware, help="firmware in the HELLO reply (default %(default)s)"
    )
    parser.add_argument(
        "--shuffle-time",
        type=_seconds,
        default=d.shuffle_time,
        metavar="S",
        help="seconds to shuffle a deck (default %(default)s)",
    )
    parser.add_argument(
        "--card-interval",
        type=_seconds,
        default=d.card_interval,
        metavar="S",
        help="seconds between dealt cards (default %(default)s)",
    )
    parser.add_argument(
        "--beat-interval",
        type=_seconds,
        default=d.beat_interval,
        metavar="S",
        help="seconds between BEAT frames (default %(default)s)",
    )
    parser.add_argument("--jam-at", type=_count, metavar="N", help="jam at card N of each deck")
    parser.add_argument(
        "--jam-clear-after",
        type=_seconds,
        default=d.jam_clear_after,
        help="seconds until a jam clears (default %(default)s)",
    )
    parser.add_argument(
        "--corrupt",
        type=_fraction,
        default=0.0,
        metavar="P",
        help="fraction of device frames corrupted on the line",
    )
    parser.add_argument(
        "--drop",
        type=_fraction,
        default=0.0,
        metavar="P",
        help="fraction of device frames lost on the line",
    )
    parser.add_argument("--silence-after", type=_count, metavar="N", help="silent after N frames")
    parser.add_argument("--silence-for", type=_seconds, metavar="S", help="default: for good")
    parser.add_argument(
        "--duplicate-at", type=_count, metavar="N", help="card N is a copy of a card already dealt"
    )
    parser.add_argument(
        "--unreadable-at", type=_count, metavar="N", help="card N is reported unreadable (XX)"
    )
    parser.add_argument(
        "--fault-rate",
        type=_fraction,
        default=0.0,
        metavar="P",
        help="chance of a device fault before each card",
    )
    parser.add_argument(
        "--fault-code",
        choices=(*FAULT_CODES, ANY_FAULT),
        default=d.fault_code,
        help="the fault raised (default %(default)s)",
    )
    parser.add_argument(
        "--fault-clear-after",
        type=_seconds,
        default=d.fault_clear_after,
        help="seconds until a fault clears (default %(default)s)",
    )
    parser.add_argument("--restart-at", type=_count, metavar="N", help="restart after N cards")
    parser.add_argument("--swap-at", type=_count, metavar="N", help="new serial after N cards")
    parser.add_argument("--swap-serial", metavar="SERIAL", help="the serial after --swap-at")
    parser.add_argument(
        "--corrupt-in",
        type=_fraction,
        default=0.0,
        metavar="P",
        help="fraction of host frames lost to corruption",
    )
    parser.add_argument(
        "--drop-in",
        type=_fraction,
        default=0.0,
        metavar="P",
        help="fraction of host frames dropped",
    )
    parser.add_argument("--stall-at", type=_count, metavar="N", help="stop dealing at card N")
    parser.add_argument("--extra-at", type=_count, metavar="N", help="one card more after N")
    parser.add_argument("--skip-index-at", type=_count, metavar="N", help="index skips at N")
    parser.add_argument("--repeat-index-at", type=_count, metavar="N", help="index repeats at N")
    parser.add_argument("--wrong-deck-at", type=_count, metavar="N", help="other deck id at N")
    parser.add_argument("--reshuffle-at", type=_count, metavar="N", help="reshuffle after N")
    parser.add_argument(
        "--deck-count",
        type=_count,
        default=d.deck_count,
        metavar="C",
        help="decks the shuffler holds (default %(default)s)",
    )
    parser.add_argument(
        "--forge-every",
        type=_count,
        metavar="N",
        help="a second device on the line: before about one card in N, a "
        "forged CARD under the next seq (a lab's test of the host)",
    )
    parser.add_argument("--dealt-log", type=Path, metavar="FILE", help="append dealt cards")
    parser.add_argument(
        "--stats-file",
        type=Path,
        metavar="FILE",
        help="write the frame counters as JSON here on exit",
    )
    parser.add_argument(
        "--control", action="store_true", help="dealer commands (LOAD) on stdin, answers on stdout"
    )
    parser.add_argument(
        "--parent-pid",
        type=int,
        metavar="PID",
        help="stop once PID (the table that started it) is gone",
    )
    parser.add_argument(
        "--log-level", default="WARNING", help="logging level (default %(default)s)"
    )


def config_from_args(args: argparse.Namespace, seed: int) -> EmulatorConfig:
    """The :class:`EmulatorConfig` for parsed options. Raises ConfigError."""
    return EmulatorConfig(
        seed=seed,
        model=args.model,
        firmware=args.firmware,
        serial=args.serial,
        beat_interval=args.beat_interval,
        shuffle_time=args.shuffle_time,
        card_interval=args.card_interval,
        jam_at=args.jam_at,
        jam_clear_after=args.jam_clear_after,
        corrupt=args.corrupt,
        drop=args.drop,
        silence_after=args.silence_after,
        silence_for=args.silence_for,
        duplicate_at=args.duplicate_at,
        unreadable_at=args.unreadable_at,
        fault_rate=args.fault_rate,
        fault_code=args.fault_code,
        fault_clear_after=args.fault_clear_after,
        restart_at=args.restart_at,
        swap_at=args.swap_at,
        swap_serial=args.swap_serial,
        corrupt_in=args.corrupt_in,
        drop_in=args.drop_in,
        stall_at=args.stall_at,
        extra_at=args.extra_at,
        skip_index_at=args.skip_index_at,
        repeat_index_at=args.repeat_index_at,
        wrong_deck_at=args.wrong_deck_at,
        reshuffle_at=args.reshuffle_at,
        deck_count=args.deck_count,
        forge_every=args.forge_every,
    )


def run(args: argparse.Namespace) -> int:
    """Serve the emulator until SIGTERM/SIGINT; returns the exit status.

    Raises:
        ConfigError: bad options, or the dealt log cannot be opened.
    """
    logging.basicConfig(level=args.log_level.upper(), stream=sys.stderr)
    seed = args.seed if args.seed is not None else secrets.randbelow(2**31)
    config = config_from_args(args, seed)
    log.info("emulator %s/%s seed %d", config.model, config.serial, seed)
    dealt_file: IO[str] | None = None
    if args.dealt_log is not None:
        try:
            dealt_file = args.dealt_log.open("a", encoding="utf-8")
        except OSError as e:
            raise ConfigError(f"--dealt-log {args.dealt_log}: {e}") from e
    stop = threading.Event()
    shuffler = EmulatedShuffler(config, on_deal=_dealt_writer(dealt_file))
    control = ControlChannel(shuffler, sys.stdin.fileno(), _answer) if args.control else None
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop.set()

    for sig in previous:
        signal.signal(sig, on_signal)
    if args.parent_pid is not None:
        _watch_parent(args.parent_pid, stop)
    try:
        if args.tcp is not None:
            serve_tcp(shuffler, args.tcp, _announce, stop, control)
        else:
            serve_pty(shuffler, _announce, stop, control)
    except OSError as e:
        raise ConfigError(f"emulator cannot serve: {e}") from e
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        if dealt_file is not None:
            dealt_file.close()
    log.info("emulator stopped: %s", shuffler.stats)
    if args.stats_file is not None:
        try:
            args.stats_file.write_text(json.dumps(dataclasses.asdict(shuffler.stats)) + "\n")
        except OSError as e:
            raise ConfigError(f"--stats-file {args.stats_file}: {e}") from e
    return 0


def _watch_parent(pid: int, stop: threading.Event) -> None:
    """Stop the emulator once the process that started it is gone (a kill -9 of the table
    leaves no device behind): its child is re-parented, so ``getppid`` changes."""

    def watch() -> None:
        while not stop.wait(PARENT_CHECK):
            if os.getppid() != pid:
                log.warning("parent %d is gone: the emulator stops", pid)
                stop.set()

    threading.Thread(target=watch, name="emulator-parent-watch", daemon=True).start()


def _announce(where: str) -> None:
    print(where, flush=True)


def _answer(line: str) -> None:
    try:
        print(line, flush=True)
    except OSError:  # nobody reads the answers any more
        log.warning("control answer lost: %s", line)


def _dealt_writer(file: IO[str] | None) -> Callable[[DealtCard], None] | None:
    if file is None:
        return None

    def write(card: DealtCard) -> None:
        # "mono": CLOCK_MONOTONIC, shared by all processes here, for latency benchmarks.
        line = {
            "deck_id": card.deck_id,
            "index": card.index,
            "card": card.card,
            "mono": time.monotonic(),
        }
        if card.actual != card.card:
            line["actual"] = card.actual
        file.write(json.dumps(line) + "\n")
        file.flush()

    return write


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m drivers.emulator``: parse options and run."""
    parser = argparse.ArgumentParser(
        prog="python -m drivers.emulator",
        description="TCRP/1 card shuffler emulator",
        allow_abbrev=False,  # --corr 0.1 is an error, not --corrupt 0.1
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except DealerAssistError as e:
        print(f"emulator: {e}", file=sys.stderr)
        return 2
