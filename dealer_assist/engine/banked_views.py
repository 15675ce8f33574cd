"""What a banked hand shows each viewer, and its result (the settlement JSON, or a void one's),
read from the hand's :class:`~dealer_assist.engine.banked_facts.BankedFacts`.

GAMES.md (UTH, THB "Privacy"): the dealer's screen never shows a hole card before the reveal, a
board card before it is turned, or the dealer's cards and the qualification before the reveal;
the pit boss's audit screen sees every card dealt.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.banked_checks import corrections
from dealer_assist.engine.banked_facts import BankedFacts
from dealer_assist.engine.state import SeatView, Viewer
from dealer_assist.engine.views import BankedView, Phase
from dealer_assist.engine.voids import VoidReason


def _paid_seats(hand: BankedFacts) -> frozenset[int]:
    """Seats the settlement pays on at least one box."""
    settled = hand.settlement
    if settled is None:
        return frozenset()
    return frozenset(s.seat for s in settled.seats if any(b.net > 0 for b in s.bets))


def dealer_view(hand: BankedFacts, viewer: Viewer) -> BankedView:
    """The hand as ``viewer`` may see it now, with the dealer's next step, the seats to act,
    their legal decisions and what may be undone or corrected (see
    :class:`~dealer_assist.engine.views.BankedView`)."""
    everything = viewer == "pit_boss"
    revealed = hand.dealer_visible()
    shown = len(hand.board) if everything else len(hand.board_visible())
    seats = []
    paid = _paid_seats(hand) if revealed else frozenset()
    for s, st in sorted(hand.seats.items()):
        folded = hand.game.folded(st.actions)
        # a folded hand is mucked unseen, unless a box still wins on it (UTH's Trips pays on
        # the player's hand, fold or not): the dealer reads the cards to pay it
        open_hand = everything or (revealed and (not folded or s in paid))
        seats.append(
            SeatView(
                seat=s,
                stakes=MappingProxyType(hand.stakes(s)),
                actions=tuple(a.label() for a in st.actions),
                hole=tuple(st.hole[n] if open_hand else None for n in sorted(st.hole)),
                folded=folded,
            )
        )
    board: tuple[Card | None, ...] = tuple(
        c if i < shown else None for i, c in enumerate(hand.board)
    )
    dealer = tuple(c if everything or revealed else None for c in hand.dealer_cards)
    qualifies = None
    if hand.settlement is not None and (revealed or everything):
        qualifies = hand.settlement.qualifies
    step, cards = next_step(hand)
    seat_nos = sorted(hand.seats)
    return BankedView(
        viewer=viewer,
        game=hand.game.code,
        hand_uid=hand.hand_uid,
        phase=hand.phase.value,
        street=hand.street,
        board=board,
        dealer=dealer,
        seats=tuple(seats),
        pending=hand.pending_deal,
        qualifies=qualifies,
        result=result(hand) if hand.is_over else None,
        next_step=step,
        next_cards=cards,
        coming_step=coming_step(hand),
        to_act=tuple(hand.seats_to_act),
        decisions=MappingProxyType({s: tuple(hand.seats[s].actions) for s in seat_nos}),
        choices=MappingProxyType({s: tuple(hand.legal_actions(s)) for s in seat_nos}),
        undoable=tuple(s for s in seat_nos if undoable(hand, s)),
        correctable=tuple((s, tuple(c)) for s in seat_nos if (c := corrections(hand, s))),
        settlement=hand.settlement if hand.phase is Phase.SETTLED else None,
        returns=_returns(hand),
        placed=len(hand.cards),
        exposed=len(hand.exposed),
    )


def next_step(hand: BankedFacts) -> tuple[str | None, int]:
    """The dealer's next step and how many board cards it turns (see
    :attr:`~dealer_assist.engine.views.BankedView.next_step`).

    UTH: flop (3), river (the last 2), then the dealer's cards; THB: flop (3), turn (1),
    river (1), then the dealer's cards (GAMES.md). Nobody left in: straight to the dealer.
    """
    game = hand.game
    if hand.phase is Phase.SHOWDOWN:
        return "dealer", 0
    if hand.phase is not Phase.DECISIONS or hand.seats_to_act:
        return None, 0
    shown = len(hand.board_visible())
    nxt = hand.street_index + 1
    if not hand.active_seats:
        return "dealer", 0
    if nxt < len(game.streets):
        street = game.streets[nxt]
        return street.name, street.board_visible - shown
    if game.deal_before_showdown(sorted(hand.seats)):
        return game.showdown_step or "dealer", game.showdown_board_visible - shown
    return "dealer", 0


def coming_step(hand: BankedFacts) -> str:
    """The dealer's step after the decisions on the street being decided (see
    :attr:`~dealer_assist.engine.views.BankedView.coming_step`): the game's next street, then
    its showdown step if it deals one (THB: the river), then ``dealer``."""
    game = hand.game
    order = [s.name for s in game.streets]
    if game.showdown_step is not None and game.deal_before_showdown(sorted(hand.seats)):
        order.append(game.showdown_step)
    order.append("dealer")
    street = hand.street
    if street in order and order.index(street) + 1 < len(order):
        return order[order.index(street) + 1]
    return "dealer"


def undoable(hand: BankedFacts, seat: int) -> bool:
    """``seat`` decided on the street being decided (the next card is not turned yet)."""
    actions = hand.seats[seat].actions
    return hand.phase is Phase.DECISIONS and bool(actions) and actions[-1].street == hand.street


def _returns(hand: BankedFacts) -> tuple[tuple[int, tuple[tuple[str, int], ...]], ...]:
    """A void hand's wagers, every one returned: from the highest seat down, boxes in the
    game's order (empty unless void)."""
    if hand.phase is not Phase.VOID:
        return ()
    known = hand.game.required_boxes + hand.game.optional_boxes
    rank = {box: i for i, box in enumerate(known)}
    return tuple(
        (s, tuple(sorted(hand.stakes(s).items(), key=lambda kv: rank.get(kv[0], len(rank)))))
        for s in sorted(hand.seats, reverse=True)
    )


def void_settlement(hand: BankedFacts) -> dict[str, Any]:
    """Settlement JSON of a void hand: every box returned (outcome ``push``, net 0), seats from
    the highest down."""
    reason = hand.void_reason or VoidReason("dealer_void")
    return {
        "game": hand.game.code,
        "void": {"code": reason.code, "detail": reason.detail, "text": reason.text("en")},
        "settlement_order": sorted(hand.seats, reverse=True),
        "seats": [
            {
                "seat": s,
                "result": "void",
                "bets": [
                    {"box": box, "stake": stake, "outcome": "push", "net": 0}
                    for box, stake in hand.stakes(s).items()
                ],
                "net": 0,
            }
            for s in sorted(hand.seats, reverse=True)
        ],
    }


def result(hand: BankedFacts) -> dict[str, Any] | None:
    """The settlement JSON (a void hand: every box returned), None while in play."""
    if hand.phase is Phase.VOID:
        return void_settlement(hand)
    return hand.settlement.to_json() if hand.settlement is not None else None
