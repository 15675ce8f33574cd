"""The cards the dealer or a pit boss types at the poker console. Qt-free; :class:`CardTaps` is
a collaborator of :class:`ui.poker.presenter.PokerPresenter`.

The card keypad (the kit's :class:`~ui.kit.cards.CardEntry`) is the dealer's tool while the
keypad is the card source (``manual``) or an unreadable card waits (``identify``, then a pit
boss's ``confirm`` with badge and PIN, typed on :meth:`CardTaps.pin_key`'s pad: the kit's
:class:`~ui.kit.unreadable_card.UnreadableCard`). Privacy: a
typed card goes straight to the source and is never kept here; a card refused as a duplicate is
not named (it may be a hole card).
"""

from __future__ import annotations

from collections.abc import Callable

from dealer_assist.cards import Card
from ui.kit.cards import CardEntry, hand_to_source
from ui.kit.unreadable_card import UnreadableCard
from ui.poker.desk import Console
from ui.poker.snapshot import PokerSnapshot
from ui.poker.views import Message

CardSink = Callable[[Card], None]


class CardTaps:
    """The card keypad's state and taps (see the module docstring).

    Args:
        console: the presenter (:class:`~ui.poker.desk.Console`).
        enter: hands a typed card to the keypad source at once (thread-safe; the service's
            ``enter_card``; raises DealerAssistError when refused); None: no keypad source.

    ``unreadable`` is the unreadable card's readings and the pit boss's pad (the kit's
    :class:`~ui.kit.unreadable_card.UnreadableCard`).
    """

    def __init__(self, console: Console, enter: CardSink | None) -> None:
        self.console = console
        self.enter = enter
        self.unreadable = UnreadableCard()
        self._typed_at: tuple[str, int] | None = None  # (hand, cards awaited) at the last typing
        self._deal_size = 0

    def clear_pad(self) -> None:
        """The pit boss's pad from the start (another turn, a refused badge or PIN)."""
        self.unreadable.clear()

    def on_snapshot(self, old: PokerSnapshot, snap: PokerSnapshot) -> None:
        """Follow the service: the deal's progress, the pit boss's turn (a fresh pad)."""
        if len(snap.awaiting) > len(old.awaiting) or not snap.awaiting:
            self._deal_size = len(snap.awaiting)  # a new deal (or none)
        typed = self._typed_at
        if typed is not None and typed != (snap.hand_uid, len(snap.awaiting)):
            self._typed_at = None
        self.unreadable.follow(old, snap)

    def entry(self, step: str) -> CardEntry | None:
        """What the card keypad shows at ``step`` (None: no keypad)."""
        s = self.console.screen.snap
        if step == "manual":
            left = len(s.awaiting)
            total = max(self._deal_size, left)
            return CardEntry(
                "manual",
                s.awaiting[0] if s.awaiting else None,
                number=total - left + 1,
                total=total,
                waiting=self._typed_at is not None,
            )
        if step == "identify":
            return self.unreadable.entry(s, waiting=self.console.busy)
        return None

    def card_entered(self, card: Card) -> None:
        """The card keypad confirmed ``card``: the next card of the deal (manual; straight to
        the source, never kept), the dealer's reading of the unreadable card (identify), or
        the pit boss's (confirm, with badge and PIN)."""
        console = self.console
        entry = self.entry(console.step())
        if entry is None or entry.waiting:
            return
        if entry.mode == "manual":
            if self.enter is None:
                return
            refused = hand_to_source(self.enter, card)
            if refused is not None:
                console.say(Message(refused[0], text=refused[1]))
                return
            snap = console.screen.snap
            self._typed_at = (snap.hand_uid, len(snap.awaiting))
            console.screen.message = None
            console.changed()
        elif not console.busy:  # identify, confirm
            make = self.unreadable.reading(entry, card)
            if make is None:
                console.say(Message("pit_boss_missing"))
                return
            console.screen.message = None
            console.command(make)

    def pin_key(self, key: str) -> None:
        """A key of the pit boss's pad: a digit, ``back``, ``next`` (badge -> PIN -> the card)
        or ``badge``/``pin`` (back to that field)."""
        console = self.console
        if console.step() == "identify" and self.unreadable.key(console.screen.snap, key):
            console.changed()
