"""``dealer-assist floor enrol``: a table's public key pinned on the floor by a shift manager.

``floor enrol --table TOML --key PUB --by BADGE [--pin-stdin]`` (or ``--floor URL --table-id
ID``): the shift manager logs in (badge and PIN, asked with getpass or one line on stdin; the
floor's users and access log, with its lockout after too many wrong PINs), and the table's key
(``PUB``: PEM or 64 hex digits, as the signer printed it at installation) is pinned in
``floor_tables.public_key``. From then on the floor verifies the signer's checkpoints with it,
another key the table presents raises ``key_changed``, and records recorded before the
enrolment are *not witnessed* (a re-created floor: history re-sent, not seen happening).
Exit 0 enrolled (or that key already was), 1 refused (another key is enrolled: an alert), 2 on
errors (a wrong PIN, not a shift manager, an unreadable key: a sentence).
"""

from __future__ import annotations

import argparse
import getpass
import sys
import tomllib
from pathlib import Path

from dealer_assist.errors import ConfigError, DealerAssistError
from dealer_assist.events import utc_now
from ui.commands.floor_open import floor_args, floor_url, open_floor


def register(actions: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``enrol`` to ``floor``."""
    enrol = actions.add_parser("enrol", help="pin a table's public key (a shift manager)")
    floor_args(enrol)
    enrol.add_argument(
        "--table-id", metavar="ID", help="the table (default: [table] id of --table)"
    )
    enrol.add_argument(
        "--key",
        required=True,
        metavar="PUB",
        help="the table's public key file (PEM or 64 hex digits)",
    )
    enrol.add_argument("--by", required=True, metavar="BADGE", help="the shift manager's badge")
    enrol.add_argument("--game", help="the table's game (a new table; default: the table file's)")
    enrol.add_argument("--pin-stdin", action="store_true", help="read the PIN from stdin")
    enrol.set_defaults(func=run_enrol)


def _table_file(args: argparse.Namespace) -> dict[str, object]:
    """The ``[table]`` section of ``--table`` (empty without one); ConfigError if unreadable."""
    if not args.table:
        return {}
    try:
        data = tomllib.loads(Path(args.table).read_text(encoding="utf-8-sig"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{args.table}: cannot read the table id: {e}") from e
    table = data.get("table", {})
    return table if isinstance(table, dict) else {}


def _table_id(args: argparse.Namespace) -> str:
    if args.table_id:
        return str(args.table_id)
    table = _table_file(args)
    if isinstance(table.get("id"), str) and table["id"]:
        return str(table["id"])
    raise ConfigError("name the table: --table-id ID (or a --table TOML with [table] id)")


def _game(args: argparse.Namespace) -> str:
    """``--game``, else the table file's game, else the default game."""
    from dealer_assist.games import DEFAULT_GAME

    if args.game:
        return str(args.game)
    game = _table_file(args).get("game")
    return game if isinstance(game, str) and game else DEFAULT_GAME


def run_enrol(args: argparse.Namespace) -> int:
    """``floor enrol``: 0 enrolled, 1 refused (another key: an alert), 2 on errors."""
    from dealer_assist.pitboss.roles import Role
    from dealer_assist.pitboss.users import (
        AccessEntry,
        LoginRefusedError,
        authenticate,
        pin_must_change,
    )
    from dealer_assist.storage.floor.access import FloorAccess, check_access
    from dealer_assist.storage.floor.errors import FloorError
    from dealer_assist.storage.signing import load_public_key

    pin = sys.stdin.readline().rstrip("\n") if args.pin_stdin else getpass.getpass("PIN: ")
    try:
        table_id = _table_id(args)
        game = _game(args)
        key = load_public_key(args.key)
        pit = floor_url(args)[1]
        floor = open_floor(args)
    except DealerAssistError as e:
        print(f"dealer-assist floor: {e}", file=sys.stderr)
        return 2
    try:
        check_access(floor)
        access = FloorAccess(floor)
        user = authenticate(access, access, args.by, pin, utc_now())  # lockout, logged
        if pin_must_change(pin):
            raise LoginRefusedError(f"{user.badge}: the PIN must be changed first (pitboss)")
        if user.role is not Role.SHIFT_MANAGER:
            raise LoginRefusedError(
                f"{user.badge} is a {user.role.value}: only a shift manager enrols a table's key"
            )
        try:
            pinned = floor.enrol(table_id, game, key.hex, user.badge, pit=pit)
        except FloorError as e:
            access.record(
                AccessEntry(
                    utc_now(),
                    user.badge,
                    user.role.value,
                    "enrol_refused",
                    table_id,
                    None,
                    f"key {key.key_id}: {e}",
                )
            )
            print(f"REFUSED: {e}")
            return 1
        detail = f"key {key.key_id} fingerprint {key.fingerprint}"
        access.record(
            AccessEntry(utc_now(), user.badge, user.role.value, "enrol", table_id, None, detail)
        )
    except DealerAssistError as e:
        print(f"dealer-assist floor: {e}", file=sys.stderr)
        return 2
    finally:
        floor.close()
    what = "enrolled" if pinned else "already enrolled with this key"
    print(f"table {table_id}: {what}: key {key.key_id} by {user.badge} (shift manager)")
    print(f"fingerprint: {key.fingerprint}")
    return 0
