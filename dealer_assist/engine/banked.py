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
from datetime import datetime
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.banked_checks import CHECKS
from dealer_assist.engine.banked_facts import BankedFacts, SeatState
from dealer_assist.engine.banked_views import dealer_view, result, void_settlement
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
from dealer_assist.engine.state import ActionSpace, PlacedCard, Position, Viewer, card_provenance
from dealer_assist.engine.views import OVER, BankedView, Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import HandStateError, RuleError
from dealer_assist.events import utc_now


class BankedHand:
    """A hand of a casino-banked game (UTH, THB) at one table; a
    :class:`~dealer_assist.engine.state.GameState`.

    Args:
        game: the game's rules (the plug-in: :func:`dealer_assist.games.get_game`).
        config: the table (seats, limits, pay tables, payout unit; a TableConfig).
        hand_uid: unique id of this hand (journal key; a restarted process finds it again).
    """

    def __init__(self, game: GameRules, config: BankedTable, hand_uid: str) -> None:
        self.facts = BankedFacts(game, config, hand_uid)
        """What the hand knows: its checks and views read it, only the hand changes it."""
        self.operations: list[Operation] = []
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
        f = hand.facts
        f.started_at, f.ended_at = started_at, ended_at
        for p in record.players:
            hole = {n: c for n, c in enumerate(p.hole, start=1)}
            f.seats[p.seat] = SeatState(p.seat, dict(p.bets), hole, list(p.actions))
        places = [
            *((Position("seat", n, p.seat), c) for p in record.players
              for n, c in enumerate(p.hole, start=1)),
            *((Position("board", n), c) for n, c in enumerate(record.board, start=1)),
            *((Position("dealer", n), c) for n, c in enumerate(record.dealer, start=1)),
        ]  # fmt: skip
        f.cards = [PlacedCard(pos, c, "journal", "", 0, ended_at) for pos, c in places]
        f.street_index, f.board_shown = len(game.streets), len(record.board)
        f.settlement = game.settle(record)
        f.phase = Phase.SETTLED
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
        check(self.facts, op)
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
        return self.facts.pending_deal

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
        return dealer_view(self.facts, viewer)

    @property
    def is_over(self) -> bool:
        """True once settled or void."""
        return self.facts.is_over

    @property
    def status(self) -> str:
        """``settled``, ``void`` or ""."""
        return self.phase.value if self.phase in OVER else ""

    def result(self) -> dict[str, Any] | None:
        """The settlement JSON (a void hand: every box returned), None while in play."""
        return result(self.facts)

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
        self.facts.require(Phase.BETS_OPEN, "place bets")
        self.facts.seats[seat] = SeatState(seat, self.facts.checked_bets(seat, bets))
        self._verified = None

    def clear_seat(self, seat: int) -> None:
        """Remove a seat's draft bets before "rien ne va plus". Raises HandStateError after."""
        self.facts.require(Phase.BETS_OPEN, "clear a seat")
        self.facts.seats.pop(seat, None)
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
        return self.facts.cards[-1].position

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
        self.facts.void_reason = reason  # keeps the causes for the caller

    # -- apply: each changes the facts by a verified operation -----------------------------------
    def _apply_open(self, op: HandOpened) -> None:
        self.facts.started_at = op.started_at

    def _apply_bets(self, op: BetsPlaced) -> None:
        f = self.facts
        f.seats = {s: SeatState(s, f.checked_bets(s, b)) for s, b in sorted(op.seats.items())}
        f.pending = f.game.initial_deal(sorted(f.seats))
        f.phase = Phase.DEALING
        f.street_index = 0

    def _apply_card(self, op: CardDealt) -> None:
        f, card = self.facts, op.card
        if card is None:  # the check refused it
            raise HandStateError("unreadable card")
        pos = f.pending.pop(0)
        f.cards.append(PlacedCard(pos, card, op.source, op.deck_id, op.index, op.at, op.manual,
                                  op.identified_by, op.confirmed_by))  # fmt: skip
        if pos.kind == "seat" and pos.seat is not None:
            f.seats[pos.seat].hole[pos.n] = card
        if not f.pending:
            self._after_deal()

    def _apply_exposed(self, op: CardExposed) -> None:
        self.facts.exposed.append(op.note)

    def _apply_act(self, op: Decision) -> None:
        self.facts.seats[op.seat].actions.append(Action(op.street, op.action, op.multiple))

    def _apply_undo(self, op: ActionUndone) -> None:
        self.facts.seats[op.seat].actions.pop()

    def _apply_correct(self, op: DecisionCorrected) -> None:
        actions = self.facts.seats[op.seat].actions
        actions[-1] = Action(actions[-1].street, op.action, op.multiple)

    def _apply_acts(self, op: Decisions) -> None:
        for d in op.decisions:
            self._apply_act(d)
        if op.advance:
            self._apply_advance(StreetClosed())

    def _apply_advance(self, op: StreetClosed) -> None:
        f = self.facts
        f.street_index += 1
        seats = sorted(f.seats)
        if not f.active_seats:
            # Everyone folded: nothing more is dealt (THB: board stays empty).
            f.street_index = len(f.game.streets)
            f.phase, f.board_shown = Phase.SHOWDOWN, len(f.board)
            return
        if f.street_index < len(f.game.streets):
            f.pending = f.game.deal_before(f.game.streets[f.street_index].name, seats)
        else:
            f.pending = f.game.deal_before_showdown(seats)
        if f.pending:
            f.phase = Phase.DEALING
        else:
            self._after_deal()

    def _apply_reveal(self, op: DealerRevealed) -> None:
        self.facts.phase = Phase.REVEALED

    def _apply_settle(self, op: HandSettled) -> None:
        f = self.facts
        f.settlement = f.game.settle(f.hand_record())
        f.phase = Phase.SETTLED
        f.ended_at = op.at

    def _apply_void(self, op: HandVoided) -> None:
        f = self.facts
        f.void_reason = VoidReason(op.code, op.detail)
        f.phase = Phase.VOID
        f.ended_at = op.at

    def _after_deal(self) -> None:
        f = self.facts
        if f.street_index < len(f.game.streets):
            f.phase = Phase.DECISIONS
            f.board_shown = f.game.streets[f.street_index].board_visible
        else:
            f.phase = Phase.SHOWDOWN
            f.board_shown = len(f.board)

    # -- what the hand knows (its facts, read-only) ----------------------------------------------
    @property
    def game(self) -> GameRules:
        """The game's rules."""
        return self.facts.game

    @property
    def config(self) -> BankedTable:
        """The table (seats, limits, pay tables, payout unit)."""
        return self.facts.config

    @property
    def hand_uid(self) -> str:
        """The hand's unique id (journal key)."""
        return self.facts.hand_uid

    @property
    def started_at(self) -> datetime:
        """When the hand opened (UTC)."""
        return self.facts.started_at

    @property
    def ended_at(self) -> datetime | None:
        """When it was settled or voided (UTC), None before."""
        return self.facts.ended_at

    @property
    def phase(self) -> Phase:
        """Where the hand is."""
        return self.facts.phase

    @property
    def seats(self) -> Mapping[int, SeatState]:
        """The seats in the hand (bets, hole cards, decisions)."""
        return self.facts.seats

    @property
    def pending(self) -> list[Position]:
        """The positions the device fills next (see :attr:`pending_deal` for the protocol's)."""
        return self.facts.pending

    @property
    def cards(self) -> list[PlacedCard]:
        """Every card dealt, in order, with where it went."""
        return self.facts.cards

    @property
    def exposed(self) -> list[str]:
        """Notes of the cards exposed by mistake."""
        return self.facts.exposed

    @property
    def settlement(self) -> Settlement | None:
        """The settlement, once settled."""
        return self.facts.settlement

    @property
    def void_reason(self) -> VoidReason | None:
        """Why the hand is void, None when it is not."""
        return self.facts.void_reason

    @property
    def street(self) -> str | None:
        """Name of the street being decided (or about to be dealt), None outside the streets."""
        return self.facts.street

    def legal_actions(self, seat: int) -> list[Action]:
        """Legal decisions of ``seat`` now (empty outside decisions or when it has acted)."""
        return self.facts.legal_actions(seat)

    @property
    def seats_to_act(self) -> list[int]:
        """Seats that still have a decision on this street, ascending."""
        return self.facts.seats_to_act

    @property
    def active_seats(self) -> list[int]:
        """Seats that have not folded."""
        return self.facts.active_seats

    @property
    def board(self) -> tuple[Card, ...]:
        """Board cards dealt so far, in board order (face down ones included: not for screens)."""
        return self.facts.board

    @property
    def dealer_cards(self) -> tuple[Card, ...]:
        """The dealer's cards dealt so far (hidden until :meth:`dealer_visible`)."""
        return self.facts.dealer_cards

    @property
    def burns(self) -> tuple[Card, ...]:
        """Burn cards read by the device (recorded, never in play)."""
        return self.facts.burns

    def board_visible(self) -> tuple[Card, ...]:
        """The board cards turned face up at this step."""
        return self.facts.board_visible()

    def dealer_visible(self) -> bool:
        """True once the dealer's cards (and qualification) may be shown."""
        return self.facts.dealer_visible()

    def stakes(self, seat: int) -> dict[str, int]:
        """Every box of ``seat`` with its stake now, initial bets plus decisions (minor units)."""
        return self.facts.stakes(seat)

    def to_hand_record(self) -> HandRecord:
        """The hand as a validated-shape HandRecord (for settlement and the journal)."""
        return self.facts.hand_record()

    def void_settlement(self) -> dict[str, Any]:
        """Settlement JSON of a void hand: every box returned (outcome ``push``, net 0)."""
        return void_settlement(self.facts)

    def journal_extra(self) -> dict[str, Any]:
        """Card provenance for the journal: each card's position, source, deck and index."""
        f = self.facts
        return card_provenance(f.hand_uid, f.cards, f.burns, f.exposed)


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
