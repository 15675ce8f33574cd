"""``dealer-assist console``: the dealer's touchscreen console (PySide6, the ``gui`` extra)."""

from __future__ import annotations

import argparse
import getpass
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dealer_assist.config import load_table_config
from dealer_assist.errors import ConfigError
from dealer_assist.games import DEFAULT_GAME, GAME_CODES, POT_GAME_CODES
from dealer_assist.notary.settings import notary_settings


def register(sub: Any) -> None:
    """Add the ``console`` sub-command."""
    p = sub.add_parser(
        "console",
        help="the dealer's touchscreen console (UTH/THB hands from the card reader)",
        description="Open the dealer console on a table: bets with a chip keypad, 'rien ne va "
        "plus', decisions per seat, reveal and settlement seat by seat, void alarms. By default "
        "the shipped UTH table on the built-in emulator, journal in the user data folder. Without "
        "a display it plays 3 demo hands offscreen instead, in a journal of their own.",
    )
    p.add_argument("--table", help="table TOML (default: the shipped UTH table, config/uth.toml)")
    p.add_argument(
        "--game",
        choices=(*GAME_CODES, *POT_GAME_CODES),
        default=DEFAULT_GAME,
        help=f"shipped table to use when --table is not given (default {DEFAULT_GAME})",
    )
    p.add_argument("--windowed", action="store_true", help="a window instead of full screen")
    p.add_argument("--size", default="1920x1080", help="window size WxH (windowed, demo)")
    p.add_argument("--lang", choices=("it", "en"), help="language (default: the table's)")
    p.add_argument(
        "--db",
        help="journal: SQLite path or postgresql+psycopg:// URL (a demo "
        "without --db uses a journal of its own, never the table's)",
    )
    p.add_argument(
        "--source",
        help="one card source URL instead of the table's [[sources]] "
        "(which fail over in order, the dealer's keypad last)",
    )
    p.add_argument(
        "--mirror", action="store_true", help="seat 1 on the right (a screen facing the players)"
    )
    p.add_argument(
        "--demo",
        type=int,
        default=0,
        metavar="N",
        help="play N hands automatically (offscreen, journaled apart from the "
        "table's hands) and exit",
    )
    p.add_argument(
        "--screenshot", type=Path, metavar="DIR", help="with --demo: save a PNG of every phase here"
    )
    p.add_argument(
        "--tournament",
        nargs="?",
        const="",
        metavar="ID",
        help="a tournament "
        "table: its hands at the level in force, in chips, with the level clock "
        "and the action clock (the tournament ID in --db; default: the last one "
        "opened there). Without --table the table is the tournament's own",
    )
    p.add_argument(
        "--tournament-table",
        metavar="T",
        help="with --tournament: which of the "
        "tournament's tables (T1, T2 ... as the director's console lists them; "
        "default: the first)",
    )
    p.add_argument(
        "--seed",
        type=int,
        help="the built-in emulator's shuffle seed, and the "
        "demo's bets and decisions (default: the emulator draws a seed from the "
        "OS at every start, the demo plays seed 1)",
    )
    p.add_argument(
        "--dealer",
        default="dealer",
        help="dealer id, recorded with the unreadable cards they identify",
    )
    p.add_argument(
        "--pit-bosses",
        type=Path,
        metavar="FILE",
        help="pit boss roster (badge + scrypt-hashed PIN; default: pit_bosses.json in "
        "the user data folder; none = the badge alone confirms)",
    )
    p.add_argument(
        "--add-pit-boss", metavar="BADGE", help="add or change a pit boss (asks the PIN) and exit"
    )
    p.add_argument(
        "--remove-pit-boss", metavar="BADGE", help="remove a pit boss from the roster and exit"
    )
    p.set_defaults(func=run)


def parse_size(text: str) -> tuple[int, int]:
    """``1920x1080`` -> (1920, 1080). Raises ConfigError."""
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError as e:
        raise ConfigError(f"--size must look like 1920x1080, got {text!r}") from e
    if w < 640 or h < 480:
        raise ConfigError(f"--size too small: {text}")
    return w, h


