"""``dealer-assist pitboss``: the pit boss's audit application (docs/PITBOSS.md).

- ``pitboss --floor URL`` or ``pitboss --db PATH``: the window over the floor database or one
  table's journal (read-only); ``--lang it|en``.
- ``pitboss --demo [--floor URL] [--screenshot DIR]``: fill a floor from ``simulate`` runs and
  save screenshots (default docs/screenshots/pitboss_*.png).
- ``pitboss user add --badge B --role R (--floor URL | --db PATH) --user SM [--pin-stdin]``:
  a shift manager (``--user``, their PIN) adds or replaces a user (the new PIN asked twice with
  getpass, or a line on stdin after the shift manager's), stored in the floor or in the users
  file beside the journal (0600); the first user of an empty store needs no login and must be
  a shift manager (the bootstrap).
- ``pitboss user pin --user B (--floor URL | --db PATH) [--pin-stdin]``: change your own PIN.
- ``pitboss log --user B (--floor URL | --db PATH) [--pin-stdin]``: the access log, for a shift
  manager or an auditor (the login and the read are logged).
The logins: :mod:`ui.commands.pitboss_login` (PIN by getpass, stdin or
``$DEALER_ASSIST_PITBOSS_PIN``).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_assist.errors import ConfigError
from dealer_assist.events import utc_now
from dealer_assist.pitboss.users import new_user
from ui.commands.pitboss_login import add_login_options, command_login, new_pin, read_pin, record
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
        "--shifts",
        metavar="H,H,H",
        help="the day's shifts by their UTC start "
        "hour for the search's shift picker (default 6,14,22)",
    )
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
    add = usub.add_parser(
        "add",
        help="add or replace a user (a shift manager logged in; the first user: no login)",
    )
    _source(add)
    add.add_argument("--badge", required=True, help="the new user's badge")
    add.add_argument("--role", required=True, help="dealer, pit_boss, shift_manager or auditor")
    add_login_options(add, required=False)
    add.set_defaults(func=run_user_add)
    pin = usub.add_parser("pin", help="change your own PIN (old PIN, then the new one)")
    _source(pin)
    add_login_options(pin)
    pin.set_defaults(func=run_user_pin)
    log = sub.add_parser("log", help="print the access log (shift manager or auditor)")
    _source(log)
    add_login_options(log)
    log.set_defaults(func=run_log)


def run_user_add(args: Any) -> int:
    """``pitboss user add``: 0 when stored. A shift manager logged in (``--user`` and their PIN)
    adds or replaces a user; into an empty users store the first user is added without a login
    (the bootstrap, logged as by ``bootstrap``) and must be a shift manager."""
    from dealer_assist.pitboss.roles import Action, PermissionDeniedError, Role, parse_role
    from dealer_assist.pitboss.users import check_badge, check_pin
    from ui.pitboss.service import open_access

    role = parse_role(args.role)
    badge = check_badge(args.badge)
    stores = open_access(args.floor, args.db)
    try:
        actor = None
        if stores.users.has_users():
            if not args.user:
                raise PermissionDeniedError(
                    "adding a user needs a shift manager logged in: give --user BADGE "
                    "(their PIN is asked)"
                )
            actor = command_login(stores.users, stores.log, args, Action.MANAGE_USERS)
        elif role is not Role.SHIFT_MANAGER:
            raise PermissionDeniedError(
                "the users store is empty: the first user must be a shift_manager (who then "
                "adds the others, logged in)"
            )
        new = new_user(badge, role, check_pin(new_pin(args)))
        stores.users.put_user(new, actor.badge if actor else "bootstrap")
        record(stores.log, actor, "user_added", f"{new.badge} {new.role.value}")
    finally:
        stores.close()
    who = f"by {actor.badge}" if actor else "first user (bootstrap)"
    print(f"user {new.badge} ({new.role.value}) stored, {who}")
    return 0


def run_user_pin(args: Any) -> int:
    """``pitboss user pin``: the logged-in user's new PIN (old PIN, then the new one; a PIN of
    fewer digits than the minimum may log in only for this); 0 when changed."""
    from dealer_assist.pitboss.users import User, authenticate, hash_pin
    from ui.pitboss.service import open_access

    stores = open_access(args.floor, args.db)
    try:
        old = read_pin(args, f"PIN of {args.user}: ", env=True)
        user = authenticate(stores.users, stores.log, args.user, old, utc_now())
        pin = new_pin(args)
        if pin == old:
            raise ConfigError("the new PIN is the old one: choose another")
        stores.users.put_user(User(user.badge, user.role, hash_pin(pin)), user.badge)
        record(stores.log, user, "pin_changed")
    finally:
        stores.close()
    print(f"PIN of {user.badge} changed")
    return 0


def run_log(args: Any) -> int:
    """``pitboss log``: every access-log line, oldest first, after a login whose role may read
    it (the read is logged too); 0."""
    from dealer_assist.pitboss.roles import Action
    from ui.pitboss.service import open_access

    stores = open_access(args.floor, args.db)
    try:
        user = command_login(stores.users, stores.log, args, Action.VIEW_ACCESS_LOG)
        record(stores.log, user, "view_access_log")
        for e in stores.log.entries():
            where = f" {e.table_id}" if e.table_id else ""
            where += f" #{e.position}" if e.position is not None else ""
            detail = f" {e.detail}" if e.detail else ""
            print(f"{e.at.isoformat()} {e.badge} ({e.role or '-'}) {e.action}{where}{detail}")
        record(stores.log, user, "logout")
    finally:
        stores.close()
    return 0


def run_app(args: Any) -> int:
    """The window, or the demo."""
    from ui.pitboss import run

    if args.demo:
        run.demo(args.floor, args.screenshot)
        return 0
    from ui.pitboss.search_view import shift_plan

    return run.run(args.floor, args.db, args.lang, shift_plan(args.shifts))
