"""``dealer-assist floor``: the floor database on PostgreSQL (docs/FLOOR.md).

``floor migrate --floor URL``: create or upgrade the floor schema (once per floor, before the
tables forward to it).
``floor sync --db LOCAL --floor URL``: send a table's journal to the floor, e.g. after it dealt
offline; prints what it sent; run twice, the second run sends nothing. Exit 1 when the floor
refused a record (a chain break, a copy changed after it was forwarded: an alert was raised).
``floor status --floor URL [--db LOCAL]``: every table with its head, when it last sent, its
open alerts; with ``--db`` the lag of that table's journal behind the floor.
``floor verify --floor URL [--table-id ID]``: walk the floor's copy of each table's chain.
``floor acknowledge --floor URL --alert ID --by NAME``: record who acknowledged an alert.
``floor enrol --table TOML --key PUB --by BADGE``: pin a table's public key on the floor, confirmed
by a shift manager's login (:mod:`ui.commands.floor_enrol`).

A table whose TOML has a ``[notary]`` sends its signer's head (a checkpoint) with every batch and
at least each minute (``simulate --floor``, ``floor sync --table``); ``floor verify`` checks the
floor's copy against those checkpoints and counts the records not witnessed.

``--table TOML`` instead of ``--floor``: the URL of the table's ``[floor]`` section. Errors (the
floor unreachable, no floor schema, no journal): a sentence, exit 2.

:func:`start_forwarding` / :func:`stop_forwarding` are the hook ``simulate --floor`` uses.
"""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from typing import TYPE_CHECKING, Any, TextIO

from dealer_assist.events import utc_now
from ui.commands import floor_enrol
from ui.commands.floor_open import floor_args, floor_url, open_floor
from ui.stop import StopRequest

if TYPE_CHECKING:
    from dealer_assist.storage import Journal
    from dealer_assist.storage.floor import Floor, Forwarder

