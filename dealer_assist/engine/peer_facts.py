"""What a peer hand (Hold'em, Stud) knows: its setup, cards, betting and phase, and what follows.

:class:`PeerFacts` is the data of one :class:`~dealer_assist.engine.peer_state.PeerHand`. The
hand changes it, operation by operation; its checks (:mod:`~dealer_assist.engine.peer_checks`),
the showdown (:mod:`~dealer_assist.engine.peer_showdown`) and its views
(:mod:`~dealer_assist.engine.peer_views`) read it. Nothing here changes a hand: control goes one
way, from the hand to its checks, showdown and views, and they find every fact they judge here.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.engine.operations import Bet, PotAwarded, PotSignedOff
from dealer_assist.engine.peer import DealPlan
from dealer_assist.engine.peer_deal import StreetDeal
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.engine.peer_setup import PeerSetup
from dealer_assist.engine.pots import Pot, collected_pots, uncalled
from dealer_assist.engine.state import ActionSpace, PlacedCard, Position
from dealer_assist.engine.voids import VoidReason
from dealer_assist.events import utc_now

SHOW, MUCK = "show", "muck"


class PeerPhase(enum.Enum):
    """Where a peer hand is."""

    OPEN = "open"
    POSTING = "posting"
    PLAY = "in_play"  # dealing and betting, street by street
    SHOWDOWN = "showdown"
    AWARDING = "awarding"
    SETTLED = "settled"
    VOID = "void"


OVER = (PeerPhase.SETTLED, PeerPhase.VOID)


@dataclass(eq=False)
class PeerFacts:
    """The state of a peer hand and the queries on it (nothing here changes it).

    Attributes:
        setup: the hand's :class:`PeerSetup`. hand_uid: its unique id (journal key). plan: the
        deal plan of the setup's streets. phase: where the hand is. posted: forced bets posted
        so far. betting: the hand's betting once the forced bets are in. cards: every card
        dealt, in order; holes, faces: each seat's cards in deal order and whether each is face
        up; board, burns: the board and the burn cards. deal: the street being dealt, with
        ``deck_renewed`` once its new deck has come (a short street). opening_why,
        opening_facts: why the seat to act first acts first (Stud: "highest board"), the same as
        parts. exposed: notes of cards exposed by mistake. dealt_streets: streets whose cards
        are all out. pending: positions the device fills next. actions: the record's actions.
        bets: the effective bets and the street index of each; dealt_at_bet: cards dealt when
        each was made. last_aggressor: (street index, seat). show_order, shown, mucked: the
        showdown. settlement: once the betting is over; due_awards: its pots in award order;
        awards, signoffs: the pots awarded and the large pots' sign-offs so far. void_reason:
        once void.
    """

    setup: PeerSetup
    hand_uid: str
    plan: DealPlan
    started_at: datetime = field(default_factory=utc_now)
    ended_at: datetime | None = None
    phase: PeerPhase = PeerPhase.OPEN
    posted: int = 0
    betting: PeerBetting | None = None
    cards: list[PlacedCard] = field(default_factory=list)
    holes: dict[int, list[Card]] = field(default_factory=dict)
    faces: dict[int, list[bool]] = field(default_factory=dict)
    deal: StreetDeal | None = None
    deck_renewed: bool = False
    opening_why: str = ""
    opening_facts: Mapping[str, Any] = field(default_factory=dict)
    board: list[Card] = field(default_factory=list)
    burns: list[Card] = field(default_factory=list)
    exposed: list[str] = field(default_factory=list)
    dealt_streets: int = 0
    pending: list[Position] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    bets: list[tuple[Bet, int]] = field(default_factory=list)
    dealt_at_bet: list[int] = field(default_factory=list)
    last_aggressor: tuple[int, int] | None = None
    show_order: list[int] = field(default_factory=list)
    shown: list[int] = field(default_factory=list)
    mucked: list[int] = field(default_factory=list)
    settlement: dict[str, Any] | None = None
    awards: list[PotAwarded] = field(default_factory=list)
    due_awards: list[PotAwarded] = field(default_factory=list)
    signoffs: list[PotSignedOff] = field(default_factory=list)
    void_reason: VoidReason | None = None

    def __post_init__(self) -> None:
        for s in self.setup.seats:
            self.holes.setdefault(s, [])
            self.faces.setdefault(s, [])

    # -- where the hand is ------------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once the hand is settled or void."""
        return self.phase in OVER

    @property
    def status(self) -> str:
        """``settled``, ``void`` or "" while in play."""
        return self.phase.value if self.phase in OVER else ""

    @property
    def street(self) -> str | None:
        """The street being dealt or bet, None before the deal and after the betting."""
        if self.phase is not PeerPhase.PLAY or self.betting is None:
            return None
        index = min(self.dealt_streets, len(self.setup.streets) - 1)
        if self.betting.round is not None and self.betting.index < self.dealt_streets:
            index = self.betting.index
        return self.setup.streets[index].name

    def needed(self) -> int:
        """Index of the last street whose cards the hand needs now (-1 before the betting)."""
        b = self.betting
        if b is None:
            return -1
        return b.reached if b.is_over else b.index

    # -- the deal ---------------------------------------------------------------------------------
    @property
    def pending_deal(self) -> tuple[Position, ...]:
        """Positions the device must fill next (the street being dealt)."""
        return tuple(self.pending) if self.phase is PeerPhase.PLAY else ()

    @property
    def new_deck_needed(self) -> bool:
        """The street being dealt needs a new deck of the burns and the stub (the dealer loads
        them, the device shuffles them) and it has not come yet."""
        return bool(self.pending) and self.deal is not None and self.deal.new_deck and (
            not self.deck_renewed)  # fmt: skip

    def reshuffle_cards(self) -> frozenset[Card]:
        """The cards a short street's new deck may hold: the burns and the stub, i.e. every
        card of the deck except those dealt to players (folded ones included: never used
        again) and the board (rules text 002, "Casi particolari")."""
        out = {p.card for p in self.cards if p.position.kind in ("seat", "board")}
        return frozenset(c for c in FULL_DECK if c not in out)

    def up_cards(self) -> dict[int, tuple[Card, ...]]:
        """Each live seat's face-up cards (Stud's door card and up cards), in deal order."""
        return {
            s: tuple(c for c, up in zip(self.holes[s], self.faces[s], strict=True) if up)
            for s in self.live()
        }

    def card_after_last_bet(self) -> bool:
        """A card was dealt after the last effective bet (it can no longer be undone)."""
        return bool(self.dealt_at_bet) and len(self.cards) > self.dealt_at_bet[-1]

    # -- who acts ---------------------------------------------------------------------------------
    @property
    def actor(self) -> int | None:
        """The seat to act: in the betting once its street's cards are out, at the showdown the
        seat to show or muck; None otherwise."""
        b = self.betting
        if self.phase is PeerPhase.PLAY and b is not None and not self.pending:
            return b.actor if b.index < self.dealt_streets else None
        if self.phase is PeerPhase.SHOWDOWN and not self.face_up():
            return self.next_to_show()
        return None

    def legal(self, seat: int) -> ActionSpace:
        """What ``seat`` may do now (empty when it is not its turn)."""
        if seat != self.actor:
            return ActionSpace(seat)
        if self.phase is PeerPhase.SHOWDOWN:
            kinds = (SHOW, MUCK) if self.may_muck(seat) else (SHOW,)
            return ActionSpace(seat, kinds)
        if self.betting is None:
            return ActionSpace(seat)
        return self.betting.legal(seat)

    # -- chips ------------------------------------------------------------------------------------
    def put_in(self) -> dict[int, int]:
        """Every chip each seat has put in so far (forced bets included)."""
        if self.betting is not None:
            return dict(self.betting.total)
        paid = dict.fromkeys(self.setup.seats, 0)
        for p in self.setup.posts[: self.posted]:
            paid[p.seat] += p.amount
        return paid

    def live(self) -> list[int]:
        """Seats that have not folded."""
        return self.betting.live() if self.betting is not None else list(self.setup.seats)

    def stack(self, seat: int) -> int:
        """Chips ``seat`` has behind now."""
        return self.setup.stacks[seat] - self.put_in()[seat]

    def pots(self) -> list[Pot]:
        """The pots of the chips put in so far, after an uncalled bet goes back."""
        put_in = self.put_in()
        dead = self.betting.dead if self.betting is not None else {}
        back = uncalled({s: c - dead.get(s, 0) for s, c in put_in.items()})
        if back is not None and (self.betting is None or self.betting.is_over):
            put_in[back[0]] -= back[1]
        return collected_pots(put_in, self.live(), dead, self.setup.ante)

    # -- the showdown and the award ---------------------------------------------------------------
    def face_up(self) -> bool:
        """Every hand is turned up: a player is all-in and no betting is left (convention)."""
        return self.setup.all_in_face_up and any(self.stack(s) == 0 for s in self.live())

    def next_to_show(self) -> int | None:
        """The seat to show or muck next at the showdown, None once every seat has."""
        done = set(self.shown) | set(self.mucked)
        return next((s for s in self.show_order if s not in done), None)

    def may_muck(self, seat: int) -> bool:
        """A hand may be mucked unless a pot would be left with no hand to show for it."""
        gone = set(self.mucked) | {seat}
        return all(any(s not in gone for s in pot.eligible) for pot in self.pots())

    def next_award(self) -> PotAwarded | None:
        """The next pot to award while awarding, None before and once every pot is."""
        if self.phase is not PeerPhase.AWARDING or len(self.awards) >= len(self.due_awards):
            return None
        return self.due_awards[len(self.awards)]
