"""The Dealer control of both consoles: the dealer on the box shown discreetly in the top bar
("Dealer D-1042"); between hands a *Dealer change* button in the table's top left corner (the
felt's empty corner outside the seats) opens a pad over the window where the incoming dealer
enters their badge (digit keys, or typed: a badge reader is a keyboard). A badge is an id, no
PIN. During a hand the button is not there (and the table refuses a change whoever asks).

The control reads the presenter's latest snapshot (``snap.on_box``, ``snap.seq``,
``snap.error``) after every view and sends the badge with ``presenter.change_dealer`` (the
table's side: :mod:`ui.kit.dealer_change`). The badge is checked here first (not a badge,
already on the box) so the table is asked only what it may accept; the table's refusals
(a hand in progress, not a known dealer, the journal) are said on the pad.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.errors import TableError
from dealer_assist.table.dealers import BADGE_MAX, check_badge
from ui.kit import theme
from ui.kit.pin_pad import pin_pad
from ui.kit.translate import tr, trf

STYLE = f"""
#dealerStatus {{ color: {theme.MUTED}; font-size: 14px; }}
#dealerButton {{ background: {theme.PANEL}; color: {theme.TEXT}; border: 1px solid {theme.LINE};
                border-radius: 10px; padding: 0px 14px; font-size: 17px; }}
#dealerPad {{ background: rgba(6, 10, 9, 215); }}
#dealerCard {{ background: {theme.PANEL}; border: 2px solid {theme.GOLD_DARK};
              border-radius: 16px; }}
#dealerTitle {{ font-size: 28px; font-weight: bold; color: {theme.GOLD}; }}
#dealerNow, #dealerAsk {{ font-size: 19px; color: {theme.TEXT}; }}
#dealerBadge {{ font-size: 30px; padding: 6px 12px; color: {theme.TEXT};
               background: #0f1513; border: 1px solid {theme.LINE}; border-radius: 10px; }}
#dealerMessage {{ font-size: 17px; color: #ff9a9a; }}
#dealerCard QPushButton {{ min-height: 56px; font-size: 22px; }}
#dealerCard QPushButton#dealerAction {{ font-size: 19px; padding: 4px 10px; }}
"""


class _Presenter(Protocol):
    """What the control needs of a console's presenter (banked or poker)."""

    @property
    def snap(self) -> Any: ...

    def subscribe(self, listener: Callable[[Any], None]) -> None: ...

    def change_dealer(self, badge: str) -> int: ...


def refusal_text(code: str, badge: str, rule: str = "") -> str:
    """The dealer's sentence for a refused dealer change (``code`` of
    :mod:`ui.kit.dealer_change`, or the table's own: ``state``, ``journal``...)."""
    if code in ("dealer_in_hand", "state") or rule == "hand_in_progress":
        return tr("A dealer changes between hands only: finish the hand first")
    if code == "dealer_badge":
        return trf("Not a badge: 1 to %1 letters or digits", BADGE_MAX)
    if code == "dealer_same":
        return trf("Dealer %1 is on the box already", badge)
    if code == "dealer_unknown":
        return trf("Badge %1 is not a dealer known to the pit boss's list", badge)
    if code in ("journal", "storage"):
        return tr("Not recorded: the journal did not take it. Try again")
    return tr("Refused: the dealer change was not recorded")


