"""The amount keypad: the amount being keyed, a button per chip of the table's set
(``config.chips``), a numeric keypad (the amount typed in whole units: a raise to 154 is
1, 5, 4), the minimum, half the pot and the pot (the engine's totals, inside the legal range),
all-in (the maximum, when the limit is below the stack) and clear. The presenter decides what
is legal; when there is one total (fixed limit, a short stack's all-in) it comes keyed and the
keys are off."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.kit.chip import ChipButton
from ui.kit.format import CHIPS, money
from ui.kit.labels import restyle, set_text
from ui.kit.translate import tr
from ui.poker.presenter import PokerPresenter, PokerView

DIGITS = ("1", "2", "3", "4", "5", "back", "6", "7", "8", "9", "0", "00")
"""The numeric keys, two rows of six (``back`` takes the last digit off)."""


class AmountKeypad(QWidget):
    """Chips add to the amount, digits type it; Min, ½ Pot, Pot and All-in key the rule's
    totals (betting only)."""

    def __init__(self, presenter: PokerPresenter, chips: tuple[int, ...], currency: str) -> None:
        super().__init__()
        self.p = presenter
        self.currency = currency
        self.compact = False
        self.betting = False
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
        pad = QGridLayout()
        pad.setSpacing(6)
        self.digits: dict[str, QPushButton] = {}
        for i, key in enumerate(DIGITS):
            d = QPushButton("⌫" if key == "back" else key)
            d.setObjectName("pDigit")
            if key == "back":
                d.setAccessibleName(tr("Delete the last digit"))
            d.clicked.connect(lambda _=False, k=key: self.p.tap_digit(k))
            pad.addWidget(d, i // 6, i % 6)
            self.digits[key] = d
        lay.addLayout(pad)
        row = QHBoxLayout()
        row.setSpacing(8)
        self.min = QPushButton(tr("Minimum"))
        self.min.clicked.connect(self.p.tap_min)
        self.half = QPushButton(tr("½ Pot"))
        self.half.clicked.connect(lambda: self.p.tap_pot(half=True))
        self.pot = QPushButton(tr("Pot"))
        self.pot.clicked.connect(lambda: self.p.tap_pot(half=False))
        self.all_in = QPushButton(tr("All-in"))
        self.all_in.clicked.connect(self.p.tap_all_in)
        for preset in (self.min, self.half, self.pot, self.all_in):
            preset.setObjectName("pPreset")
            row.addWidget(preset)
        lay.addLayout(row)

    def set_compact(self, compact: bool) -> None:
        """Smaller chips and keys on small screens (there the digits take the chips' place
        while betting, the chips theirs between hands: both do not fit 1280x800)."""
        self.compact = compact
        size = 66 if compact else 84
        for b in self.chips:
            b.set_size(size)
            # the size in the style too: the app's QPushButton minimum width and padding,
            # applied again when the keypad moves between pages, drew the chips as ovals
            b.setStyleSheet(
                f"min-width: {size}px; max-width: {size}px; min-height: {size}px;"
                f" max-height: {size}px; padding: 0px; border: none;"
            )
        for key in (*self.digits.values(), self.min, self.half, self.pot, self.all_in):
            restyle(key, compact=compact)
        self._show_keys()  # a resize between two views: the keys of the new size now

    def show_view(self, view: PokerView, *, betting: bool) -> None:
        """The amount keyed; Min/½ Pot/Pot/All-in only while a bet or raise is open."""
        set_text(self.amount, money(view.amount, self.currency))
        restyle(self.amount, ok=view.amount_ok or not betting)
        legal = view.legal
        open_ = betting and legal is not None and legal.bet_kind is not None
        if open_ and legal is not None and legal.only is not None:
            open_ = False  # one total: nothing to key
        for key in (self.min, self.half, self.pot, self.all_in):
            key.setVisible(betting)
        top = legal is None or legal.all_in or not betting
        set_text(self.all_in, tr("All-in") if top else tr("Maximum"))
        self.min.setEnabled(open_)
        self.all_in.setEnabled(open_)
        self.half.setEnabled(open_ and legal is not None and legal.half_pot is not None)
        self.pot.setEnabled(open_ and legal is not None and legal.pot is not None)
        self.clear.setEnabled(open_ or not betting)
        for key in (*self.chips, *self.digits.values()):
            key.setEnabled(not betting or open_)
        self.betting = betting
        self._show_keys()

    def _show_keys(self) -> None:
        """At 1280x800 the digits while betting, the chips between hands; both elsewhere."""
        for chip in self.chips:
            chip.setVisible(not (self.compact and self.betting))
        for digit in self.digits.values():
            digit.setVisible(self.betting or not self.compact)
