"""The dealer's card keypad: rank, suit, confirm ("Manual entry").

A standalone widget: thirteen rank keys, four suit keys, a preview of the chosen card and Clear /
Confirm. Every key is at least :data:`TOUCH` pixels on each side (64 px touch targets).
Confirm emits :attr:`CardKeypad.cardChosen` with a :class:`~dealer_assist.cards.Card`; the console
passes it to :meth:`drivers.manual.ManualSource.enter`, which reports it as a manual card.

Cards already on the table can be made unavailable (:meth:`CardKeypad.set_unavailable`); a
confirmed card becomes unavailable too, so the same card cannot be entered twice in a hand. The
physical keyboard works as well: ``A K Q J T 9 ... 2`` (``1`` or ``0`` for ten), ``s h d c``,
Enter to confirm, Escape or Backspace to clear.

Privacy (4): the chosen card is not echoed in large type (the checked rank and suit
keys show the choice; :meth:`CardKeypad.set_echo` turns a small echo on), and a refused card gets
the core's own refusal (:data:`CARD_TAKEN`, the console's ``card_taken`` message): the same words
whether the card is face up or one typed before and still face down, never where it is.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QButtonGroup,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.cards import RANK_CHARS, SUIT_CHARS, Card, parse_card
from ui.kit.card_texts import CARD_TAKEN
from ui.kit.translate import tr

TOUCH = 64  # minimum side of a key, pixels
RANK_ORDER = "AKQJT98765432"
SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
RED_SUITS = frozenset("hd")

#: the echo when turned on: body type, as the hint line, not the card's face in large type
_PREVIEW_STYLE = "font-size: 18px; font-weight: bold; color: {colour};"
_KEY_STYLE = (
    "QPushButton {{ font-size: 28px; font-weight: bold; border-radius: 8px; padding: 0;"
    " min-width: 60px; background: #f4f1ea; color: {color}; border: 2px solid #888; }}"
    "QPushButton:checked {{ background: #e3b94f; border: 3px solid #1a1406; }}"
    "QPushButton:disabled {{ color: #aaa; background: #ddd; }}"
)


def rank_label(rank_char: str) -> str:
    """The key caption of a rank character (``T`` shows as ``10``)."""
    return "10" if rank_char == "T" else rank_char


def card_label(card: Card) -> str:
    """A card as the keypad shows it, e.g. ``10♥``."""
    text = str(card)
    return rank_label(text[0]) + SUIT_SYMBOLS[text[1]]


class CardKeypad(QWidget):
    """Rank, suit and confirm keys for one card (``columns``: rank keys per row).

    Signals:
        cardChosen(Card): the dealer confirmed a card that is not unavailable.
    """

    cardChosen = Signal(object)

    def __init__(self, parent: QWidget | None = None, *, columns: int = 7) -> None:
        super().__init__(parent)
        self.setObjectName("cardKeypad")
        self._unavailable: set[Card] = set()
        self._echo = False  # no card in large type on a screen others can see
        self.rank_buttons: dict[str, QPushButton] = {}
        self.suit_buttons: dict[str, QPushButton] = {}
        self._ranks = QButtonGroup(self)
        self._suits = QButtonGroup(self)
        for group in (self._ranks, self._suits):
            group.setExclusive(True)

        self._grid = ranks = QGridLayout()
        for r in RANK_ORDER:
            button = self._key(rank_label(r), "#111111")
            button.setObjectName(f"rank_{r}")
            self._ranks.addButton(button)
            self.rank_buttons[r] = button
        self.set_columns(columns)
        suits = QHBoxLayout()
        for s in "shdc":
            button = self._key(SUIT_SYMBOLS[s], "#c8102e" if s in RED_SUITS else "#111111")
            button.setObjectName(f"suit_{s}")
            self._suits.addButton(button)
            self.suit_buttons[s] = button
            suits.addWidget(button)
        self._ranks.buttonToggled.connect(self._update)
        self._suits.buttonToggled.connect(self._update)

        self.preview = QLabel("—")
        self.preview.setObjectName("cardPreview")
        self.preview.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.preview.setMinimumSize(TOUCH, TOUCH)  # narrow panels: room for Clear / Confirm
        self.preview.setStyleSheet(_PREVIEW_STYLE.format(colour="#111111"))
        self.preview.setVisible(False)
        self.hint = QLabel("")
        self.hint.setObjectName("cardHint")
        self.hint.setWordWrap(True)
        self.clear_button = QPushButton(tr("Clear"))
        self.clear_button.setObjectName("clearCard")
        self.confirm_button = QPushButton(tr("Confirm"))
        self.confirm_button.setObjectName("confirmCard")
        for button in (self.clear_button, self.confirm_button):
            button.setMinimumSize(2 * TOUCH, TOUCH)
            button.setStyleSheet("font-size: 22px; font-weight: bold;")
        self.confirm_button.setDefault(True)
        self.clear_button.clicked.connect(self.clear)
        self.confirm_button.clicked.connect(self.confirm)

        self.bottom = bottom = QHBoxLayout()  # a form may add its own buttons to this row
        bottom.addWidget(self.preview, 1)
        bottom.addWidget(self.clear_button)
        bottom.addWidget(self.confirm_button)
        layout = QVBoxLayout(self)
        layout.addLayout(ranks)
        layout.addLayout(suits)
        layout.addWidget(self.hint)
        layout.addLayout(bottom)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._update()

    def _key(self, text: str, color: str) -> QPushButton:
        button = QPushButton(text)
        button.setCheckable(True)
        button.setMinimumSize(TOUCH, TOUCH)
        button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys go to the keypad's handler
        button.setStyleSheet(_KEY_STYLE.format(color=color))
        return button

    def set_columns(self, columns: int) -> None:
        """Lay the rank keys out ``columns`` per row (7: two rows; 5 for a narrow panel)."""
        for i, r in enumerate(RANK_ORDER):
            button = self.rank_buttons[r]
            self._grid.removeWidget(button)
            self._grid.addWidget(button, i // columns, i % columns)

    # -- state ---------------------------------------------------------------------------------

    def selection(self) -> Card | None:
        """The card the keys show now, or None until both rank and suit are chosen."""
        rank = next((r for r, b in self.rank_buttons.items() if b.isChecked()), None)
        suit = next((s for s, b in self.suit_buttons.items() if b.isChecked()), None)
        if rank is None or suit is None:
            return None
        return parse_card(rank + suit)

    @property
    def unavailable(self) -> frozenset[Card]:
        """Cards that cannot be confirmed (already on the table or entered)."""
        return frozenset(self._unavailable)

    def set_unavailable(self, cards: Iterable[Card]) -> None:
        """Make exactly ``cards`` unavailable (e.g. the cards of the hand so far; empty at a new
        hand)."""
        self._unavailable = set(cards)
        self._update()

    def choose(self, rank: str, suit: str) -> None:
        """Press a rank and a suit key (``"T"``, ``"h"``); an unknown character is ignored."""
        for char, buttons in ((rank.upper(), self.rank_buttons), (suit.lower(), self.suit_buttons)):
            if char in buttons:
                buttons[char].setChecked(True)

    def clear(self) -> None:
        """Release the rank and suit keys."""
        self._release()
        self._update()

    def _release(self) -> None:
        for group in (self._ranks, self._suits):
            group.blockSignals(True)  # one update after, not one per key
            group.setExclusive(False)  # an exclusive group keeps one key down
            for button in group.buttons():
                button.setChecked(False)
            group.setExclusive(True)
            group.blockSignals(False)

    def confirm(self) -> Card | None:
        """Emit the chosen card (and make it unavailable); None when nothing valid is chosen."""
        card = self.selection()
        if card is None or card in self._unavailable:
            self._release()  # nothing lit after a refusal either
            return None
        self._unavailable.add(card)
        self.clear()
        self.cardChosen.emit(card)
        return card

    def set_echo(self, echo: bool) -> None:
        """Show the chosen card in a small preview (True) or not (False, the default: a typed
        hole card or face-down card must not be readable on the screen from across the table;
        the checked rank and suit keys show the choice)."""
        self._echo = echo
        self.preview.setVisible(echo)
        self._update()

    def _update(self, *_: object) -> None:
        card = self.selection()
        if card is None:
            self.preview.setText("—")
            self._hint("")
            self.confirm_button.setEnabled(False)
            return
        taken = card in self._unavailable
        self._hint(tr(CARD_TAKEN) if taken else "")  # face up or face down: the same words
        self.confirm_button.setEnabled(not taken)
        if taken:
            # refused: no key stays lit (a lit A and spade would tell onlookers a face-down
            # card); the hint says why, the dealer chooses again
            self._release()
            self.preview.setText("—")
            return
        if not self._echo:
            self.preview.setText("—")
            return
        self.preview.setText(card_label(card))
        colour = "#c8102e" if str(card)[1] in RED_SUITS else "#111111"
        self.preview.setStyleSheet(_PREVIEW_STYLE.format(colour=colour))

    def _hint(self, text: str) -> None:
        """The hint line takes room only when it says something (a maximum height rather than
        hide(): hiding re-lays the window out at once)."""
        self.hint.setText(text)
        self.hint.setMaximumHeight(16777215 if text else 0)

    # -- keyboard ------------------------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """Rank and suit letters, Enter to confirm, Escape/Backspace to clear."""
        key = event.key()
        text = event.text()
        if key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.confirm()
        elif key in (Qt.Key.Key_Escape, Qt.Key.Key_Backspace):
            self.clear()
        elif text and text.upper() in RANK_CHARS and text.upper() in self.rank_buttons:
            self.rank_buttons[text.upper()].setChecked(True)
        elif text in ("1", "0"):
            self.rank_buttons["T"].setChecked(True)
        elif text and text.lower() in SUIT_CHARS:
            self.suit_buttons[text.lower()].setChecked(True)
        else:
            super().keyPressEvent(event)
