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

from dealer_assist.cards import Card
from dealer_assist.engine.betting import BET, COMPLETE, RAISE
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
from dealer_assist.engine.peer_checks import verify
from dealer_assist.engine.peer_deal import StreetDeal, street_deal
from dealer_assist.engine.peer_facts import PeerFacts, PeerPhase
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.engine.peer_setup import PeerSetup
from dealer_assist.engine.peer_showdown import award_order, pot_hand, showdown_order
from dealer_assist.engine.peer_views import action_json, peer_view, record_json, result
from dealer_assist.engine.pot_settle import settle_pot_hand
from dealer_assist.engine.pots import Pot
from dealer_assist.engine.state import ActionSpace, PlacedCard, Position, Viewer, card_provenance
from dealer_assist.engine.views import PeerView
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import HandStateError, RuleError
from dealer_assist.events import utc_now


class PeerHand:
    """One hand of a peer game; a :class:`~dealer_assist.engine.state.GameState`.

    Args:
        setup: the hand's :class:`PeerSetup`.
        hand_uid: the hand's unique id (journal key).
    """

    def __init__(self, setup: PeerSetup, hand_uid: str) -> None:
        self.facts = PeerFacts(setup, hand_uid, DealPlan(setup.streets))
        """What the hand knows: its checks, showdown and views read it; only the hand changes it."""
        self.operations: list[Operation] = []

    # -- the GameState protocol -------------------------------------------------------------------
    @property
    def game_code(self) -> str:
        """The game's code."""
        return self.facts.setup.game

    def verify(self, op: Operation) -> None:
        """Raise the rule error ``op`` breaks now (IllegalActionError naming the betting rule,
        HandStateError for an operation out of place), else return."""
        verify(self.facts, op)

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
        verify(self.facts, op)
        _APPLY[type(op)](self, op)  # verify refused every type the table does not hold
        self.operations.append(op)
        return op

    @property
    def pending_deal(self) -> tuple[Position, ...]:
        """Positions the device must fill next (the street being dealt)."""
        return self.facts.pending_deal

    @property
    def new_deck_needed(self) -> bool:
        """The street being dealt needs a new deck of the burns and the stub, not come yet."""
        return self.facts.new_deck_needed

    def reshuffle_cards(self) -> frozenset[Card]:
        """The cards a short street's new deck may hold: the burns and the stub (rules text 002)."""
        return self.facts.reshuffle_cards()

    @property
    def actor(self) -> int | None:
        """The seat to act (to bet, or to show or muck at the showdown); None otherwise."""
        return self.facts.actor

    def legal(self, seat: int) -> ActionSpace:
        """What ``seat`` may do now (empty when it is not its turn)."""
        return self.facts.legal(seat)

    def automatic(self) -> Operation | None:
        """The next operation nobody decides: a forced bet, a hand turned up at an all-in
        showdown, a pot awarded, the settlement; None when a person or the device must act."""
        f = self.facts
        if f.phase is PeerPhase.POSTING:
            p = f.setup.posts[f.posted]
            return ForcedBet(seat=p.seat, bet=p.bet, amount=p.amount)
        if f.phase is PeerPhase.SHOWDOWN and f.face_up():
            nxt = f.next_to_show()
            return None if nxt is None else Showdown(seat=nxt, shown=True)
        if f.phase is PeerPhase.AWARDING:
            nxt_pot = f.next_award()
            return nxt_pot if nxt_pot is not None else HandSettled(at=utc_now())
        return None

    def view(self, viewer: Viewer) -> PeerView:
        """What ``viewer`` may see now (GAMES.md privacy: the dealer sees a hole card only once
        its player shows it at the showdown; the pit boss sees every card)."""
        return peer_view(self.facts, viewer)

    @property
    def is_over(self) -> bool:
        """True once the hand is settled or void."""
        return self.facts.is_over

    @property
    def status(self) -> str:
        """``settled``, ``void`` or "" while in play."""
        return self.facts.status

    def result(self) -> dict[str, Any] | None:
        """The settlement JSON (HAND_RECORD.md "Settlement of a pot game"; a void hand's:
        every chip returned), None before the hand is over."""
        return result(self.facts)

    def record_json(self) -> dict[str, Any]:
        """The hand record (HAND_RECORD.md "Pot games") as it stands: the game's fields, each
        player's stack and hole cards, the board, the actions, the mucked seats."""
        return record_json(self.facts)

    def journal_extra(self) -> dict[str, Any]:
        """Card provenance (position, source, deck, index of each card), burns, exposures."""
        f = self.facts
        return card_provenance(f.hand_uid, f.cards, f.burns, f.exposed)

    def void_reason_json(self) -> dict[str, Any] | None:
        """Why the hand is void (code, detail, English text), None when it is not."""
        r = self.facts.void_reason
        return None if r is None else {"code": r.code, "detail": r.detail, "text": r.text("en")}

    # -- what the hand knows (its facts, read-only) ----------------------------------------------
    @property
    def setup(self) -> PeerSetup:
        """The hand's setup (seats, stacks, button, posts, structure, streets, conventions)."""
        return self.facts.setup

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
    def phase(self) -> PeerPhase:
        """Where the hand is."""
        return self.facts.phase

    @property
    def betting(self) -> PeerBetting | None:
        """The hand's betting, once the forced bets are in."""
        return self.facts.betting

    @property
    def cards(self) -> list[PlacedCard]:
        """Every card dealt, in order, with where it went."""
        return self.facts.cards

    @property
    def holes(self) -> Mapping[int, list[Card]]:
        """Each seat's cards in deal order (face up ones included)."""
        return self.facts.holes

    @property
    def faces(self) -> Mapping[int, list[bool]]:
        """For each seat's cards, whether each was dealt face up."""
        return self.facts.faces

    @property
    def board(self) -> list[Card]:
        """The board cards dealt so far."""
        return self.facts.board

    @property
    def burns(self) -> list[Card]:
        """The burn cards read by the device."""
        return self.facts.burns

    @property
    def exposed(self) -> list[str]:
        """Notes of the cards exposed by mistake."""
        return self.facts.exposed

    @property
    def deal(self) -> StreetDeal | None:
        """The street being dealt (or the last one dealt)."""
        return self.facts.deal

    @property
    def deck_renewed(self) -> bool:
        """The short street's new deck has come (DeckStarted)."""
        return self.facts.deck_renewed

    @property
    def opening_why(self) -> str:
        """Why the seat to act first acts first (Stud: "highest board"), "" if the seats decide."""
        return self.facts.opening_why

    @property
    def dealt_streets(self) -> int:
        """Streets whose cards are all out."""
        return self.facts.dealt_streets

    @property
    def pending(self) -> list[Position]:
        """The positions the device fills next (see :attr:`pending_deal`)."""
        return self.facts.pending

    @property
    def actions(self) -> list[dict[str, Any]]:
        """The hand record's actions so far (HAND_RECORD.md)."""
        return self.facts.actions

    @property
    def bets(self) -> list[tuple[Bet, int]]:
        """The effective bets (undone ones left out) and the street index of each."""
        return self.facts.bets

    @property
    def show_order(self) -> list[int]:
        """The live seats in the order they show, once at the showdown."""
        return self.facts.show_order

    @property
    def shown(self) -> list[int]:
        """Seats that showed at the showdown."""
        return self.facts.shown

    @property
    def mucked(self) -> list[int]:
        """Seats that mucked at the showdown."""
        return self.facts.mucked

    @property
    def settlement(self) -> dict[str, Any] | None:
        """The settlement JSON, once the betting is over."""
        return self.facts.settlement

    @property
    def awards(self) -> list[PotAwarded]:
        """The pots awarded so far."""
        return self.facts.awards

    @property
    def signoffs(self) -> list[PotSignedOff]:
        """The large pots' sign-offs, in award order."""
        return self.facts.signoffs

    @property
    def void_reason(self) -> VoidReason | None:
        """Why the hand is void, None when it is not."""
        return self.facts.void_reason

    @property
    def street(self) -> str | None:
        """The street being dealt or bet, None before the deal and after the betting."""
        return self.facts.street

    def put_in(self) -> dict[int, int]:
        """Every chip each seat has put in so far (forced bets included)."""
        return self.facts.put_in()

    def live(self) -> list[int]:
        """Seats that have not folded."""
        return self.facts.live()

    def stack(self, seat: int) -> int:
        """Chips ``seat`` has behind now."""
        return self.facts.stack(seat)

    def pots(self) -> list[Pot]:
        """The pots of the chips put in so far, after an uncalled bet goes back."""
        return self.facts.pots()

    # -- apply: each changes the facts by a verified operation -----------------------------------
    def _apply_open(self, op: HandOpened) -> None:
        f = self.facts
        f.started_at = op.started_at
        f.phase = PeerPhase.POSTING if f.setup.posts else PeerPhase.PLAY
        if not f.setup.posts:
            self._start_betting()

    def _apply_forced_bet(self, op: ForcedBet) -> None:
        f = self.facts
        f.posted += 1
        if f.posted == len(f.setup.posts):
            self._start_betting()

    def _start_betting(self) -> None:
        f, st = self.facts, self.facts.setup
        dead: dict[int, int] = {}
        live: dict[int, int] = {}
        for p in st.posts:
            into = dead if p.dead else live
            into[p.seat] = into.get(p.seat, 0) + p.amount
        f.betting = PeerBetting(
            st.seats, st.stacks, st.button, st.streets, st.structure, dead=dead, live=live,
            big_blind=st.big_blind, blind=st.blind, uncapped_heads_up=st.uncapped_heads_up,
            blinds_first=st.blinds_first, reopen_by_sum=st.reopen_by_sum,
        )  # fmt: skip
        f.phase = PeerPhase.PLAY
        self._progress()

    def _apply_card(self, op: CardDealt) -> None:
        f, card = self.facts, op.card
        if card is None:  # the check refused it
            raise HandStateError("unreadable card")
        pos = f.pending.pop(0)
        deal = f.deal
        face_up = deal.face_up[len(deal.positions) - len(f.pending) - 1] if deal else False
        f.cards.append(PlacedCard(pos, card, op.source, op.deck_id, op.index, op.at, op.manual,
                                  op.identified_by, op.confirmed_by))  # fmt: skip
        if pos.kind == "seat" and pos.seat is not None:
            f.holes[pos.seat].append(card)
            f.faces[pos.seat].append(face_up)
        elif pos.kind == "board":
            f.board.append(card)
        else:
            f.burns.append(card)
        if not f.pending:
            f.dealt_streets += 1
            self._progress()

    def _apply_deck(self, op: DeckStarted) -> None:
        self.facts.deck_renewed = True  # the short street's new deck: its cards may come

    def _apply_exposed(self, op: CardExposed) -> None:
        self.facts.exposed.append(op.note)

    def _apply_bet(self, op: Bet) -> None:
        f = self.facts
        betting = f.betting
        if betting is None:
            raise HandStateError("no betting")
        index = betting.index
        street = f.setup.streets[index].name
        betting.act(street, op.seat, op.bet, op.to)
        f.bets.append((op, index))
        f.dealt_at_bet.append(len(f.cards))
        f.actions.append(action_json(street, op))
        if op.bet in (BET, RAISE, COMPLETE):
            f.last_aggressor = (index, op.seat)
        self._progress()

    def _apply_undo(self, op: ActionUndone) -> None:
        # the hand is the fold of its operations without the bet taken back
        old = self.facts
        ops = [o for o in self._effective() if o is not old.bets[-1][0]]
        self.facts = PeerFacts(old.setup, old.hand_uid, old.plan, old.started_at, old.ended_at)
        for o in ops:
            _APPLY[type(o)](self, o)

    def _apply_showdown(self, op: Showdown) -> None:
        f = self.facts
        (f.shown if op.shown else f.mucked).append(op.seat)
        if f.next_to_show() is None:
            self._start_awarding()

    def _apply_pot(self, op: PotAwarded) -> None:
        self.facts.awards.append(op)

    def _apply_signed_off(self, op: PotSignedOff) -> None:
        self.facts.signoffs.append(op)

    def _apply_settle(self, op: HandSettled) -> None:
        f = self.facts
        f.phase = PeerPhase.SETTLED
        f.ended_at = op.at

    def _apply_void(self, op: HandVoided) -> None:
        f = self.facts
        f.void_reason = VoidReason(op.code, op.detail)
        f.phase = PeerPhase.VOID
        f.ended_at = op.at

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

    def _progress(self) -> None:
        """After a change: open the next street's deal, open a round its cards decide, or go
        to the showdown or the award."""
        f = self.facts
        if f.phase is not PeerPhase.PLAY or f.betting is None or f.pending:
            return
        while True:
            b = f.betting
            if b.waiting and b.index < f.dealt_streets and f.setup.opening is not None:
                opening = f.setup.opening(f.setup.streets[b.index].name, f.up_cards())
                f.opening_why = opening.why
                f.opening_facts = getattr(opening, "facts", {})
                b.open_round(opening.order, forced=opening.forced, big_open=opening.big_open)
                continue  # an opening may end the betting (everyone folded to it)
            if f.dealt_streets > f.needed():
                break
            f.deal = street_deal(f.setup, f.plan, f.dealt_streets, set(f.live()), f.cards)
            f.deck_renewed = False
            f.pending = list(f.deal.positions)
            if f.pending:
                return
            f.dealt_streets += 1
        if f.pending or not f.betting.is_over:
            return
        if len(f.live()) > 1:
            f.phase = PeerPhase.SHOWDOWN
            f.show_order = showdown_order(f)
        else:
            self._start_awarding()

    def _start_awarding(self) -> None:
        f = self.facts
        f.settlement = settle_pot_hand(pot_hand(f))
        # worked out once: automatic() and every award's check read it
        f.due_awards = award_order(f.settlement)
        f.phase = PeerPhase.AWARDING


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
