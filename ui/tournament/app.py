"""Running the tournament screens: the room's clock and the director's console, in a window,
full screen, or as ``--demo`` (:mod:`ui.tournament.demo`)."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from PySide6.QtCore import QCoreApplication, qInstallMessageHandler

from dealer_assist.events import utc_now
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.state import TournamentState
from dealer_assist.tournament.structure import TournamentStructure
from ui.kit.boot import qt_app, quiet_offscreen, quit_on_signals, say_when_running
from ui.kit.i18n import install_language
from ui.stop import StopRequest
from ui.tournament.board import Snapshot
from ui.tournament.clock_window import ClockWindow
from ui.tournament.desk import DirectorDesk
from ui.tournament.director_window import DeskWorker, DirectorWindow
from ui.tournament.feed import JournalFeed


def room_tournament_id(structure: TournamentStructure) -> str:
    """A room tournament's id from its structure's name and today's date (``STUD-FREEZEOUT-
    2026-12-01``)."""
    slug = re.sub(r"[^A-Za-z0-9]+", "-", structure.name).strip("-").upper()[:24] or "T"
    return f"{slug}-{utc_now().date().isoformat()}"


def structure_snapshot(structure: TournamentStructure) -> Snapshot:
    """The clock of a tournament not open yet: its structure, nobody registered."""
    state = TournamentState("-")
    state.structure = structure
    return Snapshot.of_state(state, utc_now())


def _show(
    app: QCoreApplication,
    win: ClockWindow | DirectorWindow,
    *,
    windowed: bool,
    size: tuple[int, int],
) -> StopRequest:
    if windowed:
        win.resize(*size)
        win.show()
    else:
        screen = qt_app().primaryScreen()
        win.setGeometry(screen.geometry())
        win.showFullScreen()
    return quit_on_signals(qt_app())


def _said(stop: StopRequest, what: str) -> None:
    """After the window closed: one sentence on stderr when SIGTERM/SIGINT closed it."""
    stop.restore()
    if stop.requested:
        print(f"dealer-assist tournament: {stop.sentence(what)}", file=sys.stderr, flush=True)


def _offscreen_quiet(demo: bool) -> object:
    if demo and not os.environ.get("QT_QPA_PLATFORM"):
        os.environ["QT_QPA_PLATFORM"] = "offscreen"
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        return qInstallMessageHandler(quiet_offscreen)
    return None


def run_clock(
    structure: TournamentStructure,
    *,
    journal: str | None,
    tournament: str | None,
    lang: str,
    windowed: bool,
    size: tuple[int, int],
    demo: bool,
    screenshot_dir: Path,
) -> int:
    """The room's clock until its window closes (``demo``: the screenshots, then exit).
    Returns the exit status. Raises ConfigError (language)."""
    previous = _offscreen_quiet(demo)
    app = qt_app()
    try:
        if demo:
            from ui.tournament.demo import run_demo

            return run_demo(app, structure, screenshot_dir, screens=("clock", "strip"))
        translators = install_language(app, lang)
        feed = JournalFeed(journal, tournament_id=tournament) if journal else None
        win = ClockWindow(feed=feed)
        if feed is None:
            win.set_snapshot(structure_snapshot(structure))
        stop = _show(app, win, windowed=windowed, size=size)
        win.start()
        say_when_running("dealer-assist tournament clock: open (SIGTERM or Ctrl-C closes it)")
        app.exec()
        win.close()
        _said(stop, ": the room's clock closed (it only reads the journal): nothing to resume")
        for t in translators:
            app.removeTranslator(t)
        return 0
    finally:
        if previous is not None:
            qInstallMessageHandler(previous)  # type: ignore[arg-type]


def run_director(
    structure: TournamentStructure,
    *,
    journal: str,
    tournament: str | None,
    players: int,
    seed: int,
    operator: str,
    lang: str,
    windowed: bool,
    size: tuple[int, int],
    demo: bool,
    screenshot_dir: Path,
) -> int:
    """The director's console until its window closes (``demo``: the screenshots, then exit).
    The tournament is opened in ``journal`` for ``players`` (its tables) with ``seed`` unless
    it is there already. Returns the exit status."""
    previous = _offscreen_quiet(demo)
    app = qt_app()
    try:
        if demo:
            from ui.tournament.demo import run_demo

            return run_demo(app, structure, screenshot_dir, screens=("director",))
        translators = install_language(app, lang)
        tid = tournament or room_tournament_id(structure)
        j = Journal(journal)

        def open_desk() -> DirectorDesk:
            j.open()
            desk = DirectorDesk(j, tid, structure)
            if not desk.state.opened:
                desk.open(seed=seed, players=players, by=operator or "director")
            return desk

        worker = DeskWorker(open_desk)
        win = DirectorWindow(worker, operator=operator)
        stop = _show(app, win, windowed=windowed, size=size)
        win.start_timers()
        say_when_running(
            f"dealer-assist tournament director: open on {tid} (SIGTERM or Ctrl-C closes it)"
        )
        app.exec()
        win.close()
        worker.close()  # the director's command running is finished and journaled
        j.close()
        _said(
            stop,
            f": the director's console of {tid} closed after its last command, every "
            "command journaled as it was made: nothing to resume",
        )
        for t in translators:
            app.removeTranslator(t)
        return 0
    finally:
        if previous is not None:
            qInstallMessageHandler(previous)  # type: ignore[arg-type]
