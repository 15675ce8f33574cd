"""The console's view-model: dealer taps in, commands out, one immutable view to draw.

Qt-free and testable without a window. The presenter owns what only the screen cares about (bet
drafts, the selected seat, the settlement cursor, the void acknowledgement, messages) and derives
everything else from the latest :class:`~ui.console.snapshot.TableSnapshot`. Texts are codes here;
the widgets translate them (Qt's translation system), so the view carries no language.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from dealer_assist.cards import Card
from dealer_assist.config import TableConfig
from dealer_assist.errors import CardError, DealerAssistError
from dealer_assist.games.base import Action, BoxResult, GameRules, Position, SeatSettlement
from dealer_assist.table.hand import Phase
from dealer_assist.table.misdeal import VoidReason
from ui.console.bets import BetBook, BetIssue
from ui.console.snapshot import DeviceStatus, SourceNotice, TableSnapshot

CardFace = Card | Literal["back", "empty"]
"""A card slot: the card face up, a card face down (``back``), or no card yet (``empty``)."""

BOARD_SLOTS = 5
DEALER_SLOTS = 2


class Step(StrEnum):
    """What the console shows (the phase banner follows it)."""

    CONNECTING = "connecting"  # source not open yet, or it failed (retry)
    BETS = "bets"  # bets open
    DEALING = "dealing"  # "rien ne va plus": bets locked, cards coming
    MANUAL = "manual"  # the deal waits for the dealer to type the cards (keypad source)
    IDENTIFY = "identify"  # an unreadable card: the dealer, then a pit boss, enter it
    DECISIONS = "decisions"  # a street: preflop, flop, (turn,) river
    SHOWDOWN = "showdown"  # board complete, the dealer's cards still down (THB)
    REVEAL = "reveal"  # dealer's cards and qualification shown
    SETTLEMENT = "settlement"  # paying / collecting seat by seat
    VOID = "void"  # the alarm, until acknowledged
    IDLE = "idle"  # the hand is over and no new one could start yet


@dataclass(frozen=True)
class Command:
    """A request to the table service; ``seq`` numbers it (the reply snapshot repeats it).

    ``kind``: ``open``, ``new_hand``, ``deal`` (uses ``bets``), ``act`` (``seat``, ``action``),
    ``dealer_step``, ``void`` (``reason``), ``ack`` (the void alarm was read), ``identify``
    (``card``: the dealer's reading of an unreadable card), ``confirm`` (``card``, ``badge``,
    ``pin``: the pit boss's), ``exposed`` (``position``, optional ``card``).
    """

    kind: str
    seq: int
    bets: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    seat: int = 0
    action: Action | None = None
    reason: VoidReason | None = None
    card: Card | None = field(default=None, repr=False)  # may be a hidden card: never logged
    badge: str = ""
    pin: str = field(default="", repr=False)
    position: str = ""


@dataclass(frozen=True)
class Message:
    """A line for the dealer: ``code`` (``bet_issue``, ``no_bets``, ``select_seat``,
    ``device_not_ready``, ``device``, ``error``, ``confirm_void``, ``card_taken``, ``pit_boss``,
    ``pit_boss_missing``, ``ident_mismatch``, ``exposed_recorded``), the seat
    and the bet issue it is about, and the core's English ``text`` (or the exposed card's
    position) for the others."""

    code: str
    seat: int = 0
    issue: BetIssue | None = None
    text: str = ""


@dataclass(frozen=True)
class BoxView:
    """One box of a seat: stake (minor units, 0 = empty); ``follows`` when it copies another box
    (UTH Blind); ``selected`` when the keypad fills it; ``outcome``/``net`` once settled."""

    box: str
    amount: int
    follows: bool = False
    selected: bool = False
    outcome: str | None = None
    net: int | None = None


@dataclass(frozen=True)
class SeatView:
    """A seat tile.

    ``status``: ``empty`` (no bet), ``bet`` (valid draft), ``invalid`` (draft refused),
    ``out`` (not in this hand), ``to_act``, ``acted``, ``folded``, ``in`` (in the hand, nothing
    to decide now). ``legal``: decision buttons to show (only during decisions). ``result``:
    ``win``/``lose``/``tie``/``fold`` once settled, with ``net`` (minor units) and the hand's
    ``category`` code; ``highlighted`` while the settlement list is on this seat.
    """

    seat: int
    status: str
    boxes: tuple[tuple[BoxView, ...], ...]
    selected: bool = False
    highlighted: bool = False
    issue: BetIssue | None = None
    legal: tuple[Action, ...] = ()
    enabled: bool = True
    last_action: Action | None = None
    cards_dealt: int = 0
    result: str | None = None
    net: int | None = None
    category: str | None = None


@dataclass(frozen=True)
class SettleRow:
    """A line of the settlement list (settlement order): ``state`` is ``done``, ``current`` or
    ``pending``; boxes in the order the dealer settles them; amounts in minor units."""

    seat: int
    result: str
    category: str | None
    best_five: tuple[Card, ...]
    boxes: tuple[BoxResult, ...]
    net: int
    state: str


@dataclass(frozen=True)
class Keypad:
    """The chip keypad for the selected seat: the boxes the dealer enters with their amounts,
    the box being filled, the chips (minor units) and the limits of each box."""

    seat: int
    boxes: tuple[tuple[str, int], ...]
    box: str
    chips: tuple[int, ...]
    limits: tuple[tuple[str, int, int], ...]


@dataclass(frozen=True)
class CardEntry:
    """What the card keypad is for now.

    ``mode``: ``manual`` (type the next card of the deal: the keypad is the card source),
    ``identify`` (the dealer enters the unreadable card) or ``confirm`` (a pit boss enters it too,
    after their badge and PIN). ``position``: where the card goes (never which card it is).
    ``number``/``total``: the card's rank in this deal (manual). ``waiting``: the last typed card
    is still being taken. ``badge``, ``pin_len`` (the PIN itself stays in the presenter),
    ``pin_field`` (``badge``, ``pin``: where the digits go; ``card``: the pit boss enters the
    card) and ``pin_required`` for ``confirm``.
    """

    mode: str
    position: Position | None
    number: int = 0
    total: int = 0
    waiting: bool = False
    badge: str = ""
    pin_len: int = 0
    pin_field: str = "badge"
    pin_required: bool = False


@dataclass(frozen=True)
class ExposeForm:
    """Recording a card exposed by mistake: the places it can be (``seat N``, ``dealer``,
    ``board``) and the one chosen (None yet)."""

    positions: tuple[str, ...]
    position: str | None


@dataclass(frozen=True)
class DealerAction:
    """The dealer's big button: ``kind`` is ``retry``, ``rnvp``, a dealing step of the game (the
    next street, e.g. ``flop``, or its ``showdown_step``), ``dealer``, ``settle``, ``next``,
    ``new_hand`` or ``ack``; ``cards`` board cards it turns."""

    kind: str
    enabled: bool = True
    cards: int = 0


@dataclass(frozen=True)
class ConsoleView:
    """Everything the window draws, in one immutable value (amounts in minor units)."""

    step: Step
    game: str
    table_id: str
    currency: str
    street: str | None
    hand_no: int
    seats: tuple[SeatView, ...]
    board: tuple[CardFace, ...]
    dealer: tuple[CardFace, ...]
    dealer_category: str | None
    qualifies: bool | None
    keypad: Keypad | None
    action: DealerAction | None
    to_act: tuple[int, ...]
    settlement: tuple[SettleRow, ...]
    settle_order: tuple[int, ...]
    on_table: int
    void_reason: VoidReason | None
    void_returns: tuple[tuple[int, tuple[tuple[str, int], ...]], ...]
    device: DeviceStatus
    busy: bool
    message: Message | None
    can_repeat: bool
    can_void: bool
    void_armed: bool
    entry: CardEntry | None = None
    notice: SourceNotice | None = None
    not_ready: bool = False
    can_expose: bool = False
    expose: ExposeForm | None = None
    exposed: int = 0


_KNOWN_ERRORS = frozenset({"device_not_ready", "device", "card_taken", "pit_boss",
                           "ident_mismatch"})  # fmt: skip
Sink = Callable[[Command], None]
CardSink = Callable[[Card], None]
InterruptSink = Callable[[VoidReason], None]


class ConsolePresenter:
    """Turns snapshots and taps into views and commands.

    Args:
        config: the table.
        send: delivers a :class:`Command` to the service (queued to the worker thread by the
            window; called directly in tests). Never blocks.
        enter: hands a typed card to the manual card source at once (thread-safe, while the
            worker waits for the deal); raises DealerAssistError when refused.
        interrupt: voids the hand at once while a step blocks (thread-safe).
    """

    def __init__(
        self,
        config: TableConfig,
        send: Sink,
        *,
        enter: CardSink | None = None,
        interrupt: InterruptSink | None = None,
    ) -> None:
        self.config = config
        self.send = send
        self.enter = enter
        self.interrupt = interrupt
        self.dismissed = 0  # source-switch notices up to this number were read
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
        self._waiting: dict[int, str] = {}  # seq -> command kind not answered yet
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
        if snap.hand_uid != old.hand_uid:
            self.cursor, self.void_armed, self.selected = None, False, None
            self.book.clear()
            self.box = self.book.entry_boxes[0]
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
            self.message = Message(code, text=snap.error.message)
            if code == "pit_boss":
                self.badge, self._pin, self.pin_field = "", "", "badge"
        elif (
            self.message is not None
            and self.message.code == "device_not_ready"
            and (snap.phase is Phase.BETS_OPEN)
        ):
            self.message = None
        self._changed()

    # -- the dealer's taps ------------------------------------------------------------------------
    def start(self) -> None:
        """Connect the source and open the first hand."""
        self._command("open")

    def tap_seat(self, seat: int) -> None:
        """Select a seat for the chip keypad (bets open only)."""
        if self.step() is not Step.BETS:
            return
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
        if not self.snap.device.ready:  # issue 4: a fault blocks the deal until it clears
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
        self._command("deal", bets=bets)

    def decide(self, seat: int, action: Action) -> None:
        """A seat's decision (only a legal one, shown as a button, reaches the service)."""
        seat_snap = next((s for s in self.snap.seats if s.seat == seat), None)
        if self.busy or seat_snap is None or action not in seat_snap.legal or seat in self._acts:
            return
        self.message = None
        self._acts[seat] = self._command("act", seat=seat, action=action)

    def dealer_button(self) -> None:
        """The big button: whatever :attr:`ConsoleView.action` says."""
        action = self._action()
        if action is None or not action.enabled:
            return
        kind = action.kind
        if kind == "retry":
            self.start()
        elif kind == "rnvp":
            self.rien_ne_va_plus()
        elif kind in _dealer_steps(self.book.game):
            self.message, self.void_armed = None, False
            self._command("dealer_step")
        elif kind == "settle":
            self.cursor = 0
            self._changed()
        elif kind == "next":
            self.cursor = (self.cursor or 0) + 1
            self._changed()
        elif kind == "new_hand":
            self.message = None
            self._command("new_hand")
        elif kind == "ack":
            self.acknowledge_void()

    def acknowledge_void(self) -> None:
        """The dealer has read the void alarm: acknowledge it (journaled) and open the next
        hand."""
        if self.snap.void_reason is not None and "ack" not in self._waiting.values():
            self._command("ack")

    def void_hand(self) -> None:
        """The dealer voids the hand: the first tap arms, the second confirms. While the cards
        are typed (the worker waits for them) the hand is voided at once through ``interrupt``
        and the void step queued behind finds it done."""
        if not self._can_void():
            return
        if not self.void_armed:
            self.void_armed = True
            self.message = Message("confirm_void")
            self._changed()
            return
        self.void_armed, self.message = False, None
        reason = VoidReason("dealer_void")
        if self.busy and self.interrupt is not None:
            self.interrupt(reason)
        self._command("void", reason=reason)

    # -- cards typed by the dealer ----------------------------------------------------------------
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
            try:
                self.enter(card)
            except CardError:  # the core names the card: a hidden one, never shown
                self.message = Message("card_taken")
                self._changed()
                return
            except DealerAssistError as e:
                self.message = Message("device", text=str(e))
                self._changed()
                return
            self._typed_at = self.snap.placed
            self.message = None
            self._changed()
        elif entry.mode == "identify" and not self.busy:
            self.message = None
            self._command("identify", card=card)
        elif entry.mode == "confirm" and not self.busy:
            if not self.badge or (entry.pin_required and not self._pin):
                self.message = Message("pit_boss_missing")
                self._changed()
                return
            pin, self._pin = self._pin, ""
            self.message = None
            self._command("confirm", card=card, badge=self.badge, pin=pin)

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

    # -- source notices, exposed cards -----------------------------------------------------------
    def dismiss_notice(self) -> None:
        """The dealer has read the card-source switch notice."""
        if self.snap.notice is not None:
            self.dismissed = self.snap.notice.number
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
        self._command("exposed", position=form.position, card=card)

    def cancel_exposed(self) -> None:
        """Close the exposed-card form without recording."""
        if self.exposing is not None:
            self.exposing = None
            self._changed()

    def cancel_void(self) -> None:
        """Disarm the void button."""
        if self.void_armed:
            self.void_armed, self.message = False, None
            self._changed()

    # -- derived state ----------------------------------------------------------------------------
    @property
    def busy(self) -> bool:
        """A command other than a decision is in flight (the dealer's buttons wait)."""
        return any(k != "act" for k in self._waiting.values())

    def step(self) -> Step:
        """What the console shows now."""
        phase = self.snap.phase
        waiting = self._waiting.values()
        if phase is Phase.DEALING and self.snap.identifying and "confirm" not in waiting:
            return Step.IDENTIFY
        if phase is Phase.DEALING and self.snap.manual_entry:
            return Step.MANUAL
        if "deal" in waiting:
            return Step.DEALING
        if self.snap.void_reason is not None and "ack" not in waiting:
            return Step.VOID
        if phase is None:
            return Step.IDLE if "ack" in waiting else Step.CONNECTING
        if phase is Phase.VOID:
            return Step.IDLE
        if phase in (Phase.SETTLED, Phase.REVEALED):
            return Step.REVEAL if self.cursor is None else Step.SETTLEMENT
        return {
            Phase.BETS_OPEN: Step.BETS,
            Phase.DEALING: Step.DEALING,
            Phase.DECISIONS: Step.DECISIONS,
            Phase.SHOWDOWN: Step.SHOWDOWN,
        }[phase]

    def view(self) -> ConsoleView:
        """The current view."""
        step = self.step()
        snap = self.snap
        settlement = snap.settlement
        return ConsoleView(
            step=step,
            game=self.book.game.code,
            table_id=self.config.table_id,
            currency=self.config.currency,
            street=snap.street if step is Step.DECISIONS else None,
            hand_no=snap.hand_no,
            seats=tuple(self._seat_view(n, step) for n in range(1, self.config.seats + 1)),
            board=_slots(snap.board, BOARD_SLOTS),
            dealer=_slots(snap.dealer, DEALER_SLOTS),
            dealer_category=(
                settlement.dealer_hand.category.code
                if settlement is not None and settlement.dealer_hand is not None
                else None
            ),
            qualifies=settlement.qualifies if settlement is not None else None,
            keypad=self._keypad(step),
            action=self._action(),
            to_act=snap.to_act if step is Step.DECISIONS else (),
            settlement=self._rows(step),
            settle_order=(
                tuple(settlement.settlement_order)
                if settlement is not None and step in (Step.REVEAL, Step.SETTLEMENT)
                else ()
            ),
            on_table=self._on_table(step),
            void_reason=snap.void_reason,
            void_returns=snap.void_returns,
            device=snap.device,
            busy=self.busy,
            message=self.message,
            can_repeat=step is Step.BETS and bool(self.last_bets),
            can_void=self._can_void(),
            void_armed=self.void_armed,
            entry=self._entry(step),
            notice=(
                snap.notice
                if snap.notice is not None and snap.notice.number > self.dismissed
                else None
            ),
            not_ready=self._not_ready(step),
            can_expose=self._can_expose(),
            expose=self.exposing,
            exposed=snap.exposed if snap.phase is not None else 0,
        )

    # -- internals --------------------------------------------------------------------------------
    def _command(self, kind: str, **kwargs: object) -> int:
        self._seq += 1
        self._waiting[self._seq] = kind
        cmd = Command(kind, self._seq, **kwargs)  # type: ignore[arg-type]
        self._changed()
        self.send(cmd)
        return self._seq

    def _can_void(self) -> bool:
        step = self.step()
        if step is Step.MANUAL:  # the worker waits for typed cards: voided through interrupt
            return self.interrupt is not None
        stuck = step in (Step.DEALING, Step.IDENTIFY) and self.snap.phase is Phase.DEALING
        return not self.busy and (step in (Step.DECISIONS, Step.SHOWDOWN) or stuck)

    def _can_expose(self) -> bool:
        return not self.busy and self.step() in (Step.DECISIONS, Step.SHOWDOWN)

    def _not_ready(self, step: Step) -> bool:
        """The device blocks the next hand (shown between hands, when it matters)."""
        d = self.snap.device
        between = step in (Step.BETS, Step.IDLE, Step.REVEAL, Step.SETTLEMENT)
        return between and self.snap.phase is not None and not d.ready

    def _entry(self, step: Step) -> CardEntry | None:
        snap = self.snap
        if step is Step.MANUAL:
            left = len(snap.awaiting)
            total = max(self._deal_size, left)
            return CardEntry(
                "manual",
                snap.awaiting[0] if snap.awaiting else None,
                number=total - left + 1,
                total=total,
                waiting=self._typed_at is not None,
            )
        if step is Step.IDENTIFY:
            if not snap.ident_entered:
                return CardEntry("identify", snap.ident_position, waiting=self.busy)
            return CardEntry(
                "confirm",
                snap.ident_position,
                waiting=self.busy,
                badge=self.badge,
                pin_len=len(self._pin),
                pin_field=self.pin_field,
                pin_required=snap.pin_required,
            )
        return None

    def _action(self) -> DealerAction | None:
        step, snap = self.step(), self.snap
        busy = self.busy
        if step is Step.CONNECTING:
            return DealerAction("retry", enabled=not busy)
        ready = snap.device.ready
        if step is Step.BETS:
            ok = bool(self.book.ready()) and not busy and ready
            return DealerAction("rnvp", enabled=ok)
        if step in (Step.MANUAL, Step.IDENTIFY):
            return None  # the keypad is the dealer's tool now
        if step is Step.DEALING:
            return DealerAction("rnvp", enabled=False)
        if step in (Step.DECISIONS, Step.SHOWDOWN):
            if snap.next_step is None:
                nxt = _next_street(self.book.game, snap.street)
                return DealerAction(nxt, enabled=False)
            return DealerAction(snap.next_step, enabled=not busy, cards=snap.next_cards)
        if step is Step.REVEAL:
            return DealerAction("settle", enabled=snap.settlement is not None)
        if step is Step.SETTLEMENT:
            n = len(snap.settlement.seats) if snap.settlement is not None else 0
            if (self.cursor or 0) < n:
                return DealerAction("next")
            return DealerAction("new_hand", enabled=not busy and ready)
        if step is Step.VOID:
            return DealerAction("ack")
        return DealerAction("new_hand", enabled=not busy and ready)

    def _keypad(self, step: Step) -> Keypad | None:
        if step is not Step.BETS or self.selected is None:
            return None
        seat = self.selected
        limits = tuple(
            (box, lim.minimum, lim.maximum)
            for box in self.book.entry_boxes
            if (lim := self.config.limits.get(box)) is not None
        )
        return Keypad(
            seat=seat,
            boxes=tuple((b, self.book.amount(seat, b)) for b in self.book.entry_boxes),
            box=self.box,
            chips=tuple(sorted(self.config.chips)),
            limits=limits,
        )

    def _seat_view(self, n: int, step: Step) -> SeatView:
        rows = self.book.game.box_rows
        if step in (Step.BETS, Step.CONNECTING) or (step is Step.DEALING and not self.snap.seats):
            return self._draft_view(n, rows, step)
        seat = next((s for s in self.snap.seats if s.seat == n), None)
        if seat is None:
            empty = tuple(tuple(BoxView(b, 0) for b in row) for row in rows)
            return SeatView(n, "out", empty)
        results = self._results(n)
        boxes = tuple(
            tuple(
                BoxView(
                    b,
                    seat.stakes.get(b, 0),
                    outcome=results[b].outcome if b in results else None,
                    net=results[b].net if b in results else None,
                )
                for b in row
            )
            for row in rows
        )
        status = "in"
        if seat.folded:
            status = "folded"
        elif seat.legal:
            status = "to_act"
        elif step is Step.DECISIONS and seat.actions:
            status = "acted"
        ss = self._seat_settlement(n)
        settling = step is Step.SETTLEMENT and self.cursor is not None
        order = self.snap.settlement.settlement_order if self.snap.settlement else []
        highlighted = (
            settling
            and self.cursor is not None
            and self.cursor < len(order)
            and (order[self.cursor] == n)
        )
        shown = step is Step.SETTLEMENT and ss is not None
        return SeatView(
            seat=n,
            status=status,
            boxes=boxes,
            highlighted=highlighted,
            legal=seat.legal if step is Step.DECISIONS else (),
            enabled=not self.busy and n not in self._acts,
            last_action=seat.actions[-1] if seat.actions else None,
            cards_dealt=seat.cards_dealt,
            result=ss.result if shown and ss is not None else None,
            net=ss.net if shown and ss is not None else None,
            category=(
                ss.hand.category.code if shown and ss is not None and ss.hand is not None else None
            ),
        )

    def _draft_view(self, n: int, rows: tuple[tuple[str, ...], ...], step: Step) -> SeatView:
        issue = self.book.issue(n)
        bets = self.book.seat_bets(n)
        boxes = tuple(
            tuple(
                BoxView(
                    b,
                    bets.get(b, 0),
                    follows=b in self.book.follows,
                    selected=self.selected == n and b == self.box,
                )
                for b in row
            )
            for row in rows
        )
        status = "empty" if not bets else ("invalid" if issue else "bet")
        return SeatView(
            seat=n,
            status=status,
            boxes=boxes,
            selected=self.selected == n,
            issue=issue,
            enabled=step is Step.BETS and not self.busy,
        )

    def _seat_settlement(self, n: int) -> SeatSettlement | None:
        settlement = self.snap.settlement
        if settlement is None:
            return None
        return next((s for s in settlement.seats if s.seat == n), None)

    def _results(self, n: int) -> dict[str, BoxResult]:
        ss = self._seat_settlement(n)
        if ss is None or self.step() is not Step.SETTLEMENT:
            return {}
        return {b.box: b for b in ss.bets}

    def _rows(self, step: Step) -> tuple[SettleRow, ...]:
        settlement = self.snap.settlement
        if step is not Step.SETTLEMENT or settlement is None:
            return ()
        cursor = self.cursor or 0
        rows = []
        for i, s in enumerate(settlement.seats):
            state = "done" if i < cursor else ("current" if i == cursor else "pending")
            rows.append(
                SettleRow(
                    seat=s.seat,
                    result=s.result,
                    category=s.hand.category.code if s.hand is not None else None,
                    best_five=tuple(s.hand.best_five) if s.hand is not None else (),
                    boxes=s.bets,
                    net=s.net,
                    state=state,
                )
            )
        return tuple(rows)

    def _on_table(self, step: Step) -> int:
        if step in (Step.BETS, Step.CONNECTING) or (step is Step.DEALING and not self.snap.seats):
            return sum(sum(b.values()) for b in self.book.ready().values())
        return sum(sum(s.stakes.values()) for s in self.snap.seats)


def _slots(cards: tuple[Card | None, ...], n: int) -> tuple[CardFace, ...]:
    faces: list[CardFace] = [c if c is not None else "back" for c in cards[:n]]
    return tuple(faces + ["empty"] * (n - len(faces)))


def _next_street(game: GameRules, street: str | None) -> str:
    """The step after ``street`` (for the disabled button while seats still decide)."""
    order = [s.name for s in game.streets]
    if game.showdown_step is not None and game.deal_before_showdown([1]):
        order.append(game.showdown_step)  # THB: the river is turned after the last street
    order.append("dealer")
    if street in order and order.index(street) + 1 < len(order):
        return order[order.index(street) + 1]
    return "dealer"


def _dealer_steps(game: GameRules) -> set[str]:
    """The big button's kinds that move the hand on (``dealer_step``): a street, the game's
    showdown deal, or ``dealer`` (turn the dealer's cards)."""
    steps = {s.name for s in game.streets} | {"dealer"}
    if game.showdown_step is not None:
        steps.add(game.showdown_step)
    return steps
