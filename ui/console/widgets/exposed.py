"""The side-panel page where the dealer records a card exposed by mistake (rules text 000: not
a misdeal; the card stays valid and play goes on)."""

from __future__ import annotations

from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QGridLayout, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ui.console.presenter import ConsolePresenter
from ui.console.view import ConsoleView
from ui.kit.card_keypad import CardKeypad
from ui.kit.card_texts import place_text
from ui.kit.labels import collapse, named_label, restyle, set_text
from ui.kit.translate import tr

PLACE_COLUMNS = 3
PLACE_GAP = 8
BUTTON_PAD = 24  # the style sheet's padding and border, both sides


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
        self.grid.setSpacing(PLACE_GAP)
        for column in range(PLACE_COLUMNS):  # equal columns, not sized by their texts
            self.grid.setColumnStretch(column, 1)
        lay.addLayout(self.grid)
        self.card_hint = named_label("sideHint", tr("Which card? (optional)"))
        lay.addWidget(self.card_hint)
        self.keys = CardKeypad()
        self.keys.setObjectName("exposedKeypad")
        self.keys.confirm_button.hide()  # "Record" takes the chosen card, or none
        lay.addWidget(self.keys)
        lay.addStretch(1)
        self.cancel = QPushButton(tr("Cancel"))
        self.cancel.clicked.connect(self._cancel)
        self.record = QPushButton(tr("Record"))
        self.record.setObjectName("recordExposed")
        self.record.clicked.connect(self._record)
        # beside the keypad's Clear: one row less, so the form fits 1280x800 under a banner
        self.keys.bottom.addWidget(self.cancel)
        self.keys.bottom.addWidget(self.record)
        self.places: dict[str, QPushButton] = {}
        self._lay = lay
        self._compact = False

    def set_compact(self, compact: bool) -> None:
        """Five rank keys a row in the narrow panel of small screens, tighter spacing and no
        second hint line there (the title says what the form is)."""
        self.keys.set_columns(5)  # the panel keeps its width: five rank keys a row
        self._lay.setSpacing(6 if compact else 10)
        # the row of Clear, Cancel and Record fits the narrow panel in Italian too
        sheet = "font-size: 19px; font-weight: bold;" if compact else ""
        for button in (self.cancel, self.record):
            button.setStyleSheet(sheet)
        self.keys.clear_button.setStyleSheet(sheet or "font-size: 22px; font-weight: bold;")
        self._compact = compact
        keys = self.keys.layout()
        if keys is not None:  # the keys' rows closer: room for a refusal under them
            m = 0 if compact else 9
            keys.setContentsMargins(m, m, m, m)
            keys.setSpacing(4 if compact else 6)

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
        hint = tr("Not a misdeal: the card stays valid and play goes on. Where is it?")
        set_text(self.hint, "" if self._compact else hint)
        set_text(self.card_hint, "" if self._compact else tr("Which card? (optional)"))
        collapse(self.hint, self._compact)
        collapse(self.card_hint, self._compact)
        # a small screen keeps the title only while no line for the dealer needs its room
        short = self._compact and view.message is not None
        set_text(self.title, "" if short else tr("Exposed card"))
        collapse(self.title, short)
        if tuple(self.places) != positions:
            for b in self.places.values():
                b.setParent(None)
                b.deleteLater()
            self.places = {}
            for i, place in enumerate(positions):
                b = QPushButton(place_text(place))
                b.setObjectName("boxTab")
                b.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
                b.clicked.connect(lambda _=False, pl=place: self.p.choose_exposed(pl))
                self.grid.addWidget(b, i // 3, i % 3)
                self.places[place] = b
        for place, b in self.places.items():
            restyle(b, selected=form is not None and form.position == place, compact=self._compact)
        self._fit_places()
        self.record.setEnabled(form is not None and form.position is not None and not view.busy)
        if form is None:
            self.keys.clear()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_places()

    def _fit_places(self) -> None:
        """A place's name on two lines when one is wider than its button ("Carte comuni" in
        the narrow panel of 1280x800): cut to "arte comun" it named no place."""
        room = (self.width() - PLACE_GAP * (PLACE_COLUMNS - 1)) // PLACE_COLUMNS - BUTTON_PAD
        for place, b in self.places.items():
            text = place_text(place)
            b.ensurePolished()  # the style sheet's font (compact or not) before it is measured
            if QFontMetrics(b.font()).horizontalAdvance(text) > room and " " in text:
                text = "\n".join(text.rsplit(" ", 1))
            set_text(b, text)
