"""A live hand of a peer game (players against each other): the peer family's
:class:`~dealer_assist.engine.state.GameState` (design/ENGINE.md, "One protocol, two families").

A :class:`PeerHand` is built from a :class:`PeerSetup` the game module makes between hands (who is
dealt in, stacks, the button, every forced bet, the betting structure, the streets, the
conventions in force) and changes only through operations:

- ``open``; then one automatic ``forced_bet`` per post (antes dead, blinds live; GAMES.md
  "Forced bets");
- ``card``: each card the device deals fills the next pending position (burn, hole cards in the
  game's dealing order, board cards), street by street as the betting reaches it; a run-out deals
  the remaining streets with no betting (GAMES.md "A betting round");
- ``bet``: the actor's fold / check / call / bet / raise (:mod:`dealer_assist.engine.betting`);
  ``undo`` takes back the last one before the next card;
- ``showdown``: each seat in showdown order shows or mucks (automatic, all shown, when a player is
  all-in and the convention turns every hand up);
- ``pot``: automatic, one per pot, side pots first, the main pot last
  (:mod:`dealer_assist.engine.pot_settle`); then ``settle``.

``void`` at any time returns every chip each player put in (GAMES.md "Misdeals"). Chips are
integers; an operation that does not verify leaves the hand as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.engine.betting import BET, CALL, COMPLETE, FOLD, RAISE
from dealer_assist.engine.operations import (
    ActionUndone,
    Bet,
    CardDealt,
    CardExposed,
    DeckStarted,
    ForcedBet,
    HandOpened,
    HandSettled,
    HandVoided,
    Operation,
    PotAwarded,
    PotSignedOff,
    Showdown,
)
from dealer_assist.engine.peer import DealPlan
from dealer_assist.engine.peer_checks import OVER, PeerPhase, verify
from dealer_assist.engine.peer_deal import StreetDeal, street_deal
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.engine.peer_setup import PeerSetup
from dealer_assist.engine.peer_showdown import (
    award_order,
    collected_pots,
    pot_hand,
    showdown_order,
)
from dealer_assist.engine.pot_settle import settle_pot_hand
from dealer_assist.engine.pots import Pot, uncalled
from dealer_assist.engine.state import ActionSpace, PlacedCard, Position, Viewer, card_provenance
from dealer_assist.engine.views import PeerView
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import HandStateError, RuleError
from dealer_assist.events import utc_now

SHOW, MUCK = "show", "muck"


class PeerHand:
    """One hand of a peer game; a :class:`~dealer_assist.engine.state.GameState`.

    Args:
        setup: the hand's :class:`PeerSetup`.
        hand_uid: the hand's unique id (journal key).
    """

    def __init__(self, setup: PeerSetup, hand_uid: str) -> None:
        self.setup = setup
        self.hand_uid = hand_uid
        self.started_at = utc_now()
        self.ended_at: datetime | None = None
        self.operations: list[Operation] = []
        self.plan = DealPlan(setup.streets)
        self._reset()

    def _reset(self) -> None:
        self.phase = PeerPhase.OPEN
        self.posted = 0
        self.betting: PeerBetting | None = None
        self.cards: list[PlacedCard] = []
        self.holes: dict[int, list[Card]] = {s: [] for s in self.setup.seats}
        self.faces: dict[int, list[bool]] = {s: [] for s in self.setup.seats}
        self.deal: StreetDeal | None = None  # the street being dealt
        self.deck_renewed = False  # the new deck of a short street has come (DeckStarted)
        self.opening_why = ""  # why the seat to act first acts first (Stud: "highest board")
        self.opening_facts: Mapping[str, Any] = {}  # the same as parts (the game's)
        self.board: list[Card] = []
        self.burns: list[Card] = []
        self.exposed: list[str] = []
        self.dealt_streets = 0
        self.pending: list[Position] = []
        self.actions: list[dict[str, Any]] = []
        self.bets: list[tuple[Bet, int]] = []  # the effective bets and the street of each
        self.last_aggressor: tuple[int, int] | None = None  # (street index, seat)
        self.show_order: list[int] = []
        self.shown: list[int] = []
        self.mucked: list[int] = []
        self.settlement: dict[str, Any] | None = None
        self.awards: list[PotAwarded] = []
        self.due_awards: list[PotAwarded] = []  # the pots in award order, once settled
        self.signoffs: list[PotSignedOff] = []  # the large pots' sign-offs, in award order
        self.void_reason: VoidReason | None = None

    # -- the GameState protocol -------------------------------------------------------------------
    @property
    def game_code(self) -> str:
        """The game's code."""
        return self.setup.game

    def verify(self, op: Operation) -> None:
        """Raise the rule error ``op`` breaks now (IllegalActionError naming the betting rule,
        HandStateError for an operation out of place), else return."""
        verify(self, op)

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
        verify(self, op)  # peer_checks' (what self.verify calls, without its frame)
        _APPLY[type(op)](self, op)  # verify refused every type the table does not hold
        self.operations.append(op)
        return op

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

    @property
    def actor(self) -> int | None:
        """The seat to act: in the betting once its street's cards are out, at the showdown the
        seat to show or muck; None otherwise."""
        b = self.betting
        if self.phase is PeerPhase.PLAY and b is not None and not self.pending:
            return b.actor if b.index < self.dealt_streets else None
        if self.phase is PeerPhase.SHOWDOWN and not self._face_up():
            return self._next_to_show()
        return None

    def legal(self, seat: int) -> ActionSpace:
        """What ``seat`` may do now (empty when it is not its turn)."""
        if seat != self.actor:
            return ActionSpace(seat)
        if self.phase is PeerPhase.SHOWDOWN:
            kinds = (SHOW, MUCK) if self._may_muck(seat) else (SHOW,)
            return ActionSpace(seat, kinds)
        if self.betting is None:
            return ActionSpace(seat)
        return self.betting.legal(seat)

    def automatic(self) -> Operation | None:
        """The next operation nobody decides: a forced bet, a hand turned up at an all-in
        showdown, a pot awarded, the settlement; None when a person or the device must act."""
        if self.phase is PeerPhase.POSTING:
            p = self.setup.posts[self.posted]
            return ForcedBet(seat=p.seat, bet=p.bet, amount=p.amount)
        if self.phase is PeerPhase.SHOWDOWN and self._face_up():
            nxt = self._next_to_show()
            return None if nxt is None else Showdown(seat=nxt, shown=True)
        if self.phase is PeerPhase.AWARDING:
            due = self.due_awards
            if len(self.awards) < len(due):
                return due[len(self.awards)]
            return HandSettled(at=utc_now())
        return None

    def view(self, viewer: Viewer) -> PeerView:
        """What ``viewer`` may see now (GAMES.md privacy: the dealer sees a hole card only once
        its player shows it at the showdown; the pit boss sees every card)."""
        from dealer_assist.engine.peer_views import peer_view

        return peer_view(self, viewer)

    @property
    def is_over(self) -> bool:
        """True once the hand is settled or void."""
        return self.phase in OVER

    @property
    def status(self) -> str:
        """``settled``, ``void`` or "" while in play."""
        return self.phase.value if self.phase in OVER else ""

    def result(self) -> dict[str, Any] | None:
        """The settlement JSON (HAND_RECORD.md "Settlement of a pot game"; a void hand's:
        every chip returned), None before the hand is over."""
        from dealer_assist.engine.peer_views import void_result

        if self.phase is PeerPhase.SETTLED:
            return self.settlement
        if self.phase is PeerPhase.VOID:
            return void_result(self)
        return None

    def record_json(self) -> dict[str, Any]:
        """The hand record (HAND_RECORD.md "Pot games") as it stands: the game's fields, each
        player's stack and hole cards, the board, the actions, the mucked seats."""
        from dealer_assist.engine.peer_views import record_json

        return record_json(self)

    def journal_extra(self) -> dict[str, Any]:
        """Card provenance (position, source, deck, index of each card), burns, exposures."""
        return card_provenance(self.hand_uid, self.cards, self.burns, self.exposed)

    def void_reason_json(self) -> dict[str, Any] | None:
        """Why the hand is void (code, detail, English text), None when it is not."""
        r = self.void_reason
        return None if r is None else {"code": r.code, "detail": r.detail, "text": r.text("en")}

    # -- what the hand knows ----------------------------------------------------------------------
    @property
    def street(self) -> str | None:
        """The street being dealt or bet, None before the deal and after the betting."""
        if self.phase is not PeerPhase.PLAY or self.betting is None:
            return None
        index = min(self.dealt_streets, len(self.setup.streets) - 1)
        if self.betting.round is not None and self.betting.index < self.dealt_streets:
            index = self.betting.index
        return self.setup.streets[index].name

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

    # -- apply ------------------------------------------------------------------------------------
    def _apply_open(self, op: HandOpened) -> None:
        self.started_at = op.started_at
        self.phase = PeerPhase.POSTING if self.setup.posts else PeerPhase.PLAY
        if not self.setup.posts:
            self._start_betting()

    def _apply_forced_bet(self, op: ForcedBet) -> None:
        self.posted += 1
        if self.posted == len(self.setup.posts):
            self._start_betting()

    def _start_betting(self) -> None:
        st = self.setup
        dead: dict[int, int] = {}
        live: dict[int, int] = {}
        for p in st.posts:
            into = dead if p.dead else live
            into[p.seat] = into.get(p.seat, 0) + p.amount
        self.betting = PeerBetting(
            st.seats, st.stacks, st.button, st.streets, st.structure, dead=dead, live=live,
            big_blind=st.big_blind, blind=st.blind, uncapped_heads_up=st.uncapped_heads_up,
            blinds_first=st.blinds_first, reopen_by_sum=st.reopen_by_sum,
        )  # fmt: skip
        self.phase = PeerPhase.PLAY
        self._progress()

    def _apply_card(self, op: CardDealt) -> None:
        card = op.card
        if card is None:  # _verify_card refused it
            raise HandStateError("unreadable card")
        pos = self.pending.pop(0)
        deal = self.deal
        face_up = deal.face_up[len(deal.positions) - len(self.pending) - 1] if deal else False
        self.cards.append(PlacedCard(pos, card, op.source, op.deck_id, op.index, op.at, op.manual,
                                     op.identified_by, op.confirmed_by))  # fmt: skip
        if pos.kind == "seat" and pos.seat is not None:
            self.holes[pos.seat].append(card)
            self.faces[pos.seat].append(face_up)
        elif pos.kind == "board":
            self.board.append(card)
        else:
            self.burns.append(card)
        if not self.pending:
            self.dealt_streets += 1
            self._progress()

    def _apply_deck(self, op: DeckStarted) -> None:
        self.deck_renewed = True  # the short street's new deck: its cards may come

    def _apply_exposed(self, op: CardExposed) -> None:
        self.exposed.append(op.note)

    def _apply_bet(self, op: Bet) -> None:
        betting = self.betting
        if betting is None:
            raise HandStateError("no betting")
        index = betting.index
        betting.act(self.setup.streets[index].name, op.seat, op.bet, op.to)
        self.bets.append((op, index))
        self.actions.append(_action_json(self.setup.streets[index].name, op))
        if op.bet in (BET, RAISE, COMPLETE):
            self.last_aggressor = (index, op.seat)
        self._progress()

    def _apply_undo(self, op: ActionUndone) -> None:
        # the hand is the fold of its operations without the bet taken back
        ops = [o for o in self._effective() if o is not self.bets[-1][0]]
        self._reset()
        for o in ops:
            _APPLY[type(o)](self, o)

    def _apply_showdown(self, op: Showdown) -> None:
        (self.shown if op.shown else self.mucked).append(op.seat)
        if self._next_to_show() is None:
            self._start_awarding()

    def _apply_pot(self, op: PotAwarded) -> None:
        self.awards.append(op)

    def _apply_signed_off(self, op: PotSignedOff) -> None:
        self.signoffs.append(op)

    def _apply_settle(self, op: HandSettled) -> None:
        self.phase = PeerPhase.SETTLED
        self.ended_at = op.at

    def _apply_void(self, op: HandVoided) -> None:
        self.void_reason = VoidReason(op.code, op.detail)
        self.phase = PeerPhase.VOID
        self.ended_at = op.at

    # -- the flow of the hand ---------------------------------------------------------------------
    def _effective(self) -> list[Operation]:
        """The operations that make the hand now: undone bets and the undos left out."""
        out: list[Operation] = []
        for o in self.operations:
            if isinstance(o, ActionUndone):
                for i in range(len(out) - 1, -1, -1):
                    if isinstance(out[i], Bet):
                        del out[i]
                        break
            else:
                out.append(o)
        return out

    def _card_after(self, bet: Bet) -> bool:
        seen = False
        for o in self.operations:
            if o is bet:
                seen = True
            elif seen and isinstance(o, CardDealt):
                return True
        return False

    def _needed(self) -> int:
        """Index of the last street whose cards the hand needs now."""
        b = self.betting
        if b is None:
            return -1
        return b.reached if b.is_over else b.index

    def _progress(self) -> None:
        """After a change: open the next street's deal, open a round its cards decide, or go
        to the showdown or the award."""
        if self.phase is not PeerPhase.PLAY or self.betting is None or self.pending:
            return
        while True:
            b = self.betting
            if b.waiting and b.index < self.dealt_streets and self.setup.opening is not None:
                opening = self.setup.opening(self.setup.streets[b.index].name, self.up_cards())
                self.opening_why = opening.why
                self.opening_facts = getattr(opening, "facts", {})
                b.open_round(opening.order, forced=opening.forced, big_open=opening.big_open)
                continue  # an opening may end the betting (everyone folded to it)
            if self.dealt_streets > self._needed():
                break
            self.deal = street_deal(self, self.dealt_streets)
            self.deck_renewed = False
            self.pending = list(self.deal.positions)
            if self.pending:
                return
            self.dealt_streets += 1
        if self.pending or not self.betting.is_over:
            return
        if len(self.live()) > 1:
            self.phase = PeerPhase.SHOWDOWN
            self.show_order = showdown_order(self)
        else:
            self._start_awarding()

    def _face_up(self) -> bool:
        """Every hand is turned up: a player is all-in and no betting is left (convention)."""
        return self.setup.all_in_face_up and any(self.stack(s) == 0 for s in self.live())

    def _next_to_show(self) -> int | None:
        done = set(self.shown) | set(self.mucked)
        return next((s for s in self.show_order if s not in done), None)

    def _may_muck(self, seat: int) -> bool:
        """A hand may be mucked unless a pot would be left with no hand to show for it."""
        gone = set(self.mucked) | {seat}
        return all(any(s not in gone for s in pot.eligible) for pot in self.pots())

    def _start_awarding(self) -> None:
        self.settlement = settle_pot_hand(pot_hand(self))
        # worked out once: automatic() and every award's check read it
        self.due_awards = award_order(self.settlement)
        self.phase = PeerPhase.AWARDING

    def _award_order(self) -> list[PotAwarded]:
        return self.due_awards


_APPLY: dict[type[Operation], Callable[[PeerHand, Any], None]] = {
    HandOpened: PeerHand._apply_open,
    ForcedBet: PeerHand._apply_forced_bet,
    CardDealt: PeerHand._apply_card,
    DeckStarted: PeerHand._apply_deck,
    CardExposed: PeerHand._apply_exposed,
    Bet: PeerHand._apply_bet,
    ActionUndone: PeerHand._apply_undo,
    Showdown: PeerHand._apply_showdown,
    PotAwarded: PeerHand._apply_pot,
    PotSignedOff: PeerHand._apply_signed_off,
    HandSettled: PeerHand._apply_settle,
    HandVoided: PeerHand._apply_void,
}
"""How each operation type changes a peer hand, keyed by class (the checks of
:mod:`~dealer_assist.engine.peer_checks`, keyed the same way, verify it first)."""


def _action_json(street: str, op: Bet) -> dict[str, Any]:
    """One ``actions`` entry of the hand record (HAND_RECORD.md)."""
    out: dict[str, Any] = {"street": street, "seat": op.seat, "action": op.bet}
    if op.bet not in (FOLD, CALL) and op.to is not None:
        out["to"] = op.to
    return out
