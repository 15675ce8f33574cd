"""``dealer-assist tournament clock`` and ``dealer-assist tournament director``: the tournament's
screens (:mod:`ui.tournament`), added to the ``tournament`` command (``ui/commands/tournament.py``
calls :func:`register`). Qt is imported only when one of them runs.

- ``clock --structure FILE [--journal PATH] [--tournament ID]``: the room's big clock; with a
  journal it follows the tournament there (the last one opened, or ``ID``), read every second
  off the GUI thread; without, the structure's first level.
- ``director --structure FILE --journal PATH [--players N] [--seed S] [--operator NAME]``: the
  director's console; opens the tournament in the journal (for ``N`` players, seat draw from
  ``S``) unless it is there already.
- ``--demo`` (both): screenshots in English and Italian at 1920x1080 and 1280x800 in
  ``--screenshot DIR`` (default docs/screenshots), then exit.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from dealer_assist.errors import ConfigError
from dealer_assist.tournament.structure_reader import load_structure
from ui.commands.console import parse_size

SCREENSHOTS = Path("docs/screenshots")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--structure", required=True, help="tournament structure TOML (config/tournaments/*.toml)"
    )
    p.add_argument("--tournament", metavar="ID", help="the tournament's id in the journal")
    p.add_argument("--lang", choices=("it", "en"), default="it", help="language (default it)")
    p.add_argument("--windowed", action="store_true", help="a window instead of full screen")
    p.add_argument("--size", default="1920x1080", help="window size WxH (windowed)")
    p.add_argument("--demo", action="store_true", help="save the demo's screenshots and exit")
    p.add_argument(
        "--screenshot",
        type=Path,
        default=SCREENSHOTS,
        metavar="DIR",
        help="with --demo: where the PNGs go (default %(default)s)",
    )


def register(tsub: Any) -> None:
    """Add ``clock`` and ``director`` to the ``tournament`` command's sub-commands."""
    c = tsub.add_parser(
        "clock",
        help="the room's big tournament clock",
        description="The tournament clock for the room: level, time left, "
        "blinds or limits, next level, breaks, players, prize pool, payouts.",
    )
    _common(c)
    c.add_argument("--journal", help="the tournament's journal: SQLite path or URL")
    c.set_defaults(func=run_clock)
    d = tsub.add_parser(
        "director",
        help="the tournament director's console",
        description="Registrations, seat draw, clock pause and resume, "
        "rebuys, add-ons and bust undo, each journaled with who authorised it.",
    )
    _common(d)
    d.add_argument("--journal", help="the tournament's journal (required but with --demo)")
    d.add_argument(
        "--players",
        type=int,
        default=0,
        metavar="N",
        help="players the tables are opened for (default: the structure's max_seats x 2)",
    )
    d.add_argument("--seed", type=int, default=1, help="seed of the seat draw")
    d.add_argument(
        "--operator", default="", help="who authorises the steps (typed in the console otherwise)"
    )
    d.set_defaults(func=run_director)


def run_clock(args: argparse.Namespace) -> int:
    """The clock (module doc). Raises ConfigError (structure, size)."""
    from ui.tournament.app import run_clock as run

    structure = load_structure(args.structure)
    return run(
        structure,
        journal=args.journal,
        tournament=args.tournament,
        lang=args.lang,
        windowed=args.windowed,
        size=parse_size(args.size),
        demo=args.demo,
        screenshot_dir=args.screenshot,
    )


def run_director(args: argparse.Namespace) -> int:
    """The director's console (module doc). Raises ConfigError (structure, options)."""
    from ui.tournament.app import run_director as run

    structure = load_structure(args.structure)
    if not args.demo and not args.journal:
        raise ConfigError("director: --journal is required (the tournament's journal)")
    players = args.players or structure.max_seats * 2
    if players < structure.min_players:
        raise ConfigError(
            f"--players {players}: this tournament needs at least {structure.min_players}"
        )
    return run(
        structure,
        journal=args.journal or "",
        tournament=args.tournament,
        players=players,
        seed=args.seed,
        operator=args.operator,
        lang=args.lang,
        windowed=args.windowed,
        size=parse_size(args.size),
        demo=args.demo,
        screenshot_dir=args.screenshot,
    )
