"""The side panel's page while a large pot waits for a pit boss (:mod:`ui.poker.signoff`): the
pot, its amount and winners, the role that must sign, the badge and PIN being typed (the PIN as
dots) on the console's pit-boss pad (:func:`ui.kit.pin_pad.pin_pad`), and Void hand
(two taps, as on the other pages). No hole card is shown here: the cards are recorded with the
sign-off, the dealer's screen keeps the showdown's privacy."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QPushButton, QVBoxLayout, QWidget

from ui.kit.format import money
from ui.kit.labels import restyle, set_text
from ui.kit.pin_pad import pin_pad
from ui.kit.translate import tr, trf
from ui.poker.presenter import PokerPresenter, PokerView
from ui.poker.texts import pot_name, role_name, void_label


class SignoffPage(QWidget):
    """The page; :meth:`show_view` draws it and returns the panel's title and hint."""

    def __init__(self, presenter: PokerPresenter, currency: str) -> None:
        super().__init__()
        self.p = presenter
        self.currency = currency
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(8)
        self.pot = QLabel()
        self.pot.setObjectName("pFacts")
        self.pot.setWordWrap(True)
        lay.addWidget(self.pot)
        lay.addStretch(1)
        self.field = QLabel()
        self.field.setObjectName("pinField")
        lay.addWidget(self.field)
        self.pad, self.keys = pin_pad(presenter.signoff_key)
        lay.addWidget(self.pad)
        self.void = QPushButton(tr("Void hand"))
        self.void.setObjectName("voidButton")
        self.void.clicked.connect(presenter.tap_void)
        lay.addWidget(self.void)

    def set_compact(self, compact: bool) -> None:
        """Smaller type on small screens."""
        restyle(self.pot, compact=compact)

    def show_view(self, view: PokerView) -> tuple[str, str]:
        """Draw the pot that waits; ``(title, hint)`` for the panel."""
        wait = view.snap.signoff
        if wait is None:
            return "", ""
        cur = self.currency
        lines = [f"{pot_name(wait.pot)}: {money(wait.amount, cur)}"]
        lines += [trf("→ seat %1: %2", seat, money(share, cur)) for seat, share in wait.winners]
        set_text(self.pot, "\n".join(lines))
        pad = self.p.signoff_pad
        if pad.field == "badge":
            set_text(self.field, trf("Badge: %1", pad.badge or "—"))
        else:
            dots = "•" * pad.pin_len or "—"  # a variable: a literal 2nd argument is a comment
            set_text(self.field, trf("PIN: %1", dots))
        restyle(self.field, selected=True)
        for b in self.keys.values():
            b.setEnabled(not view.busy)
        restyle(self.void, armed=view.void_armed)
        set_text(self.void, void_label(view.void_armed))
        hint = trf(
            "A %1 signs it off with badge and PIN: the pot is pushed after that",
            role_name(wait.role),
        )
        return tr("Large pot: sign-off"), hint
