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

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.peer import DealPlan
from dealer_assist.engine.peer_setup import PeerSetup
from dealer_assist.engine.state import PlacedCard, Position

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


def street_deal(
    setup: PeerSetup, plan: DealPlan, index: int, live: Collection[int], cards: Sequence[PlacedCard]
) -> StreetDeal:
    """The deal of street ``index`` of ``plan`` for the ``live`` players (the seats still in;
    GAMES.md deal orders), after the ``cards`` the hand has dealt so far (where each went: the
    hole cards, burns and board cards count on from them)."""
    st = setup
    name = st.streets[index].name
    players = [s for s in st.deal_order if s in live]
    first = players[0] if players else None
    dealt = burned = board = to_players = 0
    for p in cards:
        kind = p.position.kind
        if kind == "seat":
            to_players += 1
            dealt += p.position.seat == first
        elif kind == "board":
            board += 1
        elif kind == "burn":
            burned += 1
    deal = plan.deal(name, players, dealt=dealt, burned=burned, board=board)
    short = None
    if st.shortage is not None and players:
        short = st.shortage(name, to_players, burned, len(players))
    if short is None or (short.plan == "deal" and short.burn):
        return StreetDeal(tuple(d.position for d in deal), tuple(d.face_up for d in deal))
    count = st.deck - to_players - board if short.plan != "deal" else 0
    if short.plan == COMMUNITY:
        return StreetDeal((Position("board", board + 1),), (True,), short, True, count)
    held = [d for d in deal if d.position.kind == "seat"]  # no burn: every card is needed
    return StreetDeal(
        tuple(d.position for d in held),
        tuple(d.face_up for d in held),
        short,
        short.plan == RESHUFFLE,
        count,
    )
