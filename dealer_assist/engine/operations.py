"""Typed operations: the only way a hand changes (design/ENGINE.md, "Operations").

Every change to a hand, and every step the table takes around it, is a frozen, keyword-only
dataclass with a ``kind`` (the step log's name for it) and a schema ``version``. The durable step
log stores ``to_json()``, a journaled hand :func:`operation_entry` of each (its
``extra.operations``); resume after a crash, the pit boss's replay and dispute recompute and
``audit recompute`` are folds of :meth:`~dealer_assist.engine.state.GameState.apply` over them
(:func:`dealer_assist.engine.fold.fold`). ``settle`` of a HAND_RECORD.md record still reads the
record directly: a record may hold what a live hand never deals (THB's board after every seat
folded, a Hold'em rake, a ``??`` card), which a fold of the live hand's operations refuses, and
the reader settles ~4x faster than the fold.

Two audiences apply them:
- the hand (a :class:`~dealer_assist.engine.state.GameState`): bets placed, card dealt (into the
  state's next pending position: a burn is a card dealt into a burn position), card exposed,
  decision(s), street closed, dealer's cards revealed, settled, voided; and, for the peer games,
  forced bet, bet, showdown, pot awarded;
- the table runner around it: hand opened, deck started, deal requested, the unreadable-card
  identification steps, resumed.

Schema: ``version`` 1 is also the shape of the payloads the release before the engine issue wrote
(they carry no ``"v"``), so a journal it left with a hand pending resumes after the upgrade. A
payload of a newer version than this code knows is refused (:class:`OperationError`), never
guessed at.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, ClassVar, Literal

from dealer_assist.cards import Card
from dealer_assist.engine.operation_base import Operation as Operation
from dealer_assist.errors import OperationError


# -- the table around the hand -------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class HandOpened(Operation):
    """A new hand opens: when (UTC), the device that will deal it (``model``, ``serial``), the
    void acknowledgements it carries into the journal, and the table session at its start."""

    kind: ClassVar[str] = "open"
    started_at: datetime
    device: Mapping[str, str] = field(default_factory=dict)
    acks: tuple[Mapping[str, Any], ...] = ()
    session: Mapping[str, Any] | None = None


@dataclass(frozen=True, kw_only=True)
class DeckStarted(Operation):
    """The device shuffled the hand's deck (TCRP/1 SHUFFLED): its id, card count, the device."""

    kind: ClassVar[str] = "deck"
    deck_id: str
    count: int
    device: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class DealRequested(Operation):
    """The table asked the device for ``n`` cards (TCRP/1 DEAL); written before it is sent."""

    kind: ClassVar[str] = "deal"
    n: int


@dataclass(frozen=True, kw_only=True)
class CardIdentified(Operation):
    """The dealer entered the unreadable card (``dealer``: who); a pit boss confirms it next."""

    kind: ClassVar[str] = "identify"
    card: Card
    dealer: str
    at: datetime


@dataclass(frozen=True, kw_only=True)
class IdentificationConfirmed(Operation):
    """The pit boss saw the same card as the dealer: it is placed and the deal goes on."""

    kind: ClassVar[str] = "confirm"
    pit_boss: str
    at: datetime


@dataclass(frozen=True, kw_only=True)
class IdentificationRejected(Operation):
    """The pit boss saw another card: the dealer enters the unreadable card again."""

    kind: ClassVar[str] = "reject"
    pit_boss: str
    at: datetime


@dataclass(frozen=True, kw_only=True)
class HandResumed(Operation):
    """The table restarted and picked the hand up again (``resumes``: how many times so far)."""

    kind: ClassVar[str] = "resume"
    resumes: int


@dataclass(frozen=True, kw_only=True)
class VoidAlarmRaised(Operation):
    """The void of hand ``hand_uid`` (reason ``code``, ``detail``) waits for the dealer's
    acknowledgement before the next hand; kept across restarts."""

    kind: ClassVar[str] = "void_alarm"
    hand_uid: str
    code: str
    detail: str = ""


@dataclass(frozen=True, kw_only=True)
class VoidAcknowledged(Operation):
    """The dealer (``by``) read the void alarm of hand ``hand_uid`` at ``at`` (UTC); the next
    journaled hand carries the acknowledgement."""

    kind: ClassVar[str] = "void_ack"
    hand_uid: str
    code: str
    by: str
    at: datetime


