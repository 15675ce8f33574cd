"""``dealer-assist tournament clock|director --demo``: the tournament screens on a demo
tournament of the given structure (nine players registered, the seats drawn, the clock started,
in a journal of its own that is thrown away), with a wall clock the demo moves, and their
screenshots in both languages at 1920x1080 and 1280x800 (``docs/screenshots/tournament_*.png``):
the clock during a level, during the break and paused; the director's console after the draw
with a refused rebuy (the core's sentence); the dealer's level strip with the action clock.
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path

from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.errors import DealerAssistError
from dealer_assist.events import utc_now
from dealer_assist.games import get_pot_game
from dealer_assist.storage.journal import Journal
from dealer_assist.tournament.structure import TournamentStructure
from ui.kit.i18n import install_language
from ui.tournament.clock_window import ClockWindow
from ui.tournament.desk import DirectorDesk
from ui.tournament.director_window import DeskWorker, DirectorWindow
from ui.tournament.level_strip import LevelStrip

SIZES = ((1920, 1080), (1280, 800))
LANGS = ("en", "it")
PLAYERS = (
    "Ada Bianchi",
    "Bruno Conti",
    "Carla Dini",
    "Dario Esposito",
    "Elena Ferri",
    "Fabio Galli",
    "Giulia Neri",
    "Luca Moretti",
    "Marta Rizzo",
)
OPERATOR = "Anna Rossi"
SEED = 7


class WallClock:
    """The demo's wall clock: it moves only when told."""

    def __init__(self) -> None:
        self.t = utc_now()

    def __call__(self) -> datetime:
        return self.t

    def move(self, **kw: float) -> None:
        """Move it on by ``timedelta(**kw)``."""
        self.t += timedelta(**kw)


def _grab(app: QApplication, w: QWidget, path: Path, size: tuple[int, int] | None) -> Path:
    for _ in range(2):  # a smaller size: the fonts shrink first, then the window can
        if size is not None:
            w.resize(*size)
        for _ in range(3):  # the resize, then the layouts it asks for
            app.processEvents()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not w.grab().save(str(path)):
        raise DealerAssistError(f"demo: could not save {path}")
    return path


def _wait(app: QApplication, done: Callable[[], bool], what: str, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise DealerAssistError(f"demo: timed out waiting for {what}")
        app.processEvents()
        time.sleep(0.005)
    app.processEvents()


def demo_desk(journal: Journal, structure: TournamentStructure, clock: WallClock) -> DirectorDesk:
    """The demo tournament: open, nine players registered, seats drawn, clock started."""
    desk = DirectorDesk(journal, "DEMO", structure, now=clock)
    desk.open(seed=SEED, players=len(PLAYERS), by=OPERATOR)
    for name in PLAYERS:
        desk.register(name, by=OPERATOR)
    desk.draw(by=OPERATOR)
    desk.start(by=OPERATOR)
    return desk


def _clock_shots(
    app: QApplication, desk: DirectorDesk, clock: WallClock, out: Path, lang: str
) -> list[Path]:
    saved = []
    win = ClockWindow(now=clock)
    win.show()
    clock.move(minutes=7, seconds=12)
    win.set_snapshot(desk.snapshot())
    for w, h in SIZES:
        saved.append(_grab(app, win, out / f"tournament_clock_{lang}_{w}x{h}.png", (w, h)))
    board = desk.snapshot().board(clock())
    if board.ms_to_break is not None:  # into the break, three minutes of it gone
        clock.move(milliseconds=board.ms_to_break, minutes=3)
        win.refresh()
        for w, h in SIZES:
            saved.append(
                _grab(app, win, out / f"tournament_clock_break_{lang}_{w}x{h}.png", (w, h))
            )
        clock.move(minutes=30)  # the break over, into the next level
    desk.pause(by=OPERATOR)
    win.set_snapshot(desk.snapshot())
    saved.append(
        _grab(app, win, out / f"tournament_clock_paused_{lang}_1920x1080.png", (1920, 1080))
    )
    desk.resume(by=OPERATOR)
    win.close()
    win.deleteLater()
    return saved


def _strip_shots(
    app: QApplication, desk: DirectorDesk, clock: WallClock, out: Path, lang: str
) -> list[Path]:
    strip = LevelStrip(now=clock)
    strip.set_snapshot(desk.snapshot())
    first_street = get_pot_game(desk.structure.game).streets[0].name
    strip.on_turn(("demo-hand", 3, first_street), PLAYERS[2])
    clock.move(seconds=17)
    strip.refresh()
    saved = []
    for w, _h in SIZES:
        strip.resize(w, strip.sizeHint().height())
        saved.append(_grab(app, strip, out / f"tournament_level_strip_{lang}_{w}.png", None))
    strip.stop()
    strip.deleteLater()
    return saved


def _director_shots(
    app: QApplication,
    journal: Journal,
    structure: TournamentStructure,
    clock: WallClock,
    out: Path,
    lang: str,
) -> list[Path]:
    worker = DeskWorker(lambda: DirectorDesk(journal, "DEMO", structure, now=clock))
    win = DirectorWindow(worker, operator=OPERATOR, now=clock)
    win.show()
    try:
        win.refresh()
        _wait(app, lambda: not worker.busy, "the desk")
        win.players.selectRow(0)
        win.rebuy()  # at the starting stack: refused, the core says why
        _wait(app, lambda: not worker.busy, "the rebuy")
        return [
            _grab(app, win, out / f"tournament_director_{lang}_{w}x{h}.png", (w, h))
            for w, h in SIZES
        ]
    finally:
        win.close()
        worker.close()
        win.deleteLater()


def run_demo(
    app: QApplication, structure: TournamentStructure, out: Path, *, screens: tuple[str, ...]
) -> int:
    """Screenshots of ``screens`` ("clock", "strip", "director") in ``out``; 0 when all were
    saved."""
    saved: list[Path] = []
    for lang in LANGS:
        translators = install_language(app, lang)
        with tempfile.TemporaryDirectory(prefix="tournament-demo-") as tmp:
            journal = Journal(str(Path(tmp) / "demo.db"))
            journal.open()
            try:
                clock = WallClock()
                desk = demo_desk(journal, structure, clock)
                if "director" in screens:
                    saved += _director_shots(app, journal, structure, clock, out, lang)
                if "strip" in screens:
                    saved += _strip_shots(app, desk, clock, out, lang)
                if "clock" in screens:
                    saved += _clock_shots(app, desk, clock, out, lang)
            except DealerAssistError as e:
                print(f"[{lang}] demo failed: {e}", file=sys.stderr)
                return 1
            finally:
                journal.close()
        for t in translators:
            app.removeTranslator(t)
    for p in saved:
        print(p)
    return 0
