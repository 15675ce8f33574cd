"""What a banked hand shows each viewer, the settlement JSON of a void one, its card provenance.

GAMES.md (UTH, THB "Privacy"): the dealer's screen never shows a hole card before the reveal, a
board card before it is turned, or the dealer's cards and the qualification before the reveal;
the pit boss's audit screen sees every card dealt.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from dealer_assist.cards import Card, format_cards
from dealer_assist.engine.state import HandView, SeatView, Viewer
from dealer_assist.engine.voids import VoidReason

if TYPE_CHECKING:
    from dealer_assist.engine.banked import BankedHand


def dealer_view(hand: BankedHand, viewer: Viewer) -> HandView:
    """The hand as ``viewer`` may see it now (see :class:`~dealer_assist.engine.state.HandView`)."""
    everything = viewer == "pit_boss"
    revealed = hand.dealer_visible()
    shown = len(hand.board) if everything else len(hand.board_visible())
    seats = []
    for s, st in sorted(hand.seats.items()):
        folded = hand.game.folded(st.actions)
        open_hand = everything or (revealed and not folded)  # a folded hand is mucked unseen
        seats.append(SeatView(
            seat=s,
            stakes=MappingProxyType(hand.stakes(s)),
            actions=tuple(a.label() for a in st.actions),
            hole=tuple(st.hole[n] if open_hand else None for n in sorted(st.hole)),
            folded=folded,
        ))  # fmt: skip
    board: tuple[Card | None, ...] = tuple(
        c if i < shown else None for i, c in enumerate(hand.board)
    )
    dealer = tuple(c if everything or revealed else None for c in hand.dealer_cards)
    qualifies = None
    if hand.settlement is not None and (revealed or everything):
        qualifies = hand.settlement.qualifies
    return HandView(
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
        result=hand.result() if hand.is_over else None,
    )


def void_settlement(hand: BankedHand) -> dict[str, Any]:
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


def card_provenance(hand: BankedHand) -> dict[str, Any]:
    """The journal's card provenance of ``hand``: each card's position, source, deck and index
    (and who identified an unreadable one), the burns, the cards exposed by mistake."""
    return {
        "hand_uid": hand.hand_uid,
        "cards": [
            {
                "position": str(p.position), "card": str(p.card), "source": p.source,
                "deck_id": p.deck_id, "index": p.index, "at": p.at.isoformat(),
                "manual": p.manual,
                **({"identified_by": p.identified_by, "confirmed_by": p.confirmed_by}
                   if p.identified_by else {}),
            }
            for p in hand.cards
        ],
        "burns": format_cards(hand.burns),
        "exposed": list(hand.exposed),
    }  # fmt: skip