CATCH_UP_TIMEOUT_S = 30.0  # simulate --floor: how long the end of the job waits for the floor
STUCK_WAIT_S = 8.0  # ... when its last attempt failed: one more (connecting takes up to 5 s)
_SYNC_ROUND = 5000  # records per progress line of a long sync


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``floor`` with its actions to the CLI."""
    parser = subparsers.add_parser(
        "floor",
        help="the floor database: migrate, sync a table's journal, status, verify, alerts",
        description="The PostgreSQL floor database every table forwards its journal to.",
    )
    actions = parser.add_subparsers(dest="floor_action", required=True, metavar="ACTION")
    migrate = actions.add_parser("migrate", help="create or upgrade the floor schema")
    floor_args(migrate)
    migrate.set_defaults(func=run_migrate)
    sync = actions.add_parser("sync", help="send a table's journal to the floor")
    floor_args(sync)
    sync.add_argument("--db", required=True, metavar="PATH_OR_URL", help="the table's journal")
    sync.add_argument("--pit", help="the table's pit on the floor (default: [floor] pit)")
    sync.set_defaults(func=run_sync)
    status = actions.add_parser("status", help="tables, heads, lag and alerts")
    floor_args(status)
    status.add_argument(
        "--db", metavar="PATH_OR_URL", help="also the lag of this table journal behind the floor"
    )
    status.add_argument("--all-alerts", action="store_true", help="list acknowledged alerts too")
    status.set_defaults(func=run_status)
    verify = actions.add_parser("verify", help="check the floor's copy of each table's chain")
    floor_args(verify)
    verify.add_argument("--table-id", metavar="ID", help="one table (default: every table)")
    verify.set_defaults(func=run_verify)
    ack = actions.add_parser("acknowledge", help="record who acknowledged an alert")
    floor_args(ack)
    ack.add_argument("--alert", required=True, type=int, metavar="ID", help="the alert's number")
    ack.add_argument("--by", required=True, metavar="NAME", help="who acknowledges it")
    ack.set_defaults(func=run_acknowledge)

    floor_enrol.register(actions)


def _open_journal(db: str) -> Journal:
    from dealer_assist.storage import Journal

    # not read-only: a table may be writing it (an immutable read would not see that)
    journal = Journal(db, create=False, supervise=False)
    journal.open()
    return journal


def run_migrate(args: argparse.Namespace) -> int:
    """``floor migrate``: 0 once the schema is the newest."""
    from dealer_assist.storage.floor import Floor
    from dealer_assist.storage.floor.migration import migrate_floor

    revision = migrate_floor(Floor(floor_url(args)[0]))
    print(f"floor database at schema revision {revision}")
    return 0


def run_sync(args: argparse.Namespace) -> int:
    """``floor sync``: 0 when the floor holds the whole journal, 1 when it refused a record."""
    from dealer_assist.storage.floor import Pusher

    url, pit = floor_url(args)
    journal = _open_journal(args.db)
    try:
        floor = open_floor(argparse.Namespace(floor=url, table=None))
        try:
            pusher = Pusher(
                journal, floor, pit=args.pit or pit, checkpoint_of=_checkpoints(args, journal)
            )
            total, first = 0, None
            with StopRequest() as stop:  # SIGTERM/SIGINT: stop after the round being stored
                while True:
                    result = pusher.push(limit=_SYNC_ROUND)
                    total += result.sent
                    first = first if first is not None else result.first
                    if result.refused is not None or result.lag == 0 or result.sent == 0:
                        break
                    print(
                        f"... sent up to position {result.floor_position} of "
                        f"{result.local_position}",
                        file=sys.stderr,
                        flush=True,
                    )
                    if stop.requested:
                        break
        finally:
            floor.close()
    finally:
        journal.close()
    if stop.requested and result.lag:
        print(
            stop.sentence(
                f"after position {result.floor_position} of "
                f"{result.local_position}: each round is stored whole, the same "
                "command sends the rest"
            ),
            file=sys.stderr,
        )
    if total != result.sent:  # several rounds: the whole run in the sentence
        from dataclasses import replace

        result = replace(result, sent=total, first=first)
    print(result.sentence())
    if result.checkpoint_refused is not None:
        print(f"the floor refused the signer's head: {result.checkpoint_refused}")
    return 1 if result.refused is not None or result.checkpoint_refused is not None else 0


def _checkpoints(args: argparse.Namespace, journal: Journal) -> Any:
    """The signer's head of the ``[notary]`` of ``--table`` (the table TOML), as the floor's
    checkpoints; ``None`` without one."""
    if not getattr(args, "table", None):
        return None
    last = journal.last_hand()
    if last is None:
        return None
    from dealer_assist.notary.settings import notary_settings
    from dealer_assist.storage.floor.push import notary_checkpoints

    client = notary_settings(args.table).client(last.table_id)
    return None if client is None else notary_checkpoints(client)


def run_status(args: argparse.Namespace) -> int:
    """``floor status``: 0; 1 when there are open alerts."""
    floor = open_floor(args)
    try:
        tables = floor.tables()
        alerts = floor.alerts(open_only=not args.all_alerts)
        local = _local_lag(floor, args.db) if args.db else None
        signers = {t.table_id: floor.checkpoints(t.table_id) for t in tables}
    finally:
        floor.close()
    open_count = sum(1 for a in alerts if a.acknowledged_at is None)
    print(f"floor: {len(tables)} table(s), {open_count} open alert(s)")
    if tables:
        print(
            f"{'TABLE':<16} {'GAME':<7} {'PIT':<6} {'HEAD':>9}  {'HASH':<12}  "
            f"{'LAST RECEIVED':<24} ALERTS"
        )
    for t in tables:
        print(
            f"{t.table_id:<16} {t.game:<7} {t.pit or '-':<6} {t.position:>9}  {t.hash[:12]}  "
            f"{_when(t.last_received_at):<24} {t.open_alerts}"
        )
    for t in tables:  # the signer's head as last witnessed: a silent signer shows its age
        checks = signers[t.table_id]
        if checks:
            last = max(checks, key=lambda c: (c.position, c.last_seen_at))
            state = "verified" if last.verified else "NOT verified: no key enrolled"
            print(
                f"signer of {t.table_id}: head {last.position} ({state}), last seen "
                f"{_when(last.last_seen_at)}"
            )
    if alerts:
        print("alerts:" if args.all_alerts else "open alerts:")
        for a in alerts:
            print(f"  {a.sentence()} raised {_when(a.raised_at)}")
    if local is not None:
        print(local)
    return 1 if open_count else 0


def _local_lag(floor: Floor, db: str) -> str:
    journal = _open_journal(db)
    try:
        last = journal.last_hand()
        if last is None:
            return f"journal {db}: empty"
        held = (floor.head(last.table_id) or (0, ""))[0]
        behind = last.hand_id - held
        if behind <= 0:
            return (
                f"journal {db}: table {last.table_id} at position {last.hand_id}, all on the floor"
            )
        since = journal.get_hand(held + 1).recorded_at
        age = (utc_now() - since).total_seconds()
        return (
            f"journal {db}: table {last.table_id} at position {last.hand_id}, {behind} "
            f"record(s) not on the floor (the oldest recorded {age:.0f} s ago)"
        )
    finally:
        journal.close()


def run_verify(args: argparse.Namespace) -> int:
    """``floor verify``: 0 when every chain checked verifies and matches its signer's
    checkpoints, 1 otherwise."""
    from dealer_assist.storage.floor.checkpoints import compare_chain

    floor = open_floor(args)
    failed = 0
    try:
        ids = [args.table_id] if args.table_id else [t.table_id for t in floor.tables()]
        for table_id in ids:
            result = floor.verify(table_id)
            if not result.ok:
                failed += 1
                print(f"FAIL: {table_id}: position {result.first_bad_hand}: {result.reason}")
                continue
            checks = floor.checkpoints(table_id)
            c = compare_chain(floor.iter_records(table_id), checks, "the floor's copy")
            # the signer ahead of what was forwarded is no failure: records on their way
            ahead = c.first_bad is not None and c.first_bad > result.hands_checked
            if not c.ok and not ahead:
                failed += 1
                print(f"FAIL: {table_id}: {c.reason}")
                continue
            print(
                f"OK: {table_id}: {result.hands_checked} record(s), chain verifies"
                f"{_witness_note(floor, table_id, checks)}"
            )
    finally:
        floor.close()
    if not ids:
        print("no tables on the floor")
    return 1 if failed else 0


def _witness_note(floor: Floor, table_id: str, checks: list[Any]) -> str:
    verified = [c for c in checks if c.verified]
    if not checks:
        return "; no checkpoint of its signer"
    counts = floor.witness_counts(table_id)
    note = f"; {len(verified)} verified checkpoint(s) of its signer, up to {checks[-1].position}"
    if counts.get(False):
        note += (
            f"; {counts[False]} record(s) NOT witnessed (recorded before the table was "
            "enrolled on this floor: history re-sent, not seen happening)"
        )
    if counts.get(None):
        note += f"; {counts[None]} not covered by a verified checkpoint yet"
    return note


def run_acknowledge(args: argparse.Namespace) -> int:
    """``floor acknowledge``: 0 once recorded."""
    floor = open_floor(args)
    try:
        alert = floor.acknowledge(args.alert, args.by)
    finally:
        floor.close()
    print(alert.sentence())
    return 0


def _when(moment: datetime | None) -> str:
    return "-" if moment is None else moment.strftime("%Y-%m-%d %H:%M:%S UTC")


# -- the hook of `simulate --floor` ----------------------------------------------------------


def start_forwarding(journal: Any, args: argparse.Namespace) -> Forwarder | None:
    """A started :class:`~dealer_assist.storage.floor.Forwarder` of the open ``journal`` (read
    by its path or URL on the forwarder's own connection) to the floor of ``args.floor``, else
    of the ``[floor]`` section of ``args.table`` (a table TOML); None when neither names one.

    Raises:
        ConfigError: the table TOML's ``[floor]`` is malformed. FloorError: not a floor URL.
    """
    url, pit = getattr(args, "floor", None), None
    if not url and getattr(args, "table", None):
        from dealer_assist.storage.floor import floor_settings

        settings = floor_settings(args.table)
        url, pit = settings.url, settings.pit
    if not url:
        return None
    from dealer_assist.storage.floor import Forwarder

    # by its path, on a connection of its own: see Forwarder (a table's SQLite engine shared
    # across threads re-creates its side files on each new connection)
    # a journal signed by its notary: an entry waits until it is signed (see Pusher)
    notary = getattr(journal, "notary", None)
    checkpoints = None
    if notary is not None:  # its signer's head goes to the floor: the floor witnesses it
        from dealer_assist.storage.floor.push import notary_checkpoints

        checkpoints = notary_checkpoints(notary)
    forwarder = Forwarder(
        getattr(journal, "url_or_path", journal),
        url,
        pit=pit,
        signed_only=notary is not None,
        checkpoint_of=checkpoints,
    )
    forwarder.start()
    return forwarder


def stop_forwarding(
    forwarder: Forwarder | None, out: TextIO | None = None, *, wait: float = CATCH_UP_TIMEOUT_S
) -> None:
    """Give ``forwarder`` up to ``wait`` s to catch up (at once: a pause between retries is cut
    short; at most ``STUCK_WAIT_S`` when the floor was unreachable or refused a record at the
    last attempt), stop it, and say where it stands on ``out`` (default stdout), with what is
    left for ``floor sync``."""
    if forwarder is None:
        return
    stuck = forwarder.status().state in ("floor unreachable", "refused", "error")
    limit = min(wait, STUCK_WAIT_S) if stuck else wait
    caught_up = limit > 0 and forwarder.wait_caught_up(limit)
    status = forwarder.status()
    forwarder.stop()
    line = status.sentence()
    if not caught_up:
        line += "; send the rest later with: dealer-assist floor sync --db JOURNAL --floor URL"
    print(line, file=out or sys.stdout, flush=True)
