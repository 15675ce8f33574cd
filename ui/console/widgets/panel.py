"""The dealer's side panel: what to do now (chip keypad, who is to act, the settlement list), a
message line and one big button for the dealer's next step."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui.console.presenter import ConsolePresenter
from ui.console.texts import box_name, dealer_action_label, message_text
from ui.console.view import ConsoleView, Step
from ui.console.walk_texts import walk_texts
from ui.console.widgets.correct import CorrectPage
from ui.console.widgets.exposed import ExposedPage
from ui.console.widgets.history import HistoryPage
from ui.console.widgets.settle import SettlementPage
from ui.kit import theme
from ui.kit.chip import ChipButton
from ui.kit.entry import EntryPage
from ui.kit.fault_texts import source_error_text
from ui.kit.format import money
from ui.kit.labels import FitLabel, collapse, restyle, set_text
from ui.kit.pages import PageStack
from ui.kit.translate import tr, trf


def fit_font(button: QPushButton, text: str, sizes: tuple[int, ...]) -> None:
    """Set ``text`` in the largest of ``sizes`` (pixels) that fits the button's width."""
    set_text(button, text)
    room = max(1, button.width() - 32)
    for size in sizes:
        font = QFont(button.font())
        font.setPixelSize(size)
        if QFontMetrics(font).horizontalAdvance(text) <= room or size == sizes[-1]:
            sheet = f"font-size: {size}px;"
            if button.styleSheet() != sheet:
                button.setStyleSheet(sheet)
            return


def _label(name: str, text: str = "", *, wrap: bool = True) -> QLabel:
    # wrapping by default: a long translation takes a second line instead of being cut off
    label = QLabel(text)
    label.setObjectName(name)
    label.setWordWrap(wrap)
    return label


def _total() -> FitLabel:
    # one line, smaller type when long: "On the table: EUR 1,110.00" wrapped to two lines took
    # a row of the narrow panel's keypad at 1280x800 (the chips drawn over Clear box)
    label = FitLabel(min_px=18)
    label.setObjectName("sideTitle")
    label.setAlignment(Qt.AlignmentFlag.AlignRight)
    return label


