"""The poker console's void alarm: over the whole window, the reason, what each seat gets back,
and the dealer's acknowledgement (rules text 000: a dealing error or a device fault voids the
hand, every chip put in goes back to its player).

Where "Acknowledged" sits: in the middle of the screen, half its width, never under the buttons
the dealer taps during a hand (the action bar's "Void hand" at the bottom right, the showdown's
at the bottom, "New hand" at the bottom). With the presenter's hold-off (``ack_ready``, taps in
the first second ignored) the taps that voided the hand cannot acknowledge it as well.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from dealer_assist.engine.voids import VoidReason
from ui.kit.fault_texts import void_text
from ui.kit.format import money
from ui.kit.labels import set_text
from ui.kit.translate import tr, trf
from ui.poker.presenter import PokerPresenter, PokerView


def _label(name: str) -> QLabel:
    label = QLabel("")
    label.setObjectName(name)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignCenter)
    return label


class PokerVoidAlarm(QFrame):
    """Covers its parent while the view's step is ``void`` (styles of the banked alarm).

    Args:
        presenter: taps go to :meth:`PokerPresenter.tap_ack`.
        currency: the table's currency code.
        lang: ``it`` or ``en`` (the core's reason text).
        parent: the widget covered.
    """

    def __init__(
        self, presenter: PokerPresenter, currency: str, lang: str, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.setObjectName("alarm")
        self.currency = currency
        self.lang = lang
        lay = QVBoxLayout(self)
        lay.setContentsMargins(60, 30, 60, 30)
        lay.setSpacing(14)
        self.title = _label("alarmTitle")
        self.reason = _label("alarmReason")
        self.text = _label("alarmText")
        for w in (self.title, self.reason, self.text):
            lay.addWidget(w)
        lay.addStretch(1)
        row = QHBoxLayout()
        row.addStretch(1)
        self.ack = QPushButton("")
        self.ack.setObjectName("bigButton")
        self.ack.setProperty("kind", "ack")
        self.ack.clicked.connect(presenter.tap_ack)
        row.addWidget(self.ack, 2)
        row.addStretch(1)
        lay.addLayout(row)
        lay.addStretch(1)
        self.returns = _label("alarmBox")
        lay.addWidget(self.returns)
        lay.addStretch(2)  # the bottom of the screen stays empty: no button where taps land
        self.hide()

    def show_view(self, view: PokerView) -> None:
        """Shown for a void not acknowledged yet, hidden otherwise."""
        snap = view.snap
        if view.step != "void":
            self.hide()
            return
        set_text(self.title, "⚠  " + tr("HAND VOID"))
        set_text(self.reason, reason_text(snap.void_reason, snap.alarm, self.lang))
        set_text(
            self.text, tr("Every chip each player put in goes back to them. Nothing is awarded.")
        )
        cur = self.currency
        if snap.void_returns:
            lines = [
                trf("Seat %1: %2 back", seat, money(amount, cur))
                for seat, amount in snap.void_returns
            ]
            set_text(self.returns, "\n".join(lines))
        else:
            set_text(
                self.returns,
                tr(
                    "This hand was voided before the console restarted: its "
                    "chips are in the journal."
                ),
            )
        set_text(self.ack, tr("Acknowledged"))
        self.ack.setEnabled(view.ack_ready and not view.busy)
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        self.show()
        self.raise_()


def reason_text(reason: VoidReason | None, code: str, lang: str) -> str:
    """The void's reason for the dealer, in ``lang``: the reason's own text and what to do
    (:func:`ui.kit.fault_texts.void_text`). The free detail is left to the journal: it is the
    core's English (in an Italian alarm too) and after a restart it nests the reason in itself
    ("Restart during the hand (the device lost the deck ...: Restart during the hand (...))")."""
    if reason is None:
        return code
    return void_text(reason, lang)