class DealerPad(QFrame):
    """The pad over the window: who is on the box, the badge field, digit keys, confirm."""

    def __init__(self, control: DealerControl, parent: QWidget) -> None:
        super().__init__(parent)
        self.setObjectName("dealerPad")
        self.control = control
        outer = QVBoxLayout(self)
        card = QFrame()
        card.setObjectName("dealerCard")
        card.setFixedWidth(560)
        lay = QVBoxLayout(card)
        lay.setContentsMargins(28, 20, 28, 20)
        lay.setSpacing(10)
        self.title = QLabel("")
        self.title.setObjectName("dealerTitle")
        self.now = QLabel("")
        self.now.setObjectName("dealerNow")
        self.ask = QLabel("")
        self.ask.setObjectName("dealerAsk")
        self.badge = QLineEdit()
        self.badge.setObjectName("dealerBadge")
        self.badge.setMaxLength(BADGE_MAX)
        self.badge.returnPressed.connect(self.confirm)
        pad, self.keys = pin_pad(self.key)
        self.message = QLabel("")
        self.message.setObjectName("dealerMessage")
        self.message.setWordWrap(True)
        row = QHBoxLayout()
        self.cancel = QPushButton("")
        self.cancel.setObjectName("dealerAction")
        self.cancel.clicked.connect(self.close_pad)
        self.ok = QPushButton("")
        self.ok.setObjectName("dealerAction")
        self.ok.clicked.connect(self.confirm)
        row.addWidget(self.cancel)
        row.addWidget(self.ok)
        for w in (self.title, self.now, self.ask, self.badge, pad, self.message):
            lay.addWidget(w)
        lay.addLayout(row)
        outer.addWidget(card, 0, Qt.AlignmentFlag.AlignCenter)
        parent.installEventFilter(self)  # follows the window's size
        self.hide()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Cover the parent whenever it is resized."""
        parent = self.parentWidget()
        if parent is not None and watched is parent and event.type() == QEvent.Type.Resize:
            self.setGeometry(parent.rect())
        return False

    def open_pad(self) -> None:
        """Show the pad, empty, over the window."""
        self.badge.clear()
        self.message.setText("")
        self.refresh()
        parent = self.parentWidget()
        if parent is not None:
            self.setGeometry(parent.rect())
        self.show()
        self.raise_()
        self.control.hide()
        self.badge.setFocus()

    def close_pad(self) -> None:
        """Back to the table, nothing changed (a badge already sent stays sent)."""
        self.control.sent = None
        self.hide()
        self.control.refresh()

    def key(self, key: str) -> None:
        """A digit key: ``back`` deletes the last character, ``next`` confirms."""
        if key == "back":
            self.badge.backspace()
        elif key == "next":
            self.confirm()
        else:
            self.badge.insert(key)

    def confirm(self) -> None:
        """Check the badge, then send it to the table (the answer comes with a snapshot)."""
        text = self.badge.text()
        try:
            badge = check_badge(text)
        except TableError:
            self.message.setText(refusal_text("dealer_badge", text))
            return
        if badge == self.control.on_box:
            self.message.setText(refusal_text("dealer_same", badge))
            return
        if not self.control.between:
            self.message.setText(refusal_text("dealer_in_hand", badge))
            return
        self.message.setText("")
        self.control.send(badge)
        self.refresh()

    def refresh(self) -> None:
        """The texts in the language in force and the table's state now."""
        c = self.control
        self.title.setText(tr("Dealer change"))
        self.now.setText(
            trf("On the box now: %1", c.on_box) if c.on_box else tr("Nobody on the box yet")
        )
        self.ask.setText(tr("Incoming dealer: enter your badge"))
        self.badge.setPlaceholderText(tr("Badge"))
        self.cancel.setText(tr("Back to the table"))
        self.ok.setText(tr("Take the box"))
        waiting = c.sent is not None
        self.ok.setEnabled(c.between and not waiting)
        for b in self.keys.values():
            b.setEnabled(not waiting)


def attach_to_top_bar(top: QWidget, hand: QWidget, chip: QWidget) -> None:
    """Put ``chip`` on the top bar's second line, after the hand number label ``hand``: the
    bar's other labels (the device's status, which shrinks into "…") keep their room."""
    bar = top.layout()
    for i in range(bar.count() if bar is not None else 0):
        item = bar.itemAt(i) if bar is not None else None
        column = item.layout() if item is not None else None
        if isinstance(column, QVBoxLayout) and column.indexOf(hand) >= 0:
            at = column.indexOf(hand)
            column.removeWidget(hand)
            row = QHBoxLayout()
            row.setSpacing(12)
            row.addWidget(hand, 1)
            row.addWidget(chip)
            column.insertLayout(at, row)
            return
    if isinstance(bar, QHBoxLayout):  # a bar of another shape: beside the rest
        bar.addWidget(chip)


