"""The cards the dealer or a pit boss enters on the banked console. Qt-free;
:class:`CardTaps` is a collaborator of :class:`ui.console.presenter.ConsolePresenter`.

- ``card_entered``: the keypad's card: the next dealt card (manual source, held for
  ``reenter_window`` so a mistyped card is typed again), the dealer's reading of an unreadable
  card, or the pit boss's (with badge and PIN, typed on ``pin_key``'s pad: the kit's
  :class:`~ui.kit.unreadable_card.UnreadableCard`).
- ``open_exposed`` / ``choose_exposed`` / ``record_exposed`` / ``cancel_exposed``: the form of a
  card exposed by mistake (not a misdeal: play goes on).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from dealer_assist.cards import Card
from dealer_assist.engine.views import Phase
from ui.console.commands import RecordExposed
from ui.console.desk import Console
from ui.console.snapshot import TableSnapshot
from ui.console.view import ExposeForm, Message, Step
from ui.kit.cards import CardEntry, hand_to_source
from ui.kit.pin_entry import PitBossEntry
from ui.kit.unreadable_card import UnreadableCard

CardSink = Callable[[Card], None]


class CardTaps:
    """The card keypad's state and taps (see the module docstring).

    ``enter`` hands a typed card to the manual source (None: no manual source); a card typed is
    held ``reenter_window`` seconds of ``clock`` before it goes (0: at once). ``unreadable`` is
    the unreadable card's readings and the pit boss's pad (typed into ``pins``, shared with the
    console's other pads); ``exposing`` the exposed-card form open (None: none).
    """

    def __init__(
        self,
        console: Console,
        pins: PitBossEntry,
        enter: CardSink | None,
        clock: Callable[[], float],
        reenter_window: float,
    ) -> None:
        self.console = console
        self.unreadable = UnreadableCard(pins)
        self.enter, self.clock, self.reenter_window = enter, clock, reenter_window
        self.held: Card | None = None  # typed, not yet handed to the source (re-enter)
        self._held_at = 0.0
        self.typed: list[Card] = []  # handed to the source in this hand (its deck)
        self.typed_at: int | None = None  # snap.placed when the last card was typed
        self.deal_size = 0
        self.exposing: ExposeForm | None = None
        self._exposing_sent: tuple[int, ExposeForm] | None = None

    @property
    def _snap(self) -> TableSnapshot:
        return self.console.screen.snap

    def on_snapshot(self, old: TableSnapshot, snap: TableSnapshot) -> None:
        """Follow the service: the deal's progress, a refused exposed card (its form again),
        the pit boss's turn to identify (a fresh pad)."""
        if not snap.manual_entry or snap.hand_uid != old.hand_uid:
            self.held = None  # the deal is over (or void): a held card is no card of it
        if snap.hand_uid != old.hand_uid:
            self.typed = []
        sent = self._exposing_sent
        if sent is not None and snap.seq >= sent[0]:
            self._exposing_sent = None
            if snap.error is not None and snap.error.code == "exposed_mismatch":
                self.exposing = sent[1]  # the form again: the dealer looks at the card again
        if len(snap.awaiting) > len(old.awaiting) or not snap.awaiting:
            self.deal_size = len(snap.awaiting)  # a new deal (or none)
        if self.typed_at is not None and (snap.placed != self.typed_at or not snap.manual_entry):
            self.typed_at = None
        if self.unreadable.follow(old, snap):  # the pit boss's turn: a fresh pad
            self.console.screen.message = None
        if self.exposing is not None and snap.phase not in (Phase.DECISIONS, Phase.SHOWDOWN):
            self.exposing = None

    def entry(self, step: Step) -> CardEntry | None:
        """What the card keypad shows at ``step`` (None: no keypad)."""
        snap = self._snap
        if step is Step.MANUAL:
            left = len(snap.awaiting)
            total = max(self.deal_size, left)
            held = self.held is not None  # typed, not in the deal yet: the next one is asked
            nxt = 1 if held else 0
            return CardEntry(
                "manual",
                snap.awaiting[nxt] if len(snap.awaiting) > nxt else None,
                number=min(total, total - left + 1 + nxt),
                total=total,
                waiting=self.typed_at is not None,
                held=held,
                typed=frozenset(self.typed + ([self.held] if self.held is not None else [])),
            )
        if step is Step.IDENTIFY:
            return self.unreadable.entry(snap, waiting=self.console.busy)
        return None

    def card_entered(self, card: Card) -> None:
        """The keypad confirmed ``card``: the next dealt card (manual), the dealer's reading of
        the unreadable card (identify), or the pit boss's (confirm, with badge and PIN)."""
        console, screen = self.console, self.console.screen
        entry = self.entry(console.step())
        if entry is None or entry.waiting:
            return
        if entry.mode == "manual":
            if self.enter is None:
                return
            if self.reenter_window <= 0:
                self.deliver(card)
                return
            # held for reenter_window: a mistyped card is typed again before the next one
            if card == self.held or card in self.typed:
                screen.message = Message("card_taken")
                console.changed()
                return
            if self.held is not None and not self.deliver(self.held):
                return
            self.held, self._held_at = card, self.clock()
            screen.message = None
            console.changed()
        elif not console.busy:  # identify, confirm
            make = self.unreadable.reading(entry, card)
            if make is None:
                screen.message = Message("pit_boss_missing")
                console.changed()
                return
            screen.message = None
            console.command(make)

    def deliver(self, card: Card) -> bool:
        """Hand a typed card to the manual source (the next card of the deal); False when the
        source refused it (the reason shown)."""
        console, screen = self.console, self.console.screen
        if self.held == card:
            self.held = None
        if self.enter is None:
            return False
        refused = hand_to_source(self.enter, card)
        if refused is not None:
            screen.message = Message(refused[0], text=refused[1])
            console.changed()
            return False
        self.typed.append(card)
        self.typed_at = self._snap.placed
        screen.message = None
        console.changed()
        return True

    def expire(self) -> None:
        """The clock: a held card nothing re-entered within ``reenter_window`` goes to the
        deal."""
        if self.held is not None and self.clock() - self._held_at >= self.reenter_window:
            self.deliver(self.held)

    def reenter(self) -> None:
        """The last typed card was mistyped: it is dropped before it reaches the deal, and the
        dealer types it again (only within ``reenter_window``, before the next card)."""
        if self.held is not None:
            self.held = None
            self.console.screen.message = Message("reenter")
            self.console.changed()

    def pin_key(self, key: str) -> None:
        """A key of the pit boss's pad: a digit, ``back`` (erase one), ``next`` (badge -> PIN ->
        the card) or ``badge``/``pin`` (go back to that field)."""
        if self.console.step() is Step.IDENTIFY and self.unreadable.key(self._snap, key):
            self.console.changed()

    # -- a card exposed by mistake ----------------------------------------------------------------
    def can_expose(self) -> bool:
        """An exposed card may be recorded now (while the seats decide or at the showdown)."""
        console = self.console
        return not console.busy and console.step() in (Step.DECISIONS, Step.SHOWDOWN)

    def open_exposed(self) -> None:
        """Start recording a card exposed by mistake (not a misdeal: play goes on)."""
        if not self.can_expose():
            return
        positions = (*(f"seat {s.seat}" for s in self._snap.seats), "dealer", "board")
        self.exposing = ExposeForm(positions, None)
        screen = self.console.screen
        screen.void_armed, screen.message = False, None
        self.console.changed()

    def choose_exposed(self, position: str) -> None:
        """Where the exposed card is (one of the form's positions)."""
        form = self.exposing
        if form is not None and position in form.positions:
            self.exposing = ExposeForm(form.positions, position)
            self.console.changed()

    def record_exposed(self, card: Card | None = None, *, next_seq: int) -> None:
        """Record the exposed card at the chosen position (``card`` if the dealer entered it);
        ``next_seq`` is the number the command will carry (its answer may come before the
        command is sent back)."""
        form = self.exposing
        if form is None or form.position is None or self.console.busy:
            return
        self.exposing = None
        self.console.screen.message = Message("exposed_recorded", text=form.position)
        self._exposing_sent = (next_seq, form)
        self.console.command(partial(RecordExposed, position=form.position, card=card))

    def cancel_exposed(self) -> None:
        """Close the exposed-card form without recording."""
        if self.exposing is not None:
            self.exposing = None
            self.console.changed()
