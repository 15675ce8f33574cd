"""The poker table as the dealer sees it: the felt, the seats around it, each seat's bet in front
of it, the button and the forced bets, the board and the pots with their eligible seats.

The dealer stands at the bottom of the oval; seat 1 is on their left and the seats go round
clockwise (as the cards are dealt). Face-down cards are drawn as backs until their player shows
them at the showdown (the snapshot holds no other). A seat with a face-up card (Stud's door and
up cards, any hand shown at the showdown) has its cards drawn large on the felt in front of it,
in deal order, down cards as narrow backs, so the dealer reads the up cards as the reader read
them. What differs by game comes from the game: how many cards a seat and the board get, a
button or none, the forced bets (a post every seat made, an ante, is no mark: it is in the pot).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication, QPointF, QRect, QRectF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ui.kit import theme
from ui.kit.card_view import CardView
from ui.kit.cards import CardFace
from ui.kit.format import money
from ui.kit.labels import FitLabel, restyle, set_text
from ui.kit.translate import tr, trf
from ui.poker.presenter import PokerView
from ui.poker.snapshot import FORCED_KIND, PokerSnapshot, SeatSnap
from ui.poker.texts import badge, kind_name, pot_name
from ui.poker.widgets.hand_row import HandRow

STYLE = f"""
#pokerSeat {{ background: rgba(6, 20, 14, 0.88); border: 2px solid rgba(255,255,255,0.18);
             border-radius: 14px; }}
#pokerSeat[state="empty"] {{ background: rgba(6, 20, 14, 0.35); border-style: dashed; }}
#pokerSeat[state="out"] {{ background: rgba(10, 12, 12, 0.65); border-style: dashed; }}
#pokerSeat[state="folded"] {{ background: rgba(10, 12, 12, 0.7); }}
#pokerSeat[state="act"] {{ border: 4px solid #4fc3f7; background: rgba(8, 32, 48, 0.95); }}
#pokerSeat[state="won"] {{ border: 4px solid {theme.GREEN}; }}
#pokerSeat[selected="true"] {{ border: 4px solid {theme.GOLD}; background: rgba(60,48,14,0.95); }}
#pSeatNo {{ font-weight: bold; color: {theme.GOLD}; }}
#pSeatName {{ color: {theme.TEXT}; }}
#pStack {{ font-weight: bold; color: #ffffff; }}
#pState {{ color: {theme.MUTED}; font-weight: bold; }}
#pState[tone="act"] {{ color: #4fc3f7; }}
#pState[tone="win"] {{ color: #7ee2a0; }}
#pBet {{ background: rgba(0,0,0,0.55); color: #ffe082; font-weight: bold; border-radius: 10px;
        border: 2px solid {theme.GOLD_DARK}; padding: 2px 8px; }}
#pMark {{ font-weight: bold; border-radius: 16px; background: #f4f4f4; color: #111111;
         border: 2px solid #111111; }}
#pMark[kind="forced"] {{ background: #2f80c9; color: #ffffff; border-color: #0d3d66; }}
#pPots {{ color: #ffffff; font-weight: bold; background: rgba(0,0,0,0.35); border-radius: 12px;
         padding: 6px 14px; }}
#pDealer {{ color: rgba(255,255,255,0.45); font-weight: bold; letter-spacing: 2px; }}
#pCommunity {{ color: {theme.GOLD}; font-weight: bold; background: rgba(0,0,0,0.35);
              border-radius: 8px; padding: 2px 10px; }}