# -- the hand: common ----------------------------------------------------------------------------
@dataclass(frozen=True, kw_only=True)
class CardDealt(Operation):
    """A card the device dealt, with its provenance: ``deck_id`` and ``index`` (TCRP/1 CARD),
    ``source`` (the card source's name), ``manual`` (typed on the keypad), ``at`` (UTC).

    It goes into the hand's next pending position (``GameState.pending_deal[0]``; a burn
    position burns it). ``card`` is None only in the table's step log, for a card the reader
    could not read (TCRP/1 ``XX``); the hand itself only takes a known card, with
    ``identified_by``/``confirmed_by`` naming the dealer and the pit boss who identified it.
    """

    kind: ClassVar[str] = "card"
    deck_id: str
    index: int
    card: Card | None
    source: str
    manual: bool = False
    at: datetime
    identified_by: str = ""
    confirmed_by: str = ""


@dataclass(frozen=True, kw_only=True)
class CardExposed(Operation):
    """A card the dealer exposed by mistake: recorded, play goes on (rules text 000: "tali carte
    restano valide"). ``card`` when the dealer entered it, ``position`` as the dealer named it."""

    kind: ClassVar[str] = "exposed"
    card: Card | None = None
    position: str = ""
    note: str
    at: datetime


@dataclass(frozen=True, kw_only=True)
class StreetClosed(Operation):
    """The dealer moves on: the street's decisions are done; the next street's cards (or the
    showdown's) are dealt next."""

    kind: ClassVar[str] = "advance"


@dataclass(frozen=True, kw_only=True)
class HandVoided(Operation):
    """The hand is void (every wager returned): reason ``code`` and ``detail``
    (:data:`~dealer_assist.engine.voids.REASON_TEXTS`), the device events that caused it
    (JSON), when (UTC)."""

    kind: ClassVar[str] = "void"
    code: str
    detail: str = ""
    causes: tuple[Mapping[str, Any], ...] = ()
    at: datetime


@dataclass(frozen=True, kw_only=True)
class HandSettled(Operation):
    """The hand is settled by its game's rules at ``at`` (UTC)."""

    kind: ClassVar[str] = "settle"
    at: datetime


# -- the hand: banked games (boxes against the house) --------------------------------------------
@dataclass(frozen=True, kw_only=True)
class BetsPlaced(Operation):
    """ "Rien ne va plus": every seat's initial boxes, seat -> box -> stake (minor units),
    locked; the initial deal follows."""

    kind: ClassVar[str] = "bets"
    seats: Mapping[int, Mapping[str, int]]


@dataclass(frozen=True, kw_only=True)
class Decision(Operation):
    """A seat's decision on a street: ``action`` (check, play, bet, fold) and, for a UTH Play,
    the ``multiple`` of the Ante (rules texts 000, 004)."""

    kind: ClassVar[str] = "act"
    seat: int
    street: str
    action: str
    multiple: int | None = None


@dataclass(frozen=True, kw_only=True)
class Decisions(Operation):
    """Several seats' decisions on one street as one step; ``advance``: the same step closes the
    street (a terminal that collects a street at once, the simulator)."""

    kind: ClassVar[str] = "acts"
    decisions: tuple[Decision, ...]
    advance: bool = False


@dataclass(frozen=True, kw_only=True)
class DealerRevealed(Operation):
    """The dealer turns their cards; the qualification (UTH) becomes known."""

    kind: ClassVar[str] = "reveal"


# -- the hand: peer games (player against player; GAMES.md "Pot games") --------------------------
ForcedBetKind = Literal["ante", "small_blind", "big_blind", "bring_in"]
BetKind = Literal["fold", "check", "call", "bet", "raise", "complete", "bring_in"]


@dataclass(frozen=True, kw_only=True)
class ForcedBet(Operation):
    """An ante, blind or bring-in posted by ``seat``: ``amount`` in chips (minor units)."""

    kind: ClassVar[str] = "forced_bet"
    seat: int
    bet: ForcedBetKind
    amount: int


@dataclass(frozen=True, kw_only=True)
class Bet(Operation):
    """A player's action: ``bet`` kind and, for call/bet/raise/complete, the total ``to`` the
    seat has in front of it this round after the action (chips, minor units)."""

    kind: ClassVar[str] = "bet"
    seat: int
    bet: BetKind
    to: int | None = None


@dataclass(frozen=True, kw_only=True)
class Showdown(Operation):
    """At the showdown ``seat`` shows its cards or mucks them."""

    kind: ClassVar[str] = "showdown"
    seat: int
    shown: bool


@dataclass(frozen=True, kw_only=True)
class PotAwarded(Operation):
    """Pot ``pot`` (0 = main, 1.. side pots) of ``amount`` chips: each winner's share and the
    seats that received an odd chip (GAMES.md "Odd chips")."""

    kind: ClassVar[str] = "pot"
    pot: int
    amount: int
    shares: Mapping[int, int]
    odd_chips_to: tuple[int, ...] = ()


