"""The page where the dealer enters cards, in both consoles: the manual deal (the keypad is the
card source) and an unreadable card identified by the dealer and confirmed by a pit boss.

Privacy: these pages say where a card goes, never which card went there. A keypad is cleared as
soon as its card is confirmed (its preview shows only the card being chosen), and the card the
dealer entered for an unreadable one is not shown to the pit boss: the pit boss enters the card
they see and the console compares the two.
"""

from __future__ import annotations

from typing import Protocol

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from dealer_assist.cards import Card
from ui.kit.card_keypad import CardKeypad
from ui.kit.card_texts import position_text
from ui.kit.cards import CardEntry
from ui.kit.labels import collapse, named_label, restyle, set_text
from ui.kit.pages import PageStack
from ui.kit.pin_pad import pin_pad
from ui.kit.translate import tr, trf


class EntrySink(Protocol):
    """What the entry page asks of its presenter (the banked and the poker console's)."""

    def card_entered(self, card: Card) -> None:
        """The keypad confirmed ``card``."""

    def pin_key(self, key: str) -> None:
        """A key of the pit boss's pad."""

    def void_hand(self) -> None:
        """The void button (first tap arms, the second confirms)."""


class EntryView(Protocol):
    """What the entry page draws from a view."""

    @property
    def entry(self) -> CardEntry | None:
        """The keypad's job now, None when none."""

    @property
    def void_armed(self) -> bool:
        """The next tap on the void button confirms it."""

    @property
    def can_void(self) -> bool:
        """The hand can be voided now."""


class PinPad(QWidget):
    """The pit boss's badge number and PIN on a touch pad (the PIN shows as dots).

    Signals:
        key(str): a digit, ``back``, ``next``, ``badge`` or ``pin`` (see
            :meth:`EntrySink.pin_key`).
    """

    key = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(8)
        fields = QHBoxLayout()
        self.badge = QPushButton("")
        self.badge.setObjectName("pinField")
        self.badge.clicked.connect(lambda: self.key.emit("badge"))
        self.pin = QPushButton("")
        self.pin.setObjectName("pinField")
        self.pin.clicked.connect(lambda: self.key.emit("pin"))
        fields.addWidget(self.badge, 1)
        fields.addWidget(self.pin, 1)
        lay.addLayout(fields)
        pad, self.keys = pin_pad(self.key.emit, next_text=tr("Next"), spacing=8, key_size=(88, 64))
        lay.addWidget(pad)

    def show_entry(self, entry: CardEntry) -> None:
        """Draw the badge, the PIN as dots and which field takes the digits."""
        set_text(self.badge, trf("Badge: %1", entry.badge or "—"))
        dots = "•" * entry.pin_len or "—"
        set_text(self.pin, trf("PIN: %1", dots))
        self.pin.setVisible(entry.pin_required)
        restyle(self.badge, selected=entry.pin_field == "badge")
        restyle(self.pin, selected=entry.pin_field == "pin")
        for button in self.keys.values():
            button.setEnabled(not entry.waiting)


