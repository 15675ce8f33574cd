"""The table as the dealer sees it from behind the chip rack: the felt, the seats in their physical
places, the board and the dealer's cards.

Orientation (GAMES.md: seats are numbered clockwise from the dealer's left, "first base" = seat 1):
the dealer stands at the straight edge of the table, which is the bottom of the screen, facing the
players, who sit around the curved edge. What is on the dealer's left is on the left of a screen in
front of them, so seat 1 is the lowest tile on the LEFT and seat N the lowest on the right; the
dealer settles from their right to their left, i.e. from the right end of the arc to the left.
``mirror=True`` flips this for a screen that faces the players or is read from across the table.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen, QRadialGradient, QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget

from dealer_assist.games import get_game
from ui.console.texts import qualification_text
from ui.console.view import ConsoleView, Step
from ui.console.widgets.seat import (
    BOX_H,
    BOX_H_COMPACT,
    MIN_BOX_W,
    TILE_MARGIN,
    TILE_MARGIN_COMPACT,
    SeatTile,
)
from ui.kit import theme
from ui.kit.card_texts import category_name
from ui.kit.card_view import RATIO, CardView
from ui.kit.labels import restyle, set_text
from ui.kit.translate import tr, trf

MARGIN = 14
GAP = 10
TEXT_H = 112
"""Height (px) of a seat's result under its boxes: four lines at 1280x800 (``Full house · Pay
€ 90.00`` in a 100 px tile)."""
CORNER = (130, 92)
"""The bottom left corner the Dealer change button takes (px, width and height; between hands,
:class:`ui.kit.dealer_box.DealerControl` with ``bottom=True``): no card is drawn in it."""
SIDE_CARD = 64
"""Card width (px) below which the board and the dealer's cards go side by side in one row."""
SHORT_CARD = 44
"""Card width (px) in that row below which seats with no decision to come are made lower."""


