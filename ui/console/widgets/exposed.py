"""The side-panel page where the dealer records a card exposed by mistake (rules text 000: not
a misdeal; the card stays valid and play goes on)."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from ui.console.presenter import ConsolePresenter, ConsoleView
from ui.kit.card_keypad import CardKeypad
from ui.kit.card_texts import place_text
from ui.kit.labels import named_label, restyle, set_text
from ui.kit.translate import tr


class ExposedPage(QWidget):
    """Record a card exposed by mistake: where it is and, optionally, which card (rules text
    000: the card stays valid, it is not a misdeal)."""

    def __init__(self, presenter: ConsolePresenter) -> None:
        super().__init__()
        self.p = presenter
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(10)
        self.title = named_label("sideTitle", tr("Exposed card"), wrap=False)
        self.hint = named_label("sideHint")
        lay.addWidget(self.title)
        lay.addWidget(self.hint)
        self.grid = QGridLayout()
        self.grid.setSpacing(8)
        lay.addLayout(self.grid)
        self.card_hint = named_label("sideHint", tr("Which card? (optional)"))
        lay.addWidget(self.card_hint)
        self.keys = CardKeypad()
        self.keys.setObjectName("exposedKeypad")
        self.keys.confirm_button.hide()  # "Record" takes the chosen card, or none
        lay.addWidget(self.keys)
        lay.addStretch(1)
        row = QHBoxLayout()
        self.cancel = QPushButton(tr("Cancel"))
        self.cancel.clicked.connect(self._cancel)
        self.record = QPushButton(tr("Record"))
        self.record.setObjectName("recordExposed")
        self.record.clicked.connect(self._record)
        row.addWidget(self.cancel)
        row.addWidget(self.record)
        lay.addLayout(row)
        self.places: dict[str, QPushButton] = {}

    def set_compact(self, compact: bool) -> None:
        """Five rank keys a row in the narrow panel of small screens."""
        self.keys.set_columns(5 if compact else 7)

    def _record(self) -> None:
        card = self.keys.selection()
        self.keys.clear()
        self.p.record_exposed(card)

    def _cancel(self) -> None:
        self.keys.clear()
        self.p.cancel_exposed()

    def show_view(self, view: ConsoleView) -> None:
        """Draw the form (the place buttons are rebuilt when the seats change)."""
        form = view.expose
        positions = form.positions if form is not None else ()
        set_text(self.hint, tr("Not a misdeal: the card stays valid and play goes on. "
                               "Where is it?"))  # fmt: skip
        if tuple(self.places) != positions:
            for b in self.places.values():
                b.setParent(None)
                b.deleteLater()
            self.places = {}
            for i, place in enumerate(positions):
                b = QPushButton(place_text(place))
                b.setObjectName("boxTab")
                b.clicked.connect(lambda _=False, pl=place: self.p.choose_exposed(pl))
                self.grid.addWidget(b, i // 3, i % 3)
                self.places[place] = b
        for place, b in self.places.items():
            restyle(b, selected=form is not None and form.position == place)
        self.record.setEnabled(form is not None and form.position is not None and not view.busy)
        if form is None:
            self.keys.clear()
