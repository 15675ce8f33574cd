"""The room's big tournament clock, its own window (``dealer-assist tournament clock``): the
level, the time left in it (big), blinds or limits, the ante (and the bring-in in Stud), the
next level, the break countdown during a break, players left, average stack, prize pool and the
payouts by place. It draws a :class:`~ui.tournament.board.Board` computed every
``TICK_MS`` from the last :class:`~ui.tournament.board.Snapshot` (set by a
:class:`~ui.tournament.feed.JournalFeed` or directly); nothing here reads the journal, so the
GUI thread never waits. A problem (no journal, unreadable, no tournament) is shown on the
screen, never hidden. No card anywhere.

Sized for 1920x1080 and 1280x800: fonts scale with the window, one-line texts shrink rather
than being cut (:class:`~ui.console.widgets.seat.FitLabel`).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QCloseEvent, QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.events import utc_now
from ui.kit import format as fmt
from ui.kit import theme
from ui.kit.labels import FitLabel, set_text
from ui.kit.translate import tr, trf
from ui.tournament.board import Board, Snapshot, countdown, last_minute
from ui.tournament.feed import NO_JOURNAL, NO_TOURNAMENT, JournalFeed
from ui.tournament.texts import blinds, chips, forced, game_line, level_amounts, place_name

TICK_MS = 200
MAX_PLACES = 9  # payout rows shown; more are summed up in one line
# font sizes (px) at 1920x1080; scaled with the window. Legible from 5 m on a room's screen
# (a 55" 1080p screen: 0.63 mm a pixel): what a player reads is at least LEGIBLE_PX (about
# 25 mm letters, a line of sight of 5 m at the usual 1:200), the labels over the values 40
SIZES = {
    "name": 48,
    "game": 40,
    "banner": 72,
    "time": 270,
    "under": 40,
    "blinds": 96,
    "forced": 66,
    "next": 48,
    "brk": 48,
    "ptitle": 40,
    "pvalue": 66,
    "prow": 48,
    "problem": 32,
}
LEGIBLE_PX = 48
STYLE = """
#tcClock {{ background: {bg}; }}
#tcName {{ color: {text}; font-weight: bold; font-size: {name}px; }}
#tcGame {{ color: {muted}; font-size: {game}px; }}
#tcBanner {{ color: #1a1406; background: {gold}; font-weight: bold; font-size: {banner}px;
            border-radius: 14px; padding: 4px 28px; }}
#tcBanner[kind="break"] {{ background: {blue}; color: #ffffff; }}
#tcBanner[kind="paused"] {{ background: {red}; color: #ffffff; }}
#tcBanner[kind="idle"] {{ background: {slate}; color: {text}; }}
#tcTime {{ color: {text}; font-weight: bold; font-size: {time}px; }}
#tcTime[kind="break"] {{ color: #8cc8ff; }}
#tcTime[kind="paused"] {{ color: #ff9a9a; }}
#tcTime[kind="warning"] {{ color: #ffb347; }}
#tcBanner[kind="warning"] {{ background: #ffb347; color: #1a1406; }}
#tcUnder {{ color: {muted}; font-size: {under}px; }}
#tcBlinds {{ color: {gold}; font-weight: bold; font-size: {blinds}px; }}
#tcForced {{ color: {text}; font-size: {forced}px; }}
#tcNext, #tcBreak {{ color: {text}; font-size: {next}px; }}
#tcPanel {{ background: {panel}; border-left: 2px solid {line}; }}
#tcPTitle {{ color: {muted}; font-size: {ptitle}px; }}
#tcPValue {{ color: {text}; font-weight: bold; font-size: {pvalue}px; }}
#tcPRow {{ color: {text}; font-size: {prow}px; }}
#tcProblem {{ color: #ffffff; background: {red_dark}; font-size: {problem}px;
             padding: 8px 16px; }}