def manage_roster(args: argparse.Namespace, ask: Callable[[str], str] = getpass.getpass) -> int:
    """``--add-pit-boss BADGE`` (the PIN asked twice, never echoed) or ``--remove-pit-boss``.
    Raises ConfigError (bad badge or PIN, PINs differ, unreadable roster)."""
    from ui.kit.boot import default_roster_path
    from ui.kit.pitboss import PitBossRoster

    roster = PitBossRoster(args.pit_bosses or default_roster_path()).load()
    if args.add_pit_boss:
        pin = ask(f"PIN for pit boss {args.add_pit_boss}: ")
        if ask("The same PIN again: ") != pin:
            raise ConfigError("the two PINs differ: nothing changed")
        roster.add(args.add_pit_boss, pin)
        roster.save()
        print(f"pit boss {args.add_pit_boss} saved in {roster.path}")
    else:
        if not roster.remove(args.remove_pit_boss):
            raise ConfigError(f"no pit boss {args.remove_pit_boss} in {roster.path}")
        roster.save()
        print(f"pit boss {args.remove_pit_boss} removed from {roster.path}")
    return 0


def run(args: argparse.Namespace) -> int:
    """Open the console; returns when its window closes (or the demo ends)."""
    if args.add_pit_boss or args.remove_pit_boss:
        return manage_roster(args)
    if args.demo < 0:
        raise ConfigError("--demo must be 0 or more")
    if args.screenshot is not None and not args.demo:
        raise ConfigError("--screenshot needs --demo N")
    if args.tournament is not None and not args.demo:
        config = _tournament_table(args)
    else:
        config = load_table_config(args.table, game=args.game)
    from drivers.factory import seeded_url, with_seed

    config = with_seed(config, args.seed)  # a fresh shuffle seed at every start unless given
    seed = 1 if args.seed is None else args.seed
    if args.source and args.seed is not None:
        args.source = seeded_url(args.source, args.seed)
    lang = args.lang or config.language
    if config.poker is not None:  # a poker-room game: the poker console (ui.poker)
        from ui.poker.run import run_poker_console

        return run_poker_console(
            config,
            lang=lang,
            windowed=args.windowed,
            size=parse_size(args.size),
            db=args.db,
            source_url=args.source,
            demo=args.demo,
            screenshot_dir=args.screenshot,
            seed=seed,
            dealer=args.dealer,
            tournament=args.tournament,
            floor_url=_floor_url(args.table),
            notary=notary_settings(args.table).client(config.table_id),
        )
    from ui.console.app import run_console  # Qt only once the command runs

    return run_console(
        config,
        lang=lang,
        windowed=args.windowed,
        size=parse_size(args.size),
        db=args.db,
        source_url=args.source,
        mirror=args.mirror,
        demo=args.demo,
        screenshot_dir=args.screenshot,
        seed=seed,
        pit_bosses=args.pit_bosses,
        dealer=args.dealer,
        floor_url=_floor_url(args.table),
        notary=notary_settings(args.table).client(config.table_id),
    )


def _tournament_table(args: argparse.Namespace) -> Any:
    """The tournament's table for ``--tournament`` (:mod:`ui.tournament.table_config`): the
    journal (``--db``, else the table file's) says the game, the tables and the seats."""
    from ui.tournament.table_config import assigned_table

    base = load_table_config(args.table, game=args.game) if args.table else None
    url = args.db or (base.journal_url if base is not None else "")
    if not url:
        raise ConfigError("--tournament: give the tournament's journal with --db")
    config, tid = assigned_table(url, args.tournament or None, args.tournament_table, base)
    args.tournament = tid
    return config


def _floor_url(table: str | None) -> str | None:
    """The ``[floor]`` URL of the table TOML, None without one (large payouts signed off in
    the pit-boss application too: :mod:`ui.console.service_signoff`)."""
    if table is None:
        return None
    from dealer_assist.storage.floor.settings import floor_settings

    return floor_settings(table).url
