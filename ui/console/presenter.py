"""The console's view-model: dealer taps in, commands out, one immutable view to draw.

Qt-free and testable without a window. The presenter owns what only the screen cares about (bet
drafts, the selected seat, the settlement cursor, the void acknowledgement, messages) and derives
everything else from the latest :class:`~ui.console.snapshot.TableSnapshot`. Texts are codes here;
the widgets translate them (Qt's translation system), so the view carries no language.

The view's values are :mod:`ui.console.view`. The presenter holds collaborators that own their
state: the screen's shared state and the commands in flight (:mod:`ui.console.desk`), the payout
walk (:mod:`ui.console.walk`), the card keypad (:mod:`ui.console.card_taps`), the pit boss's
forms (:mod:`ui.console.pit_boss`) and the view worked out from them all
(:mod:`ui.console.derived`). This module takes the bets, the decisions and the big button,
follows the snapshots and hands the other taps to the collaborator that owns them.
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
from ui.console.card_taps import CardSink, CardTaps
from ui.console.commands import Act, Deal, DealerStep, NewHand, VoidHand
from ui.console.derived import DerivedView
from ui.console.desk import Screen
from ui.console.pit_boss import PitBossForms
from ui.console.snapshot import TableSnapshot
from ui.console.view import ConsoleView, Message, Step
from ui.console.walk import (
    ALARM_GUARD,
    REENTER_WINDOW,
    TAP_GUARD,
    VOID_ARM_TIMEOUT,
    PayoutWalk,
    voided_in_bets,
)
from ui.kit.commands import AcknowledgeVoid, ChangeDealer, Command, OpenTable, RetryStorage
from ui.kit.outbox import Outbox
from ui.kit.pin_entry import PitBossEntry
from ui.kit.tap_guard import HOLD

_KNOWN_ERRORS = frozenset({"device_not_ready", "device", "card_taken", "pit_boss",
                           "ident_mismatch", "exposed_mismatch", "journal", "signoff_required",
                           "no_roster", "signoff_role", "signoff_no_store", "illegal", "state",
                           "bet", "other"})  # fmt: skip
Sink = Callable[[Command], None]


class ConsolePresenter:
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
        self.send = send
        self.clock = clock
        self.tap_guard, self.void_timeout, self.alarm_guard = tap_guard, void_timeout, alarm_guard
        self.steady_hold = steady_hold  # the window's tap guard (ui.kit.tap_guard)
        self._last_big = -1e9  # clock() of the last big-button tap taken
        self._armed_at = 0.0
        self._alarm_at = -1e9
        self._sent_bets: dict[int, dict[str, int]] = {}
        self._listeners: list[Callable[[ConsoleView], None]] = []
        self.book = BetBook(config)
        self.screen = Screen(box=self.book.entry_boxes[0])
        self.outbox = Outbox(free=(Act,))  # a seat's decision holds only its own seat
        self.pins = PitBossEntry()
        self.walk = PayoutWalk(self, self.pins, clock, tap_guard)
        self.cards = CardTaps(self, self.pins, enter, clock, reenter_window)
        self.forms = PitBossForms(self, self.pins)
        self.looks = DerivedView(
            config, self.book, self.screen, self.outbox, self.walk, self.cards, self.forms,
            self.pins,
        )  # fmt: skip

    # -- what the collaborators and the window read -----------------------------------------------
    @property
    def snap(self) -> TableSnapshot:
        """The service's latest snapshot."""
        return self.screen.snap

    @property
    def cursor(self) -> int | None:
        """The payout walk's open seat (an index in the settlement order), None before it."""
        return self.walk.cursor

    @cursor.setter
    def cursor(self, value: int | None) -> None:
        self.walk.cursor = value

    @property
    def paid(self) -> list[int]:
        """The seats marked paid in this hand's walk."""
        return self.walk.paid

    @property
    def busy(self) -> bool:
        """A command other than a decision is in flight (the dealer's buttons wait)."""
        return self.outbox.busy

    def step(self) -> Step:
        """What the console shows now."""
        return self.looks.step()

    def view(self) -> ConsoleView:
        """The current view."""
        return self.looks.view()

    # -- observers --------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[ConsoleView], None]) -> None:
        """Call ``listener(view)`` after every change."""
        self._listeners.append(listener)

    def changed(self) -> None:
        """Draw again: every listener gets the current view."""
        view = self.view()
        for listener in self._listeners:
            listener(view)

    # -- from the service -------------------------------------------------------------------------
    def on_snapshot(self, snap: TableSnapshot) -> None:
        """A snapshot from the service (a command's answer or a tick)."""
        screen, book = self.screen, self.book
        old = screen.snap
        screen.snap = snap
        self.outbox.answered(snap.seq)
        if voided_in_bets(old, snap) and book.ready():
            # returned to the players with the rest: not drawn on the next hand, but one tap on
            # Repeat last bets puts them back if the players leave them out
            screen.last_bets = book.ready()
        if not screen.last_bets and snap.last_bets:  # after a restart: the journal's last hand
            screen.last_bets = {seat: dict(bets) for seat, bets in snap.last_bets}
        if snap.void_reason is not None and old.void_reason is None:
            self._alarm_at = self.clock()
        self.forms.on_snapshot(old, snap)
        if snap.hand_uid != old.hand_uid:
            screen.void_armed, screen.selected = False, None
            book.clear()
            screen.box = book.entry_boxes[0]
        self.walk.on_snapshot(old, snap)
        left_bets = old.phase is Phase.BETS_OPEN and snap.phase not in (Phase.BETS_OPEN, None)
        if left_bets and snap.hand_uid == old.hand_uid and self._sent_bets:
            screen.last_bets = self._sent_bets
        self.cards.on_snapshot(old, snap)
        if snap.error is not None:
            code = snap.error.code if snap.error.code in _KNOWN_ERRORS else "error"
            screen.message = Message(code, text=snap.error.message, args=snap.error.args)
            if code == "pit_boss":
                self.cards.unreadable.clear()  # the shared badge and PIN, the pad's field
        elif (
            screen.message is not None
            and screen.message.code == "device_not_ready"
            and (snap.phase is Phase.BETS_OPEN or snap.device.ready)  # stale once ready
        ):
            screen.message = None
        self.changed()

    # -- the dealer's taps: bets ------------------------------------------------------------------
    def start(self) -> None:
        """Connect the source and open the first hand."""
        self.command(OpenTable)

    def tap_seat(self, seat: int) -> None:
        """Select a seat for the chip keypad (bets open only)."""
        if self.step() is not Step.BETS:
            return
        self.screen.disarm()
        self.screen.selected = seat
        self.screen.box = self.book.entry_boxes[0]
        self.screen.message = None
        self.changed()

    def tap_box(self, seat: int, box: str) -> None:
        """Select a seat's box for the keypad; a followed box selects the one it copies."""
        if self.step() is not Step.BETS:
            return
        box = self.book.follows.get(box, box)
        self.screen.selected = seat
        self.screen.box = box if box in self.book.entry_boxes else self.book.entry_boxes[0]
        self.screen.message = None
        self.changed()

    def select_box(self, box: str) -> None:
        """Choose which box of the selected seat the chips go to."""
        if self.screen.selected is not None:
            self.tap_box(self.screen.selected, box)

    def tap_chip(self, chip: int) -> None:
        """Add a chip (minor units) to the selected box; above the maximum it is refused and the
        reason shown."""
        if self.step() is not Step.BETS:
            return
        screen = self.screen
        screen.disarm()
        if screen.selected is None:
            screen.message = Message("select_seat")
        else:
            issue = self.book.add_chip(screen.selected, screen.box, chip)
            screen.message = Message("bet_issue", screen.selected, issue) if issue else None
        self.changed()

    def undo_chip(self) -> None:
        """Take back the last chip the dealer put in a box (the selected seat's own)."""
        if self.step() is not Step.BETS:
            return
        screen = self.screen
        screen.disarm()
        seat = screen.selected
        if seat is None:
            screen.message = Message("select_seat")
        else:  # the selected seat's own last chip, never another seat's
            box = self.book.undo_chip(seat)
            screen.message = Message("chip_undone", seat, text=box) if box else None
        self.changed()

    def clear_box(self) -> None:
        """Empty the selected box."""
        if self.step() is Step.BETS and self.screen.selected is not None:
            self.book.clear_box(self.screen.selected, self.screen.box)
            self.screen.message = None
            self.changed()

    def clear_seat(self, seat: int | None = None) -> None:
        """Remove every bet of ``seat`` (default: the selected seat)."""
        seat = seat if seat is not None else self.screen.selected
        if self.step() is Step.BETS and seat is not None:
            self.book.clear_seat(seat)
            self.screen.message = None
            self.changed()

    def repeat_last(self) -> None:
        """Put back the bets of the last dealt hand."""
        if self.step() is Step.BETS and self.screen.last_bets:
            self.book.load(self.screen.last_bets)
            self.screen.message = None
            self.changed()

    def rien_ne_va_plus(self) -> None:
        """Lock the bets and deal; refused with the reason when a seat's bets are not valid."""
        if self.step() is not Step.BETS or self.busy:
            return
        screen = self.screen
        if not screen.snap.device.ready:  # a fault blocks the deal until it clears
            screen.message = Message("device_not_ready", text=screen.snap.device.why_not_ready)
            self.changed()
            return
        for seat in sorted(self.book.drafts):
            issue = self.book.issue(seat)
            if issue is not None:
                screen.selected = seat
                screen.message = Message("bet_issue", seat, issue)
                self.changed()
                return
        bets = self.book.ready()
        if not bets:
            screen.message = Message("no_bets")
            self.changed()
            return
        self._sent_bets = bets
        screen.selected = None
        screen.message = None
        self.command(partial(Deal, bets=bets))

    # -- the dealer's taps: decisions, the big button, the void -----------------------------------
    def decide(self, seat: int, action: Action) -> None:
        """A seat's decision (only a legal one, shown as a button, reaches the service)."""
        seat_snap = next((s for s in self.snap.seats if s.seat == seat), None)
        acts = self.screen.acts
        sent = self.outbox.waits(acts.get(seat))
        if self.busy or seat_snap is None or action not in seat_snap.legal or sent:
            return
        self.screen.disarm()
        self.screen.message = None
        acts[seat] = self.command(partial(Act, seat=seat, action=action))

    def dealer_button(self) -> None:
        """The big button: whatever :attr:`ConsoleView.action` says."""
        action = self.looks.action()
        if action is None or not action.enabled:
            return
        now = self.clock()
        last, self._last_big = self._last_big, now
        if now - last < self.tap_guard:
            # a double or triple tap: each tap of the burst restarts the guard (the third tap of
            # a triple tap is as close to the second as the second to the first), so the burst
            # pays one seat, never skips the next one unseen
            return
        self.screen.disarm()
        kind = action.kind
        if kind == "retry":
            self.start()
        elif kind == "rnvp":
            self.rien_ne_va_plus()
        elif kind == self.snap.next_step:  # the view's next step: a street, the dealer's cards
            self.screen.message, self.screen.void_armed = None, False
            self.command(DealerStep)
        elif kind == "settle":
            self.walk.settle()
        elif kind == "next":
            self.walk.next_seat()
        elif kind == "new_hand":
            self.screen.message = None
            self.command(NewHand)
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
        if self.snap.void_reason is not None and not self.outbox.has(AcknowledgeVoid):
            self.command(AcknowledgeVoid)

    def void_hand(self) -> None:
        """The dealer voids the hand: the first tap arms, the second confirms (also while the
        cards are typed: the worker never waits for them)."""
        if not self.looks.can_void():
            return
        screen = self.screen
        if screen.void_armed and self.clock() - self._armed_at > self.void_timeout:
            screen.void_armed = False  # armed and forgotten: this tap arms it again
        if not screen.void_armed:
            screen.void_armed, self._armed_at = True, self.clock()
            screen.message = Message("confirm_void")
            self.changed()
            return
        screen.void_armed, screen.message = False, None
        self.command(partial(VoidHand, reason=VoidReason("dealer_void")))

    def cancel_void(self) -> None:
        """Disarm the void button."""
        if self.screen.void_armed:
            self.screen.void_armed, self.screen.message = False, None
            self.changed()

    def expire(self) -> None:
        """The clock (the window calls it every second): an armed *Void hand* left for
        ``void_timeout`` disarms; a held typed card nothing re-entered goes to the deal."""
        if self.screen.void_armed and self.clock() - self._armed_at > self.void_timeout:
            self.screen.disarm()
            self.changed()
        self.cards.expire()

    # -- notices, storage, the dealer change ------------------------------------------------------
    def dismiss_notice(self) -> None:
        """The dealer has read the card-source switch notice."""
        if self.snap.notice is not None:
            self.screen.dismissed = self.snap.notice.number
            self.changed()

    def dismiss_storage(self) -> None:
        """The dealer has read a storage notice (a fault stays until the storage answers)."""
        banner = self.snap.storage
        if banner is not None and not banner.fault:
            self.screen.storage_dismissed = banner.number
            self.changed()

    def tap_retry(self) -> None:
        """After a storage fault: try the journal again (the table resumes if it answers)."""
        if not self.busy:
            self.screen.message = None
            self.command(RetryStorage)

    def change_dealer(self, badge: str) -> int:
        """The Dealer control: the incoming dealer's ``badge`` to the table (between hands; the
        service refuses otherwise, :mod:`ui.kit.dealer_change`); the command's number."""
        return self.command(partial(ChangeDealer, badge=badge))

    # -- taps the collaborators own ---------------------------------------------------------------
    def next_seat(self) -> None:
        """*Next* in the payout walk (:meth:`PayoutWalk.next_seat`)."""
        self.walk.next_seat()

    def back(self) -> None:
        """*Back* in the payout walk (:meth:`PayoutWalk.back`)."""
        self.walk.back()

    def open_row(self, seat: int) -> None:
        """A tap on a row of the settlement list (:meth:`PayoutWalk.open_row`)."""
        self.walk.open_row(seat)

    def sign_off(self, seat: int, badge: str, pin: str) -> None:
        """A large payout's sign-off (:meth:`PayoutWalk.sign_off`)."""
        self.walk.sign_off(seat, badge, pin)

    def signoff_key(self, key: str) -> None:
        """A key of the sign-off pad (:meth:`PayoutWalk.signoff_key`)."""
        self.walk.signoff_key(key)

    def undo_decision(self, seat: int) -> None:
        """Take back this street's decision (:meth:`PitBossForms.undo_decision`)."""
        self.forms.undo_decision(seat)

    def undo_or_correct(self, seat: int) -> None:
        """*Change* on a seat (:meth:`PitBossForms.undo_or_correct`)."""
        self.forms.undo_or_correct(seat)

    def choose_correction(self, action: Action) -> None:
        """The corrected decision (:meth:`PitBossForms.choose_correction`)."""
        self.forms.choose_correction(action)

    def correction_key(self, key: str) -> None:
        """A key of the correction's pad (:meth:`PitBossForms.correction_key`)."""
        self.forms.correction_key(key)

    def open_history(self) -> None:
        """Open the history (:meth:`PitBossForms.open_history`)."""
        self.forms.open_history()

    def close_history(self) -> None:
        """Close the history (:meth:`PitBossForms.close_history`)."""
        self.forms.close_history()

    def history_key(self, key: str) -> None:
        """A key of the history's pad (:meth:`PitBossForms.history_key`)."""
        self.forms.history_key(key)

    def card_entered(self, card: Card) -> None:
        """The card keypad's card (:meth:`CardTaps.card_entered`)."""
        self.cards.card_entered(card)

    def reenter(self) -> None:
        """*Re-enter the last card* (:meth:`CardTaps.reenter`)."""
        self.cards.reenter()

    def pin_key(self, key: str) -> None:
        """A key of the identify pad (:meth:`CardTaps.pin_key`)."""
        self.cards.pin_key(key)

    def open_exposed(self) -> None:
        """Open the exposed-card form (:meth:`CardTaps.open_exposed`)."""
        self.cards.open_exposed()

    def choose_exposed(self, position: str) -> None:
        """Where the exposed card is (:meth:`CardTaps.choose_exposed`)."""
        self.cards.choose_exposed(position)

    def record_exposed(self, card: Card | None = None) -> None:
        """Record the exposed card (:meth:`CardTaps.record_exposed`)."""
        self.cards.record_exposed(card, next_seq=self.outbox.seq + 1)

    def cancel_exposed(self) -> None:
        """Close the exposed-card form (:meth:`CardTaps.cancel_exposed`)."""
        self.cards.cancel_exposed()

    # -- out to the service -----------------------------------------------------------------------
    def command(self, make: Callable[[int], Command]) -> int:
        """Number, note and send the command ``make(seq)`` builds; its number."""
        cmd = self.outbox.number(make)
        self.changed()
        self.send(cmd)
        return cmd.seq
