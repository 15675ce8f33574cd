"""A round casino chip button for the bet keypad (value in minor units, drawn as a chip)."""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPaintEvent, QPen
from PySide6.QtWidgets import QPushButton, QWidget

from ui.kit import theme
from ui.kit.format import chip

SIZE = 92


class ChipButton(QPushButton):
    """A chip of ``value`` minor units; its text is the short amount (``25``)."""

    def __init__(self, value: int, parent: QWidget | None = None) -> None:
        super().__init__(chip(value), parent)
        self.value = value
        self.setObjectName("chip")
        self.set_size(SIZE)
        self.bg, self.fg = theme.CHIP_COLORS.get(value, ("#607d8b", "#ffffff"))

    def set_size(self, size: int) -> None:
        """Diameter in pixels (at least the 64 px touch target)."""
        size = max(theme.TOUCH, size)
        self.setFixedSize(size, size)

    def inner_rect(self) -> QRectF:
        """The inner ring, where the value is written (pixels, widget coordinates)."""
        r = QRectF(self.rect()).adjusted(3, 3, -3, -3)
        k = r.width() / 2 * 0.28
        return r.adjusted(k, k, -k, -k)

    def label_font(self) -> QFont:
        """The value's font: as large as fits inside the inner ring ("100" in a 66 px chip
        needs a smaller one than in a 92 px chip)."""
        font = QFont(theme.FONT_FAMILY)
        font.setBold(True)
        size = {1: 28, 2: 28, 3: 22}.get(len(self.text()), 18)
        room = self.inner_rect().width() - 6
        font.setPixelSize(size)
        while size > 9 and QFontMetrics(font).horizontalAdvance(self.text()) > room:
            size -= 1
            font.setPixelSize(size)
        return font

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        r = QRectF(self.rect()).adjusted(3, 3, -3, -3)
        base = QColor(self.bg) if self.isEnabled() else QColor("#39423f")
        if self.isDown():
            base = base.lighter(130)
        p.setPen(QPen(QColor(0, 0, 0, 120), 2))
        p.setBrush(base)
        p.drawEllipse(r)
        # edge spots, as on real chips
        c = r.center()
        radius = r.width() / 2
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(255, 255, 255, 215 if self.isEnabled() else 60))
        for i in range(6):
            a = math.radians(i * 60 + 30)
            p.save()
            p.translate(c + QPointF(math.cos(a), math.sin(a)) * (radius - 7))
            p.rotate(i * 60 + 30 + 90)
            p.drawRoundedRect(QRectF(-8, -4, 16, 8), 2, 2)
            p.restore()
        inner = r.adjusted(radius * 0.28, radius * 0.28, -radius * 0.28, -radius * 0.28)
        p.setPen(QPen(QColor(255, 255, 255, 150), 2, Qt.PenStyle.DashLine))
        p.setBrush(base.darker(108))
        p.drawEllipse(inner)
        font = self.label_font()
        p.setFont(font)
        p.setPen(QColor(self.fg) if self.isEnabled() else QColor("#7b8682"))
        p.drawText(r, Qt.AlignmentFlag.AlignCenter, self.text())
        p.end()
