"""One hand at a casino-banked table, as a state machine the dealer drives.

Phases (issue 2): bets open -> rien ne va plus (dealing) -> decisions per street (preflop, flop,
river for UTH; preflop, flop, turn for THB) -> showdown -> reveal -> settled, or void from any
phase before settled. Every mutating method either completes or raises and leaves the hand
unchanged (bets checked before they are stored, actions checked before they are appended).

Privacy: the hand knows every card; what may be shown is decided by :meth:`Hand.board_visible`
and :meth:`Hand.dealer_visible` (GAMES.md: nothing reveals a hole card, the dealer's cards, an
unturned board card or the qualification before its step).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

from dealer_assist.cards import Card, format_cards
from dealer_assist.config import TableConfig
from dealer_assist.errors import BetError, HandStateError, IllegalActionError
from dealer_assist.events import utc_now
from dealer_assist.games import get_game
from dealer_assist.games.base import Action, HandRecord, PlayerHand, Position, Settlement
from dealer_assist.engine.voids import VoidReason


class Phase(StrEnum):
    """Where the hand is. ``DECISIONS`` carries the street in :attr:`Hand.street`."""

    BETS_OPEN = "bets_open"
    DEALING = "dealing"  # "rien ne va plus": cards are coming from the device
    DECISIONS = "decisions"
    SHOWDOWN = "showdown"  # decisions done, board complete, dealer's cards still hidden
    REVEALED = "revealed"  # dealer's cards and qualification turned
    SETTLED = "settled"
    VOID = "void"


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


class Hand:
    """A hand of a casino-banked game (UTH, THB) at one table.

    Args:
        config: the table (game, seats, limits, pay tables, payout unit).
        hand_uid: unique id of this hand (journal key; a restarted process finds it again).
    """

    def __init__(self, config: TableConfig, hand_uid: str) -> None:
        self.config = config
        self.game = get_game(config.game)
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
        self._board_visible = 0

    # -- bets -------------------------------------------------------------------------------------
    def place_bets(self, seat: int, bets: Mapping[str, int]) -> None:
        """Place (or replace) a seat's initial bets, box -> minor units.

        Raises:
            HandStateError: bets are closed ("rien ne va plus").
            BetError: seat out of range, or bets the game/limits refuse; nothing changes.
        """
        self._require(Phase.BETS_OPEN, "place bets")
        if not 1 <= seat <= self.config.seats:
            raise BetError("", f"seat {seat} does not exist (1..{self.config.seats})")
        placed = self.game.validate_bets(bets, self.config.limits)
        self.seats[seat] = SeatState(seat, placed)

    def clear_seat(self, seat: int) -> None:
        """Remove a seat's bets before "rien ne va plus". Raises HandStateError after it."""
        self._require(Phase.BETS_OPEN, "clear a seat")
        self.seats.pop(seat, None)

    def close_bets(self) -> list[Position]:
        """ "Rien ne va plus": lock the bets and return the positions the device must deal now.

        Raises:
            HandStateError: not in bets-open, or no seat has bets.
        """
        self._require(Phase.BETS_OPEN, "close bets")
        if not self.seats:
            raise HandStateError("no seat has placed a bet")
        self.pending = self.game.initial_deal(sorted(self.seats))
        self.phase = Phase.DEALING
        self.street_index = 0
        return list(self.pending)

    # -- cards ------------------------------------------------------------------------------------
    def place_card(
        self, card: Card, *, source: str, deck_id: str = "", index: int = 0,
        at: datetime | None = None, manual: bool = False, identified_by: str = "",
        confirmed_by: str = "",
    ) -> Position:  # fmt: skip
        """Put the next dealt card in the next pending position; returns that position.
        ``identified_by``/``confirmed_by``: see :class:`PlacedCard`.

        Raises:
            HandStateError: no card is expected now (an extra card: a misdeal for the caller).
        """
        if self.phase is not Phase.DEALING or not self.pending:
            raise HandStateError(f"no card expected in phase {self.phase}")
        pos = self.pending.pop(0)
        placed = PlacedCard(
            pos, card, source, deck_id, index, at or utc_now(), manual, identified_by, confirmed_by
        )
        self.cards.append(placed)
        if pos.kind == "seat" and pos.seat is not None:
            self.seats[pos.seat].hole[pos.n] = card
        if not self.pending:
            self._after_deal()
        return pos

    def record_exposed(self, note: str) -> None:
        """A card the dealer exposed by mistake: recorded, not a misdeal (rules text 000)."""
        self.exposed.append(note)

    def _after_deal(self) -> None:
        if self.street_index < len(self.game.streets):
            self.phase = Phase.DECISIONS
            self._board_visible = self.game.streets[self.street_index].board_visible
        else:
            self.phase = Phase.SHOWDOWN
            self._board_visible = len(self.board)

    # -- decisions --------------------------------------------------------------------------------
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

    def act(self, seat: int, action: Action) -> None:
        """Record a seat's decision on the current street.

        Raises:
            HandStateError: not deciding now, or unknown seat.
            IllegalActionError: not legal for this seat now; the hand is unchanged.
        """
        self._require(Phase.DECISIONS, "decide")
        if seat not in self.seats:
            raise HandStateError(f"seat {seat} is not in the hand")
        if action not in self.legal_actions(seat):
            options = ", ".join(a.label() for a in self.legal_actions(seat)) or "nothing"
            raise IllegalActionError(
                f"seat {seat}: {action.label()} is not legal on the {self.street} "
                f"(legal: {options})"
            )
        self.seats[seat].actions.append(action)

    @property
    def active_seats(self) -> list[int]:
        """Seats that have not folded."""
        return [s for s in sorted(self.seats) if not self.game.folded(self.seats[s].actions)]

    def advance(self) -> list[Position]:
        """The dealer moves on: turn the next street (dealing its cards first where the game
        deals them then) or, after the last street, go to the showdown.

        Returns:
            Positions the device must deal now (empty when nothing is dealt).
        Raises:
            HandStateError: not deciding, or a seat still has to decide.
        """
        self._require(Phase.DECISIONS, "advance")
        if self.seats_to_act:
            raise HandStateError(f"seats {self.seats_to_act} have not decided on the {self.street}")
        self.street_index += 1
        seats = sorted(self.seats)
        if not self.active_seats:
            # Everyone folded: nothing more is dealt (THB: board stays empty).
            self.street_index = len(self.game.streets)
            self.phase, self._board_visible = Phase.SHOWDOWN, len(self.board)
            return []
        if self.street_index < len(self.game.streets):
            self.pending = self.game.deal_before(self.game.streets[self.street_index].name, seats)
        else:
            self.pending = self.game.deal_before_showdown(seats)
        if self.pending:
            self.phase = Phase.DEALING
        else:
            self._after_deal()
        return list(self.pending)

    # -- reveal, settlement, void -----------------------------------------------------------------
    def reveal(self) -> None:
        """The dealer turns their cards (and, in UTH, the qualification becomes known)."""
        self._require(Phase.SHOWDOWN, "reveal")
        self.phase = Phase.REVEALED

    def settle(self) -> Settlement:
        """Settle the revealed hand with the game's rules (same code path as ``settle``)."""
        self._require(Phase.REVEALED, "settle")
        record = self.to_hand_record()
        self.game.validate_record(record)
        self.settlement = self.game.settle(record)
        self.phase = Phase.SETTLED
        self.ended_at = utc_now()
        return self.settlement

    def void(self, reason: VoidReason) -> None:
        """Void the hand: every wager, side bets included, is returned (rules text 000)."""
        if self.phase in (Phase.SETTLED, Phase.VOID):
            raise HandStateError(f"cannot void a hand in phase {self.phase}")
        self.void_reason = reason
        self.phase = Phase.VOID
        self.ended_at = utc_now()

    # -- views ------------------------------------------------------------------------------------
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

    def total_staked(self) -> int:
        """All wagers on the table in this hand, minor units."""
        return sum(sum(self.stakes(s).values()) for s in self.seats)

    def to_hand_record(self) -> HandRecord:
        """The hand as a validated-shape HandRecord (for settlement and the journal)."""
        players = tuple(self._player_hand(st) for _, st in sorted(self.seats.items()))
        return HandRecord(
            self.game.code, self.config.seats, self.board, self.dealer_cards, players,
            self.config.paytables, self.config.payout_unit,
        )  # fmt: skip

    @staticmethod
    def _player_hand(st: SeatState) -> PlayerHand:
        hole = tuple(st.hole[n] for n in sorted(st.hole))
        return PlayerHand(st.seat, hole, dict(st.bets), tuple(st.actions))

    def void_settlement(self) -> dict[str, Any]:
        """Settlement JSON of a void hand: every box returned (outcome ``push``, net 0)."""
        reason = self.void_reason or VoidReason("dealer_void")
        return {
            "game": self.game.code,
            "void": {"code": reason.code, "detail": reason.detail, "text": reason.text("en")},
            "settlement_order": sorted(self.seats, reverse=True),
            "seats": [
                {
                    "seat": s,
                    "result": "void",
                    "bets": [
                        {"box": box, "stake": stake, "outcome": "push", "net": 0}
                        for box, stake in self.stakes(s).items()
                    ],
                    "net": 0,
                }
                for s in sorted(self.seats, reverse=True)
            ],
        }

    def journal_extra(self) -> dict[str, Any]:
        """Card provenance for the journal: each card's position, source, deck and index."""
        return {
            "hand_uid": self.hand_uid,
            "cards": [
                {
                    "position": str(p.position), "card": str(p.card), "source": p.source,
                    "deck_id": p.deck_id, "index": p.index, "at": p.at.isoformat(),
                    "manual": p.manual,
                    **({"identified_by": p.identified_by, "confirmed_by": p.confirmed_by}
                       if p.identified_by else {}),
                }
                for p in self.cards
            ],
            "burns": format_cards(self.burns),
            "exposed": list(self.exposed),
        }  # fmt: skip

    def _require(self, phase: Phase, what: str) -> None:
        if self.phase is not phase:
            raise HandStateError(f"cannot {what} in phase {self.phase} (needs {phase})")
