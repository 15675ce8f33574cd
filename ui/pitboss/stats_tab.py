"""The Statistics tab of the pit-boss window (docs/STATISTICS.md): hands per
hour, drop, win and hold by table, pit, shift, dealer or game over a time range; the hold by day
against the theoretical hold's 95% band and the hands per hour by hour, plotted with pyqtgraph.

Every query (and the simulation of the theoretical hold) runs on the tab's worker thread; the
results come back as a Qt signal. A hold outside its band is marked in the table and listed.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import numpy as np
import pyqtgraph as pg  # type: ignore[import-untyped]
from PySide6.QtCore import QDateTime, QObject, Qt, QThread, QTimeZone, Signal, Slot
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDateTimeEdit,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.audit.stats import StatsRow, StatsSource, VarianceAlert, variance_alerts
from dealer_assist.errors import DealerAssistError
from dealer_assist.games.hold import Estimate, main_game_hold
from ui.pitboss.texts import fit_columns

GROUP_CHOICES = ("table", "pit", "shift", "dealer", "game")
_ALERT_COLOUR = "#f4c7c3"


@dataclass(frozen=True)
class StatsResult:
    """What one refresh found: the rows by the chosen group, the day and hour series, the
    theoretical holds by game and the alerts."""

    by: tuple[str, ...]
    rows: tuple[StatsRow, ...]
    days: tuple[StatsRow, ...]
    hours: tuple[StatsRow, ...]
    theory: dict[str, Estimate | None]
    alerts: tuple[VarianceAlert, ...]


def compute(
    source: StatsSource,
    start: datetime,
    end: datetime,
    by: Sequence[str],
    *,
    pit: str | None = None,
    theory: Callable[[str], Estimate | None] = main_game_hold,
    min_hands: int = 30,
) -> StatsResult:
    """The tab's figures (on the worker thread). Raises DealerAssistError."""
    rows = source.stats(start, end, by, pit=pit)
    days = source.stats(start, end, ("day", "game"), pit=pit)
    hours = source.stats(start, end, ("hour",), pit=pit)
    games = sorted({g for r in rows for g in r.games})
    known = {g: theory(g) for g in games}
    alerts = variance_alerts(rows, lambda g: known.get(g), min_hands=min_hands)
    return StatsResult(tuple(by), tuple(rows), tuple(days), tuple(hours), known, tuple(alerts))


class _Worker(QObject):
    done = Signal(object)
    failed = Signal(str)

    def __init__(
        self,
        factory: Callable[[], StatsSource],
        theory: Callable[[str], Estimate | None],
        min_hands: int,
    ) -> None:
        super().__init__()
        self.min_hands = min_hands
        self.factory = factory
        self.theory = theory
        self._source: StatsSource | None = None

    @Slot(object)
    def run(self, ask: tuple[datetime, datetime, tuple[str, ...], str | None]) -> None:
        start, end, by, pit = ask
        try:
            if self._source is None:
                self._source = self.factory()
            self.done.emit(
                compute(
                    self._source,
                    start,
                    end,
                    by,
                    pit=pit,
                    theory=self.theory,
                    min_hands=self.min_hands,
                )
            )
        except DealerAssistError as e:  # the product's errors are sentences for the screen
            self.failed.emit(str(e))


def _qt(t: datetime) -> QDateTime:
    return QDateTime.fromSecsSinceEpoch(int(t.timestamp()), QTimeZone.utc())


def _py(t: QDateTime) -> datetime:
    return datetime.fromtimestamp(t.toSecsSinceEpoch(), UTC)


def _stamp(label: str, fmt: str) -> float:
    return datetime.strptime(label, fmt).replace(tzinfo=UTC).timestamp()


