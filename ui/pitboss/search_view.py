"""The hand search screen: the filter's fields and the paged, sortable results; a double click
(or Open) opens the hand.

The dealer field is the badge id a table records with each hand (``extra["dealer"]``, exact).
The shift picker is a day and one of the day's shifts (the statistics' own
:class:`~dealer_assist.audit.stats.ShiftPlan`: start hours UTC, default 06/14/22); picking one
sets the time range to that shift, from its start to the next shift's (a night shift ends the
next day)."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from PySide6.QtCore import QDate, QDateTime, QTime, QTimeZone, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDateTimeEdit,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.audit.stats import ShiftPlan
from dealer_assist.errors import ConfigError, DealerAssistError
from dealer_assist.games import GAME_CODES, POT_GAME_CODES
from dealer_assist.pitboss.filters import HandFilter
from ui.pitboss.search_model import HandsModel
from ui.pitboss.texts import fit_columns


def _utc(edit: QDateTimeEdit) -> datetime:
    value: datetime = edit.dateTime().toUTC().toPython()  # type: ignore[assignment]
    return value.replace(tzinfo=UTC)


def shift_span(plan: ShiftPlan, day: date, index: int) -> tuple[datetime, datetime]:
    """``(since, until)`` UTC of shift ``index`` (0-based in ``plan.starts``) that starts on
    ``day``: its start hour to the next shift's (the first one of the next day after the last).
    Raises IndexError for an index the plan has not."""
    starts = plan.starts
    begin = datetime(day.year, day.month, day.day, starts[index], tzinfo=UTC)
    if index + 1 < len(starts):
        end = begin.replace(hour=starts[index + 1])
    else:
        end = begin.replace(hour=starts[0]) + timedelta(days=1)
    return begin, end


def shift_plan(text: str | None) -> ShiftPlan:
    """The plan of ``--shifts`` (``"6,14,22"``: UTC start hours, ascending), the default
    06/14/22 for None. Raises ConfigError naming what was wrong."""
    if text is None:
        return ShiftPlan()
    try:
        starts = tuple(int(h) for h in text.split(","))
    except ValueError as e:
        raise ConfigError(f"--shifts: start hours like 6,14,22, got {text!r}") from e
    return ShiftPlan(starts)


def _qt(when: datetime) -> QDateTime:
    return QDateTime(
        QDate(when.year, when.month, when.day), QTime(when.hour, when.minute), QTimeZone.utc()
    )


class SearchView(QWidget):
    """Filter fields, Search, the results; ``open_hand(table_id, position)`` on a double click."""

    open_hand = Signal(str, int)

    def __init__(self, model: HandsModel, shifts: ShiftPlan | None = None) -> None:
        super().__init__()
        self.model = model
        self.shifts = shifts or ShiftPlan()
        self.table = QLineEdit()
        self.game = QComboBox()
        self.game.addItems(["", *GAME_CODES, *POT_GAME_CODES])
        self.use_range = QCheckBox(self.tr("Between"))
        now = QDateTime.currentDateTimeUtc()
        self.since = QDateTimeEdit(now.addDays(-1))
        self.until = QDateTimeEdit(now.addSecs(3600))
        for e in (self.since, self.until):
            e.setTimeZone(QTimeZone.utc())
            e.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.seat = QSpinBox()
        self.seat.setRange(0, 10)
        self.seat.setSpecialValueText(self.tr("any"))
        self.outcome = QComboBox()
        self.outcome.addItem(self.tr("any"), None)
        self.outcome.addItem(self.tr("settled"), "settled")
        self.outcome.addItem(self.tr("void"), "void")
        self.min_amount = QSpinBox()  # whole euros (the search takes minor units: x 100)
        self.min_amount.setRange(0, 20_000_000)
        self.min_amount.setSpecialValueText(self.tr("any"))
        self.void_reason = QLineEdit()
        self.dealer = QLineEdit()
        self.dealer.setMaxLength(64)  # a badge id (the search column's limit)
        self.dealer.setPlaceholderText(self.tr("badge, exact"))
        self.use_shift = QCheckBox(self.tr("Shift"))
        self.shift_day = QDateEdit(now.date())
        self.shift_day.setDisplayFormat("yyyy-MM-dd")
        self.shift = QComboBox()
        for i, (begin, end) in enumerate(
            shift_span(self.shifts, date(2000, 1, 1), n) for n in range(len(self.shifts.starts))
        ):
            self.shift.addItem(f"{begin:%H:%M}–{end:%H:%M} UTC", i)
        self.use_shift.toggled.connect(self._pick_shift)
        self.shift_day.dateChanged.connect(self._pick_shift)
        self.shift.currentIndexChanged.connect(self._pick_shift)
        self.fault = QCheckBox(self.tr("Device fault"))
        self.manual = QCheckBox(self.tr("Card typed on the keypad"))
        self.camera = QCheckBox(self.tr("Card read by the camera"))
        self.go = QPushButton(self.tr("Search"))
        self.status = QLabel()
        form = QGridLayout()
        left, right = QFormLayout(), QFormLayout()
        left.addRow(self.tr("Table"), self.table)
        left.addRow(self.tr("Game"), self.game)
        span = QHBoxLayout()
        for w in (self.since, QLabel("–"), self.until):
            span.addWidget(w)
        left.addRow(self.use_range, span)
        shift = QHBoxLayout()
        shift.addWidget(self.shift_day)
        shift.addWidget(self.shift)
        left.addRow(self.use_shift, shift)
        left.addRow(self.tr("Seat"), self.seat)
        right.addRow(self.tr("Dealer badge"), self.dealer)
        right.addRow(self.tr("Outcome"), self.outcome)
        right.addRow(self.tr("Payout or pot at least (EUR)"), self.min_amount)
        right.addRow(self.tr("Void reason contains"), self.void_reason)
        flags = QHBoxLayout()
        for check in (self.fault, self.manual, self.camera):
            flags.addWidget(check)
        flags.addStretch(1)
        form.addLayout(left, 0, 0)
        form.addLayout(right, 0, 1)
        # under both columns: in Italian the three checks side by side are wider than a column
        form.addLayout(flags, 1, 0, 1, 2)
        self.view = QTableView()
        self.view.setModel(model)
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.doubleClicked.connect(lambda i: self._open(i.row()))
        bar = QHBoxLayout()
        bar.addWidget(self.go)
        bar.addWidget(self.status, 1)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addLayout(bar)
        box.addWidget(self.view, 1)
        self.go.clicked.connect(self.run)
        model.loaded.connect(
            lambda n: self.status.setText(self.tr("Hands shown: %1").replace("%1", str(n)))
        )
        model.loaded.connect(lambda _n: fit_columns(self.view))
        model.error.connect(self.status.setText)

    def current_filter(self) -> HandFilter:
        """The filter the fields say. Raises FilterError for a range that cannot be."""
        flags = tuple(
            f
            for f, box in (
                ("device_fault", self.fault),
                ("manual_card", self.manual),
                ("camera_card", self.camera),
            )
            if box.isChecked()
        )
        ranged = self.use_range.isChecked()
        return HandFilter(
            table_id=self.table.text().strip() or None,
            since=_utc(self.since) if ranged else None,
            until=_utc(self.until) if ranged else None,
            game=self.game.currentText() or None,
            seat=self.seat.value() or None,
            outcome=self.outcome.currentData(),
            min_amount=self.min_amount.value() * 100 or None,
            void_reason=self.void_reason.text().strip() or None,
            flags=flags,
            dealer=self.dealer.text().strip() or None,
        )

    def _pick_shift(self) -> None:
        """The shift picked (a day and a shift) as the time range: since/until set to it."""
        if not self.use_shift.isChecked():
            return
        day: date = self.shift_day.date().toPython()  # type: ignore[assignment]
        begin, end = shift_span(self.shifts, day, int(self.shift.currentData() or 0))
        self.since.setDateTime(_qt(begin))
        self.until.setDateTime(_qt(end))
        self.use_range.setChecked(True)

    def run(self) -> None:
        """Search with the fields' filter (a bad field is said in the status line)."""
        try:
            where = self.current_filter()
        except DealerAssistError as e:
            self.status.setText(str(e))
            return
        self.model.set_filter(where)

    def _open(self, row: int) -> None:
        r = self.model.row(row)
        self.open_hand.emit(r.table_id, r.position)
