"""``dealer-assist tournament rehearse``: a whole tournament played through the real director,
clock and table consoles (:mod:`ui.tournament.rehearse`), offscreen, on a fast clock, to one
winner; added to the ``tournament`` command (``ui/commands/tournament.py`` calls
:func:`register`). Qt is imported only when it runs.

Prints what it played: the hands (each checked to post its level's forced bets: "hands posting
their level's bets: N of N"), the levels, the level changes in the middle of a hand, the breaks,
the director's pause, the time-outs, the rebuys and add-ons, the table breaks and moves, the
ranking and the prizes. Exit status 0 when every hand posted its level's bets and the chips add
up, else 1. Run again on the same ``--db``, it resumes the tournament where it stopped (a hand
a ``kill -9`` left continued at its own level).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from dealer_assist.errors import ConfigError
from dealer_assist.events import utc_now
from dealer_assist.tournament.structure_reader import load_structure


def register(tsub: Any) -> None:
    """Add ``rehearse`` to the ``tournament`` command's sub-commands."""
    r = tsub.add_parser(
        "rehearse",
        help="play a whole tournament through the real consoles, offscreen",
        description="Rehearse a tournament to one winner through the director's desk, the "
        "room's clock and each table's dealer console (their real services and presenters, "
        "scripted taps, offscreen Qt), on a fast clock: level changes in the middle of hands, "
        "a break, the director's pause, a time-out, rebuys and add-ons where the structure "
        "has them, table breaks; then the ranking and the prizes.",
    )
    r.add_argument(
        "--structure", required=True, help="tournament structure TOML (config/tournaments/*.toml)"
    )
    r.add_argument("--players", type=int, required=True, help="players who register")
    r.add_argument("--seed", type=int, default=1, help="seed of the draw, decks and choices")
    r.add_argument(
        "--db",
        required=True,
        help="the tournament's journal: SQLite path or "
        "postgresql+psycopg:// URL (run again on it: resumed)",
    )
    r.add_argument(
        "--records",
        help="append each settled hand as a HAND_RECORD JSON line "
        "(one file per table: NAME.T1.jsonl ... when there are several)",
    )
    r.add_argument(
        "--speed",
        type=float,
        default=10.0,
        metavar="X",
        help="seconds of the "
        "fast clock each decision takes (less than the action clock; default "
        "%(default)s)",
    )
    r.add_argument(
        "--screenshot",
        type=Path,
        metavar="DIR",
        help="save the screens of the "
        "level change mid-hand, the time-out, the break, the pause, a table break "
        "and the end here (1920x1080)",
    )
    r.add_argument("--lang", choices=("it", "en"), default="en", help="the screens' language")
    r.add_argument(
        "--tournament",
        metavar="ID",
        default="REHEARSAL",
        help="the tournament's id in the journal (default %(default)s)",
    )
    r.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """The rehearsal (module doc). Raises ConfigError (options, structure); RehearsalError and
    the journal's errors (said in a sentence; a rerun resumes)."""
    structure = load_structure(args.structure)
    if "://" not in args.db and not Path(args.db).parent.exists():
        raise ConfigError(f"--db {args.db}: no such folder")
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import qInstallMessageHandler

    from ui.kit.boot import qt_app, quiet_offscreen
    from ui.kit.i18n import install_language
    from ui.tournament.rehearsal_report import report
    from ui.tournament.rehearse import FastClock, Options, Rehearsal

    previous = qInstallMessageHandler(quiet_offscreen)
    app = qt_app()
    translators = install_language(app, args.lang)
    options = Options(
        structure,
        args.players,
        args.seed,
        args.db,
        records=args.records,
        think=args.speed,
        screenshots=args.screenshot,
        lang=args.lang,
        tournament_id=args.tournament,
    )
    # the fast clock starts now (the journal stamps its entries as they are written) and then
    # moves only as the rehearsal moves it
    rehearsal = Rehearsal(app, options, FastClock(utc_now().replace(microsecond=0)))
    try:
        results = rehearsal.run()
        st = rehearsal.state
        led = st.ledger
        total = st.chips_in_play()
        ok = report(
            sys.stdout,
            rehearsal.figures,
            results,
            tournament_id=rehearsal.tid,
            url=args.db,
            structure=structure,
            chips_ok=total == led.chips_issued,
            chips=f"{total} in play = {led.chips_issued} the purchases issued",
        )
    finally:
        rehearsal.close()
        for t in translators:
            app.removeTranslator(t)
        qInstallMessageHandler(previous)
    return 0 if ok else 1