class BetsPage(QWidget):
    """Chip keypad of the selected seat, repeat and clear."""

    def __init__(self, presenter: ConsolePresenter) -> None:
        super().__init__()
        self.p = presenter
        self._compact = False
        self.lay = lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(12)
        self.title = _label("sideTitle")
        self.hint = _label("sideHint")
        policy = self.hint.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.hint.setSizePolicy(policy)
        lay.addWidget(self.title)
        lay.addWidget(self.hint)
        self.tabs_row = QHBoxLayout()
        self.tabs_row.setSpacing(8)
        self.tabs: dict[str, QPushButton] = {}
        for box in presenter.book.entry_boxes:
            b = QPushButton("")
            b.setObjectName("boxTab")
            b.setMinimumHeight(84)
            b.clicked.connect(lambda _=False, bx=box: self.p.select_box(bx))
            self.tabs[box] = b
            self.tabs_row.addWidget(b)
        lay.addLayout(self.tabs_row)
        chips = QGridLayout()
        chips.setSpacing(14)
        self.chips: list[ChipButton] = []
        for i, value in enumerate(sorted(presenter.config.chips)):
            b = ChipButton(value)
            b.setAccessibleName(trf("Chip %1", money(value, presenter.config.currency)))
            b.clicked.connect(lambda _=False, v=value: self.p.tap_chip(v))
            chips.addWidget(b, i // 3, i % 3, Qt.AlignmentFlag.AlignCenter)
            self.chips.append(b)
        self.undo_chip = QPushButton("↶")  # the next free cell of the chip grid
        self.undo_chip.setObjectName("undoChip")
        self.undo_chip.clicked.connect(self.p.undo_chip)
        n = len(self.chips)
        chips.addWidget(self.undo_chip, n // 3, n % 3, Qt.AlignmentFlag.AlignCenter)
        lay.addLayout(chips)
        row = QHBoxLayout()
        self.clear_box = QPushButton("")
        self.clear_box.clicked.connect(self.p.clear_box)
        self.clear_seat = QPushButton("")
        self.clear_seat.clicked.connect(lambda: self.p.clear_seat())
        row.addWidget(self.clear_box)
        row.addWidget(self.clear_seat)
        lay.addLayout(row)

        self.limits = _label("sideHint", wrap=False)
        lay.addWidget(self.limits)
        lay.addStretch(1)
        self.total = _total()
        lay.addWidget(self.total)
        last = QHBoxLayout()
        self.repeat = QPushButton("")
        self.repeat.clicked.connect(self.p.repeat_last)
        last.addWidget(self.repeat, 3)
        self.history = QPushButton("")
        self.history.setObjectName("historyButton")
        self.history.clicked.connect(self.p.open_history)
        last.addWidget(self.history, 2)
        lay.addLayout(last)

    def set_compact(self, compact: bool) -> None:
        """Smaller chips and tabs for small screens."""
        self.lay.setSpacing(8 if compact else 12)
        size = 68 if compact else 92  # 1280x800: room for a message line above the big button
        for c in self.chips:
            c.set_size(size)
        self.undo_chip.setFixedSize(size, size)
        self._compact = compact
        for t in self.tabs.values():
            t.setMinimumHeight(64 if compact else 84)
            restyle(t, compact=compact)

    def show_view(self, view: ConsoleView) -> None:
        """Draw the keypad for the selected seat (or the hint to select one)."""
        cur = view.currency
        kp = view.keypad
        set_text(self.title, trf("Seat %1", kp.seat) if kp else tr("Bets"))
        # hidden once a seat is chosen, its room kept: the chips do not jump up under the
        # dealer's hand at the first seat of every hand (56 px at 1280x800 in Italian)
        set_text(self.hint, tr("Tap a seat to enter its bets."))
        self.hint.setVisible(kp is None)
        amounts = dict(kp.boxes) if kp else {}
        for box, b in self.tabs.items():
            amount = amounts.get(box, 0)
            set_text(b, f"{box_name(box)}\n{money(amount, cur) if amount else '—'}")
            b.setEnabled(kp is not None)
            restyle(b, selected=kp is not None and kp.box == box)
        for c in self.chips:
            c.setEnabled(kp is not None)
        set_text(self.clear_box, tr("Clear box"))
        set_text(self.clear_seat, tr("Clear seat"))
        self.clear_box.setEnabled(kp is not None)
        self.clear_seat.setEnabled(kp is not None)
        lims = kp.limits if kp else ()
        if self._compact and kp is not None:  # a small screen: the limits of the box filled,
            lims = tuple(lim for lim in lims if lim[0] == kp.box) or lims
            if view.message is not None:  # none while a line for the dealer takes the room
                lims = ()
        set_text(
            self.limits,
            "\n".join(
                trf("%1: %2 – %3", box_name(b), money(lo, cur), money(hi, cur))
                for b, lo, hi in lims
            ),
        )
        set_text(self.repeat, tr("Repeat last bets"))
        self.repeat.setEnabled(view.can_repeat)
        texts = walk_texts()
        # it takes back the selected seat's last chip, and says which seat
        undo = trf("Undo the last chip of seat %1", kp.seat) if kp else texts["undo_chip"]
        set_text(self.undo_chip, f"↶ {kp.seat}" if kp else "↶")
        self.undo_chip.setAccessibleName(undo)
        self.undo_chip.setToolTip(undo)
        self.undo_chip.setEnabled(view.can_undo_chip)
        set_text(self.history, texts["history"])
        self.history.setEnabled(view.can_history)
        # side by side in pairs: the largest size that fits (Italian is longer, at 1280x800)
        for b in (self.repeat, self.history, self.clear_box, self.clear_seat):
            fit_font(b, b.text(), (20, 17, 15, 13))
        set_text(self.total, trf("On the table: %1", money(view.on_table, cur)))


class PlayPage(QWidget):
    """Dealing, decisions and showdown: who still has to decide, and voiding the hand."""

    def __init__(self, presenter: ConsolePresenter) -> None:
        super().__init__()
        self.p = presenter
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(12)
        self.title = _label("sideTitle")
        self.seats = _label("phase")
        self.seats.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.seats.setStyleSheet(f"background: {theme.PANEL_2}; font-size: 44px;")
        self.hint = _label("sideHint")
        lay.addWidget(self.title)
        lay.addWidget(self.seats)
        lay.addWidget(self.hint)
        lay.addStretch(1)
        self.total = _total()
        lay.addWidget(self.total)
        self.expose = QPushButton("")
        self.expose.setObjectName("exposeButton")
        self.expose.clicked.connect(self.p.open_exposed)
        lay.addWidget(self.expose)
        self.void = QPushButton("")
        self.void.setObjectName("voidButton")
        self.void.clicked.connect(self.p.void_hand)
        lay.addWidget(self.void)

    def show_view(self, view: ConsoleView) -> None:
        """Draw who is to act, or what is happening."""
        set_text(self.expose, tr("Card exposed by mistake"))
        self.expose.setEnabled(view.can_expose)
        if view.step is Step.DEALING:
            set_text(self.title, tr("Dealing"))
            set_text(self.seats, "…")
            set_text(self.hint, tr("The shuffler is dealing. Bets are locked."))
        elif view.to_act:
            set_text(self.title, tr("To act"))
            set_text(self.seats, "  ".join(str(s) for s in view.to_act))
            set_text(self.hint, tr("Tap each seat's decision on the table."))
        else:
            set_text(self.title, tr("All seats have decided"))
            set_text(self.seats, "✓")
            set_text(self.hint, "")
        if view.exposed:
            count = view.exposed
            extra = trf("Exposed cards recorded: %1", count)
            set_text(self.hint, f"{self.hint.text()}\n{extra}".strip())
        if view.void_armed:  # the hint names the button as it reads now
            set_text(self.hint, walk_texts()["confirm_void"])
        self.hint.setVisible(bool(self.hint.text()))
        set_text(self.total, trf("On the table: %1", money(view.on_table, view.currency)))
        set_text(self.void, tr("Confirm: void the hand") if view.void_armed else tr("Void hand"))
        self.void.setEnabled(view.can_void)
        restyle(self.void, armed=view.void_armed)


def panel_message(view: ConsoleView) -> str:
    """The message line: the armed void's hint is on the play page (the line would move the
    void button the dealer is about to tap again), so it stays empty then."""
    message = view.message
    if message is None or message.code == "confirm_void":
        return ""
    if message.code == "exposed_mismatch":
        return walk_texts()["exposed_mismatch"]
    if message.code == "reenter":
        return walk_texts()["reenter_hint"]
    return message_text(message, view.currency)


class InfoPage(QWidget):
    """Connecting / hand over: a title and a line."""

    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.title = _label("sideTitle")
        self.hint = _label("sideHint")
        lay.addWidget(self.title)
        lay.addWidget(self.hint)
        lay.addStretch(1)

    def show_view(self, view: ConsoleView) -> None:
        """Draw the state of the connection or of the finished hand."""
        if view.step is Step.CONNECTING:
            set_text(self.title, tr("Shuffler"))
            err = source_error_text(view.device)  # the driver's words go to the log
            set_text(self.hint, trf("Not connected: %1", err) if err else tr("Connecting…"))
        else:
            set_text(self.title, tr("Hand over"))
            set_text(self.hint, tr("Start a new hand when the shuffler is ready."))


class SidePanel(QFrame):
    """Pages by step, the message line and the dealer's big button."""

    def __init__(self, presenter: ConsolePresenter) -> None:
        super().__init__()
        self.setObjectName("side")
        self.p = presenter
        self.lay = lay = QVBoxLayout(self)
        lay.setContentsMargins(20, 20, 20, 20)
        lay.setSpacing(14)
        self.stack = PageStack()
        self.bets = BetsPage(presenter)
        self.play = PlayPage(presenter)
        self.settlement = SettlementPage(presenter)
        self.history = HistoryPage(presenter)
        self.correct = CorrectPage(presenter)
        self.info = InfoPage()
        self.entry = EntryPage(presenter)
        self.exposed = ExposedPage(presenter)
        pages = (
            self.bets,
            self.play,
            self.settlement,
            self.info,
            self.entry,
            self.exposed,
            self.history,
            self.correct,
        )
        for page in pages:
            self.stack.add_page(page)
        self.resumed = _label("resumed")
        lay.addWidget(self.resumed)
        lay.addWidget(self.stack, 1)
        self.reenter = QPushButton("")  # the last typed card, before the next one
        self.reenter.setObjectName("reenterCard")
        self.reenter.clicked.connect(self.p.reenter)
        self.reenter.hide()
        lay.addWidget(self.reenter)
        self.message = _label("message")
        lay.addWidget(self.message)
        self.big = QPushButton("")
        self.big.setObjectName("bigButton")
        self.big.clicked.connect(self.p.dealer_button)
        lay.addWidget(self.big)
        self._big_text = ""
        self._compact = False

    def set_compact(self, compact: bool) -> None:
        """Tighter spacing, smaller chips and button for small screens (1280x800)."""
        m = 12 if compact else 20
        self.lay.setContentsMargins(m, m, m, m)
        self.lay.setSpacing(8 if compact else 14)
        self.bets.set_compact(compact)
        self.entry.set_compact(compact)
        self.entry.set_columns(5)  # the panel keeps its width for the card keypads too
        self.exposed.set_compact(compact)
        self.settlement.set_compact(compact)
        # the lower big button and a tighter message: a line for the dealer fits under the
        # bets, the exposed card's keys and the reveal at 1280x800
        restyle(self.big, compact=compact)
        restyle(self.message, compact=compact)
        self._compact = compact
        self._fit_big()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_big()

    def _fit_big(self) -> None:
        sizes = (28, 24, 20) if self._compact else (32, 28, 24, 20)
        fit_font(self.big, self._big_text, sizes)

    def show_view(self, view: ConsoleView) -> None:
        """Draw the page of the step, the message and the big button."""
        step = view.step
        page: QWidget
        if view.history is not None:
            page = self.history
        elif view.correct is not None:
            page = self.correct
        elif step is Step.BETS:
            page = self.bets
        elif step in (Step.MANUAL, Step.IDENTIFY):
            page = self.entry
        elif view.expose is not None and step in (Step.DECISIONS, Step.SHOWDOWN):
            page = self.exposed
        elif step in (Step.DEALING, Step.DECISIONS, Step.SHOWDOWN):
            page = self.play
        elif step in (Step.REVEAL, Step.SETTLEMENT):
            page = self.settlement
        else:
            page = self.info
        action = view.action
        no_big = (
            action is None
            or step is Step.VOID
            or page in (self.exposed, self.history, self.correct)
        )
        if no_big:  # first what goes away, so the window is never laid out with both
            self.big.hide()
        # every page is redrawn, so a hidden page never keeps an old hand's text
        self.bets.show_view(view)
        self.play.show_view(view)
        self.settlement.show_view(view)
        self.info.show_view(view)
        self.entry.show_view(view, self.p.snap.hand_uid)
        self.exposed.show_view(view)
        self.history.show_view(view)
        self.correct.show_view(view)
        self.stack.show_page(page)  # a hidden page must not make the panel taller
        set_text(self.resumed, walk_texts()["resumed"] if view.resumed else "")
        collapse(self.resumed, not view.resumed)
        set_text(self.reenter, walk_texts()["reenter"])
        self.reenter.setVisible(view.entry is not None and view.entry.held)
        msg = panel_message(view)
        set_text(self.message, msg)
        collapse(self.message, not msg)
        info = ("confirm_void", "exposed_recorded", "reenter")
        level = "info" if view.message and view.message.code in info else "error"
        restyle(self.message, level=level)
        if action is not None and not no_big:
            self._big_text = dealer_action_label(action, view.game)
            self._fit_big()
            self.big.setEnabled(action.enabled)
            restyle(self.big, kind=action.kind)
            self.big.show()
