"""The payout walk: the seat open in the settlement list, the seats paid, and the pit boss's
sign-off of a large payout. Qt-free; :class:`PayoutWalk` is a collaborator of
:class:`ui.console.presenter.ConsolePresenter`.

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
from functools import partial

from dealer_assist.engine.views import Phase
from ui.console.commands import MarkPaid, SignOff
from ui.console.desk import Console
from ui.console.snapshot import TableSnapshot
from ui.console.view import Message, Step
from ui.kit.pin_entry import PitBossEntry, signoff_key

TAP_GUARD = 0.4
VOID_ARM_TIMEOUT = 5.0
ALARM_GUARD = 1.0
REENTER_WINDOW = 3.0


class PayoutWalk:
    """The settlement list seat by seat.

    ``cursor`` is the index (in the settlement order) of the seat open, None before *Settle*;
    ``paid`` the seats marked paid (each mark journaled by a ``MarkPaid``); ``field`` the
    sign-off pad's field (``badge``, then ``pin``). ``clock`` is monotonic seconds; a seat opened
    less than ``tap_guard`` ago takes no *Next* (it was not seen yet).
    """

    def __init__(
        self,
        console: Console,
        pins: PitBossEntry,
        clock: Callable[[], float],
        tap_guard: float = TAP_GUARD,
    ) -> None:
        self.console, self.pins = console, pins
        self.clock, self.tap_guard = clock, tap_guard
        self.cursor: int | None = None
        self.paid: list[int] = []
        self.field = "badge"
        self._cursor_at = -1e9  # clock() when the current seat opened

    @property
    def _snap(self) -> TableSnapshot:
        return self.console.screen.snap

    def order(self) -> list[int]:
        """The seats in the settlement's order (empty before the settlement)."""
        settlement = self._snap.settlement
        return list(settlement.settlement_order) if settlement is not None else []

    def first_unpaid(self, after: int = -1) -> int:
        """The index of the first seat not paid after ``after`` (wrapping round), or the number
        of seats when every seat is paid."""
        order = self.order()
        n = len(order)
        for k in range(1, n + 1):
            i = (after + k) % n
            if order[i] not in self.paid:
                return i
        return n

    def on_snapshot(self, old: TableSnapshot, snap: TableSnapshot) -> None:
        """Follow the service: a new hand starts the walk afresh (straight back to the list
        after a restart mid-walk); a mark the journal refused is taken off again."""
        if snap.hand_uid != old.hand_uid:
            self.cursor = None
            self.paid = list(snap.paid)
            if snap.walk and snap.resumed and snap.settlement is not None:
                self.cursor = self.first_unpaid()
        else:
            self.paid += [s for s in snap.paid if s not in self.paid]
            if snap.error is not None and snap.error.code in ("journal", "signoff_required"):
                self.paid = [s for s in self.paid if s in snap.paid]  # the mark was not written

    def settle(self) -> None:
        """*Settle*: the list opens at the first seat not paid."""
        self.cursor = self.first_unpaid()
        self.console.changed()

    def next_seat(self) -> None:
        """*Next*: the current seat is paid (marked in the journal) and the next one not paid
        opens; a large payout waits for the pit boss's sign-off first."""
        order = self.order()
        cursor = self.cursor or 0
        if self.clock() - self._cursor_at < self.tap_guard:
            return  # the seat opened just now (a tap on its row, Back): it was not seen yet
        if cursor < len(order):
            seat = order[cursor]
            if seat in self._snap.signoff_waiting:
                self.console.screen.message = Message("signoff_required", seat)
                self.console.changed()
                return
            if seat not in self.paid:
                self.paid.append(seat)
                self.console.command(partial(MarkPaid, seat=seat))
        self.cursor = self.first_unpaid(cursor)
        self._cursor_at = self.clock()
        self.console.changed()

    def back(self) -> None:
        """*Back*: reopen the seat before the current one (paid or not)."""
        if self.console.step() is not Step.SETTLEMENT or not self.cursor:
            return
        self.console.screen.disarm()
        self.cursor -= 1
        self._cursor_at = self.clock()
        self.console.screen.message = None
        self.console.changed()

    def open_row(self, seat: int) -> None:
        """A tap on a seat in the settlement list: that seat opens (to pay it, or again)."""
        order = self.order()
        if self.console.step() is not Step.SETTLEMENT or seat not in order:
            return
        self.console.screen.disarm()
        self.cursor = order.index(seat)
        self._cursor_at = self.clock()
        self.console.changed()

    def sign_off(self, seat: int, badge: str, pin: str) -> None:
        """The pit boss's badge and PIN for ``seat``'s large payout (sent to the service, which
        checks them; a wrong one changes nothing and says so)."""
        if self.console.step() is Step.SETTLEMENT and seat in self._snap.signoff_waiting:
            self.console.screen.message = None
            self.console.command(partial(SignOff, seat=seat, badge=badge, pin=pin))

    def signoff_seat(self) -> int | None:
        """The seat open in the walk whose large payout waits for a sign-off, else None."""
        order = self.order()
        cursor = self.cursor or 0
        if self.console.step() is not Step.SETTLEMENT or cursor >= len(order):
            return None
        seat = order[cursor]
        return seat if seat in self._snap.signoff_waiting else None

    def signoff_key(self, key: str) -> None:
        """The pit boss's pad on a large payout: digits, ``back``, ``next`` (badge -> PIN ->
        send); the PIN stays in :class:`~ui.kit.pin_entry.PitBossEntry`."""
        seat = self.signoff_seat()
        if seat is None or self.console.busy:
            return
        self.field, done = signoff_key(self.pins, self.field, key)
        if done is not None:
            self.sign_off(seat, *done)
            return
        self.console.changed()


def voided_in_bets(old: TableSnapshot, snap: TableSnapshot) -> bool:
    """The hand of ``old`` was voided while its bets were still open (no bet locked): the
    dealer's drafts stay for the next hand."""
    return (
        snap.phase is Phase.VOID
        and not snap.seats
        and bool(old.hand_uid)
        and snap.hand_uid == old.hand_uid
    )
