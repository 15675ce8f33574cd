"""What a banked hand (UTH, THB) knows: its seats, cards and phase, and what follows from them.

:class:`BankedFacts` is the data of one :class:`~dealer_assist.engine.banked.BankedHand`. The
hand changes it, operation by operation; its checks
(:mod:`~dealer_assist.engine.banked_checks`) and views (:mod:`~dealer_assist.engine.banked_views`)
read it. Nothing here changes a hand or knows the operations: control goes one way, from the hand
to its checks and views, and they find every fact they judge here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from dealer_assist.cards import Card
from dealer_assist.engine.rules import (
    Action,
    BankedTable,
    GameRules,
    HandRecord,
    PlayerHand,
    Settlement,
)
from dealer_assist.engine.state import PlacedCard, Position
from dealer_assist.engine.views import OVER, Phase
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import BetError, HandStateError
from dealer_assist.events import utc_now


@dataclass
class SeatState:
    """A seat in the hand: initial bets (minor units), hole cards, decisions in order."""

    seat: int
    bets: dict[str, int]
    hole: dict[int, Card] = field(default_factory=dict)
    actions: list[Action] = field(default_factory=list)


@dataclass
class BankedFacts:
    """The state of a banked hand and the queries on it (nothing here changes it).

    Attributes:
        game: the game's rules (the plug-in). config: the table (seats, limits, pay tables).
        hand_uid: the hand's unique id. phase: where the hand is. street_index: index into
        ``game.streets`` of the street being decided (or about to be dealt). seats: the seats
        in the hand. pending: the positions the device fills next. cards: every card dealt, in
        order. exposed: notes of cards exposed by mistake. board_shown: board cards turned
        face up. settlement: once settled. void_reason: once void.
    """

    game: GameRules
    config: BankedTable
    hand_uid: str
    started_at: datetime = field(default_factory=utc_now)
    ended_at: datetime | None = None
    phase: Phase = Phase.BETS_OPEN
    street_index: int = -1
    seats: dict[int, SeatState] = field(default_factory=dict)
    pending: list[Position] = field(default_factory=list)
    cards: list[PlacedCard] = field(default_factory=list)
    exposed: list[str] = field(default_factory=list)
    board_shown: int = 0
    settlement: Settlement | None = None
    void_reason: VoidReason | None = None

    @property
    def street(self) -> str | None:
        """Name of the street being decided (or about to be dealt), None outside the streets."""
        if 0 <= self.street_index < len(self.game.streets):
            return self.game.streets[self.street_index].name
        return None

    @property
    def pending_deal(self) -> tuple[Position, ...]:
        """Positions the device must fill next (only while dealing)."""
        return tuple(self.pending) if self.phase is Phase.DEALING else ()

    @property
    def is_over(self) -> bool:
        """True once settled or void."""
        return self.phase in OVER

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
        return self.board[: self.board_shown]

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

    def hand_record(self) -> HandRecord:
        """The hand as a validated-shape HandRecord (HAND_RECORD.md; for settlement and the
        journal): each seat's hole cards in deal order, bets and decisions, the board, the
        dealer's cards, the table's pay tables and payout unit."""
        players = tuple(
            PlayerHand(
                st.seat,
                tuple(st.hole[n] for n in sorted(st.hole)),
                dict(st.bets),
                tuple(st.actions),
            )
            for _, st in sorted(self.seats.items())
        )
        return HandRecord(
            self.game.code,
            self.config.seats,
            self.board,
            self.dealer_cards,
            players,
            self.config.paytables,
            self.config.payout_unit,
        )

    def checked_bets(self, seat: int, bets: Mapping[str, int]) -> dict[str, int]:
        """``bets`` of ``seat`` as the game and the table's limits take them.

        Raises:
            BetError: seat out of range, or bets the game/limits refuse.
        """
        if not 1 <= seat <= self.config.seats:
            raise BetError("", f"seat {seat} does not exist (1..{self.config.seats})")
        return self.game.validate_bets(bets, self.config.limits)

    def require(self, phase: Phase, what: str) -> None:
        """Raise HandStateError naming ``what`` unless the hand is in ``phase``."""
        if self.phase is not phase:
            raise HandStateError(f"cannot {what} in phase {self.phase} (needs {phase})")
