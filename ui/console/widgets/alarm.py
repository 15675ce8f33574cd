"""The void alarm: full width over everything, the reason, every wager returned, and the dealer's
acknowledgement (rules text 000: a dealing error or a shuffler malfunction voids the whole hand,
every wager returned)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QVBoxLayout, QWidget

from ui.console.format import money
from ui.console.presenter import ConsolePresenter, ConsoleView, Step
from ui.console.texts import box_name, tr, trf
from ui.console.widgets.seat import set_text


class VoidAlarm(QFrame):
    """Covers its parent while the view is in :attr:`Step.VOID`."""

    def __init__(self, presenter: ConsolePresenter, lang: str, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("alarm")
        self.lang = lang
        lay = QVBoxLayout(self)
        lay.setContentsMargins(80, 50, 80, 50)
        lay.setSpacing(18)
        self.title = QLabel("")
        self.title.setObjectName("alarmTitle")
        self.reason = QLabel("")
        self.reason.setObjectName("alarmReason")
        self.reason.setWordWrap(True)
        self.text = QLabel("")
        self.text.setObjectName("alarmText")
        self.text.setWordWrap(True)
        self.returns = QLabel("")
        self.returns.setObjectName("alarmReturns")
        self.returns.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        for w in (self.title, self.reason, self.text):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)
            lay.addWidget(w)
        lay.addWidget(self.returns, 1)
        self.ack = QPushButton("")
        self.ack.setObjectName("bigButton")
        self.ack.setProperty("kind", "ack")
        self.ack.clicked.connect(presenter.acknowledge_void)
        lay.addWidget(self.ack)
        self.hide()

    def show_view(self, view: ConsoleView) -> None:
        """Show the alarm for a void hand not yet acknowledged, hide it otherwise."""
        if view.step is not Step.VOID or view.void_reason is None:
            set_text(self.returns, "")
            self.hide()
            return
        set_text(self.title, tr("HAND VOID"))
        set_text(self.reason, view.void_reason.text(self.lang))
        set_text(self.text, tr("Every wager is returned to the players. Nothing is paid or "
                               "collected."))  # fmt: skip
        lines = []
        total = 0
        for seat, boxes in view.void_returns:
            parts = [f"{box_name(b)} {money(a, view.currency)}" for b, a in boxes]
            total += sum(a for _, a in boxes)
            lines.append(trf("Seat %1 — return %2", seat, "  ·  ".join(parts)))
        lines.append(trf("Total returned: %1", money(total, view.currency)))
        set_text(self.returns, "\n".join(lines) if view.void_returns else tr("No wagers."))
        set_text(self.ack, tr("Acknowledged — wagers returned"))
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        self.show()
        self.raise_()
