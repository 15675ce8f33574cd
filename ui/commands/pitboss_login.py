"""The login of the pit-boss commands (``pitboss report``, ``stats``, ``user add``, ``user pin``,
``log``): ``--user BADGE`` and that user's PIN, asked with getpass, read from stdin
(``--pin-stdin``: one line per PIN asked, in the order asked) or, for scripts, from the
environment variable :data:`PIN_ENV` — the PIN is checked against the users store either way,
a wrong one counts toward the lockout like a wrong one in the window. The actor's badge and role
go into the access log with what they did (docs/PITBOSS.md "Commands need a login").
"""

from __future__ import annotations

import argparse
import getpass
import os
import sys
from typing import Any

from dealer_assist.errors import ConfigError
from dealer_assist.events import utc_now
from dealer_assist.pitboss.roles import Action, require
from dealer_assist.pitboss.users import (
    MIN_PIN,
    AccessEntry,
    AccessLog,
    User,
    UserStore,
    authenticate,
    pin_must_change,
)

PIN_ENV = "DEALER_ASSIST_PITBOSS_PIN"
"""The logged-in user's PIN for scripted runs (checked like a typed one; never the new PIN of
``user add``)."""


def add_login_options(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    """``--user BADGE`` (who runs the command) and ``--pin-stdin``."""
    p.add_argument(
        "--user",
        required=required,
        metavar="BADGE",
        help=f"who runs it (badge); their PIN is asked (or ${PIN_ENV})",
    )
    p.add_argument(
        "--pin-stdin",
        action="store_true",
        help="read the PINs from stdin, one line each, in the order asked",
    )


def read_pin(args: Any, prompt: str, *, env: bool = False) -> str:
    """A PIN: from :data:`PIN_ENV` when ``env`` and it is set, else one line of stdin with
    ``--pin-stdin``, else asked with getpass (``prompt``). Raises ConfigError when stdin ends."""
    if env and os.environ.get(PIN_ENV):
        return os.environ[PIN_ENV]
    if getattr(args, "pin_stdin", False):
        line = sys.stdin.readline()
        if not line:
            raise ConfigError(f"--pin-stdin: no line for the {prompt.rstrip(': ')}")
        return line.rstrip("\n")
    return getpass.getpass(prompt)


def new_pin(args: Any) -> str:
    """A new PIN: one line of stdin with ``--pin-stdin``, else asked twice. Raises ConfigError
    when the two differ."""
    first = read_pin(args, "new PIN: ")
    if not getattr(args, "pin_stdin", False) and getpass.getpass("new PIN again: ") != first:
        raise ConfigError("the two PINs differ")
    return first


def command_login(users: UserStore, log: AccessLog, args: Any, action: Action) -> User:
    """Log ``args.user`` in with their PIN (:func:`read_pin`) and check their role may do
    ``action`` (the caller logs what is done: :func:`record`).

    Raises:
        LoginRefusedError: locked, unknown badge or wrong PIN (logged).
        PermissionDeniedError: the role may not, or the PIN is shorter than the minimum (the
            sentence names ``pitboss user pin``).
    """
    from dealer_assist.pitboss.roles import PermissionDeniedError

    pin = read_pin(args, f"PIN of {args.user}: ", env=True)
    user = authenticate(users, log, args.user, pin, utc_now())
    if pin_must_change(pin):
        raise PermissionDeniedError(
            f"your PIN is shorter than {MIN_PIN} digits: change it first with dealer-assist "
            f"pitboss user pin --user {user.badge} (then run this again)"
        )
    require(user.role, action)
    return user


def record(log: AccessLog, user: User | None, action: str, detail: str = "") -> None:
    """Log ``action`` by ``user`` (``None``: the bootstrap of an empty users store) now."""
    badge, role = ("bootstrap", None) if user is None else (user.badge, user.role.value)
    log.record(AccessEntry(utc_now(), badge, role, action, detail=detail))
