"""What the console draws: the immutable view values the presenter publishes
(:class:`ConsoleView` and its parts; what it sends is :mod:`ui.console.commands`). Qt-free; texts
are codes, translated by the widgets, so a view carries no language.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from dealer_assist.cards import Card
from dealer_assist.engine.rules import Action, BoxResult
from dealer_assist.engine.voids import VoidReason
from ui.console.bets import BetIssue
from ui.console.history import HistoryHand
from ui.kit.cards import CardEntry, CardFace
from ui.kit.status import DeviceStatus, SourceNotice, StorageBanner

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
class Message:
    """A line for the dealer: ``code`` (``bet_issue``, ``no_bets``, ``select_seat``,
    ``device_not_ready``, ``device``, ``error``, ``confirm_void``, ``card_taken``, ``pit_boss``,
    ``pit_boss_missing``, ``ident_mismatch``, ``exposed_recorded``, ``journal``), the seat
    and the bet issue it is about, and the core's English ``text`` (or the exposed card's
    position; for ``journal`` the storage sentence's source with its ``args``) for the others."""

    code: str
    seat: int = 0
    issue: BetIssue | None = None
    text: str = ""
    args: tuple[str, ...] = ()


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
    undoable: bool = False
    correctable: bool = False
    paid: bool = False
    """Paid (or collected) in this hand's payout walk: the tile shows a tick."""


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
    paid: bool = False
    hole: tuple[Card, ...] = ()
    pay: tuple[tuple[str, tuple[tuple[int, int], ...], int], ...] = ()
    """Boxes to pay: ``(box, ((chip, count), ...), rest)``, the chips from the table's chip set
    (largest first; ``rest`` minor units no chip pays)."""


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
    storage: StorageBanner | None = None
    not_ready: bool = False
    can_expose: bool = False
    expose: ExposeForm | None = None
    exposed: int = 0
    resumed: bool = False
    can_back: bool = False
    can_undo_chip: bool = False
    undoable: tuple[int, ...] = ()
    history: tuple[HistoryHand, ...] | None = None
    history_holes: bool = False
    history_pad: HistoryPad | None = None
    can_history: bool = False
    correct: CorrectForm | None = None
    signoff_pad: HistoryPad | None = None
    """The pit boss's badge and PIN for the open seat's large payout (``[signoff]``)."""
    totals: tuple[int, int] | None = None
    """The settled hand's totals ``(to pay, to collect)``, minor units (reveal and payouts)."""


@dataclass(frozen=True)
class CorrectForm:
    """A pit boss corrects ``seat``'s last decision (a street already past): the decisions that
    may replace it, the one chosen, then the badge and the PIN's length (``field``: ``choice``,
    ``badge`` or ``pin``)."""

    seat: int
    choices: tuple[Action, ...]
    choice: Action | None = None
    badge: str = ""
    pin_len: int = 0
    field: str = "choice"


@dataclass(frozen=True)
class HistoryPad:
    """The pit boss's badge and PIN to show the hole cards in the history: the badge typed, the
    PIN's length (the PIN stays in the presenter), the field the digits go to."""

    badge: str
    pin_len: int
    field: str
