"""The console presenter's taps for the cards the dealer or a pit boss enters (issues 4 and 5):
a mixin of :class:`ui.console.presenter.ConsolePresenter`, kept apart so that module stays small.

- ``card_entered``: the keypad's card: the next dealt card (manual source, held for
  ``reenter_window`` so a mistyped card is typed again), the dealer's reading of an unreadable
  card, or the pit boss's (with badge and PIN, typed on ``pin_key``'s pad).
- ``open_exposed`` / ``choose_exposed`` / ``record_exposed`` / ``cancel_exposed``: the form of a
  card exposed by mistake (not a misdeal: play goes on).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from dealer_assist.cards import Card
from ui.console.commands import Command, Confirm, Identify, RecordExposed
from ui.console.snapshot import TableSnapshot
from ui.console.view import ExposeForm, Message, Step
from ui.kit.cards import CardEntry


class CardTaps:
    """Card taps of the presenter (see the module docstring); the attributes are the
    presenter's."""

    snap: TableSnapshot
    message: Message | None
    void_armed: bool
    clock: Callable[[], float]
    enter: Callable[[Card], None] | None
    reenter_window: float
    _held: Card | None
    _held_at: float
    _typed: list[Card]
    badge: str
    _pin: str
    pin_field: str
    exposing: ExposeForm | None
    _exposing_sent: tuple[int, ExposeForm] | None
    _seq: int

    def step(self) -> Step:
        raise NotImplementedError  # DerivedView's

    @property
    def busy(self) -> bool:
        raise NotImplementedError  # DerivedView's

    def _entry(self, step: Step) -> CardEntry | None:
        raise NotImplementedError  # DerivedView's

    def _can_expose(self) -> bool:
        raise NotImplementedError  # DerivedView's

    def _deliver(self, card: Card) -> bool:
        raise NotImplementedError  # WalkTaps'

    def _changed(self) -> None:
        raise NotImplementedError  # the presenter's

    def _command(self, make: Callable[[int], Command]) -> int:
        raise NotImplementedError  # the presenter's

    def card_entered(self, card: Card) -> None:
        """The keypad confirmed ``card``: the next dealt card (manual), the dealer's reading of
        the unreadable card (identify), or the pit boss's (confirm, with badge and PIN)."""
        step = self.step()
        entry = self._entry(step)
        if entry is None or entry.waiting:
            return
        if entry.mode == "manual":
            if self.enter is None:
                return
            if self.reenter_window <= 0:
                self._deliver(card)
                return
            # held for reenter_window: a mistyped card is typed again before the next one
            if card == self._held or card in self._typed:
                self.message = Message("card_taken")
                self._changed()
                return
            if self._held is not None and not self._deliver(self._held):
                return
            self._held, self._held_at = card, self.clock()
            self.message = None
            self._changed()
        elif entry.mode == "identify" and not self.busy:
            self.message = None
            self._command(partial(Identify, card=card))
        elif entry.mode == "confirm" and not self.busy:
            if not self.badge or (entry.pin_required and not self._pin):
                self.message = Message("pit_boss_missing")
                self._changed()
                return
            pin, self._pin = self._pin, ""
            self.message = None
            self._command(partial(Confirm, card=card, badge=self.badge, pin=pin))

    def pin_key(self, key: str) -> None:
        """A key of the pit boss's pad: a digit, ``back`` (erase one), ``next`` (badge -> PIN ->
        the card) or ``badge``/``pin`` (go back to that field)."""
        if self.step() is not Step.IDENTIFY or not self.snap.ident_entered:
            return
        need_pin = self.snap.pin_required
        if key == "badge" or (key == "pin" and need_pin):
            self.pin_field = key
        elif key == "next":
            if self.pin_field == "badge" and self.badge:
                self.pin_field = "pin" if need_pin else "card"
            elif self.pin_field == "pin" and self._pin:
                self.pin_field = "card"
        elif key == "back":
            if self.pin_field == "pin":
                self._pin = self._pin[:-1]
            elif self.pin_field == "badge":
                self.badge = self.badge[:-1]
        elif key.isdigit() and len(key) == 1:
            if self.pin_field == "pin" and len(self._pin) < 12:
                self._pin += key
            elif self.pin_field == "badge" and len(self.badge) < 12:
                self.badge += key
        self._changed()

    def open_exposed(self) -> None:
        """Start recording a card exposed by mistake (not a misdeal: play goes on)."""
        if not self._can_expose():
            return
        positions = (*(f"seat {s.seat}" for s in self.snap.seats), "dealer", "board")
        self.exposing = ExposeForm(positions, None)
        self.void_armed, self.message = False, None
        self._changed()

    def choose_exposed(self, position: str) -> None:
        """Where the exposed card is (one of the form's positions)."""
        form = self.exposing
        if form is not None and position in form.positions:
            self.exposing = ExposeForm(form.positions, position)
            self._changed()

    def record_exposed(self, card: Card | None = None) -> None:
        """Record the exposed card at the chosen position (``card`` if the dealer entered
        it)."""
        form = self.exposing
        if form is None or form.position is None or self.busy:
            return
        self.exposing = None
        self.message = Message("exposed_recorded", text=form.position)
        self._exposing_sent = (self._seq + 1, form)  # its answer may come before _command returns
        self._command(partial(RecordExposed, position=form.position, card=card))

    def cancel_exposed(self) -> None:
        """Close the exposed-card form without recording."""
        if self.exposing is not None:
            self.exposing = None
            self._changed()
