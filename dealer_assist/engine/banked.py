"""The banked family: one hand of a casino-banked game (UTH, THB) as a :class:`GameState`.

Phases: bets open -> rien ne va plus (dealing) -> decisions per street (preflop, flop,
river for UTH; preflop, flop, turn for THB) -> showdown -> reveal -> settled, or void from any
phase before settled. The hand changes only through :meth:`BankedHand.apply` of an operation
(:mod:`dealer_assist.engine.operations`); the dealer-facing methods (:meth:`~BankedHand.act`,
:meth:`~BankedHand.advance` ...) build the operation and apply it. An operation that does not
verify raises and leaves the hand unchanged. Bets placed before "rien ne va plus" are drafts
(:meth:`~BankedHand.place_bets`): only the lock (:class:`BetsPlaced`) is an operation.

Privacy: the hand knows every card; what may be shown is decided by :meth:`BankedHand.view`
(GAMES.md: nothing reveals a hole card, the dealer's cards, an unturned board card or the
qualification before its step).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.banked_checks import CHECKS
from dealer_assist.engine.banked_views import (
    card_provenance,
    dealer_view,
    hand_record,
    void_settlement,
)
from dealer_assist.engine.operations import (
    ActionUndone,
    BetsPlaced,
    CardDealt,
    CardExposed,
    DealerRevealed,
    Decision,
    DecisionCorrected,
    Decisions,
    HandOpened,
    HandSettled,
    HandVoided,
    Operation,
    StreetClosed,
)
from dealer_assist.engine.rules import (
    Action,
    BankedTable,
    GameRules,
    HandRecord,
    Settlement,
)
from dealer_assist.engine.state import ActionSpace, Position, Viewer
from dealer_assist.engine.views import OVER, BankedView, Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import BetError, HandStateError, RuleError
from dealer_assist.events import utc_now


@dataclass
class SeatState:
    """A seat in the hand: initial bets (minor units), hole cards, decisions in order."""

    seat: int
    bets: dict[str, int]
    hole: dict[int, Card] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)


@dataclass(frozen=True)
class PlacedCard:
    """A dealt card and where it went, with its device coordinates and source.

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


