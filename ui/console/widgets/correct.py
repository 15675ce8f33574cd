"""A pit boss corrects a seat's decision after the next cards were turned:
the decisions that may replace it, then the pit boss's badge and PIN, on the side panel."""

from __future__ import annotations

from PySide6.QtWidgets import QGridLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.console.presenter import ConsolePresenter
from ui.console.texts import action_label
from ui.console.view import ConsoleView
from ui.kit.labels import restyle, set_text
from ui.kit.pin_pad import pin_pad
from ui.kit.translate import tr, trf


class CorrectPage(QWidget):
    """The correction form (shown while :attr:`ConsoleView.correct` is set)."""

    def __init__(self, presenter: ConsolePresenter) -> None:
        super().__init__()
        self.p = presenter
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(8)
        self.title = QLabel("")
        self.title.setObjectName("sideTitle")
        self.title.setWordWrap(True)
        lay.addWidget(self.title)
        self.choices_box = QWidget()
        self.choices = QGridLayout(self.choices_box)
        self.choices.setContentsMargins(0, 0, 0, 0)
        self.choices.setSpacing(8)
        lay.addWidget(self.choices_box)
        self.pad_title = QLabel("")
        self.pad_title.setObjectName("sideHint")
        lay.addWidget(self.pad_title)
        self.pad, self.keys = pin_pad(self.p.correction_key)
        lay.addWidget(self.pad)
        lay.addStretch(1)
        self.cancel = QPushButton("")
        self.cancel.clicked.connect(lambda: self.p.correction_key("cancel"))
        lay.addWidget(self.cancel)
        self.buttons: list[QPushButton] = []
        self._shown: object = None

    def show_view(self, view: ConsoleView) -> None:
        """Draw the form (nothing when there is none)."""
        form = view.correct
        set_text(self.cancel, tr("Cancel"))
        if form is None:
            self._shown = None
            return
        set_text(self.title, trf("Correct seat %1 (pit boss)", form.seat))
        if (form.seat, form.choices) != self._shown:
            self._shown = (form.seat, form.choices)
            for b in self.buttons:
                b.setParent(None)
                b.deleteLater()
            self.buttons = []
            for i, action in enumerate(form.choices):
                b = QPushButton(action_label(action, view.game))
                b.setObjectName("decision")
                b.clicked.connect(lambda _=False, a=action: self.p.choose_correction(a))
                self.choices.addWidget(b, i // 2, i % 2)
                self.buttons.append(b)
        for b, action in zip(self.buttons, form.choices, strict=True):
            restyle(b, selected=action == form.choice)
        self.pad.setVisible(form.choice is not None)
        if form.choice is None:
            set_text(self.pad_title, tr("What did the player decide?"))
        elif form.field == "badge":
            set_text(self.pad_title, trf("Pit boss badge: %1", form.badge or "—"))
        else:
            dots = "•" * form.pin_len or "—"
            set_text(self.pad_title, trf("PIN: %1", dots))
