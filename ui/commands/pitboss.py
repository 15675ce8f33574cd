"""``dealer-assist pitboss``: the pit boss's audit application (docs/PITBOSS.md).

- ``pitboss --floor URL`` or ``pitboss --db PATH``: the window over the floor database or one
  table's journal (read-only); ``--lang it|en``.
- ``pitboss --demo [--floor URL] [--screenshot DIR]``: fill a floor from ``simulate`` runs and
  save screenshots (default docs/screenshots/pitboss_*.png).
- ``pitboss user add --badge B --role R (--floor URL | --db PATH) [--pin-stdin]``: add or
  replace a user (PIN asked twice with getpass, or one line on stdin), stored in the floor or
  in the users file beside the journal (0600).
"""

from __future__ import annotations

import argparse
import getpass
import sys
from pathlib import Path
from typing import Any

from dealer_assist.errors import ConfigError
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


def _pin(args: Any) -> str:
    if args.pin_stdin:
        return sys.stdin.readline().rstrip("\n")
    first = getpass.getpass("PIN: ")
    if getpass.getpass("PIN again: ") != first:
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


def run_app(args: Any) -> int:
    """The window, or the demo."""
    from ui.pitboss import run

    if args.demo:
        run.demo(args.floor, args.screenshot)
        return 0
    return run.run(args.floor, args.db, args.lang)