"""


def _label(name: str, fit: bool = True) -> QLabel:
    lab: QLabel = FitLabel(min_px=10) if fit else QLabel()
    lab.setObjectName(name)
    return lab


class ClockWindow(QMainWindow):
    """The room's clock.

    Args:
        now: the wall clock (aware UTC; a test passes its own).
        feed: where snapshots come from (started by :meth:`start`, stopped by ``close``);
            None: :meth:`set_snapshot` is called by the owner (demo, director's console).
    """

    def __init__(
        self, *, now: Callable[[], datetime] = utc_now, feed: JournalFeed | None = None
    ) -> None:
        super().__init__()
        self.now = now
        self.feed = feed
        self.snap: Snapshot | None = None
        self.board: Board | None = None
        self.problem_code: str | None = None
        self.setWindowTitle(tr("Tournament clock"))
        central = self.central = QWidget()
        central.setObjectName("tcClock")
        self.setCentralWidget(central)
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        body = QHBoxLayout()
        body.setSpacing(0)
        outer.addLayout(body, 1)
        main = QVBoxLayout()
        main.setContentsMargins(40, 24, 40, 24)
        main.setSpacing(6)
        body.addLayout(main, 1)
        self.name, self.game = _label("tcName"), _label("tcGame")
        self.banner, self.time = _label("tcBanner"), _label("tcTime")
        self.under = _label("tcUnder")
        self.blinds, self.forced = _label("tcBlinds"), _label("tcForced")
        self.next, self.brk = _label("tcNext"), _label("tcBreak")
        for w in (self.name, self.game):
            main.addWidget(w)
        main.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.banner)
        row.addStretch(1)
        main.addLayout(row)
        main.addWidget(self.time)
        main.addWidget(self.under)
        main.addStretch(1)
        for w in (self.blinds, self.forced):
            main.addWidget(w)
        main.addSpacing(12)
        for w in (self.next, self.brk):
            main.addWidget(w)
        self.panel = QFrame()
        self.panel.setObjectName("tcPanel")
        side = QVBoxLayout(self.panel)
        side.setContentsMargins(32, 20, 32, 20)
        side.setSpacing(2)
        self.values: dict[str, QLabel] = {}
        for key, text in (
            ("left", tr("Players left")),
            ("avg", tr("Average stack")),
            ("pool", tr("Prize pool")),
        ):
            t = _label("tcPTitle")
            t.setText(text)
            side.addWidget(t)
            self.values[key] = _label("tcPValue")
            side.addWidget(self.values[key])
            side.addSpacing(8)
        self.pay_title = _label("tcPTitle")
        self.pay_title.setText(tr("Payouts"))
        side.addWidget(self.pay_title)
        grid = QGridLayout()
        grid.setHorizontalSpacing(24)
        grid.setVerticalSpacing(2)
        self.places = [_label("tcPRow") for _ in range(MAX_PLACES)]
        self.rows = [_label("tcPRow") for _ in range(MAX_PLACES + 1)]  # the amounts
        for i, (place, amount) in enumerate(zip(self.places, self.rows, strict=False)):
            amount.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            grid.addWidget(place, i, 0)
            grid.addWidget(amount, i, 1)
        grid.addWidget(self.rows[MAX_PLACES], MAX_PLACES, 0, 1, 2)  # places beyond, summed
        grid.setColumnStretch(1, 1)
        side.addLayout(grid)
        side.addStretch(1)
        body.addWidget(self.panel)
        self.problem = QLabel()
        self.problem.setObjectName("tcProblem")
        self.problem.setWordWrap(True)
        self.problem.hide()
        outer.addWidget(self.problem)
        self._quit = QShortcut(QKeySequence("Ctrl+Q"), self)
        self._quit.activated.connect(self.close)
        self._timer = QTimer(self)
        self._timer.timeout.connect(self.refresh)
        if feed is not None:
            feed.snapshot.connect(self.set_snapshot)
            feed.problem.connect(self.set_problem)
        self._fit()
        self.refresh()

    # -- feeding --------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the refresh timer (and the feed's reading)."""
        self._timer.start(TICK_MS)
        if self.feed is not None:
            self.feed.start()

    def set_snapshot(self, snap: Snapshot) -> None:
        """The tournament as the journal now says; the problem line goes."""
        self.snap = snap
        self.problem_code = None
        self.problem.hide()
        self.refresh()

    def set_problem(self, code: str, detail: str) -> None:
        """Show what keeps the clock from reading the journal (the last board stays)."""
        self.problem_code = code
        if code == NO_JOURNAL:
            text = trf("No journal at %1", detail)
        elif code == NO_TOURNAMENT:
            text = trf("No tournament in this journal yet (%1)", detail)
        else:
            text = trf("The journal cannot be read: %1", detail)
        self.problem.setText(text)
        self.problem.show()
        self.refresh()

    # -- drawing --------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Draw the board at ``now()``."""
        if self.snap is None:
            self._empty()
            return
        b = self.board = self.snap.board(self.now())
        set_text(self.name, b.name)
        set_text(self.game, game_line(b.game, b.betting))
        lv = b.level
        if b.finished:
            self._banner(tr("TOURNAMENT OVER"), "idle")
            winner = self.snap.winner
            self._time(
                "—",
                "idle",
                trf("Winner: %1 · thank you for playing", winner)
                if winner
                else tr("Thank you for playing"),
            )
        elif b.paused:
            self._banner(trf("LEVEL %1 · PAUSED", lv.number), "paused")
            ms = b.break_ms_left if b.on_break else b.level_ms_left
            self._time(
                countdown(ms) if ms is not None else "—", "paused", tr("The clock is stopped")
            )
        elif b.on_break:
            self._banner(tr("BREAK"), "break")
            self._time(countdown(b.break_ms_left or 0), "break", tr("Play resumes in"))
        elif not b.started:
            self._banner(trf("LEVEL %1", lv.number), "idle")
            self._time(
                countdown((lv.minutes or 0) * 60_000) if lv.minutes else "—",
                "idle",
                tr("The tournament has not started"),
            )
        elif last_minute(b):  # the one-minute end-of-level warning
            self._banner(trf("LEVEL %1 · LAST MINUTE", lv.number), "warning")
            self._level_time(b)
            self._kind(self.time, "warning")
        else:
            self._banner(trf("LEVEL %1", lv.number), "level")
            self._level_time(b)
        shown = b.next_level if b.on_break and b.next_level else lv
        set_text(self.blinds, blinds(b.game, shown))
        set_text(self.forced, forced(b.game, shown))
        self._next(b)
        self._panel(b)

    def _level_time(self, b: Board) -> None:
        if b.level_ms_left is not None:
            under = tr("Time left in the level")
            if b.hands_left is not None:
                under = trf("Time left in the level · or %1 hands", b.hands_left)
            self._time(countdown(b.level_ms_left), "level", under)
        elif b.hands_left is not None:
            self._time(str(b.hands_left), "level", tr("Hands left in the level"))
        else:
            self._time("—", "level", tr("Last level: played to the end"))

    def _next(self, b: Board) -> None:
        if b.on_break:
            nxt = b.next_level
            set_text(self.next, trf("After the break: level %1", nxt.number) if nxt else "")
            set_text(self.brk, "")
            return
        nxt = b.next_level
        set_text(
            self.next,
            trf("Next level %1: %2", nxt.number, level_amounts(b.game, nxt))
            if nxt
            else tr("This is the last level"),
        )
        if b.next_break is not None and b.ms_to_break is not None:
            set_text(
                self.brk,
                trf("Break in %1 (%2 minutes)", countdown(b.ms_to_break), b.next_break.minutes),
            )
        elif b.next_break is not None:
            set_text(
                self.brk,
                trf(
                    "Break after level %1 (%2 minutes)",
                    b.next_break.after_level,
                    b.next_break.minutes,
                ),
            )
        else:
            set_text(self.brk, "")

    def _panel(self, b: Board) -> None:
        set_text(self.values["left"], trf("%1 of %2", b.players_left, b.entrants))
        set_text(self.values["avg"], chips(b.average_stack))
        set_text(self.values["pool"], fmt.money(b.pool_cents))
        places = list(b.places)
        for i, r in enumerate(self.rows):
            text, name = "", ""
            if i < min(len(places), MAX_PLACES):
                text, name = fmt.money(places[i]), place_name(i + 1)
            elif i == MAX_PLACES and len(places) > MAX_PLACES:
                rest = sum(places[MAX_PLACES:])
                text = trf("Places %1–%2: %3", MAX_PLACES + 1, len(places), fmt.money(rest))
            set_text(r, text)
            r.setVisible(bool(text))
            if i < MAX_PLACES:
                set_text(self.places[i], name)
                self.places[i].setVisible(bool(name))

    def _empty(self) -> None:
        for w in (
            self.name,
            self.game,
            self.blinds,
            self.forced,
            self.next,
            self.brk,
            *self.values.values(),
            *self.rows,
            *self.places,
        ):
            set_text(w, "")
        set_text(self.name, tr("Tournament clock"))
        self._banner(tr("WAITING FOR THE JOURNAL"), "idle")
        self._time("—", "idle", "")

    def _banner(self, text: str, kind: str) -> None:
        set_text(self.banner, text)
        self._kind(self.banner, kind)

    def _time(self, text: str, kind: str, under: str) -> None:
        set_text(self.time, text)
        self._kind(self.time, kind)
        set_text(self.under, under)

    @staticmethod
    def _kind(w: QWidget, kind: str) -> None:
        if w.property("kind") != kind:
            w.setProperty("kind", kind)
            w.style().unpolish(w)
            w.style().polish(w)

    # -- size -----------------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        self._fit()
        super().resizeEvent(event)

    def _fit(self) -> None:
        scale = min(self.width() / 1920, self.height() / 1080) or 1.0
        scale = max(scale, 0.3)
        px = {k: max(int(v * scale), 10) for k, v in SIZES.items()}
        colors = {
            "bg": theme.BG,
            "text": theme.TEXT,
            "muted": theme.MUTED,
            "gold": theme.GOLD,
            "blue": theme.BLUE,
            "red": theme.RED,
            "red_dark": theme.RED_DARK,
            "slate": theme.SLATE,
            "panel": theme.PANEL,
            "line": theme.LINE,
        }
        self.central.setStyleSheet(STYLE.format(**px, **colors))
        self.panel.setFixedWidth(int(self.width() * 0.34))

    def closeEvent(self, event: QCloseEvent) -> None:
        self._timer.stop()
        if self.feed is not None:
            self.feed.stop()
        super().closeEvent(event)
