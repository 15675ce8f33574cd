"""The floor view's "sign-offs waiting": the large payouts whose table waits for a pit boss
, with the amount and the seat's cards, and the confirmation by the logged-in
user's PIN entered again. *Confirm sign-off* is enabled only for a role that may confirm the
selected payout's tier (a pit boss or shift manager for a pit boss's tier, a shift manager for
his own; never the auditor); the session checks it again, and logs it, on the worker.

A poker table's large pot comes in the same list (:attr:`SignoffRequest.pot` not None): the
seat column says which pot and its winners ("Pot 2 (side pot), winners seats 3 and 5"), the
amount is the pot's whole amount, the cards each winner's and the board's."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor, QFont
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.pitboss.roles import Action, Role, allowed
from dealer_assist.pitboss.signoffs import BOARD, SignoffRequest, SignoffRow, may_confirm
from ui.money import fmt_money
from ui.pitboss.texts import fit_columns, tr

_WAITING = "#fbe3b4"


def amount_text(minor: int) -> str:
    """``1234500`` -> ``12,345.00`` (the table's currency is the table's own)."""
    return fmt_money(minor, "").strip()


class SignoffPanel(QWidget):
    """The waiting sign-offs; ``confirm_asked(row, pin)`` goes to the window."""

    confirm_asked = Signal(object, str)

    def __init__(self) -> None:
        super().__init__()
        self.rows: tuple[SignoffRow, ...] = ()
        self.role: Role | None = None
        self.title = QLabel()
        bold = QFont(self.title.font())
        bold.setBold(True)
        self.title.setFont(bold)
        self.view = QTableWidget(0, 7)
        self.view.setHorizontalHeaderLabels(
            [
                self.tr("Requested (UTC)"),
                self.tr("Table"),
                self.tr("Hand"),
                self.tr("Seat"),
                self.tr("Amount (EUR)"),
                self.tr("Cards as read"),
                self.tr("Needs"),
            ]
        )
        self.view.horizontalHeader().setStretchLastSection(True)
        self.view.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QTableWidget.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.view.itemSelectionChanged.connect(self._enable)
        self.pin = QLineEdit()
        self.pin.setEchoMode(QLineEdit.EchoMode.Password)
        self.pin.setPlaceholderText(self.tr("Your PIN again"))
        self.pin.setMaximumWidth(200)
        self.pin.textChanged.connect(self._enable)
        self.pin.returnPressed.connect(self._confirm)
        self.confirm = QPushButton(self.tr("Confirm sign-off"))
        self.confirm.clicked.connect(self._confirm)
        self.message = QLabel()
        self.message.setWordWrap(True)
        bar = QHBoxLayout()
        bar.addWidget(self.title)
        bar.addStretch(1)
        bar.addWidget(QLabel(self.tr("PIN")))
        bar.addWidget(self.pin)
        bar.addWidget(self.confirm)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 0, 0, 0)
        box.addLayout(bar)
        box.addWidget(self.view, 1)
        box.addWidget(self.message)
        self.show_rows(())

    def selected(self) -> SignoffRow | None:
        """The request selected, if any."""
        rows = self.view.selectionModel().selectedRows()
        return self.rows[rows[0].row()] if rows and rows[0].row() < len(self.rows) else None

    def _enable(self) -> None:
        row = self.selected()
        role = self.role
        may = role is not None and allowed(role, Action.CONFIRM_SIGNOFF)
        fits = may and row is not None and role is not None and may_confirm(role, row.request.role)
        self.confirm.setEnabled(bool(fits) and bool(self.pin.text()))
        self.pin.setEnabled(may)
        if not may:
            self.confirm.setToolTip(self.tr("Your role does not confirm sign-offs"))
        elif row is not None and not fits:
            self.confirm.setToolTip(
                self.tr("This payout needs a %1").replace("%1", tr(row.request.role))
            )
        else:
            self.confirm.setToolTip("")

    def _confirm(self) -> None:
        row = self.selected()
        if row is None or not self.confirm.isEnabled():
            return
        pin = self.pin.text()
        self.pin.clear()  # never kept on screen
        self.confirm.setEnabled(False)
        self.confirm_asked.emit(row, pin)

    def what(self, q: SignoffRequest) -> str:
        """The seat (``3``) or the pot and its winners (``Pot 2 (side pot), winners seats 3
        and 5``; ``Main pot, winners seat 7``) a request is for."""
        pot = q.pot
        if pot is None:
            return str(q.seat)
        seats = [str(s) for s in q.winners]
        listed = (
            seats[0] if len(seats) == 1 else (", ".join(seats[:-1]) + self.tr(" and ") + seats[-1])
        )
        who = (
            self.tr("winners seat %1") if len(seats) == 1 else self.tr("winners seats %1")
        ).replace("%1", listed)
        if pot == 0:
            return self.tr("Main pot, %1").replace("%1", who)
        return self.tr("Pot %1 (side pot), %2").replace("%1", str(pot)).replace("%2", who)

    def where(self, q: SignoffRequest) -> str:
        """``UTH-01 seat 3`` or ``HE-02 pot 2`` (the answer after a confirmation)."""
        text = self.tr("%1 seat %2") if q.pot is None else self.tr("%1 pot %2")
        return text.replace("%1", q.table_id).replace("%2", str(q.seat if q.pot is None else q.pot))

    def cards_text(self, q: SignoffRequest, holes: bool) -> str:
        """The cards as read; hole cards hidden (▮▮) from a role that may not see them."""
        if q.pot is None:
            return " ".join(q.cards) if holes else " ".join("▮▮" for _ in q.cards)
        parts = []
        for who, cards in q.card_groups:
            shown = cards if holes or who == BOARD else tuple("▮▮" for _ in cards)
            name = self.tr("board") if who == BOARD else who
            parts.append(f"{name}: {' '.join(shown)}")
        return " · ".join(parts)

    def say(self, text: str, *, refused: bool) -> None:
        """A sentence under the list (red for a refusal)."""
        self.message.setStyleSheet("color: #a50e0e" if refused else "color: #1e6b1e")
        self.message.setText(text)

    def show_rows(self, rows: tuple[SignoffRow, ...] | list[SignoffRow]) -> None:
        """Fill the list (the selection kept on the same request when it is still there)."""
        keep = self.selected()
        self.rows = tuple(rows)
        self.title.setText(self.tr("Sign-offs waiting: %1").replace("%1", str(len(self.rows))))
        self.title.setStyleSheet("color: #a50e0e" if self.rows else "")  # a table waits
        holes = self.role is not None and allowed(self.role, Action.VIEW_HOLE_CARDS)
        self.view.setRowCount(len(self.rows))
        for i, r in enumerate(self.rows):
            q = r.request
            values = (
                q.requested_at.strftime("%Y-%m-%d %H:%M:%S"),
                q.table_id,
                str(q.hand_no) if q.hand_no else q.hand_uid,
                self.what(q),
                amount_text(q.amount),
                self.cards_text(q, holes),
                tr(q.role),
            )
            for j, v in enumerate(values):
                item = QTableWidgetItem(v)
                item.setBackground(QBrush(QColor(_WAITING)))
                self.view.setItem(i, j, item)
        fit_columns(self.view)
        if keep is not None:
            for i, r in enumerate(self.rows):
                if r.id == keep.id:
                    self.view.selectRow(i)
        elif self.rows:
            self.view.selectRow(0)
        self._enable()
