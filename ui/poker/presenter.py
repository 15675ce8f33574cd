"""The poker console's view-model: the dealer's taps in, commands out, one view to draw.

Qt-free and testable without a window. It keeps what only the screen cares about and derives
the rest from the latest :class:`~ui.poker.snapshot.PokerSnapshot`. Messages are codes with
their values; the widgets translate them.

The presenter holds collaborators that own their state: the screen's shared state, the commands
in flight and the double-tap guard (:mod:`ui.poker.desk`), the amount keyed
(:mod:`ui.poker.amount_keys`), the changes between hands (:mod:`ui.poker.seat_taps`), the card
keypad and the pit boss's pad of an unreadable card (:mod:`ui.poker.card_taps`) and the pad of
a large pot's sign-off (the kit's :class:`~ui.kit.pin_entry.PinPad`). This module follows the
snapshots, works out the step and the view, takes the hand's own taps and hands the others to
the collaborator that owns them.

Two guards keep a double tap from acting twice: the same button tapped again within
:data:`~ui.poker.desk.DOUBLE_TAP_S` is ignored, and so is any action while the last one is not
answered yet. Amounts the rule does not allow are refused here with the rule's text (and,
should one get through, by the core: its refusal is shown from the snapshot).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.voids import VoidReason
from dealer_assist.games import get_pot_game
from ui.kit.commands import AcknowledgeVoid, ChangeDealer, Command, OpenTable, RetryStorage
from ui.kit.outbox import Outbox
from ui.kit.pin_entry import PinPad
from ui.kit.status import CommandError
from ui.poker.amount_keys import AmountKeys
from ui.poker.card_taps import CardSink, CardTaps
from ui.poker.commands import Act, NewHand, Reshuffle, Show, SignOffPot, Undo, VoidHand
from ui.poker.desk import DOUBLE_TAP_S, Screen, TapGuard
from ui.poker.seat_taps import SeatTaps
from ui.poker.snapshot import PokerSnapshot, RuleRefusal
from ui.poker.views import Message, PokerView, amount_issue

__all__ = ["ACK_HOLD_S", "DOUBLE_TAP_S", "Message", "PokerPresenter", "PokerView", "amount_issue"]

ACK_HOLD_S = 1.0
"""Taps on "Acknowledged" within this many seconds of the void alarm appearing do nothing: the
taps that voided the hand must not acknowledge it too."""

Sink = Callable[[Command], None]


class PokerPresenter:
    """Turns snapshots and taps into views and commands.

    Args:
        config: the table (``chips``, ``config.poker.buy_in``).
        send: delivers a command to the service (queued to the worker; direct in tests).
        clock: monotonic seconds (tests pass their own).
        enter: hands a typed card to the keypad source at once (thread-safe; the service's
            ``enter_card``); raises DealerAssistError when refused.
    """

    def __init__(
        self,
        config: TableConfig,
        send: Sink,
        *,
        clock: Callable[[], float] = time.monotonic,
        enter: CardSink | None = None,
    ) -> None:
        self.config = config
        self.has_button = bool(getattr(get_pot_game(config.game), "has_button", True))
        self.send = send
        self.dismissed = 0  # source-switch notices up to this number were read
        self.storage_read = 0  # storage notices up to this number were read
        self._alarm_at: float | None = None  # when the void alarm appeared
        self._done_uid = ""  # the settled hand whose award the dealer has finished
        self._listeners: list[Callable[[PokerView], None]] = []
        self.screen = Screen(snap=PokerSnapshot(table_seats=config.seats))
        self.outbox = Outbox()
        self.guard = TapGuard(clock)
        self.amounts = AmountKeys(self, config)
        self.seats = SeatTaps(self, config, self.amounts, self.has_button)
        self.cards = CardTaps(self, enter)
        self.signoff_pad = PinPad()  # a large pot: the pit boss's badge and PIN

    # -- what the collaborators, the window and the tests read ------------------------------------
    @property
    def clock(self) -> Callable[[], float]:
        """Monotonic seconds (the guard's; a test may set another)."""
        return self.guard.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:
        self.guard.clock = clock

    @property
    def snap(self) -> PokerSnapshot:
        """The service's latest snapshot."""
        return self.screen.snap

    @property
    def message(self) -> Message | None:
        """The line for the dealer (None: none)."""
        return self.screen.message

    @property
    def selected(self) -> int | None:
        """The seat selected between hands (None: none)."""
        return self.screen.selected

    @property
    def void_armed(self) -> bool:
        """The next tap on Void confirms it."""
        return self.screen.void_armed

    @property
    def amount(self) -> int:
        """The amount keyed (minor units)."""
        return self.amounts.amount

    @amount.setter
    def amount(self, value: int) -> None:
        self.amounts.amount = value

    @property
    def name(self) -> str:
        """The new player's name typed."""
        return self.seats.name

    @property
    def busy(self) -> bool:
        """A command is on its way (the buttons wait for its answer)."""
        return self.outbox.busy

    # -- observers --------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[PokerView], None]) -> None:
        """Call ``listener(view)`` after every change."""
        self._listeners.append(listener)

    def changed(self) -> None:
        """Draw again: every listener gets the current view."""
        view = self.view()
        for listener in self._listeners:
            listener(view)

    def start(self) -> None:
        """Connect to the table (the service opens the source and the journal)."""
        self.command(OpenTable)

    # -- from the service -------------------------------------------------------------------------
    def on_snapshot(self, snap: PokerSnapshot) -> None:
        """A snapshot from the service (a command's answer or a tick)."""
        screen = self.screen
        old = screen.snap
        screen.snap = snap
        self.outbox.answered(snap.seq)
        turn = (snap.hand_uid, snap.actor, snap.street, snap.phase)
        if turn != (old.hand_uid, old.actor, old.street, old.phase):
            self.amounts.new_turn(snap)
            self.guard.moved()  # buttons now mean something else
        if snap.hand_uid != old.hand_uid:
            screen.void_armed = False
        self.cards.on_snapshot(old, snap)
        if snap.signoff != old.signoff or (snap.error is not None and snap.signoff is not None):
            self.signoff_pad.clear()  # another pot, or a refused badge/PIN: typed again
        if snap.alarm and not old.alarm:
            self._alarm_at = self.clock()
        elif not snap.alarm:
            self._alarm_at = None
        if snap.error is not None and snap.seq >= self.outbox.seq:
            screen.message = self._refusal(snap, snap.error)
        elif (
            snap.seq >= self.outbox.seq
            and screen.message is not None
            and (screen.message.code in ("refused", "rule", "storage"))
        ):
            screen.message = None
        self.changed()

    def _refusal(self, snap: PokerSnapshot, e: CommandError) -> Message:
        """The line for the refusal ``e`` that ``snap`` answers the last command with."""
        code = e.code
        if code in ("pit_boss", "ident_mismatch"):
            self.cards.clear_pad()
            return Message(code, text=e.message)
        if code in ("signoff_role", "signoff_no_store"):  # a large pot: said translated
            return Message(code, text=e.message, args=e.args)
        if code == "card_taken":  # the card is not named (command_error)
            return Message("card_taken")
        if code == "journal":  # a storage fault: the banner's sentence, never the library's words
            return Message("storage", text=e.message, args=e.args)
        if isinstance(e, RuleRefusal):  # the rule, said in the dealer's language
            return Message("rule", text=e.message, rule=e.rule, named=e.named)
        return Message("refused", text=e.message)

    # -- the view ---------------------------------------------------------------------------------
    def step(self) -> str:
        """Where the console is (see :class:`PokerView`)."""
        s = self.snap
        if s.alarm:
            return "void"
        if not s.device.connected and not s.hand_uid and not s.seats:
            return "connecting"
        if not s.in_hand:
            fresh = s.phase == "settled" and s.hand_uid != self._done_uid
            return "settled" if fresh else "between"
        if s.identifying:
            return "identify"
        if s.signoff is not None:
            return "signoff"  # a large pot: its award waits for a pit boss
        if s.new_deck:
            return "new_deck"
        if s.manual_source and s.awaiting and s.legal is None:
            return "manual"
        if s.phase == "showdown" and s.legal is not None:
            return "showdown"
        if s.legal is not None:
            return "betting"
        return "dealing"

    def view(self) -> PokerView:
        """The view now."""
        legal = self.snap.legal
        ok = legal is not None and amount_issue(legal, self.amount) is None
        low, high = self.config.poker.buy_in
        step, s, screen = self.step(), self.snap, self.screen
        notice = s.notice if s.notice is not None and s.notice.number > self.dismissed else None
        banner = s.storage
        if banner is not None and not banner.fault and banner.number <= self.storage_read:
            banner = None
        between = step in ("between", "settled") and s.device.connected
        return PokerView(
            step=step,
            snap=s,
            legal=legal,
            amount=self.amount,
            amount_ok=ok,
            chips=tuple(self.config.chips),
            selected=screen.selected,
            name=self.name,
            buy_in=(low, high),
            void_armed=screen.void_armed,
            message=screen.message,
            busy=self.busy,
            seats=tuple(range(1, self.config.seats + 1)),
            entry=self.cards.entry(step),
            can_void=s.in_hand,
            notice=notice,
            not_ready=between and not s.device.ready,
            ack_ready=self._ack_ready(),
            has_button=self.has_button,
            storage=banner,
        )

    def _ack_ready(self) -> bool:
        at = self._alarm_at
        return at is None or self.clock() - at >= ACK_HOLD_S

    # -- taps: the hand ---------------------------------------------------------------------------
    def double(self, key: str) -> bool:
        """True (ignore it) for the second tap of a double tap
        (:class:`~ui.poker.desk.TapGuard`). Any tap but Void's disarms an armed void."""
        if key != "void":
            self.screen.disarm()
        return self.guard.double(key)

    def tap_action(self, kind: str) -> None:
        """Fold, check, call, bet or raise (bet/raise to the keyed amount) for the seat to act.
        Refused with the rule's text when the kind is not legal or the amount is not."""
        legal = self.snap.legal
        if self.double(f"act:{kind}") or self.busy:
            return
        if legal is None or kind not in legal.kinds:
            self.say(Message("not_legal"))
            return
        to = None
        if kind == legal.bet_kind:
            issue = amount_issue(legal, self.amount)
            if issue is not None:
                self.say(issue)
                return
            to = self.amount
        self.screen.message = None
        self.command(partial(Act, seat=legal.seat, action=kind, to=to))

    def tap_show(self, shown: bool = True) -> None:
        """The seat to show at the showdown shows (or mucks) its hand."""
        legal = self.snap.legal
        kind = "show" if shown else "muck"
        if self.double(f"show:{kind}") or self.busy:
            return
        if legal is None or kind not in legal.kinds:
            self.say(Message("not_legal"))
            return
        self.command(partial(Show, seat=legal.seat, shown=shown))

    def tap_reshuffle(self) -> None:
        """The dealer has loaded the burns with the stub (the view's ``shortage`` said so): the
        device shuffles them as the street's new deck. Once: again while it shuffles does
        nothing."""
        s = self.snap
        if self.double("reshuffle") or self.busy or not s.new_deck or s.reshuffling:
            return
        self.screen.message = None
        self.command(Reshuffle)

    def tap_undo(self) -> None:
        """Take back the last action (only while the runner allows it)."""
        if self.double("undo") or self.busy or not self.snap.can_undo:
            return
        self.command(Undo)

    def tap_void(self) -> None:
        """Void the hand: the first tap arms, the second confirms."""
        screen = self.screen
        if not self.snap.in_hand or self.double("void"):
            return
        if not screen.void_armed:
            screen.void_armed = True
            self.say(Message("confirm_void", error=False))
            return
        screen.void_armed = False
        screen.message = None
        self.command(partial(VoidHand, reason=VoidReason("dealer_void")))

    def void_hand(self) -> None:
        """The void button of the card keypad's page (as :meth:`tap_void`)."""
        self.tap_void()

    def tap_ack(self) -> None:
        """The dealer has read the void alarm."""
        if not self._ack_ready() or self.double("ack") or self.busy:
            return
        self.command(AcknowledgeVoid)

    def tap_done(self) -> None:
        """The pots of the settled hand are paid: on to between hands."""
        if self.double("done"):
            return
        self._done_uid = self.snap.hand_uid
        self.guard.moved()  # New hand comes where Next was
        self.changed()

    def tap_new_hand(self) -> None:
        """Start the next hand (between hands)."""
        if self.double("new_hand") or self.busy or self.snap.in_hand:
            return
        self.screen.selected = None
        self.command(NewHand)

    def signoff_key(self, key: str) -> None:
        """A key of the pit boss's pad on a large pot (digits, ``back``, ``next``: badge, then
        PIN, then sent; the service checks them, a wrong one changes nothing)."""
        if self.step() != "signoff" or self.busy:
            return
        done = self.signoff_pad.signoff(key)
        if done is not None:
            self.screen.message = None
            self.command(partial(SignOffPot, badge=done[0], pin=done[1]))
            return
        self.changed()

    def tap_retry(self) -> None:
        """The dealer has freed the journal's storage: try it again (the table resumes)."""
        if self.double("retry") or self.busy:
            return
        self.command(RetryStorage)

    def dismiss_storage(self) -> None:
        """The dealer has read the storage notice (a fault stays until the journal answers)."""
        banner = self.snap.storage
        if banner is not None and not banner.fault:
            self.storage_read = banner.number
            self.changed()

    def dismiss_notice(self) -> None:
        """The dealer has read the card-source switch notice."""
        if self.snap.notice is not None:
            self.dismissed = self.snap.notice.number
            self.changed()

    def change_dealer(self, badge: str) -> int:
        """The Dealer control: the incoming dealer's ``badge`` to the table (between hands; the
        service refuses otherwise, :mod:`ui.kit.dealer_change`); the command's number."""
        self.command(partial(ChangeDealer, badge=badge))
        return self.outbox.seq

    # -- the taps the collaborators own -----------------------------------------------------------
    def tap_seat(self, seat: int) -> None:
        """Select ``seat`` between hands (:meth:`SeatTaps.tap_seat`)."""
        self.seats.tap_seat(seat)

    def set_name(self, name: str) -> None:
        """The new player's name (:meth:`SeatTaps.set_name`)."""
        self.seats.set_name(name)

    def tap_seat_player(self) -> None:
        """Seat a player (:meth:`SeatTaps.tap_seat_player`)."""
        self.seats.tap_seat_player()

    def tap_top_up(self) -> None:
        """Top up the selected player (:meth:`SeatTaps.tap_top_up`)."""
        self.seats.tap_top_up()

    def tap_seat_change(self, kind: str) -> None:
        """Sit out, sit in, leave, the button (:meth:`SeatTaps.tap_seat_change`)."""
        self.seats.tap_seat_change(kind)

    def tap_all_in(self) -> None:
        """Key all of the actor's stack (:meth:`AmountKeys.all_in`)."""
        self.amounts.all_in()

    def tap_min(self) -> None:
        """Key the minimum total (:meth:`AmountKeys.minimum`)."""
        self.amounts.minimum()

    def tap_pot(self, half: bool = False) -> None:
        """Key the pot-sized total (:meth:`AmountKeys.pot`)."""
        self.amounts.pot(half)

    def tap_digit(self, key: str) -> None:
        """A key of the numeric keypad (:meth:`AmountKeys.digit`)."""
        self.amounts.digit(key)

    def tap_chip(self, value: int) -> None:
        """Add a chip to the amount (:meth:`AmountKeys.chip`)."""
        self.amounts.chip(value)

    def tap_clear(self) -> None:
        """Clear the amount being keyed."""
        self.amounts.set(0)

    def card_entered(self, card: Card) -> None:
        """The card keypad confirmed ``card`` (:meth:`CardTaps.card_entered`)."""
        self.cards.card_entered(card)

    def pin_key(self, key: str) -> None:
        """A key of the unreadable card's pit-boss pad (:meth:`CardTaps.pin_key`)."""
        self.cards.pin_key(key)

    # -- the ways out, for the collaborators too --------------------------------------------------
    def say(self, message: Message) -> None:
        """Show ``message`` on the dealer's line."""
        self.screen.message = message
        self.changed()

    def command(self, make: Callable[[int], Command]) -> None:
        """The command ``make(seq)`` builds with the next number, sent to the service."""
        self.send(self.outbox.number(make))
        self.changed()
