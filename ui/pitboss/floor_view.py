"""The floor view: every table with its game, status (dealing, faulted, void alarm, offline),
hands in the last hour and open alerts; the large payouts whose table waits for a sign-off
(:mod:`ui.pitboss.signoff_panel`); the alerts with who acknowledged them and when, and
Acknowledge (disabled for a role that may not: the auditor)."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.pitboss.filters import TAMPER_STATUS, AlertRow, FloorSnapshot
from dealer_assist.pitboss.users import LOCK_AFTER
from ui.pitboss.signoff_panel import SignoffPanel
from ui.pitboss.texts import ALERT_COLOUR, fit_columns, tr

_STATUS_COLOURS = {
    "dealing": "#d7f0d7",
    "faulted": "#fbe3b4",
    "void_alarm": "#f4c7c3",
    "offline": "#dddddd",
    TAMPER_STATUS: ALERT_COLOUR,  # over every other status while the alert is open
}


def _when(t: object) -> str:
    return "" if t is None else t.strftime("%Y-%m-%d %H:%M:%S")  # type: ignore[attr-defined]


class FloorScreen(QWidget):
    """Tables and alerts; ``refresh_asked`` and ``acknowledge_asked(key)`` go to the window."""

    refresh_asked = Signal()
    acknowledge_asked = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.alerts: tuple[AlertRow, ...] = ()
        self.may_acknowledge = False
        self.tables = QTableWidget(0, 6)
        self.tables.setHorizontalHeaderLabels(
            [
                self.tr("Table"),
                self.tr("Game"),
                self.tr("Status"),
                self.tr("Hands last hour"),
                self.tr("Last record (UTC)"),
                self.tr("Open alerts"),
            ]
        )
        self.tables.horizontalHeader().setStretchLastSection(True)
        self.alert_view = QTableWidget(0, 6)
        self.alert_view.setHorizontalHeaderLabels(
            [
                self.tr("Raised (UTC)"),
                self.tr("Alert"),
                self.tr("Table"),
                self.tr("Hand"),
                self.tr("Detail"),
                self.tr("Acknowledged"),
            ]
        )
        self.alert_view.horizontalHeader().setStretchLastSection(True)
        self.alert_view.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.alert_view.itemSelectionChanged.connect(self._enable)
        self.signoffs = SignoffPanel()
        self.refresh = QPushButton(self.tr("Refresh"))
        self.ack = QPushButton(self.tr("Acknowledge"))
        self.message = QLabel()
        self.locks = QLabel()  # badges locked by wrong PINs: shown to who reads the access log
        self.locks.setWordWrap(True)
        self.locks.setStyleSheet("color: #a50e0e; font-weight: bold")
        self.locks.setVisible(False)
        self.refresh.clicked.connect(self.refresh_asked.emit)
        self.ack.clicked.connect(self._acknowledge)
        bar = QHBoxLayout()
        for w in (self.refresh, self.ack):
            bar.addWidget(w)
        bar.addWidget(self.message, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.tables)
        split.addWidget(self.signoffs)
        split.addWidget(self.alert_view)
        box = QVBoxLayout(self)
        box.addLayout(bar)
        box.addWidget(self.locks)
        box.addWidget(split, 1)
        self._enable()

    def selected_alert(self) -> AlertRow | None:
        """The alert selected, if any."""
        rows = self.alert_view.selectionModel().selectedRows()
        return self.alerts[rows[0].row()] if rows else None

    def _enable(self) -> None:
        a = self.selected_alert()
        self.ack.setEnabled(self.may_acknowledge and a is not None and a.acknowledged_by is None)
        if not self.may_acknowledge:
            self.ack.setToolTip(self.tr("Your role does not acknowledge alerts"))

    def _acknowledge(self) -> None:
        a = self.selected_alert()
        if a is not None:
            self.acknowledge_asked.emit(a.key)

    def show_locks(self, locks: list[tuple[str, datetime]]) -> None:
        """Say which badges wrong PINs locked and until when (hidden when none)."""
        text = ", ".join(
            self.tr("%1 until %2 UTC").replace("%1", b).replace("%2", f"{u:%H:%M}")
            for b, u in locks
        )
        self.locks.setText(
            self.tr("Locked after %1 wrong PINs: %2")
            .replace("%1", str(LOCK_AFTER))
            .replace("%2", text)
        )
        self.locks.setVisible(bool(locks))

    def show_snapshot(self, snap: FloorSnapshot) -> None:
        """Fill both tables from ``snap``."""
        self.tables.setRowCount(len(snap.tables))
        for i, t in enumerate(snap.tables):
            values = (
                t.table_id,
                t.game,
                tr(t.status),
                str(t.hands_last_hour),
                _when(t.last_recorded_at),
                str(t.open_alerts),
            )
            for j, v in enumerate(values):
                item = QTableWidgetItem(v)
                if j == 2:
                    item.setBackground(QBrush(QColor(_STATUS_COLOURS.get(t.status, "#ffffff"))))
                self.tables.setItem(i, j, item)
        self.alerts = snap.alerts
        self.alert_view.setRowCount(len(snap.alerts))
        for i, a in enumerate(snap.alerts):
            ack = (
                f"{a.acknowledged_by} {_when(a.acknowledged_at)}"
                if a.acknowledged_by
                else self.tr("open")
            )
            values = (
                _when(a.raised_at),
                tr(a.kind),
                a.table_id or "",
                "" if a.position is None else str(a.position),
                a.detail,
                ack,
            )
            for j, v in enumerate(values):
                self.alert_view.setItem(i, j, QTableWidgetItem(v))
        fit_columns(self.tables)
        fit_columns(self.alert_view)
        self._enable()
