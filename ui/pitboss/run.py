"""Starting the application: the Qt application, the language, the login, the window; and the
``--demo`` that fills a floor from ``simulate`` runs and saves screenshots
(``docs/screenshots/pitboss_*.png``)."""

from __future__ import annotations

import contextlib
import io
import os
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QTimer, QTranslator
from PySide6.QtWidgets import QApplication, QWidget

from dealer_assist.audit.stats import ShiftPlan
from dealer_assist.errors import ConfigError
from dealer_assist.games import DEFAULT_GAME, GAME_CODES, POT_GAME_CODES
from dealer_assist.pitboss.roles import Role
from dealer_assist.pitboss.users import new_user
from ui.pitboss.app import LoginDialog, PitBossWindow
from ui.pitboss.service import Session, open_backend
from ui.pitboss.worker import Jobs
from ui.stop import StopRequest

LANGUAGES = ("it", "en")
DEMO_USERS = (("PB-1", Role.PIT_BOSS, "246813"), ("AUD-1", Role.AUDITOR, "135724"))


def qt_app() -> QApplication:
    """The QApplication (made once)."""
    app = QApplication.instance()
    if app is None:
        app = QApplication([])
    if not isinstance(app, QApplication):
        raise ConfigError("a non-GUI Qt application is already running")
    return app


