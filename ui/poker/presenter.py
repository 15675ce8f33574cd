"""The poker console's view-model: the dealer's taps in, commands out, one view to draw.

Qt-free and testable without a window. It keeps what only the screen cares about (the amount
being keyed, the seat selected between hands, the player's name, the void confirmation, the
message line) and derives the rest from the latest :class:`~ui.poker.snapshot.PokerSnapshot`.
Messages are codes with their values; the widgets translate them.

Two guards keep a double tap from acting twice: the same button tapped again within
:data:`DOUBLE_TAP_S` is ignored, and so is any action while the last one is not answered yet.
Amounts the rule does not allow are refused here with the rule's text (and, should one get
through, by the core: its refusal is shown from the snapshot).

The card keypad (the kit's :class:`~ui.kit.cards.CardEntry`) is the dealer's
tool while the keypad is the card source (``manual``) or an unreadable card waits (``identify``,
then a pit boss's ``confirm``). Privacy: a typed card goes straight to the source and is never
kept here; a card refused as a duplicate is not named (it may be a hole card).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import CardError, DealerAssistError
from dealer_assist.games import get_pot_game
from ui.kit.cards import CardEntry
from ui.kit.format import CHIPS
from ui.poker.seat_taps import SeatTaps
from ui.poker.service import PokerCommand
from ui.poker.signoff import SignoffPad
from ui.poker.snapshot import PokerSnapshot, RuleRefusal
from ui.poker.views import Message, PokerView, amount_issue

__all__ = ["ACK_HOLD_S", "DOUBLE_TAP_S", "Message", "PokerPresenter", "PokerView", "amount_issue"]

DOUBLE_TAP_S = 0.4
"""A second tap of the same button within this many seconds does nothing."""

ACK_HOLD_S = 1.0
"""Taps on "Acknowledged" within this many seconds of the void alarm appearing do nothing: the
taps that voided the hand must not acknowledge it too."""

Sink = Callable[[PokerCommand], None]
CardSink = Callable[[Card], None]


class PokerPresenter(SeatTaps):
    """Turns snapshots and taps into views and commands.

    Args:
        config: the table (``chips``, ``config.poker.buy_in``).
        send: delivers a command to the service (queued to the worker; direct in tests).
        clock: monotonic seconds (tests pass their own).
        enter: hands a typed card to the keypad source at once (thread-safe; the service's
            ``enter_card``); raises DealerAssistError when refused.
    """

    def __init__(
        self, config: TableConfig, send: Sink, *, clock: Callable[[], float] = time.monotonic,
        enter: CardSink | None = None,
    ) -> None:  # fmt: skip
        self.config = config
        self.has_button = bool(getattr(get_pot_game(config.game), "has_button", True))
        self.send = send
        self.clock = clock
        self.enter = enter
        self.dismissed = 0  # source-switch notices up to this number were read
        self.storage_read = 0  # storage notices up to this number were read
        self.badge = ""
        self._pin = ""
        self.pin_field = "badge"
        self._typed_at: tuple[str, int] | None = None  # (hand, cards awaited) at the last typing
        self._deal_size = 0
        self._alarm_at: float | None = None  # when the void alarm appeared
        self.snap = PokerSnapshot(table_seats=config.seats)
        self.amount = 0
        self._typed: str | None = None  # the digits typed on the numeric keypad, if typing
        self.selected: int | None = None
        self.name = ""
        self.void_armed = False
        self.message: Message | None = None
        self._seq = 0
        self._waiting: set[int] = set()
        self._last_tap: tuple[str, float] | None = None
        self._moved_at: float | None = None  # when the table last moved on (turn, page)
        self._done_uid = ""  # the settled hand whose award the dealer has finished
        self._listeners: list[Callable[[PokerView], None]] = []
        self.signoff_pad = SignoffPad()  # a large pot: the pit boss's badge and PIN

    # -- observers --------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[PokerView], None]) -> None:
        """Call ``listener(view)`` after every change."""
        self._listeners.append(listener)

    def _changed(self) -> None:
        view = self.view()
        for listener in self._listeners:
            listener(view)

    def start(self) -> None:
        """Connect to the table (the service opens the source and the journal)."""
        self._command(PokerCommand("open"))

    # -- from the service -------------------------------------------------------------------------
    def on_snapshot(self, snap: PokerSnapshot) -> None:
        """A snapshot from the service (a command's answer or a tick)."""
        old = self.snap
        self.snap = snap
        self._waiting = {s for s in self._waiting if s > snap.seq}
        turn = (snap.hand_uid, snap.actor, snap.street, snap.phase)
        if turn != (old.hand_uid, old.actor, old.street, old.phase):
            # a new turn keys a new amount; the one total there is (fixed limit, a short
            # stack's all-in) is keyed already
            only = snap.legal.only if snap.legal is not None else None
            self.amount = only if only is not None and snap.legal is not None and (
                snap.legal.bet_kind) else 0  # fmt: skip
            self._typed = None
            self._moved_at = self.clock()  # buttons now mean something else: see _double
        if snap.hand_uid != old.hand_uid:
            self.void_armed = False
        if len(snap.awaiting) > len(old.awaiting) or not snap.awaiting:
            self._deal_size = len(snap.awaiting)  # a new deal (or none)
        typed = self._typed_at
        if typed is not None and typed != (snap.hand_uid, len(snap.awaiting)):
            self._typed_at = None
        if snap.ident_entered and not old.ident_entered:  # the pit boss's turn: a fresh pad
            self.badge, self._pin, self.pin_field = "", "", "badge"
        if snap.signoff != old.signoff or (snap.error is not None and snap.signoff is not None):
            self.signoff_pad.clear()  # another pot, or a refused badge/PIN: typed again
        if snap.alarm and not old.alarm:
            self._alarm_at = self.clock()
        elif not snap.alarm:
            self._alarm_at = None
        if snap.error is not None and snap.seq >= self._seq:
            code = snap.error.code
            if code in ("pit_boss", "ident_mismatch"):
                self.message = Message(code, text=snap.error.message)
                self.badge, self._pin, self.pin_field = "", "", "badge"
            elif code in ("signoff_role", "signoff_no_store"):  # a large pot: said translated
                self.message = Message(code, text=snap.error.message, args=snap.error.args)
            elif code == "card_taken":  # the card is not named (command_error)
                self.message = Message("card_taken")
            elif code == "storage" and snap.storage is not None:  # never the library's words
                self.message = Message("storage", text=snap.storage.text, args=snap.storage.args)
            elif isinstance(snap.error, RuleRefusal):  # the rule, said in the dealer's language
                e = snap.error
                self.message = Message("rule", text=e.message, rule=e.rule, named=e.named)
            else:
                self.message = Message("refused", text=snap.error.message)
        elif snap.seq >= self._seq and self.message is not None and self.message.code in (
            "refused", "rule", "storage"):  # fmt: skip
            self.message = None
        self._changed()

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
        step, s = self.step(), self.snap
        notice = s.notice if s.notice is not None and s.notice.number > self.dismissed else None
        banner = s.storage
        if banner is not None and not banner.fault and banner.number <= self.storage_read:
            banner = None
        between = step in ("between", "settled") and s.device.connected
        return PokerView(
            step=step, snap=s, legal=legal, amount=self.amount, amount_ok=ok,
            chips=tuple(self.config.chips), selected=self.selected, name=self.name,
            buy_in=(low, high), void_armed=self.void_armed, message=self.message,
            busy=bool(self._waiting), seats=tuple(range(1, self.config.seats + 1)),
            entry=self._entry(step), can_void=s.in_hand, notice=notice,
            not_ready=between and not s.device.ready, ack_ready=self._ack_ready(),
            has_button=self.has_button, storage=banner,
        )  # fmt: skip

    def _entry(self, step: str) -> CardEntry | None:
        s = self.snap
        if step == "manual":
            left = len(s.awaiting)
            total = max(self._deal_size, left)
            return CardEntry("manual", s.awaiting[0] if s.awaiting else None,
                             number=total - left + 1, total=total,
                             waiting=self._typed_at is not None)  # fmt: skip
        if step == "identify":
            busy = bool(self._waiting)
            if not s.ident_entered:
                return CardEntry("identify", s.ident_position, waiting=busy)
            return CardEntry("confirm", s.ident_position, waiting=busy, badge=self.badge,
                             pin_len=len(self._pin), pin_field=self.pin_field,
                             pin_required=s.pin_required)  # fmt: skip
        return None

    def _ack_ready(self) -> bool:
        at = self._alarm_at
        return at is None or self.clock() - at >= ACK_HOLD_S

    # -- taps: the hand ---------------------------------------------------------------------------
    def _double(self, key: str) -> bool:
        """True (ignore it) for a tap within DOUBLE_TAP_S of the last tap on any button, or of
        the table moving on (another seat to act, another street, another page): the second tap
        of a double tap lands on whatever button is under the finger by then (New hand ->
        Void hand, Call -> the next street's Check, Next -> New hand). Any tap but Void's
        disarms an armed void."""
        now = self.clock()
        last = self._last_tap
        self._last_tap = (key, now)
        if key != "void":
            self._disarm()
        if last is not None and 0 <= now - last[1] < DOUBLE_TAP_S:
            return True
        return self._moved_at is not None and 0 <= now - self._moved_at < DOUBLE_TAP_S

    def _disarm(self) -> None:
        if self.void_armed:
            self.void_armed = False
            if self.message is not None and self.message.code == "confirm_void":
                self.message = None

    def tap_action(self, kind: str) -> None:
        """Fold, check, call, bet or raise (bet/raise to the keyed amount) for the seat to act.
        Refused with the rule's text when the kind is not legal or the amount is not."""
        legal = self.snap.legal
        if self._double(f"act:{kind}") or self._waiting:
            return
        if legal is None or kind not in legal.kinds:
            self._say(Message("not_legal"))
            return
        to = None
        if kind == legal.bet_kind:
            issue = amount_issue(legal, self.amount)
            if issue is not None:
                self._say(issue)
                return
            to = self.amount
        self.message = None
        self._command(PokerCommand("act", seat=legal.seat, action=kind, to=to))

    def tap_all_in(self) -> None:
        """Key the maximum (all of the actor's stack) as the amount."""
        legal = self.snap.legal
        if legal is not None and legal.maximum is not None:
            self._set_amount(legal.maximum)

    def tap_min(self) -> None:
        """Key the minimum bet/raise total."""
        legal = self.snap.legal
        if legal is not None and legal.minimum is not None:
            self._set_amount(legal.minimum)

    def tap_pot(self, half: bool = False) -> None:
        """Key the engine's pot-sized (``half``: half-pot) bet or raise total (inside the
        legal range); nothing when the engine offers none."""
        legal = self.snap.legal
        to = None if legal is None else legal.half_pot if half else legal.pot
        if to is not None:
            self._set_amount(to)

    def tap_digit(self, key: str) -> None:
        """A key of the numeric keypad: ``0``-``9`` type the amount in whole units (euros;
        chips at a tournament), a new number after any other key; ``back`` takes the last
        digit off."""
        typed = self._typed if self._typed is not None else ""
        typed = typed[:-1] if key == "back" else (typed + key)[:7] if key.isdigit() else typed
        self._set_amount(int(typed or 0) * (1 if self.config.currency == CHIPS else 100))
        self._typed = typed

    def tap_chip(self, value: int) -> None:
        """Add a chip of ``value`` to the amount being keyed."""
        self._set_amount(self.amount + value)

    def tap_clear(self) -> None:
        """Clear the amount being keyed."""
        self._set_amount(0)

    def _set_amount(self, amount: int) -> None:
        self._disarm()
        self._typed = None  # a digit now starts a new number
        legal = self.snap.legal
        if legal is not None and legal.only is not None and legal.bet_kind is not None:
            amount = legal.only  # fixed limit: the one total there is
        self.amount = max(0, amount)
        if self.message is not None and self.message.code != "refused":
            self.message = None
        self._changed()

    def tap_show(self, shown: bool = True) -> None:
        """The seat to show at the showdown shows (or mucks) its hand."""
        legal = self.snap.legal
        kind = "show" if shown else "muck"
        if self._double(f"show:{kind}") or self._waiting:
            return
        if legal is None or kind not in legal.kinds:
            self._say(Message("not_legal"))
            return
        self._command(PokerCommand("show", seat=legal.seat, shown=shown))

    def tap_reshuffle(self) -> None:
        """The dealer has loaded the burns with the stub (the view's ``shortage`` said so): the
        device shuffles them as the street's new deck. Once: again while it shuffles does
        nothing."""
        s = self.snap
        if self._double("reshuffle") or self._waiting or not s.new_deck or s.reshuffling:
            return
        self.message = None
        self._command(PokerCommand("reshuffle"))

    def tap_undo(self) -> None:
        """Take back the last action (only while the runner allows it)."""
        if self._double("undo") or self._waiting or not self.snap.can_undo:
            return
        self._command(PokerCommand("undo"))

    def tap_void(self) -> None:
        """Void the hand: the first tap arms, the second confirms."""
        if not self.snap.in_hand or self._double("void"):
            return
        if not self.void_armed:
            self.void_armed = True
            self._say(Message("confirm_void", error=False))
            return
        self.void_armed = False
        self.message = None
        self._command(PokerCommand("void", reason=VoidReason("dealer_void")))

    def tap_ack(self) -> None:
        """The dealer has read the void alarm."""
        if not self._ack_ready() or self._double("ack") or self._waiting:
            return
        self._command(PokerCommand("ack"))

    def tap_done(self) -> None:
        """The pots of the settled hand are paid: on to between hands."""
        if self._double("done"):
            return
        self._done_uid = self.snap.hand_uid
        self._moved_at = self.clock()  # New hand comes where Next was
        self._changed()

    def tap_new_hand(self) -> None:
        """Start the next hand (between hands)."""
        if self._double("new_hand") or self._waiting or self.snap.in_hand:
            return
        self.selected = None
        self._command(PokerCommand("new_hand"))

    def void_hand(self) -> None:
        """The void button of the card keypad's page (as :meth:`tap_void`)."""
        self.tap_void()

    # -- cards typed by the dealer ----------------------------------------------------------------
    def card_entered(self, card: Card) -> None:
        """The card keypad confirmed ``card``: the next card of the deal (manual; straight to
        the source, never kept), the dealer's reading of the unreadable card (identify), or
        the pit boss's (confirm, with badge and PIN)."""
        step = self.step()
        entry = self._entry(step)
        if entry is None or entry.waiting:
            return
        if entry.mode == "manual":
            if self.enter is None:
                return
            try:
                self.enter(card)
            except CardError:  # the core names the card: maybe a hole card, never shown
                self._say(Message("card_taken"))
                return
            except DealerAssistError as e:
                self._say(Message("device", text=str(e)))
                return
            self._typed_at = (self.snap.hand_uid, len(self.snap.awaiting))
            self.message = None
            self._changed()
        elif entry.mode == "identify" and not self._waiting:
            self.message = None
            self._command(PokerCommand("identify", card=card))
        elif entry.mode == "confirm" and not self._waiting:
            if not self.badge or (entry.pin_required and not self._pin):
                self._say(Message("pit_boss_missing"))
                return
            pin, self._pin = self._pin, ""
            self.message = None
            self._command(PokerCommand("confirm", card=card, badge=self.badge, pin=pin))

    def pin_key(self, key: str) -> None:
        """A key of the pit boss's pad: a digit, ``back``, ``next`` (badge -> PIN -> the card)
        or ``badge``/``pin`` (back to that field)."""
        if self.step() != "identify" or not self.snap.ident_entered:
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

    def signoff_key(self, key: str) -> None:
        """A key of the pit boss's pad on a large pot (digits, ``back``, ``next``: badge, then
        PIN, then sent; the service checks them, a wrong one changes nothing)."""
        if self.step() != "signoff" or self._waiting:
            return
        done = self.signoff_pad.key(key)
        if done is not None:
            self.message = None
            self._command(PokerCommand("signoff", badge=done[0], pin=done[1]))
            return
        self._changed()

    def tap_retry(self) -> None:
        """The dealer has freed the journal's storage: try it again (the table resumes)."""
        if self._double("retry") or self._waiting:
            return
        self._command(PokerCommand("retry"))

    def dismiss_storage(self) -> None:
        """The dealer has read the storage notice (a fault stays until the journal answers)."""
        banner = self.snap.storage
        if banner is not None and not banner.fault:
            self.storage_read = banner.number
            self._changed()

    def dismiss_notice(self) -> None:
        """The dealer has read the card-source switch notice."""
        if self.snap.notice is not None:
            self.dismissed = self.snap.notice.number
            self._changed()

    # -- inside -----------------------------------------------------------------------------------
    def change_dealer(self, badge: str) -> int:
        """The Dealer control: the incoming dealer's ``badge`` to the table (between hands; the
        service refuses otherwise, :mod:`ui.kit.dealer_change`); the command's number."""
        self._command(PokerCommand("dealer", badge=badge))
        return self._seq

    def _say(self, message: Message) -> None:
        self.message = message
        self._changed()

    def _command(self, cmd: PokerCommand) -> None:
        self._seq += 1
        self._waiting.add(self._seq)
        self.send(replace(cmd, seq=self._seq))
        self._changed()