class EntryPage(QWidget):
    """Manual deal, unreadable-card identification and the pit boss's confirmation."""

    def __init__(self, presenter: EntrySink) -> None:
        super().__init__()
        self.p = presenter
        self.lay = lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.setSpacing(10)
        self.title = named_label("sideTitle", wrap=False)
        self.position = named_label("entryPosition", wrap=False)
        self.position.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.progress = named_label("sideHint", wrap=False)
        self.hint = named_label("sideHint")
        for label in (self.title, self.position, self.progress, self.hint):
            lay.addWidget(label)
        self.stack = PageStack()
        # one keypad per job, so the cards typed in a manual deal stay unavailable there only
        self.manual_keys = CardKeypad()
        self.manual_keys.setObjectName("manualKeypad")
        self.ident_keys = CardKeypad()
        self.ident_keys.setObjectName("identKeypad")
        self.pinpad = PinPad()
        for pad in (self.manual_keys, self.ident_keys, self.pinpad):
            self.stack.add_page(pad)
        self.manual_keys.cardChosen.connect(self._chosen)
        self.ident_keys.cardChosen.connect(self._chosen)
        self.pinpad.key.connect(presenter.pin_key)
        lay.addWidget(self.stack)
        lay.addStretch(1)
        self.void = QPushButton("")
        self.void.setObjectName("voidButton")
        self.void.clicked.connect(presenter.void_hand)
        lay.addWidget(self.void)
        self._hand = ""
        self._mode = ""

    def _chosen(self, card: Card) -> None:
        # the runner checks an identified card against the deck; the keypad must not remember
        # it (the pit boss may enter the same card again, and must not learn the dealer's)
        self.ident_keys.set_unavailable(())
        self.p.card_entered(card)

    def set_compact(self, compact: bool) -> None:
        """Small screens (1280x800) keep the narrow panel: five rank keys a row, a smaller
        position line, no title (the phase banner says it), tighter spacing."""
        restyle(self.position, compact=compact)
        self.lay.setSpacing(6 if compact else 10)
        collapse(self.title, compact)
        for keys in (self.manual_keys, self.ident_keys):
            keys.set_columns(5 if compact else 7)

    def set_columns(self, columns: int) -> None:
        """Rank keys a row on both keypads (a console whose panel keeps one width asks five)."""
        for keys in (self.manual_keys, self.ident_keys):
            keys.set_columns(columns)

    def show_view(self, view: EntryView, hand_uid: str) -> None:
        """Draw the keypad's job (nothing of it when ``view.entry`` is None)."""
        if hand_uid != self._hand:  # a new deck: nothing typed yet
            self._hand = hand_uid
            self.manual_keys.set_unavailable(())
            self.manual_keys.clear()
        entry = view.entry
        mode = entry.mode if entry is not None else ""
        if mode != self._mode:
            self._mode = mode
            self.ident_keys.set_unavailable(())  # the runner checks the deck itself
            self.ident_keys.clear()
        set_text(self.void, tr("Confirm: void the hand") if view.void_armed else tr("Void hand"))
        self.void.setEnabled(view.can_void)
        restyle(self.void, armed=view.void_armed)
        if entry is None:
            for label in (self.title, self.position, self.progress, self.hint):
                set_text(label, "")
            return
        set_text(self.position, position_text(entry.position))
        if entry.mode == "manual":
            if entry.typed is not None:  # the presenter's list: a card typed again is free
                self.manual_keys.set_unavailable(entry.typed)
            set_text(self.title, tr("Manual entry"))
            set_text(self.progress, trf("Card %1 of %2", entry.number, entry.total))
            set_text(self.hint, tr("Enter each card as you deal it. Entered cards are not shown."))
            page: QWidget = self.manual_keys
        elif entry.mode == "identify":
            set_text(self.title, tr("Unreadable card"))
            set_text(self.progress, "")
            set_text(self.hint, tr("The reader could not read this card: look at it and enter it."))
            page = self.ident_keys
        else:
            set_text(self.title, tr("Pit boss confirmation"))
            if entry.pin_field == "card":
                set_text(self.progress, "")
                set_text(
                    self.hint, tr("Pit boss: enter the card you see (the dealer's is not shown).")
                )
                page = self.ident_keys
            else:
                set_text(self.progress, "")
                if entry.pin_required:
                    set_text(self.hint, tr("Pit boss: badge number and PIN, then Next."))
                else:
                    set_text(self.hint, tr("Pit boss: badge number, then Next."))
                self.pinpad.show_entry(entry)
                page = self.pinpad
        self.stack.show_page(page)
        for keys in (self.manual_keys, self.ident_keys):
            keys.setEnabled(not entry.waiting)
        for label in (self.progress, self.hint):
            collapse(label, not label.text())
