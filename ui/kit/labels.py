"""Label helpers of every console window: style properties, collapsing, text set only when it
changed, and a label that shrinks its font to fit rather than being cut."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QFont, QFontInfo, QFontMetrics, QPainter, QPaintEvent
from PySide6.QtWidgets import QLabel, QPushButton, QWidget


def restyle(widget: QWidget, **props: object) -> None:
    """Set dynamic properties used by the style sheet and re-apply it when one changed."""
    changed = False
    for key, value in props.items():
        if widget.property(key) != value:
            widget.setProperty(key, value)
            changed = True
    if changed:
        widget.style().unpolish(widget)
        widget.style().polish(widget)


def collapse(widget: QWidget, collapsed: bool) -> None:
    """Show or fold a widget without hiding it: ``setVisible`` re-lays the whole window out at
    once, before the other changes of the same redraw are in, and a window without a window
    manager then grows and stays grown; a maximum height is applied with the next layout pass.
    """
    height = 0 if collapsed else 16777215  # QWIDGETSIZE_MAX
    if widget.maximumHeight() != height:
        widget.setMaximumHeight(height)


def set_text(label: QLabel | QPushButton, text: str) -> None:
    """Change a text only when it differs (no needless relayout)."""
    if label.text() != text:
        label.setText(text)


class FitLabel(QLabel):
    """One line that is never cut off: in less width than the text needs it is drawn in a
    smaller font, down to ``min_px`` pixels, and past that elided with "…". ``text()`` stays
    the whole text (read aloud, compared by :func:`set_text`); the layout may give it less than
    its size hint."""

    def __init__(self, text: str = "", *, min_px: int = 14, parent: QWidget | None = None):
        super().__init__(text, parent)
        self.min_px = min_px

    def needed_width(self) -> int:
        """Pixels the whole text needs in the style's font (padding included)."""
        m = self.contentsMargins()
        return QFontMetrics(self.font()).horizontalAdvance(self.text()) + m.left() + m.right()

    def sizeHint(self) -> QSize:
        return QSize(self.needed_width(), super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        m = self.contentsMargins()
        least = QFontMetrics(self.font()).horizontalAdvance("…") + m.left() + m.right()
        return QSize(min(self.needed_width(), least), super().minimumSizeHint().height())

    def shown(self) -> tuple[str, int]:
        """The text as drawn in the current width (elided or whole) and its font size (px)."""
        font = QFont(self.font())
        size = font.pixelSize() if font.pixelSize() > 0 else QFontInfo(font).pixelSize()
        room = self.contentsRect().width()
        text = self.text()
        while size > self.min_px and QFontMetrics(font).horizontalAdvance(text) > room:
            size -= 1
            font.setPixelSize(size)
        metrics = QFontMetrics(font)
        if metrics.horizontalAdvance(text) <= room:
            return text, size
        return metrics.elidedText(text, Qt.TextElideMode.ElideRight, room), size

    def paintEvent(self, event: QPaintEvent) -> None:
        # the style sheet's background and border are painted before this, by QWidget
        text, size = self.shown()
        font = QFont(self.font())
        font.setPixelSize(size)
        painter = QPainter(self)
        painter.setFont(font)
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.drawText(self.contentsRect(), int(self.alignment()), text)


def named_label(name: str, text: str = "", *, wrap: bool = True) -> QLabel:
    """A label with the style sheet's object ``name``, word-wrapped unless ``wrap`` is False."""
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(wrap)
    return label
