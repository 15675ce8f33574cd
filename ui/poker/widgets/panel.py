"""The side panel of the poker console, one page per step: the hand (who acts, to call, the
raise range, the amount keypad and the action bar), the showdown prompt (seat N: Show / Muck),
the award (each pot, side pots first, winners with amounts and odd chips, returned bets, the
stacks after), between hands (seat a player, top up, sit out or in, leave, the button, New
hand), and the card keypad (the kit's :class:`~ui.kit.entry.EntryPage`:
the cards typed when the keypad is the source, an unreadable card identified by the dealer and
confirmed by a pit boss), and the deck running short (the dealer's instruction, then "Burns
loaded: shuffle"). The void alarm covers the window (:mod:`ui.poker.widgets.alarm`).

What the game decides comes from the view: who acts first on a street and why (Stud: "Lowest
door card: 2♣"), the forced bet its seat decides and what each seat chose, a button to place or
none.

Privacy on the keypad: the card being chosen is not echoed in large type (the preview is off;
the chosen rank and suit keys show it), and the cards typed are not kept as unavailable keys (a
refused key would say which hole card was dealt): a duplicate is refused by the source, unnamed.
"""

from __future__ import annotations

import html

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.cards import Card
from ui.kit.entry import EntryPage
from ui.kit.format import money
from ui.kit.labels import collapse, restyle, set_text
from ui.kit.pages import PageStack
from ui.kit.translate import tr, trf
from ui.poker.awards import award_text
from ui.poker.facts import limit_lines, stack_line, street_lines
from ui.poker.presenter import PokerPresenter, PokerView, amount_issue
from ui.poker.snapshot import FORCED_KIND, PokerSnapshot, SeatSnap
from ui.poker.texts import (
    kind_name,
    message_text,
    shortage_text,
    void_label,
)
from ui.poker.widgets.action_bar import ActionBar
from ui.poker.widgets.amount_keypad import AmountKeypad
from ui.poker.widgets.signoff_page import SignoffPage

PAGES = ("hand", "showdown", "settled", "between", "void", "entry", "deck", "signoff")


def _label(name: str, text: str = "", wrap: bool = True) -> QLabel:
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(wrap)
    return label


