"""The floor options every ``floor`` sub-command shares, and the floor they name, opened
(:mod:`ui.commands.floor`, :mod:`ui.commands.floor_enrol`). The floor's modules are imported
only when a command runs: other commands' start-up does not pay for SQLAlchemy."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from dealer_assist.errors import ConfigError

if TYPE_CHECKING:
    from dealer_assist.storage.floor import Floor


def floor_args(parser: argparse.ArgumentParser) -> None:
    """Add the floor's whereabouts to ``parser``: ``--floor URL`` or ``--table TOML`` (its
    ``[floor]`` url), one of them required."""
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--floor", metavar="URL", help="postgresql+psycopg://user@host:port/db")
    where.add_argument("--table", metavar="TOML", help="a table's TOML: its [floor] url")


def floor_url(args: argparse.Namespace) -> tuple[str, str | None]:
    """The floor URL and the pit (None with ``--floor``) the arguments name.

    Raises:
        ConfigError: the table's TOML configures no floor.
    """
    if args.floor:
        return args.floor, None
    from dealer_assist.storage.floor import floor_settings

    settings = floor_settings(args.table)
    if settings.url is None:
        raise ConfigError(f"{args.table}: floor.url: no floor configured for this table")
    return settings.url, settings.pit


def open_floor(args: argparse.Namespace) -> Floor:
    """The floor the arguments name, opened (errors as :meth:`Floor.open`)."""
    from dealer_assist.storage.floor import Floor

    floor = Floor(floor_url(args)[0])
    floor.open()
    return floor
