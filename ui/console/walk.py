"""The dealer's taps of the payout walk, the corrections and the hand history: a base
of :class:`ui.console.presenter.ConsolePresenter`. Qt-free.

Named settings (seconds, the presenter's keyword arguments):

- :data:`TAP_GUARD`: a second tap on the big button (*Next*, *Settle*, *Dealer's cards*...)
  within it does nothing, so a double tap cannot skip a seat to pay;
- :data:`VOID_ARM_TIMEOUT`: an armed *Void hand* disarms after it (and at any other tap);
- :data:`ALARM_GUARD`: the void alarm's *Acknowledged* takes no tap for this long after the alarm
  appears (a tap meant for the button under it, *Rien ne va plus*, is not an acknowledgement);
- :data:`REENTER_WINDOW`: a card typed on the keypad is held this long (or until the next card is
  typed) before it goes to the deal, so *Re-enter the last card* can still drop a mistyped one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.errors import CardError, DealerAssistError
from ui.console.bets import BetBook
from ui.console.commands import (
    CloseHistory,
    Command,
    Correct,
    MarkPaid,
    OpenHistory,
    RetryStorage,
    SignOff,
    Undo,
)
from ui.console.snapshot import TableSnapshot
from ui.console.view import CorrectForm, HistoryPad, Message, Step

TAP_GUARD = 0.4
VOID_ARM_TIMEOUT = 5.0
ALARM_GUARD = 1.0
REENTER_WINDOW = 3.0


class WalkTaps:
    """Payout walk, corrections and history taps (see the module docstring); the attributes are
    the presenter's."""

    config: TableConfig
    book: BetBook
    snap: TableSnapshot
    cursor: int | None
    paid: list[int]
    message: Message | None
    void_armed: bool
    badge: str
    _pin: str
    history_pad: HistoryPad | None
    signoff_field: str = "badge"  # the sign-off pad's field: badge, then PIN
    storage_dismissed: int
    clock: Callable[[], float]
    enter: Callable[[Card], None] | None
    _held: Card | None
    _typed: list[Card]
    _typed_at: int | None
    correcting: CorrectForm | None
    selected: int | None
    tap_guard: float
    _cursor_at: float = -1e9  # clock() when the payout walk's current seat opened

    def step(self) -> Step:
        raise NotImplementedError  # DerivedView's

    def _changed(self) -> None:
        raise NotImplementedError

    def _command(self, make: Callable[[int], Command]) -> int:
        raise NotImplementedError

    @property
    def busy(self) -> bool:
        raise NotImplementedError

    def _disarm(self) -> None:
        """Any tap other than *Void hand* disarms it."""
        if self.void_armed:
            self.void_armed = False
            if self.message is not None and self.message.code == "confirm_void":
                self.message = None

    # -- the payout walk --------------------------------------------------------------------------
    def _order(self) -> list[int]:
        settlement = self.snap.settlement
        return list(settlement.settlement_order) if settlement is not None else []

    def first_unpaid(self, after: int = -1) -> int:
        """The index of the first seat not paid after ``after`` (wrapping round), or the number
        of seats when every seat is paid."""
        order = self._order()
        n = len(order)
        for k in range(1, n + 1):
            i = (after + k) % n
            if order[i] not in self.paid:
                return i
        return n

    def next_seat(self) -> None:
        """*Next*: the current seat is paid (marked in the journal) and the next one not paid
        opens."""
        order = self._order()
        cursor = self.cursor or 0
        if self.clock() - self._cursor_at < self.tap_guard:
            return  # the seat opened just now (a tap on its row, Back): it was not seen yet
        if cursor < len(order):
            seat = order[cursor]
            if seat in self.snap.signoff_waiting:  # a large payout: a pit boss signs it first
                self.message = Message("signoff_required", seat)
                self._changed()
                return
            if seat not in self.paid:
                self.paid.append(seat)
                self._command(partial(MarkPaid, seat=seat))
        self.cursor = self.first_unpaid(cursor)
        self._cursor_at = self.clock()
        self._changed()

    def back(self) -> None:
        """*Back*: reopen the seat before the current one (paid or not)."""
        if self.step() is not Step.SETTLEMENT or not self.cursor:
            return
        self._disarm()
        self.cursor -= 1
        self._cursor_at = self.clock()
        self.message = None
        self._changed()

    def open_row(self, seat: int) -> None:
        """A tap on a seat in the settlement list: that seat opens (to pay it, or again)."""
        order = self._order()
        if self.step() is not Step.SETTLEMENT or seat not in order:
            return
        self._disarm()
        self.cursor = order.index(seat)
        self._cursor_at = self.clock()
        self._changed()

    # -- corrections ------------------------------------------------------------------------------
    def undo_chip(self) -> None:
        """Take back the last chip the dealer put in a box."""
        if self.step() is not Step.BETS:
            return
        self._disarm()
        seat = self.selected
        if seat is None:
            self.message = Message("select_seat")
        else:  # the selected seat's own last chip, never another seat's
            box = self.book.undo_chip(seat)
            self.message = Message("chip_undone", seat, text=box) if box else None
        self._changed()

    def undo_decision(self, seat: int) -> None:
        """Take back ``seat``'s decision on this street (until the next card is turned)."""
        if self.busy or self.step() is not Step.DECISIONS or seat not in self.snap.undoable:
            return
        self._disarm()
        self.message = None
        self._command(partial(Undo, seat=seat))

    # -- a card typed again ------------------------------------------------------------------------
    def _deliver(self, card: Card) -> bool:
        """Hand a typed card to the manual source (the next card of the deal)."""
        if self._held == card:
            self._held = None
        if self.enter is None:
            return False
        try:
            self.enter(card)
        except CardError:  # the core names the card: a hidden one, never shown
            self.message = Message("card_taken")
            self._changed()
            return False
        except DealerAssistError as e:
            self.message = Message("device", text=str(e))
            self._changed()
            return False
        self._typed.append(card)
        self._typed_at = self.snap.placed
        self.message = None
        self._changed()
        return True

    def reenter(self) -> None:
        """The last typed card was mistyped: it is dropped before it reaches the deal, and the
        dealer types it again (only within ``reenter_window``, before the next card)."""
        if self._held is not None:
            self._held = None
            self.message = Message("reenter")
            self._changed()

    # -- a pit boss corrects a decision after the next cards -------------------------------------
    def undo_or_correct(self, seat: int) -> None:
        """*Change* on a seat: its decision on this street is taken back; one on a street
        already past opens the pit boss's correction."""
        if seat in self.snap.undoable:
            self.undo_decision(seat)
            return
        choices = dict(self.snap.correctable).get(seat)
        if choices and not self.busy and self.step() is Step.DECISIONS:
            self._disarm()
            if not self.snap.pin_required:  # no roster: a badge alone authorises nothing
                self.message = Message("no_roster")
                self._changed()
                return
            self.badge, self._pin = "", ""
            self.correcting = CorrectForm(seat, choices)
            self.message = None
            self._changed()

    def _drop_stale_correction(self, old: TableSnapshot, snap: TableSnapshot) -> None:
        form = self.correcting
        if form is not None and (snap.hand_uid != old.hand_uid
                                 or form.seat not in dict(snap.correctable)):  # fmt: skip
            self.correcting = None  # the hand moved on: nothing left to correct

    def choose_correction(self, action: Action) -> None:
        """The decision the player really took (one of the form's choices)."""
        form = self.correcting
        if form is not None and action in form.choices:
            self.correcting = replace(form, choice=action, field="badge")
            self._changed()

    def correction_key(self, key: str) -> None:
        """The pit boss's pad of the correction: digits, ``back``, ``next`` (badge -> PIN ->
        send), ``cancel``."""
        form = self.correcting
        if form is None:
            return
        if key == "cancel":
            self.correcting, self.badge, self._pin = None, "", ""
        elif (choice := form.choice) is None:
            return
        elif key == "back":
            if form.field == "pin":
                self._pin = self._pin[:-1]
            else:
                self.badge = self.badge[:-1]
        elif key == "next":
            if form.field == "badge" and self.badge and self.snap.pin_required:
                form = replace(form, field="pin")
            elif self.badge and (self._pin or not self.snap.pin_required):
                fix = Correct(0, form.seat, choice, self.badge, self._pin)
                self.badge, self._pin, self.correcting = "", "", None
                self._command(lambda seq: replace(fix, seq=seq))
                return
        elif key.isdigit() and len(key) == 1:
            if form.field == "pin" and len(self._pin) < 12:
                self._pin += key
            elif form.field == "badge" and len(self.badge) < 12:
                self.badge += key
        if self.correcting is not None:
            self.correcting = replace(form, badge=self.badge, pin_len=len(self._pin))
        self._changed()

    # -- the hand history -------------------------------------------------------------------------
    def can_history(self) -> bool:
        """The dealer may open the history now (between hands)."""
        return not self.busy and self.step() in (Step.BETS, Step.IDLE)

    def open_history(self) -> None:
        """Open the last hands (without hole cards)."""
        if not self.can_history():
            return
        self._disarm()
        self.history_pad = None
        self._command(OpenHistory)

    def close_history(self) -> None:
        """Close the history (and forget the pit boss's entry)."""
        self.history_pad, self.badge, self._pin = None, "", ""
        if self.snap.history is not None:
            self._command(CloseHistory)
        else:
            self._changed()

    def history_key(self, key: str) -> None:
        """The pit boss's pad in the history: ``cards`` opens it, digits, ``back``, ``next``
        (badge -> PIN -> send), ``cancel``."""
        if self.snap.history is None:
            return
        pad = self.history_pad
        if key == "cards":
            self.badge, self._pin = "", ""
            self.history_pad = HistoryPad("", 0, "badge")
        elif pad is None:
            return
        elif key == "cancel":
            self.history_pad, self.badge, self._pin = None, "", ""
        elif key == "back":
            if pad.field == "pin":
                self._pin = self._pin[:-1]
            else:
                self.badge = self.badge[:-1]
        elif key == "next":
            if pad.field == "badge" and self.badge:
                need_pin = self.snap.pin_required
                if not need_pin:
                    self._send_pit_boss()
                    return
                self.history_pad = HistoryPad(self.badge, 0, "pin")
            elif pad.field == "pin" and self._pin:
                self._send_pit_boss()
                return
        elif key.isdigit() and len(key) == 1:
            if pad.field == "pin" and len(self._pin) < 12:
                self._pin += key
            elif pad.field == "badge" and len(self.badge) < 12:
                self.badge += key
        if self.history_pad is not None:
            field = self.history_pad.field
            self.history_pad = HistoryPad(self.badge, len(self._pin), field)
        self._changed()

    # -- storage faults (ui.console.service_storage) ----------------------------------------
    def dismiss_storage(self) -> None:
        """The dealer has read a storage notice (a fault stays until the storage answers)."""
        banner = self.snap.storage
        if banner is not None and not banner.fault:
            self.storage_dismissed = banner.number
            self._changed()

    def tap_retry(self) -> None:
        """After a storage fault: try the journal again (the table resumes if it answers)."""
        if not self.busy:
            self.message = None
            self._command(RetryStorage)

    def sign_off(self, seat: int, badge: str, pin: str) -> None:
        """The pit boss's badge and PIN for ``seat``'s large payout (sent to the service, which
        checks them; a wrong one changes nothing and says so)."""
        if self.step() is Step.SETTLEMENT and seat in self.snap.signoff_waiting:
            self.message = None
            self._command(partial(SignOff, seat=seat, badge=badge, pin=pin))

    def signoff_seat(self) -> int | None:
        """The seat open in the walk whose large payout waits for a sign-off, else None."""
        order = self._order()
        cursor = self.cursor or 0
        if self.step() is not Step.SETTLEMENT or cursor >= len(order):
            return None
        seat = order[cursor]
        return seat if seat in self.snap.signoff_waiting else None

    def signoff_key(self, key: str) -> None:
        """The pit boss's pad on a large payout: digits, ``back``, ``next`` (badge -> PIN ->
        send); the PIN stays here, the view shows its length."""
        seat = self.signoff_seat()
        if seat is None or self.busy:
            return
        field = self.signoff_field
        if key == "back":
            if field == "pin":
                self._pin = self._pin[:-1]
            else:
                self.badge = self.badge[:-1]
        elif key == "next":
            if field == "badge" and self.badge:
                self.signoff_field = "pin"
            elif field == "pin" and self._pin:
                badge, pin = self.badge, self._pin
                self.badge, self._pin, self.signoff_field = "", "", "badge"
                self.sign_off(seat, badge, pin)
                return
        elif key.isdigit() and len(key) == 1:
            if field == "pin" and len(self._pin) < 12:
                self._pin += key
            elif field == "badge" and len(self.badge) < 12:
                self.badge += key
        self._changed()

    def _send_pit_boss(self) -> None:
        pin, self._pin = self._pin, ""
        badge, self.badge = self.badge, ""
        self.history_pad = None
        self._command(partial(OpenHistory, badge=badge, pin=pin))


def voided_in_bets(old: TableSnapshot, snap: TableSnapshot) -> bool:
    """The hand of ``old`` was voided while its bets were still open (no bet locked): the
    dealer's drafts stay for the next hand."""
    return (
        snap.phase is Phase.VOID
        and not snap.seats
        and bool(old.hand_uid)
        and snap.hand_uid == old.hand_uid
    )
