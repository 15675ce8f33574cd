"""The void alarm: full width over everything, the reason, every wager returned, and the dealer's
acknowledgement (rules text 000: a dealing error or a shuffler malfunction voids the whole hand,
every wager returned)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.console.presenter import ConsolePresenter
from ui.console.texts import box_name
from ui.console.view import ConsoleView, Step
from ui.console.widgets.panel import fit_font
from ui.kit.fault_texts import void_text
from ui.kit.format import money
from ui.kit.labels import set_text
from ui.kit.translate import tr, trf

# (seat and total px, box px, column gap px), largest first: the returns' grid takes the first
# that fits the alarm's width (four boxes of EUR 500 and an Italian "Restituire" at 1280x800)
GRID_SIZES = ((30, 28, 36), (26, 24, 28), (23, 21, 20), (20, 18, 14), (18, 16, 10))
GRID_MARGIN = 28
SIDE_MARGIN = 80


def _label(name: str, text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    return label


class VoidAlarm(QFrame):
    """Covers its parent while the view is in :attr:`Step.VOID`."""

    def __init__(self, presenter: ConsolePresenter, lang: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("alarm")
        self.lang = lang
        lay = QVBoxLayout(self)
        lay.setContentsMargins(SIDE_MARGIN, 40, SIDE_MARGIN, 40)
        lay.setSpacing(16)
        self.title = _label("alarmTitle")
        self.reason = _label("alarmReason")
        self.reason.setWordWrap(True)
        self.text = _label("alarmText")
        self.text.setWordWrap(True)
        for w in (self.title, self.reason, self.text):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)
            lay.addWidget(w)
        lay.addStretch(1)
        self.table = QFrame()
        self.table.setObjectName("alarmReturns")
        self.grid = QGridLayout(self.table)
        self.grid.setContentsMargins(GRID_MARGIN, 18, GRID_MARGIN, 18)
        self.grid.setHorizontalSpacing(36)
        self.grid.setVerticalSpacing(10)
        lay.addWidget(self.table, 0, Qt.AlignmentFlag.AlignHCenter)
        self.returns = _label("alarmTotal")
        self.returns.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.returns.setWordWrap(True)
        lay.addWidget(self.returns)
        lay.addStretch(1)
        # Not full width along the bottom: there, under the alarm, is the side panel's big
        # button (*Rien ne va plus*): a tap meant for it when the alarm comes up must not be
        # an acknowledgement. The button sits on the left, over the table (and the presenter
        # takes no acknowledgement for ALARM_GUARD seconds after the alarm appears).
        row = QHBoxLayout()
        self.ack = QPushButton("")
        self.ack.setObjectName("bigButton")
        self.ack.setProperty("kind", "ack")
        self.ack.clicked.connect(presenter.acknowledge_void)
        row.addWidget(self.ack, 0, Qt.AlignmentFlag.AlignLeft)
        row.addStretch(1)
        lay.addLayout(row)
        self._rows: object = None
        self.hide()

    def show_view(self, view: ConsoleView) -> None:
        """Show the alarm for a void not yet acknowledged, hide it otherwise."""
        if view.step is not Step.VOID or view.void_reason is None:
            self._fill((), view.currency)
            set_text(self.returns, "")
            self.hide()
            return
        set_text(self.title, "⚠  " + tr("HAND VOID"))
        set_text(self.reason, void_text(view.void_reason, self.lang))  # detail: the journal
        set_text(
            self.text, tr("Every wager is returned to the players. Nothing is paid or collected.")
        )
        self._fill(view.void_returns, view.currency)
        total = sum(a for _, boxes in view.void_returns for _, a in boxes)
        if view.void_returns:
            set_text(self.returns, trf("Total returned: %1", money(total, view.currency)))
        else:
            set_text(
                self.returns,
                tr(
                    "This hand was voided before the console restarted: its "
                    "wagers are in the journal."
                ),
            )
        self.table.setVisible(bool(view.void_returns))
        set_text(self.ack, tr("Acknowledged — wagers returned"))
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
            # over the table's part of the screen, left of the side panel and its big button
            side = parent.findChild(QWidget, "side")
            room = parent.width() - (side.width() if side is not None else 600) - 80 - 40
            self.ack.setFixedWidth(max(320, min(900, room)))
            fit_font(self.ack, self.ack.text(), (32, 28, 24, 20))
        self._fit_grid()
        self.show()
        self.raise_()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_grid()

    def _fit_grid(self) -> None:
        """The returns' type and gaps: the largest of :data:`GRID_SIZES` whose columns (each as
        wide as its widest text) fit the alarm's width, so no amount is cut."""
        room = self.width() - 2 * SIDE_MARGIN
        columns: dict[int, list[QLabel]] = {}
        for i in range(self.grid.count()):
            item = self.grid.itemAt(i)
            label = item.widget() if item is not None else None
            if isinstance(label, QLabel):
                position: tuple[int, int, int, int] = self.grid.getItemPosition(i)  # type: ignore[assignment]
                columns.setdefault(position[1], []).append(label)
        for seat_px, box_px, gap in GRID_SIZES:

            def width(label: QLabel, seat_px: int = seat_px, box_px: int = box_px) -> int:
                font = QFont(label.font())
                font.setPixelSize(box_px if label.objectName() == "alarmBox" else seat_px)
                font.setBold(label.objectName() != "alarmBox")
                return QFontMetrics(font).horizontalAdvance(label.text())

            need = sum(max(width(w) for w in col) for col in columns.values())
            need += gap * max(0, len(columns) - 1) + 2 * GRID_MARGIN
            if need <= room or gap == GRID_SIZES[-1][2]:
                break
        self.grid.setHorizontalSpacing(gap)
        for col in columns.values():
            for w in col:
                px = box_px if w.objectName() == "alarmBox" else seat_px
                sheet = f"font-size: {px}px;"
                if w.styleSheet() != sheet:
                    w.setStyleSheet(sheet)

    def _fill(self, rows: tuple[tuple[int, tuple[tuple[str, int], ...]], ...], cur: str) -> None:
        """One line per seat (seat N first): seat, each box returned, the seat's total."""
        if rows == self._rows:
            return
        self._rows = rows
        while self.grid.count():
            item = self.grid.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.setParent(None)
                w.deleteLater()
        for r, (seat, boxes) in enumerate(rows):
            self.grid.addWidget(_label("alarmSeat", trf("Seat %1", seat)), r, 0)
            for c, (box, amount) in enumerate(boxes, start=1):
                self.grid.addWidget(
                    _label("alarmBox", f"{box_name(box)} {money(amount, cur)}"), r, c
                )
            total = _label("alarmSeat", trf("Return %1", money(sum(a for _, a in boxes), cur)))
            total.setAlignment(Qt.AlignmentFlag.AlignRight)
            self.grid.addWidget(total, r, 5)
