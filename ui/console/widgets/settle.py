"""The reveal and the settlement list: seats in settlement order, the current seat expanded and
scrolled into view, each box with the chips to pay it, each seat's cards as the reader read them;
*Back* and a tap on a seat reopen a seat already passed."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from ui.console.presenter import ConsolePresenter
from ui.console.texts import box_name, outcome_text, qualification_text, result_name, total_text
from ui.console.view import ConsoleView, SettleRow, Step
from ui.console.walk_texts import chips_text, hole_text, walk_texts
from ui.kit.card_texts import category_name
from ui.kit.format import chip, money
from ui.kit.labels import FitLabel, restyle, set_text
from ui.kit.pin_pad import pin_pad
from ui.kit.translate import tr, trf


def _label(name: str, text: str = "", *, wrap: bool = True) -> QLabel:
    # a line that does not wrap takes a smaller font rather than the row's width: a row wider
    # than the list was cut at its right edge ("Paga EUR 2.490,00" at 1280x800)
    label = QLabel(text) if wrap else FitLabel(text, min_px=13)
    label.setObjectName(name)
    label.setWordWrap(wrap)
    return label


class RowWidget(QFrame):
    """One seat of the settlement list; a tap on it reopens the seat (``tapped(seat)``)."""

    tapped = Signal(int)

    def __init__(self, row: SettleRow, currency: str) -> None:
        super().__init__()
        self.seat = row.seat
        self.setObjectName("row")
        self.setMinimumHeight(64)  # a touch target: the dealer taps a seat to reopen it
        lay = QVBoxLayout(self)
        lay.setContentsMargins(14, 8, 14, 8)
        lay.setSpacing(2)
        head = QHBoxLayout()
        head.setSpacing(8)  # the seat and its total never run together ("Posto 3Ritira")
        mark = "✓ " if row.paid else ""
        # the seat keeps its whole name; the total beside it shrinks its type when short
        self.title = QLabel(f"{mark}{trf('Seat %1', row.seat)}")
        self.title.setObjectName("rowTitle")
        head.addWidget(self.title, 1)
        total = _label("rowTotal", total_text(row.net, currency), wrap=False)
        restyle(total, tone="pay" if row.net > 0 else ("collect" if row.net < 0 else ""))
        head.addWidget(total)
        lay.addLayout(head)
        hand = category_name(row.category) if row.category else ""
        result = " · ".join(x for x in (result_name(row.result), hand) if x)
        lay.addWidget(_label("rowHand", result))
        pay = {box: (counts, rest) for box, counts, rest in row.pay}
        if row.state == "current":
            for b in row.boxes:
                line = QHBoxLayout()
                name = QLabel(box_name(b.box))
                name.setObjectName("rowBox")
                line.addWidget(name, 1)
                out = _label("rowBox", outcome_text(b.outcome, b.net, currency), wrap=False)
                restyle(out, outcome=b.outcome)
                line.addWidget(out)
                lay.addLayout(line)
                if b.box in pay:  # next to the box: the chips to pay it from the table's set
                    counts, rest = pay[b.box]
                    chips = _label("rowChips", chips_text(counts, rest, currency))
                    chips.setAlignment(Qt.AlignmentFlag.AlignRight)
                    lay.addWidget(chips)
            if row.hole:
                lay.addWidget(_label("rowCards", hole_text(row.hole)))
        else:
            parts = []
            for b in row.boxes:
                sign = "+" if b.net > 0 else ""
                amount = f"{sign}{chip(b.net)}" if b.net else "="
                parts.append(f"{box_name(b.box)} {amount}")
            lay.addWidget(_label("rowBoxes", "  ·  ".join(parts)))
        restyle(self, state=row.state)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self.tapped.emit(self.seat)
        super().mousePressEvent(event)


class SettlementPage(QWidget):
    """The settlement list, in settlement order, the current seat expanded and in view."""

    def __init__(self, presenter: ConsolePresenter | None = None) -> None:
        super().__init__()
        self.p = presenter
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(10)
        self.title = _label("sideTitle")
        lay.addWidget(self.title)
        self.hint = _label("sideHint")
        lay.addWidget(self.hint)
        # the whole hand at a glance: what the dealer pays out and collects in all
        self.totals = _label("handTotals")
        lay.addWidget(self.totals)
        # the reveal: the dealer's hand, the qualification and the order of the seats
        self.dealer = _label("revealHand")  # wraps: "Banco: Doppia coppia" at 1280x800
        self.qualify = _label("qualify")
        self.order = _label("revealOrder")
        for w in (self.dealer, self.qualify, self.order):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)
            lay.addWidget(w)
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.body = QWidget()
        self.list = QVBoxLayout(self.body)
        self.list.setContentsMargins(0, 0, 0, 0)
        self.list.setSpacing(8)
        self.list.addStretch(1)
        self._scroll_pending = False
        self.scroller.setWidget(self.body)
        self.body.installEventFilter(self)  # the list's new size: scroll to the current seat
        lay.addWidget(self.scroller, 1)
        # a large payout ([signoff]): the pit boss's badge and PIN before the seat is paid
        self.pad_title = _label("sideHint")
        lay.addWidget(self.pad_title)
        self.pad, self.keys = pin_pad(presenter.signoff_key if presenter is not None else None)
        lay.addWidget(self.pad)
        self.pad.hide()
        self.back = QPushButton("")
        self.back.setObjectName("backButton")
        if presenter is not None:
            self.back.clicked.connect(presenter.back)
        lay.addWidget(self.back)
        self._rows: tuple[SettleRow, ...] = ()
        self._widgets: list[RowWidget] = []

    def set_compact(self, compact: bool) -> None:
        """The reveal's dealer hand, qualification and order of the seats closer together on
        small screens (1280x800: room for a line for the dealer under them)."""
        for w in (self.dealer, self.qualify, self.order):
            restyle(w, compact=compact)

    def show_view(self, view: ConsoleView) -> None:
        """Draw the list (rebuilt only when it changed)."""
        reveal = view.step is Step.REVEAL
        pad = view.signoff_pad
        self.pad.setVisible(pad is not None)
        if pad is None:
            set_text(self.pad_title, "")
        elif pad.field == "badge":
            set_text(self.pad_title, trf("Pit boss badge: %1", pad.badge or "—"))
        else:
            dots = "•" * pad.pin_len or "—"  # a variable: a literal 2nd argument is a comment
            set_text(self.pad_title, trf("PIN: %1", dots))
        for label in (self.dealer, self.order):
            label.setVisible(reveal)
        self.qualify.setVisible(reveal and view.qualifies is not None)
        set_text(self.back, walk_texts()["back"])
        self.back.setVisible(view.step is Step.SETTLEMENT)
        self.back.setEnabled(view.can_back)
        if reveal:
            set_text(self.title, tr("Reveal"))
            set_text(self.hint, tr("Show the dealer's hand, then settle seat by seat."))
            hand = category_name(view.dealer_category) if view.dealer_category else ""
            set_text(self.dealer, trf("Dealer: %1", hand) if hand else "")
            if view.qualifies is not None:
                set_text(self.qualify, qualification_text(view.qualifies))
                restyle(self.qualify, tone="yes" if view.qualifies else "no")
            order = "  →  ".join(str(s) for s in view.settle_order)
            set_text(self.order, trf("Seats in order: %1", order) if order else "")
        else:
            for label in (self.dealer, self.qualify, self.order):
                set_text(label, "")
            set_text(self.title, tr("Settlement"))
            set_text(self.hint, tr("From your right to your left. Pay or collect, then Next."))
        totals = view.totals
        set_text(
            self.totals,
            ""
            if totals is None
            else trf(
                "To pay %1 · To collect %2",
                money(totals[0], view.currency),
                money(totals[1], view.currency),
            ),
        )
        self.totals.setVisible(totals is not None)
        if view.settlement == self._rows:
            return
        self._rows = view.settlement
        for w in self._widgets:
            w.setParent(None)
            w.deleteLater()
        self._widgets = []
        for i, row in enumerate(view.settlement):
            w = RowWidget(row, view.currency)
            if self.p is not None:
                w.tapped.connect(self.p.open_row)
            self.list.insertWidget(i, w)
            self._widgets.append(w)
        # the rows are laid out at the next event loop pass (and the list resized after them):
        # scrolling now would use the old geometry (the current seat of seven stayed below the
        # fold), so the scroll is done again once the list has its new size
        self._scroll_pending = True
        QTimer.singleShot(0, self.scroll_to_current)

    def current_row(self) -> RowWidget | None:
        """The expanded row (the seat to pay now), or None."""
        return next(
            (w for w, r in zip(self._widgets, self._rows, strict=True) if r.state == "current"),
            None,
        )

    def scroll_to_current(self) -> None:
        """Bring the current seat wholly into view."""
        current = self.current_row()
        if current is None:
            self._scroll_pending = False
            return
        self.list.activate()
        self.scroller.ensureWidgetVisible(current, 0, 0)
        port = self.scroller.viewport()
        top = current.mapTo(port, QPoint(0, 0)).y()
        self._scroll_pending = not (top >= 0 and top + current.height() <= port.height())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.body
            and self._scroll_pending
            and event.type() in (QEvent.Type.Resize, QEvent.Type.LayoutRequest)
        ):
            QTimer.singleShot(0, self.scroll_to_current)
        return super().eventFilter(watched, event)
