"""What the poker console's view-model publishes: the dealer's message line
(:class:`Message`), the view the window draws (:class:`PokerView`) and the check of a keyed
amount against the rule (:func:`amount_issue`). Qt-free; :mod:`ui.poker.presenter` builds them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ui.kit.cards import CardEntry
from ui.kit.status import DeviceStatus, SourceNotice, StorageBanner
from ui.poker.snapshot import Legal, PokerSnapshot, SeatSnap


@dataclass(frozen=True)
class Message:
    """A line for the dealer: ``code`` (``below_min``, ``above_max``, ``off_step``, ``no_amount``,
    ``buy_in_bounds``, ``top_up_max``, ``select_seat``, ``confirm_void``, ``refused``,
    ``card_taken`` (a typed card already in this deck: never named), ``pit_boss``,
    ``pit_boss_missing``, ``ident_mismatch``, ``device``, ``rule`` (a refusal of the game's
    rules: its code ``rule`` and its values by name ``named``, the core's English ``text``),
    ``storage`` (a storage fault: ``text`` the English source of the dealer's sentence,
    :mod:`ui.kit.storage_notice`, with its ``args``)) with its amounts (``values``, minor units)
    and the core's English ``text`` for a refusal; ``error`` for a refusal, else a hint."""

    code: str
    values: tuple[int, ...] = ()
    text: str = ""
    error: bool = True
    rule: str = ""
    named: tuple[tuple[str, int | str], ...] = ()
    args: tuple[str, ...] = ()


@dataclass(frozen=True)
class PokerView:
    """What the window draws.

    Attributes:
        step: ``connecting``, ``between`` (between hands), ``dealing`` (the device deals),
            ``manual`` (the dealer types the cards), ``new_deck`` (the deck ran short: the
            dealer loads the burns with the stub, then taps to shuffle them), ``identify``
            (an unreadable card: the dealer, then a pit boss, enter it), ``betting``,
            ``showdown``, ``settled``, ``void`` (an alarm to acknowledge).
        snap: the snapshot drawn.
        legal: what the actor may do (None: nobody).
        amount: the bet/raise total (or, between hands, the buy-in/top-up) being keyed.
        amount_ok: ``amount`` is a legal bet/raise total now.
        chips: the table's chip set (the keypad's chip buttons).
        selected: the seat selected between hands (None: none).
        name: the name typed for a new player.
        buy_in: the table's buy-in bounds ``(minimum, maximum)``.
        void_armed: the next tap on Void confirms it.
        message: the line for the dealer, or None.
        busy: a command is on its way (buttons wait for its answer).
        entry: what the card keypad is for now (None: no keypad).
        can_void: the hand can be voided now.
        notice: the card-source switch the dealer has not dismissed yet.
        not_ready: the device blocks the next hand (between hands).
        ack_ready: the void alarm's "Acknowledged" takes taps (after :data:`ACK_HOLD_S`).
        has_button: the game has a dealer button to place (the plug-in's ``has_button``).
        storage: the storage banner (a fault: the table waits for the journal; a notice the
            dealer has not dismissed yet), None when there is none.
    """

    step: str
    snap: PokerSnapshot
    legal: Legal | None
    amount: int
    amount_ok: bool
    chips: tuple[int, ...]
    selected: int | None
    name: str
    buy_in: tuple[int, int]
    void_armed: bool
    message: Message | None
    busy: bool = False
    seats: tuple[int, ...] = field(default=())
    entry: CardEntry | None = None
    can_void: bool = False
    notice: SourceNotice | None = None
    not_ready: bool = False
    ack_ready: bool = True
    has_button: bool = True
    storage: StorageBanner | None = None

    @property
    def device(self) -> DeviceStatus:
        """The card source's status (the bars)."""
        return self.snap.device

    @property
    def player(self) -> SeatSnap | None:
        """The player in the selected seat (None: empty or none selected)."""
        return self.snap.seat(self.selected) if self.selected is not None else None


def amount_issue(legal: Legal | None, to: int) -> Message | None:
    """Why ``to`` is not a legal bet/raise total for ``legal`` (None when it is)."""
    if legal is None or legal.bet_kind is None or legal.minimum is None or legal.maximum is None:
        return Message("no_bet_open")
    if to <= 0:
        return Message("no_amount", (legal.minimum,))
    if to > legal.maximum:
        return Message("above_max" if legal.all_in else "above_limit", (legal.maximum,))
    if to < legal.minimum and to != legal.maximum:
        return Message("below_min", (legal.minimum,))
    if not legal.allows(to):
        return Message("off_step" if legal.all_in else "off_limit", (legal.step, legal.maximum))
    return None