class PokerPanel(QFrame):
    """The right-hand panel; :meth:`show_view` picks the page for the view's step."""

    def __init__(
        self, presenter: PokerPresenter, chips: tuple[int, ...], currency: str, forced: int = 0
    ) -> None:
        super().__init__()
        self.setObjectName("side")
        self.p = presenter
        self.currency = currency
        lay = QVBoxLayout(self)
        lay.setContentsMargins(18, 14, 18, 14)
        lay.setSpacing(10)
        self.title = _label("sideTitle")
        self.hint = _label("sideHint")
        self.resumed = _label("pResumed")
        lay.addWidget(self.title)
        lay.addWidget(self.resumed)
        # the hint and the message line share one slot of a fixed height: a message line that
        # came and went at the bottom moved every button above it by its height, under the
        # dealer's finger (Raise became All-in; the void's confirming tap hit nothing)
        self.slot = QWidget()
        slot = QVBoxLayout(self.slot)
        slot.setContentsMargins(0, 0, 0, 0)
        slot.setSpacing(0)
        slot.addWidget(self.hint)
        lay.addWidget(self.slot)
        self.pages = PageStack()  # sized by the page shown: the keypad's page is tall
        lay.addWidget(self.pages, 1)
        self.keypad = AmountKeypad(presenter, chips, currency)
        self.bar = ActionBar(presenter, currency, forced)
        self.message = _label("message")
        slot.addWidget(self.message)
        slot.addStretch(1)
        self._build_hand()
        self._build_showdown()
        self._build_settled()
        self._build_between()
        self._build_void()
        self.entry = EntryPage(presenter)
        self.pages.add_page(self.entry)
        self._build_deck()
        self.signoff = SignoffPage(presenter, currency)  # a large pot waits for a pit boss
        self.pages.add_page(self.signoff)
        for keys in (self.entry.manual_keys, self.entry.ident_keys):
            keys.set_echo(False)  # no card in large type: the rank and suit keys show the choice
        self.entry.manual_keys.cardChosen.connect(self._typed)
        self._board: tuple[Card, ...] = ()
        self._resumed_at: tuple[object, ...] | None = None  # the resumed hand's state then
        self._message_px = 20

    # -- pages ------------------------------------------------------------------------------------
    def _page(self) -> QVBoxLayout:
        w = QWidget()
        lay = QVBoxLayout(w)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(10)
        self.pages.add_page(w)
        return lay

    def _build_hand(self) -> None:
        lay = self._page()
        self.facts = _label("pFacts")  # rich text: the stack line drawn smaller, not wrapped
        self.facts.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.facts)
        lay.addStretch(1)
        self.hand_keys = QVBoxLayout()
        lay.addLayout(self.hand_keys)
        self.hand_keys.addWidget(self.keypad)
        lay.addWidget(self.bar)

    def _build_showdown(self) -> None:
        lay = self._page()
        self.order = _label("pFacts")
        lay.addWidget(self.order)
        lay.addStretch(1)
        row = QHBoxLayout()
        self.show_btn = QPushButton(tr("Show"))
        self.show_btn.setObjectName("bigButton")
        self.show_btn.clicked.connect(lambda: self.p.tap_show(True))
        self.muck_btn = QPushButton(tr("Muck"))
        self.muck_btn.setObjectName("bigButton")
        self.muck_btn.setProperty("kind", "muck")
        self.muck_btn.clicked.connect(lambda: self.p.tap_show(False))
        row.addWidget(self.show_btn)
        row.addWidget(self.muck_btn)
        lay.addLayout(row)
        self.void2 = QPushButton(tr("Void hand"))
        self.void2.setObjectName("voidButton")
        self.void2.clicked.connect(self.p.tap_void)
        lay.addWidget(self.void2)

    def _build_settled(self) -> None:
        lay = self._page()
        self.awards = _label("pAwards")
        self.awards.setTextFormat(Qt.TextFormat.RichText)
        lay.addWidget(self.awards)
        lay.addStretch(1)
        self.next_btn = QPushButton(tr("Next"))
        self.next_btn.setObjectName("bigButton")
        self.next_btn.clicked.connect(self.p.tap_done)
        lay.addWidget(self.next_btn)

    def _build_between(self) -> None:
        lay = self._page()
        lay.setSpacing(6)  # its many rows fit 1280x800 with the message slot
        self.seat_line = _label("pFacts")
        lay.addWidget(self.seat_line)
        self.name = QLineEdit()
        self.name.setObjectName("pinField")
        self.name.setPlaceholderText(tr("Player name (optional)"))
        self.name.textEdited.connect(self.p.set_name)
        lay.addWidget(self.name)
        self.between_keys = QVBoxLayout()
        lay.addLayout(self.between_keys)
        grid = QHBoxLayout()
        self.seat_btn = QPushButton(tr("Seat player"))
        self.seat_btn.clicked.connect(self.p.tap_seat_player)
        self.top_btn = QPushButton(tr("Top up"))
        self.top_btn.clicked.connect(self.p.tap_top_up)
        grid.addWidget(self.seat_btn)
        grid.addWidget(self.top_btn)
        lay.addLayout(grid)
        changes = QGridLayout()  # two a row: the Italian texts need the width
        changes.setSpacing(8)
        self.changes: dict[str, QPushButton] = {}
        for i, (kind, text) in enumerate((("sit_out", tr("Sit out")), ("sit_in", tr("Sit in")),
                                          ("leave", tr("Leave")),
                                          ("button", tr("Button here")))):  # fmt: skip
            b = QPushButton(text)
            b.clicked.connect(lambda _=False, k=kind: self.p.tap_seat_change(k))
            changes.addWidget(b, i // 2, i % 2)
            self.changes[kind] = b
        lay.addLayout(changes)
        lay.addStretch(1)
        self.new_btn = QPushButton(tr("New hand"))
        self.new_btn.setObjectName("bigButton")
        self.new_btn.clicked.connect(self.p.tap_new_hand)
        lay.addWidget(self.new_btn)

    def _build_void(self) -> None:
        # the alarm covers the window (PokerVoidAlarm, with "Acknowledged"): this page only
        # keeps the panel quiet beneath it
        lay = self._page()
        self.alarm = _label("alarmReason")
        lay.addWidget(self.alarm)
        lay.addStretch(1)

    def _build_deck(self) -> None:
        lay = self._page()
        self.shortage = _label("pFacts")
        lay.addWidget(self.shortage)
        lay.addStretch(1)
        self.reshuffle_btn = QPushButton(tr("Burns loaded: shuffle"))
        self.reshuffle_btn.setObjectName("bigButton")
        self.reshuffle_btn.clicked.connect(self.p.tap_reshuffle)
        lay.addWidget(self.reshuffle_btn)
        self.void3 = QPushButton(tr("Void hand"))
        self.void3.setObjectName("voidButton")
        self.void3.clicked.connect(self.p.tap_void)
        lay.addWidget(self.void3)

    def _typed(self, _card: Card) -> None:
        # the keypad marks a confirmed card unavailable: only the face-up board stays so
        self.entry.manual_keys.set_unavailable(self._board)

    def set_compact(self, compact: bool) -> None:
        """Smaller keys on small screens."""
        self._message_px = 16 if compact else 20
        fit_lines(self.message, MESSAGE_LINES, self._message_px)
        self.slot.setFixedHeight(self.message.maximumHeight())
        self.keypad.set_compact(compact)
        self.entry.set_compact(compact)
        self.signoff.set_compact(compact)
        for label in (
            self.facts,
            self.awards,
            self.order,
            self.seat_line,
            self.shortage,
            self.keypad.amount,
        ):
            restyle(label, compact=compact)
        for b in self.bar.buttons.values():
            restyle(b, compact=compact)
        for b in (self.show_btn, self.muck_btn, self.next_btn, self.new_btn, self.reshuffle_btn):
            restyle(b, compact=compact)

    # -- drawing ----------------------------------------------------------------------------------
    def show_view(self, view: PokerView) -> None:
        """The page of the view's step."""
        step = view.step
        page = {"betting": "hand", "dealing": "hand", "connecting": "between", "manual": "entry",
                "identify": "entry", "new_deck": "deck"}.get(step, step)  # fmt: skip
        shown = self.pages.widget(PAGES.index(page))
        if shown is not None:
            self.pages.show_page(shown)
        getattr(self, f"_show_{page}")(view)
        resumed = self._resumed_now(view.snap)
        set_text(self.resumed, tr("Resumed after a restart: the hand goes on") if resumed else "")
        self.resumed.setVisible(resumed)
        collapse(self.title, page == "entry")  # the keypad's page has its own
        self._show_message(view)

    def _resumed_now(self, s: PokerSnapshot) -> bool:
        """The hand was resumed after a restart and has not moved on since (no action, no
        card, no street): once it moves the notice has been read."""
        if not (s.resumed and s.in_hand):
            self._resumed_at = None
            return False
        at = (s.hand_uid, s.actor, s.street, s.phase, s.pending, s.showdown)
        if self._resumed_at is None or self._resumed_at[0] != s.hand_uid:
            self._resumed_at = at
        return at == self._resumed_at

    def _show_message(self, view: PokerView) -> None:
        """The message in the hint's slot (the hint when there is none); a long one is drawn
        smaller to fit the slot's two lines."""
        m = view.message
        if m is not None:
            set_text(self.message, message_text(m, self.currency))
            restyle(self.message, level="error" if m.error else "")
            fit_lines(self.message, MESSAGE_LINES, self._message_px)
        else:
            fit_font(self.hint, self.slot.maximumHeight(), self._message_px + 4)
        self.message.setVisible(m is not None)  # inside the fixed slot: nothing else moves
        self.hint.setVisible(m is None)

    def _show_hand(self, view: PokerView) -> None:
        s, cur = view.snap, self.currency
        legal = view.legal if view.step == "betting" else None
        self.hand_keys.addWidget(self.keypad)  # the keypad is shared with between hands
        self.keypad.show_view(view, betting=True)
        self.bar.show_view(view)
        if legal is None:
            set_text(self.title, tr("Dealing"))
            set_text(self.hint, tr("The cards are being dealt: no action before they are out."))
            self._set_facts([trf("Cards to come: %1", len(s.pending))] if s.pending else [])
            return
        if FORCED_KIND in legal.kinds:
            set_text(self.title, trf("Seat %1: %2 or fold", legal.seat, kind_name(FORCED_KIND)))
            set_text(self.hint, tr("If the seat folds, the obligation passes to the next seat "
                                   "in line."))  # fmt: skip
            self._set_facts(street_lines(view))
            return
        seat = s.seat(legal.seat)
        who = seat.name if seat is not None and seat.name else ""
        set_text(self.title, trf("Seat %1 to act", legal.seat) + (f" — {who}" if who else ""))
        issue = amount_issue(legal, view.amount) if legal.bet_kind and view.amount else None
        if issue is not None:  # why the keyed amount is not offered, where the dealer looks
            set_text(self.hint, message_text(issue, cur))
        else:
            set_text(self.hint, tr("Tap the player's action. Bet and raise go to the keyed "
                                   "total."))  # fmt: skip
        street = street_lines(view)
        self._set_facts([*street, stack_line(view, cur), *limit_lines(view, cur)], len(street))

    def _set_facts(self, lines: list[str], one_line: int | None = None) -> None:
        """The facts, a line each; line ``one_line`` (the stack line) is never wrapped: drawn
        in a smaller font when the Italian and a large stack need more than the width."""
        label = self.facts
        width = label.width() if label.width() > 100 else 384
        parts = []
        for i, line in enumerate(lines):
            text = html.escape(line, quote=False)
            font = QFont(label.font())
            px = full = font.pixelSize() if font.pixelSize() > 0 else 18
            while i == one_line and px > 12 and QFontMetrics(font).horizontalAdvance(line) > width:
                px -= 1
                font.setPixelSize(px)
            parts.append(f'<span style="font-size: {px}px;">{text}</span>' if px < full else text)
        set_text(label, "<br>".join(parts))

    def _show_showdown(self, view: PokerView) -> None:
        s = view.snap
        legal = view.legal
        seat = legal.seat if legal is not None else 0
        set_text(self.title, tr("Showdown"))
        set_text(self.hint, trf("Seat %1: Show or Muck", seat))
        order = ", ".join(str(x) for x in s.showdown)  # a variable: a literal is a comment
        set_text(self.order, trf("Order: %1", order))
        kinds = legal.kinds if legal is not None else ()
        seat_no = trf("Seat %1", seat)  # two lines: the Italian texts need the width
        set_text(self.show_btn, seat_no + "\n" + tr("Show"))
        set_text(self.muck_btn, seat_no + "\n" + tr("Muck"))
        self.show_btn.setEnabled("show" in kinds and not view.busy)
        self.muck_btn.setEnabled("muck" in kinds and not view.busy)
        restyle(self.void2, armed=view.void_armed)
        set_text(self.void2, void_label(view.void_armed))

    def _show_settled(self, view: PokerView) -> None:
        set_text(self.title, tr("Award the pots"))
        set_text(self.hint, tr("Side pots first, the main pot last."))
        set_text(self.awards, award_text(view.snap, self.currency))

    def _show_between(self, view: PokerView) -> None:
        s, cur = view.snap, self.currency
        low, high = view.buy_in
        self.between_keys.addWidget(self.keypad)
        self.keypad.show_view(view, betting=False)
        set_text(self.title, tr("Between hands"))
        player = view.player
        seat = view.selected
        if view.step == "connecting":
            set_text(self.hint, tr("Connecting…"))
        elif seat is None and view.has_button:
            set_text(self.hint, tr("Tap a seat to seat a player, top up, sit out or in, leave, "
                                   "or place the button."))  # fmt: skip
        elif seat is None:
            set_text(self.hint, tr("Tap a seat to seat a player, top up, sit out or in, or "
                                   "leave."))  # fmt: skip
        else:
            set_text(self.hint, trf("Buy-in %1 – %2", money(low, cur), money(high, cur)))
        if seat is None:
            set_text(self.seat_line, "")
        elif player is None:
            set_text(self.seat_line, trf("Seat %1: empty", seat))
        else:
            # a player seated without a name: the seat and the stack ("Seat 7 — — · ..." read
            # as a glitch)
            who = trf("Seat %1 — %2", seat, player.name) if player.name else trf("Seat %1", seat)
            set_text(self.seat_line, who + " · " + money(player.stack, cur))
        if self.name.text() != view.name and not self.name.hasFocus():
            self.name.setText(view.name)
        free = seat is not None and player is None
        self.name.setEnabled(free)
        self.seat_btn.setEnabled(free and not view.busy)
        self.top_btn.setEnabled(player is not None and not view.busy)
        out = player is not None and player.sitting_out
        self.changes["sit_out"].setEnabled(player is not None and not out and not view.busy)
        self.changes["sit_in"].setEnabled(out and not view.busy)
        self.changes["leave"].setEnabled(player is not None and not view.busy)
        self.changes["button"].setEnabled(player is not None and not view.busy)
        self.changes["button"].setVisible(view.has_button)  # Stud deals from seat 1
        playing = [x for x in s.seats if not x.sitting_out and x.stack > 0]
        broke = [x for x in s.seats if x.stack == 0 and not x.sitting_out]
        why = ""
        if broke:  # a player at 0 chips is not dealt in: top up or leave, said first
            why = broke_text(broke[0])
        elif len(playing) < 2:
            why = tr("New hand needs two players with chips who are not sitting out")
        elif s.button is None and view.has_button:
            why = tr("Place the button first: tap a player's seat, then “Button here”")
        if why and seat is None and view.step != "connecting":
            set_text(self.hint, why)  # why "New hand" is off, where the dealer looks
        if player is not None and player.stack == 0:
            set_text(self.hint, tr("No chips: top up (rebuy) or leave"))
        ready = len(playing) >= 2 and not (s.button is None and view.has_button) and not view.busy
        self.new_btn.setEnabled(ready and s.device.connected)

    def _show_entry(self, view: PokerView) -> None:
        self._board = view.snap.board
        self.entry.show_view(view, view.snap.hand_uid)
        self.entry.manual_keys.set_unavailable(self._board)  # face up: may be shown
        set_text(self.title, "")
        set_text(self.hint, "")

    def _show_deck(self, view: PokerView) -> None:
        s = view.snap
        set_text(self.title, tr("Deck short"))
        set_text(self.hint, tr("Load the burns (with the stub) into the shuffler, then tap "
                               "“Burns loaded: shuffle”."))  # fmt: skip
        set_text(self.shortage, shortage_text(s.shortage))
        busy = s.reshuffling or view.busy
        text = tr("Shuffling the burns…") if s.reshuffling else tr("Burns loaded: shuffle")
        set_text(self.reshuffle_btn, text.replace(": ", ":\n", 1))  # two lines at 1280x800
        self.reshuffle_btn.setEnabled(not busy)
        restyle(self.void3, armed=view.void_armed)
        set_text(self.void3, void_label(view.void_armed))

    def _show_signoff(self, view: PokerView) -> None:
        title, hint = self.signoff.show_view(view)
        set_text(self.title, title)
        set_text(self.hint, hint)

    def _show_void(self, view: PokerView) -> None:
        set_text(self.title, tr("HAND VOID"))
        set_text(self.hint, "")
        set_text(self.alarm, void_text(view.snap.alarm))


MESSAGE_LINES = 2
"""Lines the message line always keeps room for."""


def fit_lines(label: QLabel, lines: int, px: int, min_px: int = 13) -> None:
    """Give the message ``label`` the fixed height of ``lines`` lines in a ``px`` font (with
    the style's padding and border) and draw its text in the largest font that fits."""
    font = QFont(label.font())
    font.setPixelSize(px)
    height = QFontMetrics(font).lineSpacing() * lines + 2 * MESSAGE_PAD
    if label.minimumHeight() != height or label.maximumHeight() != height:
        label.setFixedHeight(height)
    fit_font(label, height, px, MESSAGE_PAD, min_px)


def fit_font(label: QLabel, height: int, px: int, pad: int = 0, min_px: int = 13) -> None:
    """Draw ``label``'s (word-wrapped) text in the largest font from ``px`` down to
    ``min_px`` whose lines fit in ``height`` pixels (``pad`` inside each edge)."""
    font = QFont(label.font())
    width = (label.width() if label.width() > 100 else 384) - 2 * pad
    size = px
    while size > min_px:
        font.setPixelSize(size)
        box = QFontMetrics(font).boundingRect(0, 0, width, 10000, TEXT_WRAP, label.text())
        if box.height() + 2 * pad <= height:
            break
        size -= 1
    if label.property("fitPx") != size:  # a style sheet set again re-polishes the label
        label.setProperty("fitPx", size)
        label.setStyleSheet(f"font-size: {size}px;")


MESSAGE_PAD = 12
"""The message style's padding (10) and border (2), each edge."""
TEXT_WRAP = int(Qt.TextFlag.TextWordWrap.value)


def broke_text(player: SeatSnap) -> str:
    """The prompt for a player left with no chips: top up or leave."""
    who = trf("%1 (seat %2)", player.name, player.seat) if player.name else trf(
        "Seat %1", player.seat)  # fmt: skip
    return trf("%1 has no chips: tap the seat, then Top up (rebuy) or Leave", who)


def void_text(code: str) -> str:
    """Why the hand was voided (the core's reason code)."""
    if code == "dealer_void":
        return tr("Hand voided by the dealer")
    return trf("Hand void: %1", code)
