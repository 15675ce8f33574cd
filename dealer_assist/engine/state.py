"""The one protocol every game's hand follows (design/ENGINE.md, "One protocol, two families").

A hand is a :class:`GameState`: it changes only through :meth:`GameState.apply` of a typed
operation (:mod:`dealer_assist.engine.operations`), so a replay of its operations gives the same
state and result. It tells the table runner what the device must deal next
(:attr:`~GameState.pending_deal`), who acts (:attr:`~GameState.actor`: one seat in the peer
games, None in the banked games where every seat with a decision may act), the legal actions as an
:class:`ActionSpace`, and what each viewer may see (:meth:`~GameState.view`: privacy lives there,
once). Families: :mod:`dealer_assist.engine.banked` (UTH, THB) and :mod:`dealer_assist.engine.peer`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from dealer_assist.cards import Card, format_cards

if TYPE_CHECKING:  # annotations only, for start-up (a pot game's settle loads no operations);
    # no cycle: the operations never import this module
    from dealer_assist.engine.operations import Operation


@dataclass(frozen=True)
class Position:
    """Where a dealt card goes: ``kind`` is ``board``, ``seat``, ``dealer`` or ``burn``;
    ``seat`` for seat cards; ``n`` the 1-based card number within that place."""

    kind: Literal["board", "seat", "dealer", "burn"]
    n: int
    seat: int | None = None

    def __str__(self) -> str:
        return f"seat {self.seat} card {self.n}" if self.kind == "seat" else f"{self.kind} {self.n}"


@dataclass(frozen=True)
class PlacedCard:
    """A dealt card and where it went, with its device coordinates and source (either family).

    ``identified_by``/``confirmed_by``: for a card the reader could not read (TCRP/1 ``XX``) and
    the dealer identified, who entered it and the pit boss who confirmed it ("" otherwise).
    """

    position: Position
    card: Card
    source: str
    deck_id: str
    index: int
    at: datetime
    manual: bool = False
    identified_by: str = ""
    confirmed_by: str = ""


def card_provenance(
    hand_uid: str, cards: Sequence[PlacedCard], burns: Sequence[Card], exposed: Sequence[str]
) -> dict[str, Any]:
    """The journal's card provenance of a hand: each card's position, source, deck and index
    (and who identified an unreadable one), the burns, the cards exposed by mistake."""
    return {
        "hand_uid": hand_uid,
        "cards": [
            {
                "position": str(p.position),
                "card": str(p.card),
                "source": p.source,
                "deck_id": p.deck_id,
                "index": p.index,
                "at": p.at.isoformat(),
                "manual": p.manual,
                **(
                    {"identified_by": p.identified_by, "confirmed_by": p.confirmed_by}
                    if p.identified_by
                    else {}
                ),
            }
            for p in cards
        ],
        "burns": format_cards(burns),
        "exposed": list(exposed),
    }


Viewer = Literal["dealer", "pit_boss"]
VIEWERS: tuple[Viewer, ...] = ("dealer", "pit_boss")


@dataclass(frozen=True)
class AmountRange:
    """The amounts a bet or raise may have, chips in minor units: ``minimum`` .. ``maximum``
    inclusive, in steps of ``step`` (the chip unit; fixed limit: minimum == maximum); the
    maximum is always allowed (it may be an all-in of a stack that is not whole chips).

    ``fixed``: the rule sets the total (fixed limit), as opposed to a single total because the
    seat's stack is short of the minimum (an all-in). ``pot``, ``half_pot``: the totals of a
    bet or raise of the pot and of half the pot (after calling; GAMES.md pot-limit maximum),
    rounded down to the chip and inside the range, None where there is no choice of amount."""

    minimum: int
    maximum: int
    step: int = 1
    fixed: bool = False
    pot: int | None = None
    half_pot: int | None = None

    def allows(self, amount: int) -> bool:
        """True when ``amount`` is in the range and on the step."""
        if amount == self.maximum:
            return True
        return self.minimum <= amount <= self.maximum and (amount - self.minimum) % self.step == 0


@dataclass(frozen=True)
class ActionSpace:
    """What ``seat`` may do now.

    Attributes:
        seat: the seat.
        kinds: the action kinds open to it (``check``, ``play``, ``fold`` ...; empty: nothing).
        choices: the exact legal operations where they are few (a banked decision: ``play 4x``,
            ``play 3x``, ``check``); empty where an amount is chosen.
        amount: for ``bet``/``raise``/``complete``, the range of the total the seat may go to;
            None where no amount is chosen.
        closed: the kinds the seat may not take now though the round has them, each with the
            rule's code why (``(("raise", "short_all_in"),)``: a short all-in did not reopen
            the betting; codes as :class:`~dealer_assist.errors.ActionRefused`'s).
    """

    seat: int
    kinds: tuple[str, ...] = ()
    choices: tuple[Operation, ...] = ()
    amount: AmountRange | None = None
    closed: tuple[tuple[str, str], ...] = ()

    def __bool__(self) -> bool:
        return bool(self.kinds)


@dataclass(frozen=True)
class SeatView:
    """A seat as a viewer may see it: stakes per box or chips in front (minor units), the labels
    of its actions so far, its hole cards (None for each one the viewer may not see), folded."""

    seat: int
    stakes: Mapping[str, int]
    actions: tuple[str, ...]
    hole: tuple[Card | None, ...]
    folded: bool


@dataclass(frozen=True)
class HandView:
    """A hand as one viewer may see it now (GAMES.md, privacy): nothing in it that the viewer may
    not see at this step.

    Attributes:
        viewer: ``dealer`` (the dealer's screen: never a hole card before the showdown, never a
            face-down board card, the dealer's cards and the qualification only after the
            reveal) or ``pit_boss`` (the audit screen: every card dealt).
        game, hand_uid, phase, street: where the hand is.
        board: board cards dealt, in board order; None for one the viewer may not see.
        dealer: the dealer's cards (banked games); None for each one not to be seen.
        seats: the seats in the hand, ascending.
        pending: the positions the device still has to deal (places, never cards).
        qualifies: the dealer's qualification, None until the hand is settled.
        result: the settlement JSON (HAND_RECORD.md) once the hand is over, else None.
        button, actor: peer games, the button's seat and the seat to act (None: nobody).
        pots: peer games, the chips in the middle as main and side pots (this round's bets are
            in front of the seats, ``SeatView.stakes["bet"]``).
        legal: peer games, what the actor may do (to call, the raise range).
        showdown: peer games at the showdown, the order the seats show in.
        posts: peer games, the forced bets posted so far as ``(seat, kind, amount)``
            (``ante``, ``small_blind``, ``big_blind``, ``bring_in``).
        opening: peer games, why the first seat of the round acts first (Stud: "lowest door
            card: 2c", "highest board: pair of kings"); "" where the seats decide it.
        new_deck: the dealer must load the burns with the stub and the device shuffle them
            before the street is dealt (Stud's deck shortage).
        shortage: the dealer's instruction when the deck runs short (GAMES.md Stud 5), else "".
        opening_facts, shortage_facts: the same as parts for a translated screen (the game's
            ``rule`` and its card or hand; ``stub``, ``burns``, ``players``, ``plan``).
    """

    viewer: Viewer
    game: str
    hand_uid: str
    phase: str
    street: str | None
    board: tuple[Card | None, ...]
    dealer: tuple[Card | None, ...]
    seats: tuple[SeatView, ...]
    pending: tuple[Position, ...]
    qualifies: bool | None
    result: Mapping[str, Any] | None
    button: int | None = None
    actor: int | None = None
    pots: tuple[PotView, ...] = ()
    legal: ActionSpace | None = None
    showdown: tuple[int, ...] = ()
    posts: tuple[tuple[int, str, int], ...] = ()
    opening: str = ""
    opening_facts: Mapping[str, Any] = field(default_factory=dict)
    new_deck: bool = False
    shortage: str = ""
    shortage_facts: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PotView:
    """A pot as it stands (peer games): ``amount`` in chips and the seats ``eligible`` for it
    (main first, then side pots in the order they were created; GAMES.md "Pots")."""

    amount: int
    eligible: tuple[int, ...]


@runtime_checkable
class GameState(Protocol):
    """One hand of any game, changed only by operations.

    ``verify(op)`` raises a :class:`~dealer_assist.errors.RuleError` subclass naming the rule
    (BetError, IllegalActionError, HandStateError); ``can(op)`` says yes or no; ``apply(op)``
    verifies, changes the state, appends the operation to :attr:`operations` and returns it. An
    operation that does not verify leaves the hand exactly as it was.
    """

    operations: list[Operation]

    @property
    def hand_uid(self) -> str:
        """The hand's unique id (the journal's key)."""

    @property
    def started_at(self) -> datetime:
        """When the hand opened (UTC)."""

    @property
    def ended_at(self) -> datetime | None:
        """When it was settled or voided (UTC), None before."""

    @property
    def game_code(self) -> str:
        """The game's code (``uth``, ``thb``, ...)."""

    def verify(self, op: Operation) -> None:
        """Raise the rule error ``op`` breaks now, else return."""

    def can(self, op: Operation) -> bool:
        """True when ``op`` would verify now."""

    def apply(self, op: Operation) -> Operation:
        """Verify, change, append; returns ``op``."""

    @property
    def pending_deal(self) -> tuple[Position, ...]:
        """The positions the device must fill next, in dealing order (may be empty)."""

    @property
    def actor(self) -> int | None:
        """The seat to act (peer games), or None (banked games, or nobody to act)."""

    def legal(self, seat: int) -> ActionSpace:
        """What ``seat`` may do now (empty when nothing)."""

    def automatic(self) -> Operation | None:
        """The next operation nobody decides (post antes and blinds, award pots), or None when a
        person or the device must act."""

    def view(self, viewer: Viewer) -> HandView:
        """What ``viewer`` may see now."""

    @property
    def is_over(self) -> bool:
        """True once the hand is settled or void."""

    @property
    def status(self) -> str:
        """``settled``, ``void`` or "" while in play."""

    def result(self) -> dict[str, Any] | None:
        """The settlement JSON of a finished hand (HAND_RECORD.md), None before."""

    def record_json(self) -> dict[str, Any]:
        """The hand record JSON (HAND_RECORD.md) of the hand as it stands."""

    def journal_extra(self) -> dict[str, Any]:
        """Card provenance and other facts for the journal's ``extra``."""

    def void_reason_json(self) -> dict[str, Any] | None:
        """Why the hand is void (code, detail, texts), None when it is not void."""