def install_language(app: QCoreApplication, lang: str) -> list[QTranslator]:
    """The translators of ``lang`` installed (none for English); keep them alive.
    Raises ConfigError for another language or a missing catalogue."""
    if lang not in LANGUAGES:
        raise ConfigError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    if lang == "en":
        return []
    path = Path(str(resources.files("ui").joinpath("i18n", f"console_{lang}.qm")))
    ours = QTranslator(app)
    if not ours.load(str(path)):
        raise ConfigError(f"translation file missing or unreadable: {path}")
    app.installTranslator(ours)
    out = [ours]
    qt = QTranslator(app)
    if qt.load(f"qtbase_{lang}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
        app.installTranslator(qt)
        out.append(qt)
    return out


def _check_display() -> None:
    """Raise ConfigError when Qt would abort for want of a display (no X11 or Wayland display
    and no platform chosen)."""
    if os.environ.get("QT_QPA_PLATFORM"):
        return
    if not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise ConfigError("no display: set DISPLAY (or QT_QPA_PLATFORM=offscreen to try)")


def _stop_on_signals(app: QApplication) -> StopRequest:
    """SIGTERM / SIGINT close every window (the login dialog's own loop ends too) and quit; a
    timer wakes Python up regularly so that its signal handlers run."""

    def quit_app() -> None:
        app.closeAllWindows()
        app.quit()

    stop = StopRequest(on_stop=quit_app).install()
    timer = QTimer(app)
    timer.timeout.connect(lambda: None)
    timer.start(250)
    return stop


def _opened(stop: StopRequest, app: QApplication) -> None:
    if stop.requested:  # the signal came before the loop ran: close now
        app.closeAllWindows()
        return
    print(
        "dealer-assist pitboss: open, waiting for a login (SIGTERM or Ctrl-C closes it)", flush=True
    )


def run(floor: str | None, db: str | None, lang: str, shifts: ShiftPlan | None = None) -> int:
    """Open the backend, log in, show the window until it closes; the exit status.
    ``shifts``: the day's shifts of the search's shift picker (default 06/14/22 UTC)."""
    if lang not in LANGUAGES:
        raise ConfigError(f"language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    session = Session(*open_backend(floor, db))  # a database error is said before any window
    try:
        _check_display()
        app = qt_app()
        translators = install_language(app, lang)
    except BaseException:
        session.close()
        raise
    jobs = Jobs()
    stop = _stop_on_signals(app)
    where = "at the login"
    try:
        login = LoginDialog(session, jobs)
        QTimer.singleShot(0, lambda: _opened(stop, app))  # once the dialog's loop runs
        if login.exec() != LoginDialog.DialogCode.Accepted or stop.requested:
            return 0 if stop.requested else 1
        window = PitBossWindow(session, jobs, shifts)
        window.language = lang
        window.start()
        window.show()
        where = "the window closed, the session logged out"
        print("dealer-assist pitboss: logged in", flush=True)
        return 0 if stop.requested else app.exec()
    finally:
        jobs.stop()  # the search or report running finishes first
        session.logout()
        session.close()
        for t in translators:
            app.removeTranslator(t)
        stop.restore()
        if stop.requested:
            print(
                f"dealer-assist pitboss: stopped by {stop.name} {where}: nothing to resume",
                file=sys.stderr,
                flush=True,
            )


def wait_idle(app: QApplication, jobs: Jobs, timeout: float = 30.0) -> None:
    """Process events until no job is pending (demo and tests). Raises ConfigError on timeout."""
    deadline = time.monotonic() + timeout
    while True:
        app.processEvents()
        if jobs.pending == 0:
            app.processEvents()
            return
        if time.monotonic() > deadline:
            raise ConfigError("the worker did not answer in time")
        time.sleep(0.01)


def demo_journals(folder: Path) -> list[Path]:
    """One journal per table (one chain per table, as the floor wants) dealt by
    ``dealer-assist simulate``: the default game's first (the floor-less demo opens it alone),
    the first pot game, the other banked games (UTH, Hold'em, THB); their paths."""
    from ui.cli import main

    games = (DEFAULT_GAME, POT_GAME_CODES[0], *(c for c in GAME_CODES if c != DEFAULT_GAME))
    out = []
    for game, hands in zip(games, ("40", "30", "20"), strict=False):
        db = folder / f"demo_{game}.db"
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            status = main(
                [
                    "simulate",
                    "--game",
                    game,
                    "--hands",
                    hands,
                    "--seed",
                    "7",
                    "--db",
                    str(db),
                    "--no-progress",
                ]
            )
        if status != 0:
            raise ConfigError(f"simulate --game {game} failed (exit {status})")
        out.append(db)
    return out


def _grab(app: QApplication, w: QWidget, path: Path) -> Path:
    app.processEvents()
    if not w.grab().save(str(path)):
        raise ConfigError(f"cannot save the screenshot {path}")
    return path


def demo(floor: str | None, out: Path) -> list[Path]:
    """Fill a floor (``floor``: the journals synced there; else the UTH table's journal alone),
    log in as a pit boss, and save
    the floor, search and hand screens in English and Italian to ``out``. Returns the files."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    saved: list[Path] = []
    with tempfile.TemporaryDirectory(prefix="pitboss-demo-") as tmp:
        journals = demo_journals(Path(tmp))
        if floor is not None:
            from ui.cli import main

            with contextlib.redirect_stdout(io.StringIO()):
                main(["floor", "migrate", "--floor", floor])
                for db in journals:
                    main(["floor", "sync", "--db", str(db), "--floor", floor])
        backend = open_backend(floor, None) if floor else open_backend(None, journals[0])
        session = Session(*backend)
        for badge, role, pin in DEMO_USERS:
            session.users.put_user(new_user(badge, role, pin), "demo")
        jobs = Jobs()
        try:
            for lang in ("en", "it"):
                translators = install_language(app, lang)
                session.login(*DEMO_USERS[0][::2])
                window = PitBossWindow(session, jobs)
                window.resize(1280, 800)
                window.start()
                window.show()
                wait_idle(app, jobs)
                saved.append(_grab(app, window, out / f"pitboss_floor_{lang}.png"))
                window.tabs.setCurrentWidget(window.search)
                saved.append(_grab(app, window, out / f"pitboss_search_{lang}.png"))
                row = window.model.row(0)
                window.open_hand(row.table_id, row.position)
                wait_idle(app, jobs)
                window.hand.go(len(window.hand.view.replay.steps) // 2 if window.hand.view else 0)
                saved.append(_grab(app, window, out / f"pitboss_hand_{lang}.png"))
                window.reveal(row.table_id, row.position)
                window.recompute(row.table_id, row.position)
                wait_idle(app, jobs)
                saved.append(_grab(app, window, out / f"pitboss_hand_open_{lang}.png"))
                window.close()
                session.logout()
                for t in translators:
                    app.removeTranslator(t)
        finally:
            jobs.stop()
            session.close()
    print("\n".join(str(p) for p in saved), file=sys.stdout)
    return saved