class TableArea(QWidget):
    """Felt, seat tiles, board and dealer's cards, placed for any size from 1280x800 up.

    Args:
        seats: number of seats (tiles 1..N).
        rows: the box rows of a seat (the game's ``box_rows``).
        mirror: seat 1 on the right (see the module docstring).
    """

    def __init__(
        self,
        seats: int,
        rows: tuple[tuple[str, ...], ...],
        *,
        mirror: bool = False,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("table")
        self.mirror = mirror
        self.rows = rows
        self.tiles = {n: SeatTile(n, rows, self) for n in range(1, seats + 1)}
        self.board = [CardView(90, self) for _ in range(5)]
        self.dealer = [CardView(90, self) for _ in range(2)]
        self.board_label = self._label("areaLabel")
        self.dealer_label = self._label("areaLabel")
        self.dealer_hand = self._label("dealerHand")
        self.qualify = self._label("qualify")
        self._max_buttons = 3
        self._deciding = False  # decisions to come: room for their buttons and Change
        self._felt = QRectF()

    def _label(self, name: str) -> QLabel:
        label = QLabel("", self)
        label.setObjectName(name)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        return label

    # -- drawing the view -------------------------------------------------------------------------
    def show_view(self, view: ConsoleView) -> None:
        """Draw seats, board and dealer from the view."""
        self._max_buttons = get_game(view.game).most_choices
        self._deciding = view.step in (Step.DEALING, Step.MANUAL, Step.IDENTIFY, Step.DECISIONS)
        for tile in self.tiles.values():
            tile.keep_change_place(self._deciding)
        for seat in view.seats:
            self.tiles[seat.seat].show_seat(seat, view.currency, view.game)
        for w, face in zip(self.board, view.board, strict=True):
            w.set_face(face)
        for w, face in zip(self.dealer, view.dealer, strict=True):
            w.set_face(face)
        set_text(self.board_label, tr("BOARD"))
        set_text(self.dealer_label, tr("DEALER"))
        hand = ""
        if view.dealer_category is not None:
            hand = trf("Dealer: %1", category_name(view.dealer_category))
        set_text(self.dealer_hand, hand)
        self.dealer_hand.setVisible(bool(hand))
        if view.qualifies is not None:
            set_text(self.qualify, qualification_text(view.qualifies))
            restyle(self.qualify, tone="yes" if view.qualifies else "no")
            self.qualify.show()
        else:
            set_text(self.qualify, "")
            self.qualify.hide()
        self._place()

    # -- geometry ---------------------------------------------------------------------------------
    def resizeEvent(self, event: QResizeEvent) -> None:
        self._place()
        super().resizeEvent(event)

    def _tile_width(self, gap: int) -> int:
        n = len(self.tiles)
        return int(min(250, (self.width() - 2 * MARGIN - (n - 1) * gap) / n))

    def _place(self) -> None:
        w, h = self.width(), self.height()
        n = len(self.tiles)
        compact = self._tile_width(GAP) < 170 or h < 880
        gap_x = 6 if compact else GAP
        tw = self._tile_width(gap_x)
        inner = tw - 2 * (TILE_MARGIN_COMPACT if compact else TILE_MARGIN) - 4
        box_h = BOX_H_COMPACT if compact else BOX_H
        button_h = theme.TOUCH if compact else theme.TOUCH + 14
        per_line = max(1, (inner + 6) // (MIN_BOX_W + 6))
        box_rows = sum(-(-len(r) // per_line) for r in self.rows)
        head = 40 if compact else 48
        base = head + box_rows * (box_h + 6) + 28  # the number and the boxes
        # under the boxes the decisions, then the place of Change kept at the foot (never
        # where a decision was), or the result: one height at every step, so no seat moves
        # when the bets close, nor at the reveal
        decisions = max(self._max_buttons * (button_h + 6), 44) + theme.TOUCH + 6
        tallest = base + max(TEXT_H, decisions)
        order = [self.tiles[n - i if self.mirror else i + 1] for i in range(n)]
        needs = []
        for tile in order:
            tile.setFixedWidth(tw)
            tile.set_compact(compact)
            tile.set_max_columns(per_line)
            # texts, buttons and the boxes' height just changed: no cached size hints (the
            # boxes' grid first, or a tile kept the small screen's grid height)
            tile.box_grid.activate()
            tile.lay.invalidate()
            hfw = tile.heightForWidth(tw)  # (asked now: the boxes' new height is taken in)
            needs.append(hfw if hfw > 0 else tile.sizeHint().height())
        if not self._deciding and self._side_card(MARGIN + tallest) < SHORT_CARD:
            # banners up on a small screen: no decision to come, so the seats take the height
            # their texts need and the board keeps its room (a banner moves the table anyway)
            tallest = max(base, min(tallest, max(needs)))
        span = (n - 1) * (tw + gap_x)
        left = (w - span - tw) / 2
        xs = [left + i * (tw + gap_x) for i in range(n)]
        half = span / 2 if span else 1
        curve = [((x + tw / 2 - w / 2) / half) ** 2 for x in xs]
        # the arc's lowest seats end above the Dealer change button's corner
        drop = max(0.0, min(h * 0.30, h - tallest - MARGIN - CORNER[1]))
        board_w = (w * 0.42) / 5.4 * 5.5  # the seats the board reaches under (the middle three)
        under = [
            c
            for x, c in zip(xs, curve, strict=True)
            if x < (w + board_w) / 2 and x + tw > (w - board_w) / 2
        ] or curve
        top = MARGIN + drop * max(under) + tallest
        label_h, hand_h, qual_h = 24, 34, 44
        fixed = 2 * label_h + hand_h + qual_h + 4 * 8 + MARGIN
        stacked = (h - MARGIN - top - fixed) / (2 * RATIO)  # the board over the dealer's cards
        board_over_dealer = stacked >= SIDE_CARD
        if not board_over_dealer:
            # short of height (1280x800, or a banner up): the seats in a row, the dealer's
            # cards beside the board in one row under them, no smaller than the board needs
            drop = 0.0
        ys = []
        for i, tile in enumerate(order):  # a seat without a bet too: its tile keeps its place
            y = MARGIN + drop * curve[i]
            ys.append(y)
            tile.setGeometry(int(xs[i]), int(y), tw, tallest)
        if board_over_dealer:
            self._place_cards_stacked(top)
        else:
            self._place_cards_side(max(ys) + tallest)
        self._felt = QRectF(MARGIN / 2, MARGIN / 2 + drop * 0.1, w - MARGIN, 2 * (h - MARGIN))
        self.update()

    def _side_card(self, top: float) -> float:
        """The card width the board and the dealer's cards would have in one row under seats
        whose feet are at ``top`` (before the Dealer change corner and the widths' limits)."""
        label_h, qual_h = 24, 44
        return (self.height() - 2 * MARGIN - top - label_h - qual_h - 12) / RATIO

    def _place_cards_stacked(self, top: float) -> None:
        """The board under the middle seats (``top``: their foot), the dealer's cards by the
        straight edge (their side)."""
        w, h = self.width(), self.height()
        label_h, hand_h, qual_h = 24, 34, 44
        room = h - MARGIN - top
        fixed = 2 * label_h + hand_h + qual_h + 4 * 8 + MARGIN
        cw = int(max(44, min(104, (room - fixed) / (2 * RATIO), (w * 0.42) / 5.4)))
        ch, gap = self._card_size(cw)
        row_w = 5 * cw + 4 * gap
        bx = (w - row_w) / 2
        dealer_h = label_h + ch + hand_h + qual_h + 8
        dy = h - 2 * MARGIN - dealer_h
        board_y = top + max(4.0, (dy - top - label_h - ch) / 2)
        self._put_cards(bx, board_y, (w - (2 * cw + gap)) / 2, dy, cw)

    def _place_cards_side(self, top: float) -> None:
        """Board and dealer's cards in one row under every seat (``top``: the lowest foot),
        the dealer's hand and the qualification side by side under them."""
        w, h = self.width(), self.height()
        label_h, qual_h = 24, 44
        room = h - 2 * MARGIN - top - label_h - qual_h - 12
        # the cards end above the Dealer change button's corner (bottom left), or the row
        # stays right of it
        above = (h - CORNER[1] - top - 4 - label_h) / RATIO
        cw = int(
            max(
                36,
                min(
                    104, room / RATIO, max(above, (w - 2 * CORNER[0]) / 8.6), (w - 4 * MARGIN) / 8.6
                ),
            )
        )
        _, gap = self._card_size(cw)
        width = 7 * cw + 7 * gap + 3 * gap
        bx = (w - width) / 2
        y = top + 4
        self._put_cards(bx, y, bx + 5 * cw + 4 * gap + 3 * gap, y, cw, beside=True)

    def _card_size(self, cw: int) -> tuple[int, int]:
        for c in [*self.board, *self.dealer]:
            c.set_card_width(cw)
        return int(cw * RATIO), max(6, cw // 8)

    def _put_cards(
        self, bx: float, by: float, dx: float, dy: float, cw: int, *, beside: bool = False
    ) -> None:
        """Board row at (``bx``, ``by``), the dealer's pair at (``dx``, ``dy``), the labels
        over them and the dealer's hand and qualification under the pair (``beside``: on one
        line, the hand left of the middle, the qualification right of it)."""
        w = self.width()
        label_h, hand_h, qual_h = 24, 34, 44
        ch, gap = int(cw * RATIO), max(6, cw // 8)
        row_w, pair_w = 5 * cw + 4 * gap, 2 * cw + gap
        self.board_label.setGeometry(int(bx), int(by), int(row_w), label_h)
        for i, c in enumerate(self.board):
            c.move(int(bx + i * (cw + gap)), int(by + label_h))
        self.dealer_label.setGeometry(int(dx - 80), int(dy), int(pair_w + 160), label_h)
        for i, c in enumerate(self.dealer):
            c.move(int(dx + i * (cw + gap)), int(dy + label_h))
        line_y = dy + label_h + ch + 4
        qw = min(w - 2 * MARGIN, self.qualify.sizeHint().width() + 24)
        if beside:
            # right-aligned to the middle: its text stays clear of the corner on the left
            mid = w // 2 + 40  # the hand's text is the longer: the pair centred a little right
            self.dealer_hand.setGeometry(CORNER[0], int(line_y + 5), mid - 8 - CORNER[0], hand_h)
            self.dealer_hand.setAlignment(
                Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            )
            qw = min(qw, w - mid - 8 - MARGIN)
            self.qualify.setGeometry(mid + 8, int(line_y), int(qw), qual_h)
            return
        self.dealer_hand.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.dealer_hand.setGeometry(0, int(line_y), w, hand_h)
        self.qualify.setGeometry(int((w - qw) / 2), int(line_y + hand_h + 4), int(qw), qual_h)

    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(self.rect(), QColor(theme.BG))
        r = self._felt
        if r.isNull():
            p.end()
            return
        grad = QRadialGradient(QPointF(r.center().x(), self.height()), r.height() / 2)
        grad.setColorAt(0.0, QColor("#0f7047"))
        grad.setColorAt(0.75, QColor(theme.FELT))
        grad.setColorAt(1.0, QColor(theme.FELT_DARK))
        p.setPen(QPen(QColor(theme.RAIL), 18))
        p.setBrush(grad)
        p.drawEllipse(r)
        p.setPen(QPen(QColor(theme.GOLD_DARK), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawEllipse(r.adjusted(12, 12, -12, -12))
        # the straight edge: the dealer's side with the chip rack
        p.setPen(Qt.PenStyle.NoPen)
        p.setBrush(QColor(theme.RAIL))
        p.drawRect(QRectF(0, self.height() - 10, self.width(), 10))
        p.end()
