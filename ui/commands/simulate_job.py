"""What both headless jobs share (``simulate`` of a banked table, :mod:`ui.commands.simulate`,
and of a pot game, :mod:`ui.commands.simulate_poker`): the journal, the dealer on the box, the
output's lines and the sentence of a job a storage error stopped.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from dealer_assist.at_rest import data_folder
from dealer_assist.config import TableConfig
from dealer_assist.errors import (
    ConfigError,
    JournalError,
    StorageFaultError,
    StorageFullError,
    TableError,
)
from dealer_assist.notary.settings import notary_settings
from dealer_assist.storage.faults import DiskLimits, MiB, ResilientJournal
from dealer_assist.table.dealers import ensure_dealer
from dealer_assist.table.runner import TableRunner

SIMULATE_BY = "simulate"  # who the journal says put a dealer on the box in a simulation


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


def default_db(game: str) -> str:
    """The default journal of ``simulate --game GAME``: ``simulate-GAME.db`` in the data folder,
    one per game (a table's journal is of one game)."""
    folder = data_folder()  # 0700: the journal holds the cards of the hand in progress
    return str(folder / f"simulate-{game}.db")