class DealerControl(QPushButton):
    """The Dealer control: a touch button (64 px, :data:`~ui.kit.theme.TOUCH`) over the top
    left corner of the table, shown between hands only, that opens the pad; and
    :attr:`status`, the discreet "Dealer D-1042" of the top bar (:func:`attach_to_top_bar`).

    Args:
        presenter: the console's presenter (its ``snap``, ``subscribe``, ``change_dealer``).
        between: whether its snapshot is between hands (:func:`ui.console.window.banked_between`,
            :func:`ui.poker.window.poker_between`).
        overlay: the widget the pad covers and the button lies on (the central widget).
        anchor: the table area whose corner (outside the seats' arc) holds the button.
        bottom: the bottom left corner rather than the top left (a table whose seats reach the
            top corners: the banked console's flatter arc on a short screen).
    """

    def __init__(
        self,
        presenter: _Presenter,
        between: Callable[[Any], bool],
        overlay: QWidget,
        anchor: QWidget,
        *,
        bottom: bool = False,
    ) -> None:
        super().__init__("", overlay)
        self._bottom = bottom
        self.setObjectName("dealerButton")
        self.setStyleSheet(STYLE)
        self.setFixedHeight(theme.TOUCH)
        self.setMinimumWidth(theme.TOUCH)
        self.status = QLabel("")
        self.status.setObjectName("dealerStatus")
        self.status.setStyleSheet(STYLE)
        self.presenter = presenter
        self._between = between
        self._anchor = anchor
        self.on_box = ""
        self.between = False
        self.sent: tuple[int, str] | None = None  # (command number, badge) not answered yet
        self.pad = DealerPad(self, overlay)
        self.pad.setStyleSheet(STYLE)
        self.clicked.connect(self.pad.open_pad)
        anchor.installEventFilter(self)  # follows the table area
        presenter.subscribe(lambda _view: self.refresh())
        self.refresh()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """Keep the button in the table area's top left corner."""
        if watched is self._anchor and event.type() in (QEvent.Type.Resize, QEvent.Type.Move):
            self._place()
        return False

    def _place(self) -> None:
        parent = self.parentWidget()
        if parent is not None:
            self.adjustSize()
            y = self._anchor.height() - self.height() - 22 if self._bottom else 12
            self.move(self._anchor.mapTo(parent, QPoint(12, y)))
            self.raise_()

    def send(self, badge: str) -> None:
        """Send ``badge`` to the table; the pad waits for the answer."""
        self.sent = (self.presenter.change_dealer(badge), badge)
        self.refresh()  # a table that answered at once (no worker thread) has answered now

    def refresh(self) -> None:
        """Follow the presenter's latest snapshot: the badge on the box, between hands (the
        button shows), the answer to the badge sent (accepted: the pad closes; refused: it
        says why)."""
        snap = self.presenter.snap
        self.on_box = str(getattr(snap, "on_box", "") or "")
        self.between = bool(self._between(snap))
        # nobody on the box says so, not "Dealer —" (a dash reads as a badge missing a digit)
        on_box = trf("Dealer %1", self.on_box) if self.on_box else tr("No dealer logged in")
        self.status.setText(on_box)
        self.setText(tr("Dealer change").replace(" ", "\n", 1))  # two lines: a narrow corner
        self.setVisible(self.between and not self.pad.isVisible())
        if self.isVisible():
            self._place()
        sent = self.sent
        if sent is not None and snap.seq >= sent[0]:
            self.sent = None
            error = snap.error
            if error is None and self.on_box == sent[1]:
                self.pad.hide()
                self.setVisible(self.between)
            else:
                code = error.code if error is not None else "other"
                rule = str(getattr(error, "rule", "") or "")
                self.pad.message.setText(refusal_text(code, sent[1], rule))
        if self.pad.isVisible():
            self.pad.refresh()
