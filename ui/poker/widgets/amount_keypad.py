"""The amount keypad: the amount being keyed, a button per chip of the table's set
(``config.chips``), the minimum, all-in (the maximum, when the limit is below the stack) and
clear. The presenter decides what is legal; in fixed limit the one total there is comes keyed
and the keys are off."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.kit.chip import ChipButton
from ui.kit.format import CHIPS, money
from ui.kit.labels import restyle, set_text
from ui.kit.translate import tr
from ui.poker.presenter import PokerPresenter, PokerView


class AmountKeypad(QWidget):
    """Chips add to the amount; Min and All-in key the rule's bounds (betting only)."""

    def __init__(self, presenter: PokerPresenter, chips: tuple[int, ...], currency: str) -> None:
        super().__init__()
        self.p = presenter
        self.currency = currency
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(8)
        top = QHBoxLayout()  # Clear beside the amount: a row less for small screens
        top.setSpacing(8)
        self.amount = QLabel("")
        self.amount.setObjectName("pAmount")
        top.addWidget(self.amount, 1)
        self.clear = QPushButton(tr("Clear"))
        self.clear.clicked.connect(self.p.tap_clear)
        top.addWidget(self.clear)
        lay.addLayout(top)
        grid = QGridLayout()
        grid.setSpacing(8)
        self.chips = []
        for i, value in enumerate(chips):
            b = ChipButton(value)
            if currency == CHIPS:  # a tournament's chips are whole chips, not cents
                b.setText(f"{value:,}")
            b.setAccessibleName(money(value, currency))
            b.clicked.connect(lambda _=False, v=value: self.p.tap_chip(v))
            grid.addWidget(b, 0, i)
            self.chips.append(b)
        lay.addLayout(grid)
        row = QHBoxLayout()
        row.setSpacing(8)
        self.min = QPushButton(tr("Minimum"))
        self.min.clicked.connect(self.p.tap_min)
        self.all_in = QPushButton(tr("All-in"))
        self.all_in.clicked.connect(self.p.tap_all_in)
        for key in (self.min, self.all_in):
            row.addWidget(key)
        lay.addLayout(row)

    def set_compact(self, compact: bool) -> None:
        """Smaller chips on small screens."""
        size = 66 if compact else 84
        for b in self.chips:
            b.set_size(size)
            # the size in the style too: the app's QPushButton minimum width and padding,
            # applied again when the keypad moves between pages, drew the chips as ovals
            b.setStyleSheet(
                f"min-width: {size}px; max-width: {size}px; min-height: {size}px;"
                f" max-height: {size}px; padding: 0px; border: none;"
            )

    def show_view(self, view: PokerView, *, betting: bool) -> None:
        """The amount keyed; Min/All-in only while a bet or raise is open."""
        set_text(self.amount, money(view.amount, self.currency))
        restyle(self.amount, ok=view.amount_ok or not betting)
        legal = view.legal
        open_ = betting and legal is not None and legal.bet_kind is not None
        if open_ and legal is not None and legal.fixed is not None:
            open_ = False  # fixed limit: nothing to key
        self.min.setVisible(betting)
        self.all_in.setVisible(betting)
        top = legal is None or legal.all_in or not betting
        set_text(self.all_in, tr("All-in") if top else tr("Maximum"))
        self.min.setEnabled(open_)
        self.all_in.setEnabled(open_)
        self.clear.setEnabled(open_ or not betting)
        for b in self.chips:
            b.setEnabled(not betting or open_)