"""


class SeatTile(QFrame):
    """One seat: number and name, stack, state (last action, folded, all-in, to act), cards."""

    def __init__(
        self, seat: int, currency: str, on_tap: Callable[[int], None], parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.seat = seat
        self.currency = currency
        self.on_tap = on_tap
        self.setObjectName("pokerSeat")
        lay = QVBoxLayout(self)
        lay.setContentsMargins(8, 4, 8, 4)
        lay.setSpacing(0)
        top = QHBoxLayout()
        top.setSpacing(6)
        self.no = QLabel(str(seat))
        self.no.setObjectName("pSeatNo")
        self.name = FitLabel("", min_px=11)
        self.name.setObjectName("pSeatName")
        top.addWidget(self.no)
        top.addWidget(self.name, 1)
        lay.addLayout(top)
        self.stack = FitLabel("", min_px=12)
        self.stack.setObjectName("pStack")
        lay.addWidget(self.stack)
        bottom = QHBoxLayout()
        bottom.setSpacing(3)
        self.state = FitLabel("", min_px=11)
        self.state.setObjectName("pState")
        bottom.addWidget(self.state, 1)
        self.cards = [CardView(30, self), CardView(30, self)]
        for c in self.cards:
            bottom.addWidget(c)
        lay.addLayout(bottom)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        self.on_tap(self.seat)

    def set_scale(self, width: int, height: int) -> None:
        """Size the tile and its fonts."""
        self.setFixedSize(width, height)
        big = max(15, height // 5)
        self.no.setStyleSheet(f"font-size: {big}px;")
        self.name.setStyleSheet(f"font-size: {max(13, height // 7)}px;")
        self.stack.setStyleSheet(f"font-size: {big}px;")
        self.state.setStyleSheet(f"font-size: {max(12, height // 8)}px;")
        for c in self.cards:
            c.set_card_width(max(22, height // 4))

    def show_seat(
        self, s: SeatSnap | None, view: PokerView, won: int, *, on_felt: bool = False
    ) -> None:
        """Draw the seat (None: nobody there); ``on_felt``: its shown hand is drawn large on
        the felt, not in the tile. Between hands the last hand's states, cards and win are
        gone (the dealer has collected the cards)."""
        snap = view.snap
        gone = view.step in ("between", "connecting")  # the last hand is over and paid
        currency = self.currency
        if s is None:
            set_text(self.name, tr("Empty"))
            set_text(self.stack, "")
            set_text(self.state, "")
            for c in self.cards:
                c.set_face("empty")
                c.setVisible(False)
            restyle(self, state="empty", selected=view.selected == self.seat)
            return
        set_text(
            self.name,
            fitted_name(s.name, self.name, self.width() - 40) if s.name else trf("Seat %1", s.seat),
        )
        set_text(self.stack, money(s.stack, currency))
        state, tone = "", ""
        if won:
            state, tone = f"+{money(won, currency)}", "win"
        elif s.sitting_out and (gone or not s.in_hand):
            state = tr("Sitting out")
        elif gone and s.stack == 0:
            state = tr("No chips")  # not dealt in: the panel prompts a top-up or leaving
        elif gone:
            state = ""
        elif snap.actor == s.seat:
            state, tone = tr("To act"), "act"
        elif s.folded:
            state = tr("Folded")
        elif s.mucked:
            state = tr("Mucked")
        elif s.all_in and snap.in_hand:
            state = tr("All-in")
        elif s.last and snap.in_hand:
            state = kind_name(s.last.partition(" ")[0])  # the amount is the bet in front
        set_text(self.state, state)
        restyle(self.state, tone=tone)
        dealt = (
            s.in_hand
            and not s.folded
            and not s.mucked
            and not on_felt
            and not gone
            and snap.phase not in ("", "void")
        )
        for i, c in enumerate(self.cards):
            c.setVisible(dealt and (s.cards > i or bool(s.shown)))
            c.set_face(s.shown[i] if i < len(s.shown) else ("back" if s.cards > i else "empty"))
        if won:
            tile = "won"
        elif snap.actor == s.seat:
            tile = "act"
        elif s.folded and snap.in_hand:
            tile = "folded"
        elif s.sitting_out and (gone or not s.in_hand):
            tile = "out"
        else:
            tile = ""
        restyle(self, state=tile, selected=view.selected == self.seat)


class Felt(QWidget):
    """The table: seats round an oval, bets in front, markers, board and pots in the middle.

    Args:
        seats: seats at the table (1..seats).
        currency: the table's currency code.
        on_tap: called with a seat number when its tile is tapped.
        hole_cards: the most cards a seat is dealt (the game's streets: Hold'em 2, Stud 7).
        board_cards: board cards the game deals (Hold'em 5, Stud none: a community card only
            when the deck runs short, drawn when it comes).
    """

    def __init__(
        self,
        seats: int,
        currency: str,
        on_tap: Callable[[int], None],
        parent: QWidget | None = None,
        *,
        hole_cards: int = 2,
        board_cards: int = 5,
    ) -> None:
        super().__init__(parent)
        self.currency = currency
        self.setStyleSheet(STYLE)
        self.n = seats
        self.tiles = {s: SeatTile(s, currency, on_tap, self) for s in range(1, seats + 1)}
        self.bets = {s: self._label("pBet") for s in range(1, seats + 1)}
        self.marks = {s: self._label("pMark") for s in range(1, seats + 1)}
        self.button = self._label("pMark")
        self.button.setText("D")
        self.board_box = QWidget(self)
        row = QHBoxLayout(self.board_box)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(8)
        self.board_cards = board_cards
        self.board = [CardView(70, self.board_box) for _ in range(max(board_cards, 1))]
        for c in self.board:
            row.addWidget(c)
        self.shown: dict[int, HandRow] = {}  # a hand with face-up cards, large enough to read
        self.shown_cards: dict[int, list[CardView]] = {}
        for s in range(1, seats + 1):
            row_ = HandRow(max(hole_cards, 2), self)
            row_.hide()
            self.shown[s] = row_
            self.shown_cards[s] = row_.cards
        self.community = self._label("pCommunity")  # Stud's card for everyone, named
        self.pots = self._label("pPots")
        self.pots.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pots.setWordWrap(True)
        self.dealer = self._label("pDealer")
        # a poker room's dealer, not the banked games' "Banco": Italian "CROUPIER", the word
        # every other Italian text uses for the dealer
        self.dealer.setText(QCoreApplication.translate("poker", "DEALER"))
        self._view: PokerView | None = None

    def _label(self, name: str) -> QLabel:
        label = QLabel("", self)
        label.setObjectName(name)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        label.hide()
        return label

    # -- geometry ---------------------------------------------------------------------------------
    def _oval(self) -> QRectF:
        w, h = self.width(), self.height()
        tile_h = self._tile_size()[1]
        return QRectF(w * 0.09, tile_h * 0.55, w * 0.82, h - tile_h * 1.25)

    def _tile_size(self) -> tuple[int, int]:
        w, h = self.width(), self.height()
        tw = int(min(230, max(150, w * 0.145)))
        # banners over the felt (storage, device, source) leave it short: the tiles get lower
        # so the seats down each side stay clear of each other
        # (the three bars at once leave 1280x800 a felt of 488 px: nine seats need under 92)
        th = int(min(130, max(96, h * 0.125), max(64, h / 5.4)))
        return tw, th

    def seat_point(self, seat: float, inset: float = 0.0) -> QPointF:
        """Where ``seat`` sits on the rail (``inset`` 0..1 moves it towards the centre)."""
        oval = self._oval()
        a = math.radians(90 + 360 * seat / (self.n + 1))
        c = oval.center()
        k = 1.0 - inset
        return QPointF(
            c.x() + oval.width() / 2 * k * math.cos(a), c.y() + oval.height() / 2 * k * math.sin(a)
        )

    def resizeEvent(self, event: QResizeEvent) -> None:
        self._place()
        super().resizeEvent(event)

    def _place(self) -> None:
        tw, th = self._tile_size()
        for s, tile in self.tiles.items():
            tile.set_scale(tw, th)
            p = self.seat_point(s)
            x = min(max(0, p.x() - tw / 2), self.width() - tw)
            y = min(max(0, p.y() - th / 2), self.height() - th)
            tile.move(int(x), int(y))
        oval = self._oval()
        card_w = int(min(90, max(54, oval.width() / 12)))
        for c in self.board:
            c.set_card_width(card_w)
        self.board_box.adjustSize()
        bw, bh = self.board_box.sizeHint().width(), self.board_box.sizeHint().height()
        mid = oval.center()
        self.board_box.setGeometry(int(mid.x() - bw / 2), int(mid.y() - bh * 0.85), bw, bh)
        font = max(15, int(card_w / 4.2))
        shown_w = int(min(60, max(40, self._tile_size()[1] * 0.42)))
        for hand in self.shown.values():
            hand.set_card_width(shown_w, int(tw * 1.15))
        self.community.setStyleSheet(f"font-size: {max(13, font - 3)}px;")
        self.community.adjustSize()
        cw = self.community.width()
        self.community.move(int(mid.x() - cw / 2), self.board_box.y() - self.community.height())
        self.pots.setStyleSheet(f"font-size: {font}px;")
        # as wide as its longest line: a pot line across the felt took the side seats' room
        # (Stud's seats 2 and 7 had their cards pushed onto it)
        metrics = QFontMetrics(_px_font(self.pots.font(), font))
        text_w = max(
            (metrics.horizontalAdvance(x) for x in self.pots.text().split("\n")), default=0
        )
        pw = min(int(oval.width() * 0.56), text_w + 40)
        self.pots.setFixedWidth(pw)
        self.pots.adjustSize()
        self.pots.move(int(mid.x() - pw / 2), int(mid.y() + bh * 0.25))
        self.dealer.setStyleSheet(f"font-size: {font}px;")
        self.dealer.adjustSize()
        d = self.seat_point(0, 0.08)
        self.dealer.move(int(d.x() - self.dealer.width() / 2), int(d.y() - self.dealer.height()))
        if self._view is not None:
            self._place_chips(self._view)

    def _place_chips(self, view: PokerView) -> None:
        """Markers, bets and shown hands on the line from each seat to the centre, each clear
        of every tile, the board, the pots and what is already placed (a side seat's bet
        reached over the board's first or last card at 1280x800)."""
        font = max(15, self._tile_size()[1] // 6)
        taken = [t.geometry() for t in self.tiles.values()]
        # visible to the felt, not on screen: a view drawn before the window shows (a console
        # started again between hands) left the button in the felt's corner
        taken += [
            w.geometry()
            for w in (self.board_box, self.pots, self.dealer, self.community)
            if w.isVisibleTo(self)
        ]
        if self.button.isVisibleTo(self) and view.snap.button is not None:
            self.button.setFixedSize(font * 2 + 4, font * 2 + 4)
            self.button.setStyleSheet(f"font-size: {font}px; border-radius: {font + 2}px;")
            q = self.seat_point(view.snap.button + 0.42, 0.2)  # beside where a blind's mark goes
            self.button.move(int(q.x() - font), int(q.y() - font))
            taken.append(self.button.geometry())
        for s in self.tiles:
            for widget, inset in ((self.marks[s], 0.2), (self.bets[s], 0.36), (self.shown[s], 0.3)):
                if widget.isVisibleTo(self):
                    if isinstance(widget, QLabel):
                        widget.setStyleSheet(f"font-size: {font}px;")
                    widget.adjustSize()
                    self._clear_spot(widget, s, inset, taken)
                    taken.append(widget.geometry())

    def _clear_spot(self, widget: QWidget, seat: int, inset: float, taken: list[QRect]) -> None:
        """Move ``widget`` along the line from ``seat`` to the centre, from ``inset`` in, to
        the first place where it overlaps nothing in ``taken``; on the line itself, then a
        little above, then below it; the first place when none is clear."""
        w, h = widget.width(), widget.height()
        for shift in (0.0, -0.6, 0.6, -1.2, 1.2):
            k = inset
            while k <= 0.85:
                p = self.seat_point(seat, k)
                x = min(max(0, int(p.x() - w / 2)), self.width() - w)
                y = min(max(0, int(p.y() - h / 2 + shift * h)), self.height() - h)
                box = QRect(x, y, w, h)
                if not any(box.intersects(r) for r in taken):
                    widget.move(x, y)
                    return
                k += 0.03
        p = self.seat_point(seat, inset)
        widget.move(int(p.x() - w / 2), int(p.y() - h / 2))

    # -- drawing ----------------------------------------------------------------------------------
    def paintEvent(self, event: QPaintEvent) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        oval = self._oval()
        p.setPen(QPen(QColor(theme.RAIL), 26))
        p.setBrush(QColor(theme.FELT))
        p.drawRoundedRect(oval, oval.height() / 2, oval.height() / 2)
        p.setPen(QPen(QColor(255, 255, 255, 40), 2))
        p.setBrush(Qt.BrushStyle.NoBrush)
        inner = oval.adjusted(40, 40, -40, -40)
        p.drawRoundedRect(inner, inner.height() / 2, inner.height() / 2)
        p.end()

    def show_view(self, view: PokerView) -> None:
        """Draw the table."""
        self._view = view
        snap = view.snap
        currency = self.currency
        won: dict[int, int] = {}
        for award in snap.awards if view.step == "settled" else ():
            for w in award.winners:
                won[w.seat] = won.get(w.seat, 0) + w.amount
        marks = _marks(snap)
        for s, tile in self.tiles.items():
            seat = snap.seat(s)
            faces = _on_felt(seat, view)
            tile.show_seat(seat, view, won.get(s, 0), on_felt=bool(faces))
            self.shown[s].setVisible(bool(faces))
            self.shown[s].set_hand(faces)
            bet = self.bets[s]
            amount = seat.bet if seat is not None and snap.in_hand else 0
            bet.setVisible(amount > 0)
            set_text(bet, money(amount, currency))
            mark = self.marks[s]
            mark.setVisible(bool(marks.get(s)))
            set_text(mark, " ".join(marks.get(s, ())))
            restyle(mark, kind="forced")
        self.button.setVisible(snap.button is not None)
        board = snap.board if view.step not in ("between", "connecting") else ()  # cleared
        slots = max(self.board_cards, len(board))
        for i, c in enumerate(self.board):
            c.set_face(board[i] if i < len(board) else "empty")
            c.setVisible(i < slots)
        self.board_box.setVisible(slots > 0)
        # a game with no board (Stud) turns a community card only when the deck runs short
        community = self.board_cards == 0 and bool(board)
        self.community.setVisible(community)
        set_text(self.community, tr("Community card") if len(board) == 1 else tr("Community cards"))
        lines = []
        pots = snap.pots if not snap.awards else ()
        bets = sum(s.bet for s in snap.seats) if snap.in_hand else 0
        if snap.in_hand and (bets or pots):  # the whole pot, this round's bets too (preflop)
            total = sum(p.amount for p in pots) + bets
            lines.append(trf("Pot total: %1", money(total, currency)))
        for pot in pots if len(pots) > 1 or bets else ():  # one pot alone: the total says it
            seats = ", ".join(str(x) for x in pot.eligible)
            lines.append(
                f"{pot_name(pot.index)}: {money(pot.amount, currency)} · " + trf("seats %1", seats)
            )
        self.pots.setVisible(bool(lines))
        set_text(self.pots, "\n".join(lines))
        self.dealer.show()
        self._place()


def fitted_name(name: str, label: FitLabel, room: int) -> str:
    """``name`` as it fits ``room`` pixels in ``label``'s smallest font: whole, else the first
    name and the surname's initial (``Massimiliano B.``), else the first name: a short form a
    dealer reads, never a name cut with "…" (the panel names the seat in full)."""
    font = QFont(label.font())
    font.setPixelSize(label.min_px)
    metrics = QFontMetrics(font)
    words = name.split()
    for text in (name, f"{words[0]} {words[-1][0]}." if len(words) > 1 else name, words[0]):
        if metrics.horizontalAdvance(text) <= room:
            return text
    return words[0]


def _px_font(font: QFont, px: int) -> QFont:
    """``font`` in bold at ``px`` pixels (the pot label's style)."""
    out = QFont(font)
    out.setPixelSize(px)
    out.setBold(True)
    return out


def _on_felt(seat: SeatSnap | None, view: PokerView) -> tuple[CardFace, ...]:
    """The seat's cards to draw on the felt (a card or a back each), empty when none: only a
    seat still in the hand with a face-up card (its up cards, its hand shown), never between
    hands or a folded or mucked one (those cards are in the muck)."""
    snap = view.snap
    if seat is None or not seat.in_hand or seat.folded or seat.mucked or not seat.up:
        return ()
    if view.step in ("between", "connecting") or snap.phase in ("", "void"):
        return ()
    return tuple(c if c is not None else "back" for c in seat.hole)


def _marks(snap: PokerSnapshot) -> dict[int, list[str]]:
    """Each seat's forced-bet marks during a hand: the posts not every seat made (the blinds;
    an ante everybody posts is no mark) and the forced bet a seat decides (Stud's bring-in,
    while it decides and once posted; a seat that passed it on is marked folded)."""
    if not snap.in_hand:
        return {}
    dealt = [s for s in snap.seats if s.in_hand]
    every = set.intersection(*(set(s.posts) for s in dealt)) if dealt else set()
    out: dict[int, list[str]] = {}
    for s in dealt:
        for kind in s.posts:
            if kind not in every:
                out.setdefault(s.seat, []).append(badge(kind))
    for seat, choice in snap.forced:
        if choice != "fold":
            out.setdefault(seat, []).append(badge(FORCED_KIND))
    return out
