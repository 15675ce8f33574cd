"""Bars under the top bar: the device blocking the next hand, and a card-source switch notice."""

from __future__ import annotations

from typing import Protocol

from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QBoxLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
)

from ui.kit.card_texts import notice_text
from ui.kit.fault_texts import detail_text, not_ready_text, notice_reason_text
from ui.kit.labels import restyle, set_text
from ui.kit.status import DeviceStatus, SourceNotice
from ui.kit.translate import tr


class BarView(Protocol):
    """What the bars draw from a view (the banked and the poker console's)."""

    @property
    def not_ready(self) -> bool:
        """The device blocks the next hand."""

    @property
    def device(self) -> DeviceStatus:
        """The card source's status."""

    @property
    def notice(self) -> SourceNotice | None:
        """The card-source switch the dealer has not dismissed, None when none."""


class NoticeSink(Protocol):
    """The presenter the notice's OK button tells."""

    def dismiss_notice(self) -> None:
        """The dealer has read the notice."""


class NotReadyBar(QFrame):
    """Red bar while the device is not ready between hands (the next hand waits until
    the fault clears); says why and how the reconnection goes."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("notReady")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(24, 10, 24, 10)
        self.title = QLabel("")
        self.title.setObjectName("notReadyTitle")
        self.text = QLabel("")
        self.text.setObjectName("notReadyText")
        self.text.setWordWrap(True)
        lay.addWidget(self.title)
        lay.addWidget(self.text, 1)
        self._lay = lay
        self.hide()

    def set_compact(self, compact: bool) -> None:
        """Smaller type and margins (a small screen with other bars up)."""
        m = (16, 4, 16, 4) if compact else (24, 10, 24, 10)
        self._lay.setContentsMargins(*m)
        for w in (self.title, self.text):
            restyle(w, compact=compact)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """Narrow (1280x800): the sentence under the title, on the bar's whole width, so the
        bar takes three lines rather than seven and the table keeps its room."""
        narrow = self.width() < 1000
        direction = QBoxLayout.Direction.TopToBottom if narrow else QBoxLayout.Direction.LeftToRight
        if self._lay.direction() != direction:
            self._lay.setDirection(direction)
        super().resizeEvent(event)

    def show_view(self, view: BarView) -> None:
        """Visible while ``view.not_ready``."""
        if not view.not_ready:
            set_text(self.text, "")
            self.hide()
            return
        set_text(self.title, "⚠ " + tr("DEVICE NOT READY"))
        why = not_ready_text(view.device)
        set_text(self.text, why + " — " + tr("the next hand waits until it clears"))
        self.show()


class NoticeBar(QFrame):
    """Amber bar announcing that the table reads its cards from another source
    ("replaced by the next one with a visible notice"); stays until the dealer taps OK."""

    def __init__(self, presenter: NoticeSink) -> None:
        super().__init__()
        self.setObjectName("notice")
        lay = QHBoxLayout(self)
        lay.setContentsMargins(24, 8, 16, 8)
        lines = QVBoxLayout()
        lines.setSpacing(2)
        self.text = QLabel("")
        self.text.setObjectName("noticeText")
        self.text.setWordWrap(True)
        # the dealer's sentence, wrapped (never cut at 1280x800), never wider than the window
        self.reason = QLabel("")
        self.reason.setObjectName("noticeReason")
        self.reason.setWordWrap(True)
        self.reason.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        lines.addWidget(self.text)
        lines.addWidget(self.reason)
        lay.addLayout(lines, 1)
        self.ok = QPushButton(tr("OK"))
        self.ok.setObjectName("noticeOk")
        self.ok.setMinimumWidth(120)
        self.ok.clicked.connect(presenter.dismiss_notice)
        lay.addWidget(self.ok)
        self._lay = lay
        self.hide()

    def set_compact(self, compact: bool) -> None:
        """Smaller type and margins (a small screen with other bars up)."""
        m = (16, 4, 12, 4) if compact else (24, 8, 16, 8)
        self._lay.setContentsMargins(*m)
        for w in (self.text, self.reason):
            restyle(w, compact=compact)

    def show_view(self, view: BarView, *, said: str = "") -> None:
        """Visible while a switch notice is unread; its reason is left out when ``said`` (the
        text of a bar shown with it) already gives it (kept in the tooltip)."""
        if view.notice is None:
            set_text(self.text, "")
            set_text(self.reason, "")
            self.hide()
            return
        set_text(self.text, "⇄ " + notice_text(view.notice))
        why = notice_reason_text(view.notice)  # the driver's words go to the log
        repeated = bool(said) and detail_text(view.notice.reason) in said
        set_text(self.reason, "" if repeated else why)
        self.reason.setVisible(not repeated)
        self.reason.setToolTip(why)
        self.show()
