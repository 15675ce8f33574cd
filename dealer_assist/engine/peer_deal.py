"""The next deal of a peer hand: which positions the device fills, face up or down, and what the
dealer must do when the deck runs short.

A street's cards come from the game's :class:`~dealer_assist.engine.peer.DealPlan` (burn, hole
cards round by round to the players still in, board cards). The game may say that a street
cannot be dealt from the stub (Seven Card Stud's seventh street, rules text 002 "Casi
particolari"; GAMES.md "Seven Card Stud" 5) through its ``shortage`` hook: then the street is
dealt without a burn, from a new deck the device makes of the burns and the stub
(``reshuffle``), or as one community card from it (``community``). Folded players' cards are
never used again.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dealer_assist.engine.state import Position

if TYPE_CHECKING:
    from dealer_assist.engine.peer_state import PeerHand

RESHUFFLE, COMMUNITY = "reshuffle", "community"


@dataclass(frozen=True)
class StreetDeal:
    """The positions of one street's deal, in dealing order.

    Attributes:
        positions: the places the device fills.
        face_up: for each position, whether its card is dealt face up.
        shortage: the game's shortage plan when the stub is short (None otherwise): it has
            ``plan`` (``deal``, ``reshuffle`` or ``community``), ``burn`` and ``message()``.
        new_deck: the cards come from a new deck of the burns and the stub (the device shuffles
            it first: its count is :attr:`new_deck_count`).
        new_deck_count: cards in that new deck (the burns and the stub).
    """

    positions: tuple[Position, ...]
    face_up: tuple[bool, ...]
    shortage: Any = None
    new_deck: bool = False
    new_deck_count: int = 0


def street_deal(hand: PeerHand, index: int) -> StreetDeal:
    """The deal of street ``index`` for the players still in (GAMES.md deal orders)."""
    st = hand.setup
    name = st.streets[index].name
    live = set(hand.live())
    players = [s for s in st.deal_order if s in live]
    dealt = len(hand.holes[players[0]]) if players else 0
    plan = hand.plan.deal(name, players, dealt=dealt, burned=len(hand.burns), board=len(hand.board))
    short = None
    if st.shortage is not None and players:
        to_players = sum(1 for p in hand.cards if p.position.kind == "seat")
        short = st.shortage(name, to_players, len(hand.burns), len(players))
    if short is None or (short.plan == "deal" and short.burn):
        return StreetDeal(tuple(d.position for d in plan), tuple(d.face_up for d in plan))
    count = st.deck - to_players - len(hand.board) if short.plan != "deal" else 0
    if short.plan == COMMUNITY:
        return StreetDeal((Position("board", len(hand.board) + 1),), (True,), short, True, count)
    cards = [d for d in plan if d.position.kind == "seat"]  # no burn: every card is needed
    return StreetDeal(
        tuple(d.position for d in cards),
        tuple(d.face_up for d in cards),
        short,
        short.plan == RESHUFFLE,
        count,
    )