@dataclass(frozen=True, kw_only=True)
class PotSignedOff(Operation):
    """Pot ``pot`` (0 = main, 1.. side pots) of ``amount`` chips, above a sign-off tier of
    ``role``, was signed off by ``by`` (a badge; its role checked by the table) at ``at`` (UTC),
    ``via`` ``console`` (badge and PIN at the table) or ``pitboss`` (the pit-boss application):
    why the pot is awarded now. It comes just before that pot's ``pot`` operation."""

    kind: ClassVar[str] = "pot_signed_off"
    pot: int
    amount: int
    role: str
    by: str
    via: str = "console"
    at: datetime


@dataclass(frozen=True, kw_only=True)
class ActionUndone(Operation):
    """The dealer takes back ``seat``'s last action (a mis-tap), before the next card: the hand
    is as if it had not happened; ``by`` who did it (the dealer's badge, or ``dealer``),
    ``reason`` why ("" when none was given), ``at`` when (UTC)."""

    kind: ClassVar[str] = "undo"
    seat: int
    by: str = "dealer"
    reason: str = ""
    at: datetime


@dataclass(frozen=True, kw_only=True)
class DecisionCorrected(Operation):
    """A correction of ``seat``'s last decision after the next cards were turned: it becomes
    ``action`` (``multiple``) on the same street. ``was`` (``was_multiple``): the decision it
    replaces ("" in a journal written before the field: the replay tells it); ``pit_boss``: the
    badge of the pit boss who authorised it (checked against the table's roster); ``by``: the
    badge of the dealer on the box who made it ("" when the table had no dealer logged in);
    ``reason``: why ("" when none was given); ``at`` when (UTC). Journaled with the hand's
    other operations."""

    kind: ClassVar[str] = "correct"
    seat: int
    action: str
    multiple: int | None = None
    was: str = ""
    was_multiple: int | None = None
    pit_boss: str
    by: str = ""
    reason: str = ""
    at: datetime


@dataclass(frozen=True, kw_only=True)
class PayoutStarted(Operation):
    """The dealer starts paying hand ``hand_uid`` seat by seat (``seats``: the seats in it); a
    marker of the payout walk, kept after the hand is journaled so a restart shows the list."""

    kind: ClassVar[str] = "payout"
    hand_uid: str
    seats: tuple[int, ...]


@dataclass(frozen=True, kw_only=True)
class SeatPaid(Operation):
    """The dealer paid or collected ``seat`` of hand ``hand_uid`` at ``at`` (UTC) and moved on."""

    kind: ClassVar[str] = "seat_paid"
    hand_uid: str
    seat: int
    at: datetime


OPERATIONS: dict[str, type[Operation]] = {
    cls.kind: cls
    for cls in (
        HandOpened,
        DeckStarted,
        DealRequested,
        CardIdentified,
        IdentificationConfirmed,
        IdentificationRejected,
        HandResumed,
        VoidAlarmRaised,
        VoidAcknowledged,
        CardDealt,
        CardExposed,
        StreetClosed,
        HandVoided,
        HandSettled,
        BetsPlaced,
        Decision,
        Decisions,
        DealerRevealed,
        ForcedBet,
        Bet,
        Showdown,
        PotAwarded,
        ActionUndone,
        PayoutStarted,
        SeatPaid,
        DecisionCorrected,
        PotSignedOff,
    )
}


def operation_from_json(kind: str, payload: Mapping[str, Any]) -> Operation:
    """The operation of a step-log entry (``kind`` and its payload).

    Raises:
        OperationError: an unknown kind, or a payload its class refuses (names the field).
    """
    cls = OPERATIONS.get(kind)
    if cls is None:
        raise OperationError(f"unknown operation {kind!r} (known: {', '.join(OPERATIONS)})")
    return cls.from_json(payload)


def operation_entry(op: Operation) -> dict[str, Any]:
    """``op`` as one entry of a journaled hand's ``operations``: its compact JSON
    (:meth:`~dealer_assist.engine.operation_base.Operation.to_entry`) with its ``kind``."""
    return {"kind": op.kind, **op.to_entry()}


def operations_of_entries(entries: Any) -> list[Operation]:
    """The operations of a journaled hand's ``operations`` list (as :func:`operation_entry`
    writes each).

    Raises:
        OperationError: not a list of objects, an entry without its ``kind``, an unknown kind or
            a payload its class refuses (names the entry and the field).
    """
    if not isinstance(entries, list):
        raise OperationError(f"operations: a JSON list is expected, got {type(entries).__name__}")
    out: list[Operation] = []
    for i, entry in enumerate(entries):
        kind = entry.get("kind") if isinstance(entry, Mapping) else None
        if not isinstance(kind, str):
            raise OperationError(f"operations[{i}]: an object with its 'kind' is expected")
        try:
            out.append(operation_from_json(kind, entry))
        except OperationError as e:
            raise OperationError(f"operations[{i}]: {e}") from e
    return out
