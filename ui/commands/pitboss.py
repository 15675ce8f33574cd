"""``dealer-assist pitboss``: the pit boss's audit application (docs/PITBOSS.md).

- ``pitboss --floor URL`` or ``pitboss --db PATH``: the window over the floor database or one
  table's journal (read-only); ``--lang it|en``.
- ``pitboss --demo [--floor URL] [--screenshot DIR]``: fill a floor from ``simulate`` runs and
  save screenshots (default docs/screenshots/pitboss_*.png).
- ``pitboss user add --badge B --role R (--floor URL | --db PATH) [--pin-stdin]``: add or
  replace a user (PIN asked twice with getpass, or one line on stdin), stored in the floor or
  in the users file beside the journal (0600).
- ``pitboss log --badge B (--floor URL | --db PATH) [--pin-stdin]``: the access log, for a shift
  manager or an auditor (the login and the read are logged).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from dealer_assist.errors import ConfigError
from dealer_assist.events import utc_now
from dealer_assist.pitboss.users import AccessEntry
from ui.commands.pitboss_report import add_actions

SCREENSHOTS = Path("docs/screenshots")


def _source(p: argparse.ArgumentParser) -> None:
    p.add_argument("--floor", metavar="URL", help="the floor database (postgresql+psycopg://…)")
    p.add_argument("--db", metavar="PATH", help="one table's SQLite journal, read-only")


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``pitboss`` (and ``pitboss user add``) to the CLI."""
    p = subparsers.add_parser(
        "pitboss",
        help="the pit boss's application: floor, alerts, hand search, replay, recompute",
        description="Log in by badge and PIN; the floor and its alerts, the hand search, a "
        "hand's detail and replay, the dispute recompute. Every view is in the access log.",
    )
    _source(p)
    p.add_argument("--lang", choices=("it", "en"), default="it", help="language (default it)")
    p.add_argument("--demo", action="store_true", help="fill a demo floor, save screenshots")
    p.add_argument("--shifts", metavar="H,H,H", help="the day's shifts by their UTC start "
                   "hour for the search's shift picker (default 6,14,22)")  # fmt: skip
    p.add_argument(
        "--screenshot",
        type=Path,
        default=SCREENSHOTS,
        metavar="DIR",
        help="with --demo: where the PNGs go (default %(default)s)",
    )
    p.set_defaults(func=run_app)
    sub = p.add_subparsers(dest="pitboss_action", metavar="ACTION")
    add_actions(sub)  # report and stats (ui/commands/pitboss_report.py)
    user = sub.add_parser("user", help="manage users")
    usub = user.add_subparsers(dest="user_action", required=True, metavar="ACTION")
    add = usub.add_parser("add", help="add or replace a user")
    _source(add)
    add.add_argument("--badge", required=True)
    add.add_argument("--role", required=True, help="dealer, pit_boss, shift_manager or auditor")
    add.add_argument("--pin-stdin", action="store_true", help="read the PIN from stdin")
    add.add_argument("--by", help="who adds the user (recorded)")
    add.set_defaults(func=run_user_add)
    log = sub.add_parser("log", help="print the access log (shift manager or auditor)")
    _source(log)
    log.add_argument("--badge", required=True, help="who reads it (logged in with their PIN)")
    log.add_argument("--pin-stdin", action="store_true", help="read the PIN from stdin")
    log.set_defaults(func=run_log)


def _pin(args: Any, *, twice: bool = True) -> str:
    if args.pin_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("PIN: ")
    if twice and getpass.getpass("PIN again: ") != first:
        raise ConfigError("the two PINs differ")
    return first


def run_user_add(args: Any) -> int:
    """``pitboss user add``: 0 when stored."""
    from dealer_assist.events import utc_now
    from dealer_assist.pitboss.roles import parse_role
    from dealer_assist.pitboss.users import AccessEntry, new_user
    from ui.pitboss.service import open_backend

    user = new_user(args.badge, parse_role(args.role), _pin(args))
    source, users, log = open_backend(args.floor, args.db)
    try:
        users.put_user(user, args.by)
        log.record(
            AccessEntry(
                utc_now(),
                args.by or "cli",
                None,
                "user_added",
                detail=f"{user.badge} {user.role.value}",
            )
        )
    finally:
        source.close()
    print(f"user {user.badge} ({user.role.value}) stored")
    return 0


def run_log(args: Any) -> int:
    """``pitboss log``: every access-log line, oldest first, after a login whose role may read
    it (the read is logged too); 0."""
    from dealer_assist.pitboss.roles import Action, require
    from ui.pitboss.service import Session, open_backend

    pin = _pin(args, twice=False)
    session = Session(*open_backend(args.floor, args.db))
    try:
        user = session.login(args.badge, pin)
        require(user.role, Action.VIEW_ACCESS_LOG)
        session.log.record(AccessEntry(utc_now(), user.badge, user.role.value, "view_access_log"))
        for e in session.log.entries():
            where = f" {e.table_id}" if e.table_id else ""
            where += f" #{e.position}" if e.position is not None else ""
            detail = f" {e.detail}" if e.detail else ""
            print(f"{e.at.isoformat()} {e.badge} ({e.role or '-'}) {e.action}{where}{detail}")
    finally:
        session.logout()
        session.close()
    return 0


def run_app(args: Any) -> int:
    """The window, or the demo."""
    from ui.pitboss import run

    if args.demo:
        run.demo(args.floor, args.screenshot)
        return 0
    from ui.pitboss.search_view import shift_plan

    return run.run(args.floor, args.db, args.lang, shift_plan(args.shifts))
