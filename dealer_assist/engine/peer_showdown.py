"""The end of a peer hand: the showdown order, the hand to settle, the pots in award order,
each read from the hand's :class:`~dealer_assist.engine.peer_facts.PeerFacts`.

GAMES.md "Pots and showdown": the last player to bet or raise in the final round shows first,
else the first active player after the button, then clockwise; pots are settled separately,
side pots first, the main pot last (:mod:`dealer_assist.engine.pot_settle` splits each one).
"""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.operations import PotAwarded
from dealer_assist.engine.peer_facts import PeerFacts
from dealer_assist.engine.pot_settle import PotHand
from dealer_assist.engine.pots import after_button
from dealer_assist.errors import HandStateError


def showdown_order(hand: PeerFacts) -> list[int]:
    """The live seats in the order they show (GAMES.md "Showdown order"; the game's rule when it
    has one: Stud's best exposed hand)."""
    final = hand.betting.index if hand.betting is not None else 0
    aggressor = None
    if hand.last_aggressor is not None and hand.last_aggressor[0] == final:
        aggressor = hand.last_aggressor[1]
    if hand.setup.show_order is not None:
        return list(hand.setup.show_order(hand.live(), hand.up_cards(), aggressor))
    order = after_button(hand.live(), hand.setup.button)
    if aggressor is not None:
        first = aggressor
        if first in order:
            i = order.index(first)
            order = order[i:] + order[:i]
    return order


def pot_hand(hand: PeerFacts) -> PotHand:
    """The facts of ``hand`` after its betting, as
    :func:`~dealer_assist.engine.pot_settle.settle_pot_hand` takes them.

    Raises:
        HandStateError: the hand has no betting yet.
    """
    st, b = hand.setup, hand.betting
    if b is None:
        raise HandStateError("no betting to settle")
    live = set(b.live())
    holes = {s: tuple(h) if s in live else None for s, h in hand.holes.items()}
    odd = None
    if st.odd_chips is not None:
        odd = st.odd_chips({s: h for s, h in holes.items() if h is not None}, tuple(hand.board))
    return PotHand(
        st.game,
        st.seats,
        st.stacks,
        st.button,
        dict(b.total),
        frozenset(s for s in st.seats if s not in live),
        dict(b.dead),
        holes,
        tuple(hand.board),
        frozenset(hand.mucked),
        st.structure.chip_unit,
        st.rake_percent,
        st.rake_cap,
        flop_seen=b.reached >= 1 or not st.no_flop_no_drop,
        ante=st.ante,
        odd_chips=odd,
    )


def award_order(settlement: dict[str, Any] | None) -> list[PotAwarded]:
    """The pots of ``settlement`` as the operations that award them, side pots first, the main
    pot last (GAMES.md "Pots are settled separately")."""
    if settlement is None:
        return []
    out = []
    pots = settlement["pots"]
    for i in range(len(pots) - 1, -1, -1):
        p = pots[i]
        out.append(
            PotAwarded(
                pot=i,
                amount=p["amount"],
                shares={w["seat"]: w["amount"] for w in p["winners"]},
                odd_chips_to=tuple(w["seat"] for w in p["winners"] if w["odd_chip"]),
            )
        )
    return out
