"""The hand history on the table's console: the last hands, newest first, each
with its board, the dealer's cards and every seat's result and pay/collect; the seats' hole cards
only after a pit boss's badge and PIN on the pad below. Opened by the dealer between hands."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.cards import Card
from dealer_assist.engine.voids import VoidReason
from ui.console.history import HistoryHand
from ui.console.presenter import ConsolePresenter
from ui.console.texts import result_name
from ui.console.view import ConsoleView
from ui.console.walk_texts import walk_texts
from ui.kit.card_texts import card_text
from ui.kit.format import money
from ui.kit.labels import set_text
from ui.kit.pin_pad import pin_pad
from ui.kit.translate import tr, trf


def _label(name: str, text: str = "") -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(True)
    return label


def _cards(cards: tuple[Card, ...]) -> str:
    return " ".join(card_text(c) for c in cards)


def hand_text(hand: HistoryHand, currency: str, lang: str = "en") -> str:
    """One past hand as the history lists it (several lines)."""
    when = hand.ended_at.astimezone().strftime("%H:%M")
    head = trf("Hand %1 · %2", hand.hand_id, when)
    if hand.status == "void":
        why = VoidReason(hand.void_code or "restart").text(lang)
        lines = [head, trf("Void: %1", why)]
    else:
        lines = [head, trf("Board %1 · Dealer %2", _cards(hand.board), _cards(hand.dealer))]
    for s in hand.seats:
        if s.result == "void":
            line = trf("Seat %1 returned", s.seat)
        else:
            amount = money(abs(s.net), currency)
            verb = (
                trf("pay %1", amount)
                if s.net > 0
                else (trf("collect %1", amount) if s.net < 0 else tr("push"))
            )
            line = f"{trf('Seat %1', s.seat)} · {result_name(s.result)} · {verb}"
        if s.hole:
            line += f" · {_cards(s.hole)}"
        lines.append(line)
    return "\n".join(lines)


class HistoryPage(QWidget):
    """The list of past hands, the pit boss's pad for the hole cards, and *Close*."""

    def __init__(self, presenter: ConsolePresenter) -> None:
        super().__init__()
        self.p = presenter
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(8)
        self.title = _label("sideTitle")
        lay.addWidget(self.title)
        self.scroller = QScrollArea()
        self.scroller.setWidgetResizable(True)
        self.scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.body = _label("historyList")
        self.body.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.scroller.setWidget(self.body)
        lay.addWidget(self.scroller, 1)
        self.pad_title = _label("sideHint")
        lay.addWidget(self.pad_title)
        self.pad, self.keys = pin_pad(self.p.history_key)
        lay.addWidget(self.pad)
        self.holes = QPushButton("")
        self.holes.clicked.connect(lambda: self.p.history_key("cards"))
        lay.addWidget(self.holes)
        self.close_button = QPushButton("")
        self.close_button.setObjectName("closeHistory")
        self.close_button.clicked.connect(self.p.close_history)
        lay.addWidget(self.close_button)
        self._shown: object = None

    def show_view(self, view: ConsoleView) -> None:
        """Draw the history (empty when it is closed: no old hand's text stays behind)."""
        texts = walk_texts()
        set_text(self.title, texts["history"])
        set_text(self.close_button, texts["close"])
        set_text(self.holes, texts["holes"])
        hands = view.history or ()
        key = (hands, view.currency)
        if key != self._shown:
            self._shown = key
            text = "\n\n".join(hand_text(h, view.currency) for h in hands)
            set_text(self.body, text or tr("No hands yet"))
        pad = view.history_pad
        self.pad.setVisible(pad is not None)
        self.holes.setVisible(pad is None and not view.history_holes)
        if pad is None:
            set_text(self.pad_title, "")
        elif pad.field == "badge":
            set_text(self.pad_title, trf("Pit boss badge: %1", pad.badge or "—"))
        else:
            dots = "•" * pad.pin_len or "—"
            set_text(self.pad_title, trf("PIN: %1", dots))