class StatsTab(QWidget):
    """The tab: range, grouping, Refresh; the table of groups; the two plots; the alerts.

    ``factory`` opens the source on the worker thread (the floor or a journal, read-only);
    ``theory`` gives a game's theoretical hold (default the simulated main game); groups of
    fewer than ``min_hands`` hands are not judged. ``shown``
    is emitted after each refresh is on screen (tests wait on it), ``error`` with the
    sentence of a failed one."""

    shown = Signal()
    error = Signal(str)
    _ask = Signal(object)

    def __init__(
        self,
        factory: Callable[[], StatsSource],
        *,
        pit: str | None = None,
        theory: Callable[[str], Estimate | None] = main_game_hold,
        start: datetime | None = None,
        end: datetime | None = None,
        min_hands: int = 30,
    ) -> None:
        super().__init__()
        self.pit = pit
        self.result: StatsResult | None = None
        end = end or datetime.now(UTC).replace(minute=0, second=0, microsecond=0) + timedelta(
            hours=1
        )
        start = start or end - timedelta(days=30)
        self.start_edit = QDateTimeEdit(_qt(start))
        self.end_edit = QDateTimeEdit(_qt(end))
        for edit in (self.start_edit, self.end_edit):
            edit.setTimeZone(QTimeZone.utc())
            edit.setDisplayFormat("yyyy-MM-dd HH:mm 'UTC'")
        self.group = QComboBox()
        for g in GROUP_CHOICES:
            self.group.addItem(self._group_title(g), g)
        self.refresh_button = QPushButton(self.tr("Refresh"))
        self.refresh_button.clicked.connect(self.refresh)
        self.status = QLabel()
        self.table = QTableWidget(0, 8)
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Group"),
                self.tr("Games"),
                self.tr("Hands"),
                self.tr("Hands/h"),
                self.tr("Drop (EUR)"),
                self.tr("Win (EUR)"),
                self.tr("Hold"),
                self.tr("Theoretical hold"),
            ]
        )
        self.table.setSortingEnabled(True)
        self.hold_plot = pg.PlotWidget(axisItems={"bottom": pg.DateAxisItem(utcOffset=0)})
        self.hold_plot.setTitle(self.tr("Hold % by day against the 95% band"))
        self.hold_plot.setLabel("left", "%")
        self.hold_plot.addLegend()
        self.hands_plot = pg.PlotWidget(axisItems={"bottom": pg.DateAxisItem(utcOffset=0)})
        self.hands_plot.setTitle(self.tr("Hands per hour"))
        self.table.horizontalHeader().setStretchLastSection(True)
        for plot in (self.hold_plot, self.hands_plot):
            plot.setBackground("w")
        self.alerts = QLabel()
        self.alerts.setWordWrap(True)
        bar = QHBoxLayout()
        for w in (
            QLabel(self.tr("From")),
            self.start_edit,
            QLabel(self.tr("To")),
            self.end_edit,
            QLabel(self.tr("By")),
            self.group,
            self.refresh_button,
        ):
            bar.addWidget(w)
        bar.addStretch(1)
        plots = QHBoxLayout()
        plots.addWidget(self.hold_plot)
        plots.addWidget(self.hands_plot)
        layout = QVBoxLayout(self)
        layout.addLayout(bar)
        layout.addWidget(self.status)
        layout.addWidget(self.table, 2)
        layout.addLayout(plots, 3)
        layout.addWidget(self.alerts)
        self._thread = QThread()
        self._thread.setObjectName("pitboss-stats")
        self._worker = _Worker(factory, theory, min_hands)
        self._worker.moveToThread(self._thread)
        self._ask.connect(self._worker.run)
        self._worker.done.connect(self._show)
        self._worker.failed.connect(self._failed)
        # started by the first refresh (a window whose tab is never used runs no thread),
        # ended with the application
        app = QApplication.instance()
        if app is not None:
            app.aboutToQuit.connect(self.close_worker)

    def _group_title(self, group: str) -> str:
        titles = {
            "table": self.tr("Table"),
            "pit": self.tr("Pit"),
            "shift": self.tr("Shift"),
            "dealer": self.tr("Dealer"),
            "game": self.tr("Game"),
        }
        return titles[group]

    def range(self) -> tuple[datetime, datetime]:
        """The range on screen (UTC)."""
        return _py(self.start_edit.dateTime()), _py(self.end_edit.dateTime())

    def set_group(self, group: str) -> None:
        """Choose the grouping (one of :data:`GROUP_CHOICES`)."""
        self.group.setCurrentIndex(GROUP_CHOICES.index(group))

    @Slot()
    def refresh(self) -> None:
        """Ask the worker for the figures of the range and grouping on screen."""
        start, end = _py(self.start_edit.dateTime()), _py(self.end_edit.dateTime())
        self.refresh_button.setEnabled(False)
        self.status.setText(self.tr("Computing…"))
        if not self._thread.isRunning():
            self._thread.start()
        self._ask.emit((start, end, (str(self.group.currentData()),), self.pit))

    def _failed(self, text: str) -> None:
        self.refresh_button.setEnabled(True)
        self.status.setText(text)
        self.error.emit(text)

    def _show(self, result: StatsResult) -> None:
        self.result = result
        self.refresh_button.setEnabled(True)
        alerted = {a.row.key for a in result.alerts}
        self.table.setSortingEnabled(False)
        self.table.setRowCount(len(result.rows))
        for i, r in enumerate(result.rows):
            est = result.theory.get(r.games[0]) if len(r.games) == 1 else None
            cells = [
                " / ".join(r.key),
                ", ".join(r.games),
                str(r.hands),
                r.hands_per_hour_text(),
                _money(r.drop),
                _money(r.win),
                f"{float(r.hold):.2%}",
                f"{float(est.hold):.2%}" if est else "",
            ]
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if j >= 2:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight)
                if r.key in alerted:
                    item.setBackground(QBrush(QColor(_ALERT_COLOUR)))
                self.table.setItem(i, j, item)
        self.table.setSortingEnabled(True)
        fit_columns(self.table)
        hands = sum(r.hands for r in result.rows)
        self.status.setText(
            self.tr("%1 hands, %2 groups")
            .replace("%1", str(hands))
            .replace("%2", str(len(result.rows)))
        )
        self._plot(result)
        if result.alerts:
            self.alerts.setText("\n".join(a.sentence() for a in result.alerts))
        else:
            self.alerts.setText(self.tr("No hold outside its 95% band."))
        self.shown.emit()

    def _plot(self, result: StatsResult) -> None:
        self.hold_plot.clear()
        self.hold_plot.getAxis("bottom").setTicks([day_ticks(result.days)])
        games = sorted({r.value("game") for r in result.days})
        colours = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd")
        for n, game in enumerate(games):
            days = [r for r in result.days if r.value("game") == game]
            xs = [_stamp(r.value("day"), "%Y-%m-%d") + 43_200 for r in days]
            ys = [float(r.hold) * 100 for r in days]
            pen = pg.mkPen(colours[n % len(colours)], width=2)
            self.hold_plot.plot(xs, ys, pen=pen, symbol="o", name=game)
            est = result.theory.get(game)
            if est is None:
                continue
            bands = [est.band(r.hands) for r in days]
            dash = pg.mkPen(colours[n % len(colours)], style=Qt.PenStyle.DashLine)
            self.hold_plot.plot(xs, [float(est.hold) * 100] * len(xs), pen=dash)
            mid = float(est.hold) * 100
            self.hold_plot.addItem(
                pg.ErrorBarItem(
                    x=np.array(xs),
                    y=np.full(len(xs), mid),
                    beam=20_000.0,
                    top=np.array([b[1] * 100 - mid for b in bands]),
                    bottom=np.array([mid - b[0] * 100 for b in bands]),
                    pen=pg.mkPen("#888888"),
                )
            )
        self.hands_plot.clear()
        xs = [_stamp(r.value("hour"), "%Y-%m-%d %H:%M") for r in result.hours]
        if xs:
            bars = pg.BarGraphItem(
                x=[x + 1800 for x in xs],
                height=[r.hands for r in result.hours],
                width=3000,
                brush="#1f77b4",
            )
            self.hands_plot.addItem(bars)

    def close_worker(self) -> None:
        """End the worker thread (waits for a running query); safe twice."""
        if self._thread.isRunning():
            self._thread.quit()
            self._thread.wait(30_000)

    def closeEvent(self, event: object) -> None:
        """Stop the worker with the tab."""
        self.close_worker()
        super().closeEvent(event)  # type: ignore[arg-type]


