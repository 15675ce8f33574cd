"""The console's view-model: dealer taps in, commands out, one immutable view to draw.

Qt-free and testable without a window. The presenter owns what only the screen cares about (bet
drafts, the selected seat, the settlement cursor, the void acknowledgement, messages) and derives
everything else from the latest :class:`~ui.console.snapshot.TableSnapshot`. Texts are codes here;
the widgets translate them (Qt's translation system), so the view carries no language.

The view's values are :mod:`ui.console.view`; how the view follows from the state is
:mod:`ui.console.derived` (the presenter's base class); this module takes the taps and the
snapshots and sends the commands.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import Phase
from dealer_assist.engine.voids import VoidReason
from ui.console.bets import BetBook
from ui.console.card_taps import CardTaps
from ui.console.commands import (
    AcknowledgeVoid,
    Act,
    ChangeDealer,
    Command,
    Deal,
    DealerStep,
    NewHand,
    OpenTable,
    VoidHand,
)
from ui.console.derived import DerivedView
from ui.console.snapshot import TableSnapshot
from ui.console.view import ConsoleView, CorrectForm, ExposeForm, HistoryPad, Message, Step
from ui.console.walk import (
    ALARM_GUARD,
    REENTER_WINDOW,
    TAP_GUARD,
    VOID_ARM_TIMEOUT,
    WalkTaps,
    voided_in_bets,
)
from ui.kit.tap_guard import HOLD

_KNOWN_ERRORS = frozenset({"device_not_ready", "device", "card_taken", "pit_boss",
                           "ident_mismatch", "exposed_mismatch", "journal", "signoff_required",
                           "no_roster", "signoff_role", "signoff_no_store", "illegal", "state",
                           "bet", "other"})  # fmt: skip
Sink = Callable[[Command], None]
CardSink = Callable[[Card], None]


class ConsolePresenter(DerivedView, WalkTaps, CardTaps):
    """Turns snapshots and taps into views and commands.

    Args:
        config: the table.
        send: delivers a :class:`Command` to the service (queued to the worker thread by the
            window; called directly in tests). Never blocks.
        enter: hands a typed card to the manual card source at once (thread-safe); raises
            DealerAssistError when refused.
        tap_guard, void_timeout, alarm_guard, reenter_window: seconds (:mod:`ui.console.walk`);
            ``reenter_window`` 0 hands each typed card to the source at once.
        steady_hold: seconds a decision button or the big button must stand still before a
            tap on it counts (:class:`ui.kit.tap_guard.TapGuard`; 0: off).
        clock: monotonic seconds (tests pass their own).
    """

    def __init__(
        self,
        config: TableConfig,
        send: Sink,
        *,
        enter: CardSink | None = None,
        tap_guard: float = TAP_GUARD,
        void_timeout: float = VOID_ARM_TIMEOUT,
        alarm_guard: float = ALARM_GUARD,
        reenter_window: float = REENTER_WINDOW,
        steady_hold: float = HOLD,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.config = config
        self.tap_guard, self.void_timeout, self.alarm_guard = tap_guard, void_timeout, alarm_guard
        self.clock = clock
        self.reenter_window = reenter_window
        self.steady_hold = steady_hold  # the window's tap guard (ui.kit.tap_guard)
        self._held: Card | None = None  # typed, not yet handed to the source (re-enter)
        self._held_at = 0.0
        self._typed: list[Card] = []  # handed to the source in this hand (its deck)
        self._last_big = -1e9  # clock() of the last big-button tap taken
        self._armed_at = 0.0
        self._alarm_at = -1e9
        self.paid: list[int] = []
        self.history_pad: HistoryPad | None = None
        self.correcting: CorrectForm | None = None
        self._exposing_sent: tuple[int, ExposeForm] | None = None
        self.send = send
        self.enter = enter
        self.dismissed = 0  # source-switch notices up to this number were read
        self.storage_dismissed = 0  # storage notices up to this number were read
        self.exposing: ExposeForm | None = None
        self.badge = ""
        self._pin = ""
        self.pin_field = "badge"
        self._typed_at: int | None = None  # snap.placed when the last card was typed
        self._deal_size = 0
        self.book = BetBook(config)
        self.snap = TableSnapshot()
        self.selected: int | None = None
        self.box = self.book.entry_boxes[0]
        self.last_bets: dict[int, dict[str, int]] = {}
        self.message: Message | None = None
        self.cursor: int | None = None
        self.void_armed = False
        self._seq = 0
        self._waiting: dict[int, type[Command]] = {}  # seq -> command not answered yet
        self._acts: dict[int, int] = {}  # seat -> seq of its decision in flight
        self._sent_bets: dict[int, dict[str, int]] = {}
        self._listeners: list[Callable[[ConsoleView], None]] = []

    # -- observers --------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[ConsoleView], None]) -> None:
        """Call ``listener(view)`` after every change."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        view = self.view()
        for listener in self._listeners:
            listener(view)

    # -- from the service -------------------------------------------------------------------------
    def on_snapshot(self, snap: TableSnapshot) -> None:
        """A snapshot from the service (a command's answer or a tick)."""
        old = self.snap
        self.snap = snap
        self._waiting = {s: k for s, k in self._waiting.items() if s > snap.seq}
        self._acts = {seat: s for seat, s in self._acts.items() if s > snap.seq}
        if voided_in_bets(old, snap) and self.book.ready():
            # returned to the players with the rest: not drawn on the next hand, but one tap on
            # Repeat last bets puts them back if the players leave them out
            self.last_bets = self.book.ready()
        if not self.last_bets and snap.last_bets:  # after a restart: the journal's last hand
            self.last_bets = {seat: dict(bets) for seat, bets in snap.last_bets}
        if snap.void_reason is not None and old.void_reason is None:
            self._alarm_at = self.clock()
        if not snap.manual_entry or snap.hand_uid != old.hand_uid:
            self._held = None  # the deal is over (or void): a held card is no card of it
        self._drop_stale_correction(old, snap)
        if snap.hand_uid != old.hand_uid:
            self._typed = []
            self.cursor, self.void_armed, self.selected = None, False, None
            self.paid = list(snap.paid)
            if snap.walk and snap.resumed and snap.settlement is not None:
                self.cursor = self.first_unpaid()  # after a restart: straight back to the list
            self.book.clear()
            self.box = self.book.entry_boxes[0]
        else:
            self.paid += [s for s in snap.paid if s not in self.paid]
            if snap.error is not None and snap.error.code in ("journal", "signoff_required"):
                self.paid = [s for s in self.paid if s in snap.paid]  # the mark was not written
        sent = self._exposing_sent
        if sent is not None and snap.seq >= sent[0]:
            self._exposing_sent = None
            if snap.error is not None and snap.error.code == "exposed_mismatch":
                self.exposing = sent[1]  # the form again: the dealer looks at the card again
        left_bets = old.phase is Phase.BETS_OPEN and snap.phase not in (Phase.BETS_OPEN, None)
        if left_bets and snap.hand_uid == old.hand_uid and self._sent_bets:
            self.last_bets = self._sent_bets
        if len(snap.awaiting) > len(old.awaiting) or not snap.awaiting:
            self._deal_size = len(snap.awaiting)  # a new deal (or none)
        if self._typed_at is not None and (snap.placed != self._typed_at or not snap.manual_entry):
            self._typed_at = None
        if snap.ident_entered and not old.ident_entered:  # the pit boss's turn: a fresh pad
            self.badge, self._pin, self.pin_field = "", "", "badge"
            self.message = None
        if self.exposing is not None and snap.phase not in (Phase.DECISIONS, Phase.SHOWDOWN):
            self.exposing = None
        if snap.error is not None:
            code = snap.error.code if snap.error.code in _KNOWN_ERRORS else "error"
            self.message = Message(code, text=snap.error.message, args=snap.error.args)
            if code == "pit_boss":
                self.badge, self._pin, self.pin_field = "", "", "badge"
        elif (
            self.message is not None
            and self.message.code == "device_not_ready"
            and (snap.phase is Phase.BETS_OPEN or snap.device.ready)  # stale once ready
        ):
            self.message = None
        self._changed()

    # -- the dealer's taps ------------------------------------------------------------------------
    def start(self) -> None:
        """Connect the source and open the first hand."""
        self._command(OpenTable)

    def tap_seat(self, seat: int) -> None:
        """Select a seat for the chip keypad (bets open only)."""
        if self.step() is not Step.BETS:
            return
        self._disarm()
        self.selected = seat
        self.box = self.book.entry_boxes[0]
        self.message = None
        self._changed()

    def tap_box(self, seat: int, box: str) -> None:
        """Select a seat's box for the keypad; a followed box selects the one it copies."""
        if self.step() is not Step.BETS:
            return
        box = self.book.follows.get(box, box)
        self.selected = seat
        self.box = box if box in self.book.entry_boxes else self.book.entry_boxes[0]
        self.message = None
        self._changed()

    def select_box(self, box: str) -> None:
        """Choose which box of the selected seat the chips go to."""
        if self.selected is not None:
            self.tap_box(self.selected, box)

    def tap_chip(self, chip: int) -> None:
        """Add a chip (minor units) to the selected box; above the maximum it is refused and the
        reason shown."""
        if self.step() is not Step.BETS:
            return
        self._disarm()
        if self.selected is None:
            self.message = Message("select_seat")
        else:
            issue = self.book.add_chip(self.selected, self.box, chip)
            self.message = Message("bet_issue", self.selected, issue) if issue else None
        self._changed()

    def clear_box(self) -> None:
        """Empty the selected box."""
        if self.step() is Step.BETS and self.selected is not None:
            self.book.clear_box(self.selected, self.box)
            self.message = None
            self._changed()

    def clear_seat(self, seat: int | None = None) -> None:
        """Remove every bet of ``seat`` (default: the selected seat)."""
        seat = seat if seat is not None else self.selected
        if self.step() is Step.BETS and seat is not None:
            self.book.clear_seat(seat)
            self.message = None
            self._changed()

    def repeat_last(self) -> None:
        """Put back the bets of the last dealt hand."""
        if self.step() is Step.BETS and self.last_bets:
            self.book.load(self.last_bets)
            self.message = None
            self._changed()

    def rien_ne_va_plus(self) -> None:
        """Lock the bets and deal; refused with the reason when a seat's bets are not valid."""
        if self.step() is not Step.BETS or self.busy:
            return
        if not self.snap.device.ready:  # a fault blocks the deal until it clears
            self.message = Message("device_not_ready", text=self.snap.device.why_not_ready)
            self._changed()
            return
        for seat in sorted(self.book.drafts):
            issue = self.book.issue(seat)
            if issue is not None:
                self.selected = seat
                self.message = Message("bet_issue", seat, issue)
                self._changed()
                return
        bets = self.book.ready()
        if not bets:
            self.message = Message("no_bets")
            self._changed()
            return
        self._sent_bets = bets
        self.selected = None
        self.message = None
        self._command(partial(Deal, bets=bets))

    def decide(self, seat: int, action: Action) -> None:
        """A seat's decision (only a legal one, shown as a button, reaches the service)."""
        seat_snap = next((s for s in self.snap.seats if s.seat == seat), None)
        if self.busy or seat_snap is None or action not in seat_snap.legal or seat in self._acts:
            return
        self._disarm()
        self.message = None
        self._acts[seat] = self._command(partial(Act, seat=seat, action=action))

    def dealer_button(self) -> None:
        """The big button: whatever :attr:`ConsoleView.action` says."""
        action = self._action()
        if action is None or not action.enabled:
            return
        now = self.clock()
        last, self._last_big = self._last_big, now
        if now - last < self.tap_guard:
            # a double or triple tap: each tap of the burst restarts the guard (the third tap of
            # a triple tap is as close to the second as the second to the first), so the burst
            # pays one seat, never skips the next one unseen
            return
        self._disarm()
        kind = action.kind
        if kind == "retry":
            self.start()
        elif kind == "rnvp":
            self.rien_ne_va_plus()
        elif kind == self.snap.next_step:  # the view's next step: a street, the dealer's cards
            self.message, self.void_armed = None, False
            self._command(DealerStep)
        elif kind == "settle":
            self.cursor = self.first_unpaid()
            self._changed()
        elif kind == "next":
            self.next_seat()
        elif kind == "new_hand":
            self.message = None
            self._command(NewHand)
        elif kind == "ack":
            self.acknowledge_void()
        # the guard runs from the end of this tap's work too: the screen it redrew (a list of
        # seven seats takes a while on a slow panel) may have kept the second tap of a double
        # tap queued for longer than the guard
        self._last_big = self.clock()

    def acknowledge_void(self) -> None:
        """The dealer has read the void alarm: acknowledge it (journaled) and open the next
        hand."""
        if self.clock() - self._alarm_at < self.alarm_guard:
            return  # the alarm just came up under a finger meant for another button
        if self.snap.void_reason is not None and AcknowledgeVoid not in self._waiting.values():
            self._command(AcknowledgeVoid)

    def void_hand(self) -> None:
        """The dealer voids the hand: the first tap arms, the second confirms (also while the
        cards are typed: the worker never waits for them)."""
        if not self._can_void():
            return
        if self.void_armed and self.clock() - self._armed_at > self.void_timeout:
            self.void_armed = False  # armed and forgotten: this tap arms it again
        if not self.void_armed:
            self.void_armed, self._armed_at = True, self.clock()
            self.message = Message("confirm_void")
            self._changed()
            return
        self.void_armed, self.message = False, None
        self._command(partial(VoidHand, reason=VoidReason("dealer_void")))

    # -- source notices --------------------------------------------------------------------------
    def dismiss_notice(self) -> None:
        """The dealer has read the card-source switch notice."""
        if self.snap.notice is not None:
            self.dismissed = self.snap.notice.number
            self._changed()

    def expire(self) -> None:
        """The clock (the window calls it every second): an armed *Void hand* left for
        ``void_timeout`` disarms."""
        if self.void_armed and self.clock() - self._armed_at > self.void_timeout:
            self._disarm()
            self._changed()
        if self._held is not None and self.clock() - self._held_at >= self.reenter_window:
            self._deliver(self._held)  # nothing re-entered in time: the card goes to the deal

    def cancel_void(self) -> None:
        """Disarm the void button."""
        if self.void_armed:
            self.void_armed, self.message = False, None
            self._changed()

    def change_dealer(self, badge: str) -> int:
        """The Dealer control: the incoming dealer's ``badge`` to the table (between hands; the
        service refuses otherwise, :mod:`ui.kit.dealer_change`); the command's number."""
        return self._command(partial(ChangeDealer, badge=badge))

    # -- internals --------------------------------------------------------------------------------
    def _command(self, make: Callable[[int], Command]) -> int:
        """Number, note and send the command ``make(seq)`` builds; its number."""
        self._seq += 1
        cmd = make(self._seq)
        self._waiting[self._seq] = type(cmd)
        self._changed()
        self.send(cmd)
        return self._seq