class BankedHand:
    """A hand of a casino-banked game (UTH, THB) at one table; a
    :class:`~dealer_assist.engine.state.GameState`.

    Args:
        game: the game's rules (the plug-in: :func:`dealer_assist.games.get_game`).
        config: the table (seats, limits, pay tables, payout unit; a TableConfig).
        hand_uid: unique id of this hand (journal key; a restarted process finds it again).
    """

    def __init__(self, game: GameRules, config: BankedTable, hand_uid: str) -> None:
        self.config = config
        self.game = game
        self.hand_uid = hand_uid
        self.started_at = utc_now()
        self.ended_at: datetime | None = None
        self.phase = Phase.BETS_OPEN
        self.street_index = -1  # index into game.streets of the current/next street
        self.seats: dict[int, SeatState] = {}
        self.pending: list[Position] = []
        self.cards: list[PlacedCard] = []
        self.exposed: list[str] = []
        self.void_reason: VoidReason | None = None
        self.settlement: Settlement | None = None
        self.operations: list[Operation] = []
        self._board_visible = 0
        self._verified: Operation | None = None  # verified against the hand as it is now

    @classmethod
    def settled(
        cls, game: GameRules, config: BankedTable, hand_uid: str, record: HandRecord, *,
        started_at: datetime, ended_at: datetime,
    ) -> BankedHand:  # fmt: skip
        """A hand journaled as settled, rebuilt from its HAND_RECORD.md ``record`` (after a
        restart during the payouts: the journal keeps the record, not the operations). Its
        cards carry the source ``journal``; the settlement is the game's of the record.

        Raises:
            InvalidRecordError: the record does not settle (it did when it was journaled).
        """
        hand = cls(game, config, hand_uid)
        hand.started_at, hand.ended_at = started_at, ended_at
        for p in record.players:
            hole = {n: c for n, c in enumerate(p.hole, start=1)}
            hand.seats[p.seat] = SeatState(p.seat, dict(p.bets), hole, list(p.actions))
        places = [
            *((Position("seat", n, p.seat), c) for p in record.players
              for n, c in enumerate(p.hole, start=1)),
            *((Position("board", n), c) for n, c in enumerate(record.board, start=1)),
            *((Position("dealer", n), c) for n, c in enumerate(record.dealer, start=1)),
        ]  # fmt: skip
        hand.cards = [PlacedCard(pos, c, "journal", "", 0, ended_at) for pos, c in places]
        hand.street_index, hand._board_visible = len(hand.game.streets), len(record.board)
        hand.settlement = hand.game.settle(record)
        hand.phase = Phase.SETTLED
        return hand

    # -- the GameState protocol -------------------------------------------------------------------
    @property
    def game_code(self) -> str:
        """The game's code."""
        return self.game.code

    def verify(self, op: Operation) -> None:
        """Raise the rule error ``op`` breaks now (BetError, IllegalActionError,
        HandStateError), else return. Unknown operation kinds are a HandStateError."""
        check = CHECKS.get(type(op))
        if check is None:
            raise HandStateError(
                f"a banked hand takes no {op.kind!r} operation ({type(op).__name__})"
            )
        check(self, op)
        self._verified = op

    def can(self, op: Operation) -> bool:
        """True when ``op`` would verify now."""
        try:
            self.verify(op)
        except RuleError:
            return False
        return True

    def apply(self, op: Operation) -> Operation:
        """Verify ``op``, change the hand, append it to :attr:`operations`; returns it.

        Raises:
            RuleError: (a subclass) the rule ``op`` breaks; the hand is unchanged.
        """
        if op is not self._verified:  # the runner verifies before it writes: not twice
            self.verify(op)
        self._verified = None
        _APPLY[type(op)](self, op)  # verify refused every type the table does not hold
        self.operations.append(op)
        return op

    @property
    def pending_deal(self) -> tuple[Position, ...]:
        """Positions the device must fill next (only while dealing)."""
        return tuple(self.pending) if self.phase is Phase.DEALING else ()

    @property
    def actor(self) -> int | None:
        """None: in a banked game every seat with a decision may act."""
        return None

    def legal(self, seat: int) -> ActionSpace:
        """The decisions ``seat`` may take now, as exact choices."""
        legal = self.legal_actions(seat)
        street = self.street or ""
        choices = tuple(Decision(seat=seat, street=street, action=a.action,
                                 multiple=a.multiple) for a in legal)  # fmt: skip
        return ActionSpace(seat, tuple(dict.fromkeys(a.action for a in legal)), choices)

    def automatic(self) -> Operation | None:
        """None: in a banked game the dealer moves every step."""
        return None

    def view(self, viewer: Viewer) -> BankedView:
        """What ``viewer`` may see now (see :class:`~dealer_assist.engine.views.BankedView`)."""
        return dealer_view(self, viewer)

    @property
    def is_over(self) -> bool:
        """True once settled or void."""
        return self.phase in OVER

    @property
    def status(self) -> str:
        """``settled``, ``void`` or ""."""
        return self.phase.value if self.phase in OVER else ""

    def result(self) -> dict[str, Any] | None:
        """The settlement JSON (a void hand: every box returned), None while in play."""
        if self.phase is Phase.VOID:
            return self.void_settlement()
        return self.settlement.to_json() if self.settlement is not None else None

    def record_json(self) -> dict[str, Any]:
        """HAND_RECORD.md JSON of the hand as it stands."""
        return self.to_hand_record().to_json()

    def void_reason_json(self) -> dict[str, Any] | None:
        """The void reason's JSON (code, detail, Italian and English texts), or None."""
        return self.void_reason.to_json() if self.void_reason is not None else None

    # -- the dealer's steps (each builds an operation) --------------------------------------------
    def place_bets(self, seat: int, bets: Mapping[str, int]) -> None:
        """Place (or replace) a seat's draft bets, box -> minor units, before the lock.

        Raises:
            HandStateError: bets are closed ("rien ne va plus").
            BetError: seat out of range, or bets the game/limits refuse; nothing changes.
        """
        self._require(Phase.BETS_OPEN, "place bets")
        self.seats[seat] = SeatState(seat, self._checked_bets(seat, bets))
        self._verified = None

    def clear_seat(self, seat: int) -> None:
        """Remove a seat's draft bets before "rien ne va plus". Raises HandStateError after."""
        self._require(Phase.BETS_OPEN, "clear a seat")
        self.seats.pop(seat, None)
        self._verified = None

    def lock_operation(self) -> BetsPlaced:
        """The "rien ne va plus" operation of the draft bets (not applied)."""
        return BetsPlaced(seats={s: dict(st.bets) for s, st in sorted(self.seats.items())})

    def close_bets(self) -> list[Position]:
        """ "Rien ne va plus": lock the draft bets; returns the positions to deal now."""
        self.apply(self.lock_operation())
        return list(self.pending)

    def place_card(
        self, card: Card, *, source: str, deck_id: str = "", index: int = 0,
        at: datetime | None = None, manual: bool = False, identified_by: str = "",
        confirmed_by: str = "",
    ) -> Position:  # fmt: skip
        """Put the next dealt card in the next pending position; returns that position.

        Raises:
            HandStateError: no card is expected now (an extra card: a misdeal for the caller).
        """
        op = CardDealt(deck_id=deck_id, index=index, card=card, source=source, manual=manual,
                       at=at or utc_now(), identified_by=identified_by,
                       confirmed_by=confirmed_by)  # fmt: skip
        self.apply(op)
        return self.cards[-1].position

    def record_exposed(self, note: str) -> None:
        """A card the dealer exposed by mistake: recorded, not a misdeal (rules text 000)."""
        self.apply(CardExposed(note=note, at=utc_now()))

    def act(self, seat: int, action: Action) -> None:
        """Record a seat's decision on the current street.

        Raises:
            HandStateError: not deciding now, or unknown seat.
            IllegalActionError: not legal for this seat now; the hand is unchanged.
        """
        self.apply(_decision(seat, action))

    def advance(self) -> list[Position]:
        """The dealer moves on (turn the next street, or go to the showdown); returns the
        positions the device must deal now. Raises HandStateError while a seat must decide."""
        self.apply(StreetClosed())
        return list(self.pending) if self.phase is Phase.DEALING else []

    def reveal(self) -> None:
        """The dealer turns their cards (and, in UTH, the qualification becomes known)."""
        self.apply(DealerRevealed())

    def settle(self) -> Settlement:
        """Settle the revealed hand with the game's rules (same code path as ``settle``)."""
        self.apply(HandSettled(at=utc_now()))
        if self.settlement is None:  # _apply_settle always sets it
            raise HandStateError("the hand did not settle")
        return self.settlement

    def void(self, reason: VoidReason) -> None:
        """Void the hand: every wager, side bets included, is returned (rules text 000)."""
        self.apply(HandVoided(code=reason.code, detail=reason.detail, at=utc_now()))
        self.void_reason = reason  # keeps the causes for the caller

    # -- apply ------------------------------------------------------------------------------------
    def _apply_open(self, op: HandOpened) -> None:
        self.started_at = op.started_at

    def _apply_bets(self, op: BetsPlaced) -> None:
        self.seats = {
            s: SeatState(s, self._checked_bets(s, b)) for s, b in sorted(op.seats.items())
        }
        self.pending = self.game.initial_deal(sorted(self.seats))
        self.phase = Phase.DEALING
        self.street_index = 0

    def _apply_card(self, op: CardDealt) -> None:
        card = op.card
        if card is None:  # _verify_card refused it
            raise HandStateError("unreadable card")
        pos = self.pending.pop(0)
        self.cards.append(PlacedCard(pos, card, op.source, op.deck_id, op.index, op.at, op.manual,
                                     op.identified_by, op.confirmed_by))  # fmt: skip
        if pos.kind == "seat" and pos.seat is not None:
            self.seats[pos.seat].hole[pos.n] = card
        if not self.pending:
            self._after_deal()

    def _apply_exposed(self, op: CardExposed) -> None:
        self.exposed.append(op.note)

    def _apply_act(self, op: Decision) -> None:
        self.seats[op.seat].actions.append(Action(op.street, op.action, op.multiple))

    def _apply_undo(self, op: ActionUndone) -> None:
        self.seats[op.seat].actions.pop()

    def _apply_correct(self, op: DecisionCorrected) -> None:
        actions = self.seats[op.seat].actions
        actions[-1] = Action(actions[-1].street, op.action, op.multiple)

    def _apply_acts(self, op: Decisions) -> None:
        for d in op.decisions:
            self._apply_act(d)
        if op.advance:
            self._apply_advance(StreetClosed())

    def _apply_advance(self, op: StreetClosed) -> None:
        self.street_index += 1
        seats = sorted(self.seats)
        if not self.active_seats:
            # Everyone folded: nothing more is dealt (THB: board stays empty).
            self.street_index = len(self.game.streets)
            self.phase, self._board_visible = Phase.SHOWDOWN, len(self.board)
            return
        if self.street_index < len(self.game.streets):
            self.pending = self.game.deal_before(self.game.streets[self.street_index].name, seats)
        else:
            self.pending = self.game.deal_before_showdown(seats)
        if self.pending:
            self.phase = Phase.DEALING
        else:
            self._after_deal()

    def _apply_reveal(self, op: DealerRevealed) -> None:
        self.phase = Phase.REVEALED

    def _apply_settle(self, op: HandSettled) -> None:
        self.settlement = self.game.settle(self.to_hand_record())
        self.phase = Phase.SETTLED
        self.ended_at = op.at

    def _apply_void(self, op: HandVoided) -> None:
        self.void_reason = VoidReason(op.code, op.detail)
        self.phase = Phase.VOID
        self.ended_at = op.at

    def _after_deal(self) -> None:
        if self.street_index < len(self.game.streets):
            self.phase = Phase.DECISIONS
            self._board_visible = self.game.streets[self.street_index].board_visible
        else:
            self.phase = Phase.SHOWDOWN
            self._board_visible = len(self.board)

    # -- what the hand knows ----------------------------------------------------------------------
    @property
    def street(self) -> str | None:
        """Name of the street being decided (or about to be dealt), None outside the streets."""
        if 0 <= self.street_index < len(self.game.streets):
            return self.game.streets[self.street_index].name
        return None

    def legal_actions(self, seat: int) -> list[Action]:
        """Legal decisions of ``seat`` now (empty outside decisions or when it has acted)."""
        if self.phase is not Phase.DECISIONS or seat not in self.seats or self.street is None:
            return []
        return self.game.legal_actions(self.street, self.seats[seat].actions)

    @property
    def seats_to_act(self) -> list[int]:
        """Seats that still have a decision on this street, ascending."""
        return [s for s in sorted(self.seats) if self.legal_actions(s)]

    @property
    def active_seats(self) -> list[int]:
        """Seats that have not folded."""
        return [s for s in sorted(self.seats) if not self.game.folded(self.seats[s].actions)]

    @property
    def board(self) -> tuple[Card, ...]:
        """Board cards dealt so far, in board order (face down ones included: not for screens)."""
        cards = {p.position.n: p.card for p in self.cards if p.position.kind == "board"}
        return tuple(cards[n] for n in sorted(cards))

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's cards dealt so far (hidden until :meth:`dealer_visible`)."""
        return tuple(p.card for p in self.cards if p.position.kind == "dealer")

    @property
    def burns(self) -> tuple[Card, ...]:
        """Burn cards read by the device (recorded, never in play)."""
        return tuple(p.card for p in self.cards if p.position.kind == "burn")

    def board_visible(self) -> tuple[Card, ...]:
        """The board cards turned face up at this step."""
        return self.board[: self._board_visible]

    def dealer_visible(self) -> bool:
        """True once the dealer's cards (and qualification) may be shown."""
        return self.phase in (Phase.REVEALED, Phase.SETTLED)

    def stakes(self, seat: int) -> dict[str, int]:
        """Every box of ``seat`` with its stake now, initial bets plus decisions (minor units)."""
        st = self.seats[seat]
        out = dict(st.bets)
        for a in st.actions:
            extra = self.game.stake_of(a, st.bets)
            if extra:
                out[extra[0]] = extra[1]
        return out

    def to_hand_record(self) -> HandRecord:
        """The hand as a validated-shape HandRecord (for settlement and the journal)."""
        return hand_record(self)

    def void_settlement(self) -> dict[str, Any]:
        """Settlement JSON of a void hand: every box returned (outcome ``push``, net 0)."""
        return void_settlement(self)

    def journal_extra(self) -> dict[str, Any]:
        """Card provenance for the journal: each card's position, source, deck and index."""
        return card_provenance(self)

    def _checked_bets(self, seat: int, bets: Mapping[str, int]) -> dict[str, int]:
        if not 1 <= seat <= self.config.seats:
            raise BetError("", f"seat {seat} does not exist (1..{self.config.seats})")
        return self.game.validate_bets(bets, self.config.limits)

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise HandStateError(f"cannot {what} in phase {self.phase} (needs {phase})")


_APPLY: dict[type[Operation], Callable[[BankedHand, Any], None]] = {
    HandOpened: BankedHand._apply_open,
    BetsPlaced: BankedHand._apply_bets,
    CardDealt: BankedHand._apply_card,
    CardExposed: BankedHand._apply_exposed,
    Decision: BankedHand._apply_act,
    Decisions: BankedHand._apply_acts,
    ActionUndone: BankedHand._apply_undo,
    DecisionCorrected: BankedHand._apply_correct,
    StreetClosed: BankedHand._apply_advance,
    DealerRevealed: BankedHand._apply_reveal,
    HandSettled: BankedHand._apply_settle,
    HandVoided: BankedHand._apply_void,
}
"""How each operation type changes a banked hand, keyed by class (as
:data:`~dealer_assist.engine.banked_checks.CHECKS`, which verifies it first)."""


def _decision(seat: int, action: Action) -> Decision:
    return Decision(seat=seat, street=action.street, action=action.action, multiple=action.multiple)


def decisions(pairs: list[tuple[int, Action]], *, advance: bool = False) -> Decisions:
    """The :class:`Decisions` operation of ``(seat, action)`` pairs."""
    return Decisions(decisions=tuple(_decision(s, a) for s, a in pairs), advance=advance)