def stats_tab_for(source: object) -> StatsTab:
    """The tab over the pit-boss window's open hand source (the floor's statistics or the
    journal's: :func:`ui.pitboss.service.stats_factory`)."""
    from ui.pitboss.service import stats_factory

    return StatsTab(stats_factory(source))


def day_ticks(days: Sequence[StatsRow]) -> list[tuple[float, str]]:
    """The day chart's axis: one label per day at its middle (``2026-12-01``), so each point
    is read by its day, not by the hours a time axis picks."""
    names = sorted({r.value("day") for r in days})
    return [(_stamp(d, "%Y-%m-%d") + 43_200, d) for d in names]


def _money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}{abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def run_window(
    floor: str | None,
    db: str | None,
    start: datetime,
    end: datetime,
    by: Sequence[str],
    *,
    pit: str | None = None,
) -> int:
    """``dealer-assist pitboss stats --window``: the tab alone in a window; the exit status."""

    def factory() -> StatsSource:
        if floor:
            from dealer_assist.storage.floor import Floor
            from dealer_assist.storage.floor.stats import FloorStats

            f = Floor(floor)
            f.open()
            return FloorStats(f)
        from dealer_assist.storage.stats import JournalStats

        return JournalStats(str(db))

    app = QApplication.instance() or QApplication(sys.argv)
    tab = StatsTab(factory, pit=pit, start=start, end=end)
    if by and by[0] in GROUP_CHOICES:
        tab.set_group(by[0])
    tab.setWindowTitle(tab.tr("Statistics"))
    tab.resize(1280, 800)
    tab.show()
    tab.refresh()
    status = app.exec()
    tab.close_worker()
    return int(status)
