"""A seat on the table: its number, its boxes with their stakes, its status and, while it has a
decision to take, only the buttons of its legal decisions."""

from __future__ import annotations

import math

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import (
    QMouseEvent,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.engine.rules import Action
from dealer_assist.games import get_game
from ui.console.texts import (
    action_detail,
    action_label,
    box_name,
    issue_text,
    result_name,
    total_text,
)
from ui.console.view import BoxView, SeatView
from ui.kit import theme
from ui.kit.card_texts import category_name
from ui.kit.card_view import CardView
from ui.kit.format import chip, money
from ui.kit.labels import FitLabel, restyle, set_text
from ui.kit.tap_guard import TapGuard
from ui.kit.translate import tr, trf

BOX_H = 76
BOX_H_COMPACT = 58
MIN_BOX_W = 44  # boxes are a convenience target: the whole tile selects the seat
TILE_MARGIN = 10
TILE_MARGIN_COMPACT = 6


class BoxWidget(QPushButton):
    """One betting box: name, stake, and its result once settled."""

    def __init__(self, box: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.box = box
        self.setObjectName("box")
        self.setMinimumSize(theme.TOUCH, theme.TOUCH)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setFixedHeight(BOX_H)
        lay = QVBoxLayout(self)
        lay.setContentsMargins(2, 4, 2, 4)
        lay.setSpacing(0)
        self.label = QLabel(box_name(box).upper())
        self.label.setObjectName("boxLabel")
        # a stake of four digits (a Play of EUR 2,000) in a narrower font, never cut
        self.amount = FitLabel("", min_px=12)
        self.amount.setObjectName("boxAmount")
        self.net = FitLabel("", min_px=10)
        self.net.setObjectName("boxNet")
        for w in (self.label, self.amount, self.net):
            w.setAlignment(Qt.AlignmentFlag.AlignCenter)
            w.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
            lay.addWidget(w)
        self.net.hide()

    def set_compact(self, compact: bool) -> None:
        """Lower box for small screens (the seat tile stays the tap target for bets)."""
        self.setFixedHeight(BOX_H_COMPACT if compact else BOX_H)
        box = self.layout()
        if box is not None:  # the label's whole width on a small screen (BLIND at 13 px)
            box.setContentsMargins(0 if compact else 2, 4, 0 if compact else 2, 4)
        for w in (self, self.label, self.amount, self.net):
            restyle(w, compact=compact)

    def show_box(self, view: BoxView, currency: str) -> None:
        """Draw the box from its view."""
        set_text(self.amount, chip(view.amount) if view.amount else "")
        if view.outcome is not None and view.net is not None:
            sign = "+" if view.net > 0 else ""
            set_text(self.net, f"{sign}{chip(view.net)}" if view.net else "=")
            self.net.show()
        else:
            self.net.hide()
        name = box_name(view.box)
        self.setAccessibleName(f"{name} {money(view.amount, currency)}" if view.amount else name)
        restyle(
            self,
            filled=view.amount > 0,
            selected=view.selected,
            outcome=view.outcome or "",
        )


class SeatTile(QFrame):
    """The tile of one seat. Signals: ``tapped(seat)``, ``box_tapped(seat, box)``,
    ``decided(seat, action)``."""

    tapped = Signal(int)
    box_tapped = Signal(int, str)
    decided = Signal(int, object)
    undone = Signal(int)

    def __init__(self, seat: int, rows: tuple[tuple[str, ...], ...], parent: QWidget | None = None):
        super().__init__(parent)
        self.seat = seat
        self.setObjectName("seatTile")
        self.guard: TapGuard | None = None  # the window's: guards each decision button drawn
        self._legal: tuple[Action, ...] = ()
        self._backs = 0  # card backs to show beside the number (cards dealt to the seat)
        self.lay = lay = QVBoxLayout(self)
        lay.setContentsMargins(10, 8, 10, 10)
        lay.setSpacing(6)
        self.head = head = QHBoxLayout()
        head.setSpacing(4)
        self.number = QLabel(str(seat))
        self.number.setObjectName("seatNo")
        head.addWidget(self.number)
        self.hole = [CardView(18) for _ in range(2)]
        for c in self.hole:
            head.addWidget(c)
            c.hide()
        head.addStretch(1)
        self.badge = FitLabel("")
        self.badge.setObjectName("seatBadge")
        head.addWidget(self.badge)
        lay.addLayout(head)
        self.grid = QWidget()
        self.box_grid = QGridLayout(self.grid)
        self.box_grid.setContentsMargins(0, 0, 0, 0)
        self.box_grid.setSpacing(6)
        self.rows = rows
        self.boxes: dict[str, BoxWidget] = {}
        for row in rows:
            for box in row:
                w = BoxWidget(box)
                w.clicked.connect(lambda _=False, b=box: self.box_tapped.emit(self.seat, b))
                self.boxes[box] = w
        self._max_cols = 0
        self._compact = False
        self.set_max_columns(max(len(r) for r in rows))
        lay.addWidget(self.grid)
        self.info = QLabel("")
        self.info.setObjectName("seatHand")
        self.info.setWordWrap(True)
        self.info.setAlignment(Qt.AlignmentFlag.AlignCenter)
        lay.addWidget(self.info)
        self.decisions = QWidget()
        self.decisions_grid = QGridLayout(self.decisions)
        self.decisions_grid.setContentsMargins(0, 0, 0, 0)
        self.decisions_grid.setSpacing(6)
        lay.addWidget(self.decisions)
        # a mis-tapped decision taken back until the next card is turned
        self.change = QPushButton("")
        self.change.setObjectName("changeDecision")
        self.change.setMinimumHeight(theme.TOUCH)
        self.change.setStyleSheet("font-size: 16px; padding: 0 4px;")
        self.change.clicked.connect(lambda: self.undone.emit(self.seat))
        # its place is kept at the foot of the tile, shown or not: it never appears where a
        # decision button was, so the second tap of a double tap on Play 4x finds no Change
        policy = self.change.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.change.setSizePolicy(policy)
        self.change.hide()
        lay.addStretch(1)
        lay.addWidget(self.change)
        self.buttons: list[QPushButton] = []

    def keep_change_place(self, keep: bool) -> None:
        """Keep Change's place at the foot while decisions are to come (it never appears where
        a decision was); give it back to the seat's result after the last one."""
        policy = self.change.sizePolicy()
        if policy.retainSizeWhenHidden() != keep:
            policy.setRetainSizeWhenHidden(keep)
            self.change.setSizePolicy(policy)

    def set_max_columns(self, cols: int) -> None:
        """Lay the boxes out with at most ``cols`` per line (narrow screens wrap long rows)."""
        cols = max(1, cols)
        if cols == self._max_cols:
            return
        self._max_cols = cols
        lines = [row[i : i + cols] for row in self.rows for i in range(0, len(row), cols)]
        total = math.lcm(*(len(line) for line in lines))
        for w in self.boxes.values():
            self.box_grid.removeWidget(w)
        for r, line in enumerate(lines):
            span = total // len(line)
            for c, box in enumerate(line):
                self.box_grid.addWidget(self.boxes[box], r, c * span, 1, span)

    def set_compact(self, compact: bool) -> None:
        """Smaller boxes and one-line decision buttons for small screens (1280x800)."""
        if compact == self._compact:
            return
        self._compact = compact
        for b in self.boxes.values():
            b.set_compact(compact)
        self._legal = ()  # rebuild the decision buttons
        m = TILE_MARGIN_COMPACT if compact else TILE_MARGIN
        self.lay.setContentsMargins(m, 6 if compact else 8, m, m)
        restyle(self, compact=compact)
        restyle(self.number, compact=compact)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        """A tap anywhere on the tile selects the seat."""
        self.tapped.emit(self.seat)
        super().mousePressEvent(event)

    def show_seat(self, view: SeatView, currency: str, game: str) -> None:
        """Draw the seat from its view."""
        for row in view.boxes:
            for b in row:
                self.boxes[b.box].show_box(b, currency)
                self.boxes[b.box].setEnabled(view.enabled or b.outcome is not None)
        for c in self.hole:
            c.set_face("back")
        folded = view.status == "folded"
        self._backs = 0 if folded or self._compact else view.cards_dealt
        badge, tone = self._badge(view, game)
        if (
            self._compact
            and view.result is None
            and view.status in ("to_act", "acted", "in", "folded")
        ):
            badge = ""  # no room beside the number: the border says "to act", the line "Folded"
        set_text(self.badge, badge)
        self.badge.setVisible(bool(badge))
        restyle(self.badge, tone=tone)
        self._fit_head()
        info = ""
        self.grid.setVisible(view.status != "out")
        compact_action = self._compact and view.net is None and view.issue is None
        if compact_action and view.status in ("acted", "in") and view.last_action is not None:
            info = action_label(view.last_action, game)
        elif compact_action and view.status == "folded":
            info = tr("Folded")
        elif view.status == "out":
            info = tr("No bet")
        elif view.issue is not None:
            info = issue_text(view.issue, currency)
        elif view.net is not None:
            hand = category_name(view.category) if view.category else ""
            info = " · ".join(x for x in (hand, total_text(view.net, currency)) if x)
        set_text(self.info, info)
        self.info.setVisible(bool(info))
        self._fit_info()
        restyle(self.info, issue=view.issue is not None)
        self._show_actions(view, currency, game)
        # short: a tile is ~100 px wide at 1280; after the next cards a pit boss corrects
        set_text(self.change, tr("Change") if view.undoable else tr("Correct"))
        self.change.setAccessibleName(trf("Seat %1: change the decision", view.seat))
        self.change.setVisible(view.undoable or view.correctable)
        self.change.setEnabled(view.enabled)
        restyle(
            self,
            status=view.status,
            selected=view.selected,
            highlighted=view.highlighted,
        )
        self.setAccessibleName(trf("Seat %1", view.seat))

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._fit_head()
        self._fit_info()
        super().resizeEvent(event)

    def _fit_info(self) -> None:
        """The result line as tall as its wrapped lines at the tile's width: the layout gave it
        the height of its preferred width ("Full · Paga EUR 2.490,00" wraps to three lines in
        a tile of 1280x800 and had the room of two)."""
        m = self.lay.contentsMargins()
        room = self.contentsRect().width() - m.left() - m.right()
        need = self.info.heightForWidth(room) if self.info.text() and room > 0 else 0
        if self.info.minimumHeight() != max(0, need):
            self.info.setMinimumHeight(max(0, need))

    def _fit_head(self) -> None:
        """Show the backs of the cards dealt beside the number unless the status badge then
        lacks the room for its whole text (a long translation): the status matters more."""
        m = self.lay.contentsMargins()
        room = self.contentsRect().width() - m.left() - m.right()
        spacing = self.head.spacing()
        used = self.number.sizeHint().width()
        used += sum(c.width() + spacing for c in self.hole[: self._backs])
        if self.badge.text():
            used += spacing + self.badge.needed_width()
        fits = used <= room
        for i, c in enumerate(self.hole):
            c.setVisible(i < self._backs and fits)

    def _badge(self, view: SeatView, game: str) -> tuple[str, str]:
        if view.result is not None:
            tone = {"win": "win", "lose": "lose", "fold": "lose"}.get(view.result, "")
            if view.paid:  # the payout walk went past it: a tick, seen from across the table
                return "✓ " + result_name(view.result), "paid"
            return result_name(view.result), tone
        if view.status == "to_act":
            return tr("To act"), "act"
        if view.status == "folded":
            return tr("Folded"), "muted"
        if view.status in ("acted", "in") and view.last_action is not None:
            return action_label(view.last_action, game), "muted" if view.status == "in" else ""
        return "", ""

    def _show_actions(self, view: SeatView, currency: str, game: str) -> None:
        if view.legal != self._legal:
            self._legal = view.legal
            for b in self.buttons:
                b.setParent(None)
                b.deleteLater()
            self.buttons = []
            bets = {b.box: b.amount for row in view.boxes for b in row if b.amount}
            stakes = get_game(game).stake_actions
            for i, action in enumerate(view.legal):
                detail = "" if self._compact else action_detail(action, bets, currency, game)
                text = action_label(action, game) + (f"\n{detail}" if detail else "")
                btn = QPushButton(text)
                btn.setObjectName("decision")
                # the style sheet colours a decision that stakes money apart (a Play, a bet)
                btn.setProperty("kind", "stake" if action.action in stakes else action.action)
                btn.setMinimumHeight(theme.TOUCH + (14 if detail else 0))
                label = action_label(action, game)
                btn.setAccessibleName(trf("Seat %1: %2", view.seat, label))
                btn.clicked.connect(lambda _=False, a=action: self.decided.emit(self.seat, a))
                self.decisions_grid.addWidget(btn, i, 0)
                if self.guard is not None:
                    self.guard.watch(btn)
                self.buttons.append(btn)
        for b in self.buttons:
            b.setEnabled(view.enabled)
        self.decisions.setVisible(bool(self.buttons))
