"""A playing card drawn by hand: face up (rank and suit, red or black), face down, or empty.

A face-down card holds no card value at all, so nothing about it can be read from the widget;
its accessible name only says that it is face down.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QLinearGradient, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from dealer_assist.cards import Card
from ui.kit import theme
from ui.kit.card_texts import SUIT_SYMBOLS, card_spoken, rank_text
from ui.kit.cards import CardFace
from ui.kit.translate import tr

RATIO = 1.4  # height / width of a card


class CardView(QWidget):
    """One card slot. ``set_face`` takes a :data:`~ui.kit.cards.CardFace`."""

    def __init__(self, width: int = 90, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._face: CardFace = "empty"
        self.set_card_width(width)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.setAccessibleName(tr("No card"))

    @property
    def face(self) -> CardFace:
        """What the slot shows now."""
        return self._face

    def set_card_width(self, width: int) -> None:
        """Resize the card to ``width`` pixels (height follows the card ratio)."""
        self.setFixedSize(QSize(width, round(width * RATIO)))
        self.update()

    def set_face(self, face: CardFace) -> None:
        """Show a card, a back or nothing."""
        if face == self._face:
            return
        self._face = face
        if isinstance(face, Card):
            self.setAccessibleName(card_spoken(face))
        elif face == "back":
            self.setAccessibleName(tr("Face-down card"))
        else:
            self.setAccessibleName(tr("No card"))
        self.update()

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        radius = r.width() * 0.09
        face = self._face
        if isinstance(face, Card):
            self._paint_face(p, r, radius, face)
        elif face == "back":
            self._paint_back(p, r, radius)
        else:
            pen = QPen(QColor(255, 255, 255, 70), 2, Qt.PenStyle.DashLine)
            p.setPen(pen)
            p.setBrush(QColor(0, 0, 0, 40))
            p.drawRoundedRect(r, radius, radius)
        p.end()

    def _paint_face(self, p: QPainter, r: QRectF, radius: float, card: Card) -> None:
        p.setPen(QPen(QColor("#b9b9b9"), 1.5))
        p.setBrush(QColor("#fbfbf8"))
        p.drawRoundedRect(r, radius, radius)
        color = theme.CARD_RED if card.suit in "hd" else theme.CARD_BLACK
        p.setPen(color)
        w = r.width()
        corner = QFont(theme.FONT_FAMILY)
        corner.setBold(True)
        corner.setPixelSize(max(10, round(w * 0.30)))
        p.setFont(corner)
        top = QRectF(r.left() + w * 0.07, r.top() + w * 0.04, w * 0.6, w * 0.36)
        p.drawText(top, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, rank_text(card))
        small = QFont(theme.FONT_FAMILY)
        small.setPixelSize(max(9, round(w * 0.24)))
        p.setFont(small)
        under = QRectF(r.left() + w * 0.07, top.bottom() - w * 0.02, w * 0.4, w * 0.3)
        p.drawText(
            under, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, SUIT_SYMBOLS[card.suit]
        )
        big = QFont(theme.FONT_FAMILY)
        big.setPixelSize(max(14, round(w * 0.62)))
        p.setFont(big)
        centre = QRectF(r.left(), r.top() + r.height() * 0.30, w, r.height() * 0.66)
        p.drawText(centre, Qt.AlignmentFlag.AlignCenter, SUIT_SYMBOLS[card.suit])

    def _paint_back(self, p: QPainter, r: QRectF, radius: float) -> None:
        grad = QLinearGradient(r.topLeft(), r.bottomRight())
        grad.setColorAt(0, QColor("#8e1b2a"))
        grad.setColorAt(1, QColor("#5a0f1a"))
        p.setPen(QPen(QColor("#f1e2c0"), 2))
        p.setBrush(grad)
        p.drawRoundedRect(r, radius, radius)
        inner = r.adjusted(r.width() * 0.1, r.width() * 0.1, -r.width() * 0.1, -r.width() * 0.1)
        p.setPen(QPen(QColor(241, 226, 192, 150), 1.5))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawRoundedRect(inner, radius * 0.6, radius * 0.6)
        step = max(6.0, inner.width() / 6)
        p.save()
        p.setClipRect(inner)
        p.setPen(QPen(QColor(241, 226, 192, 60), 1))
        x = inner.left() - inner.height()
        while x < inner.right():
            p.drawLine(QPointF(x, inner.top()), QPointF(x + inner.height(), inner.bottom()))
            p.drawLine(QPointF(x, inner.bottom()), QPointF(x + inner.height(), inner.top()))
            x += step
        p.restore()
