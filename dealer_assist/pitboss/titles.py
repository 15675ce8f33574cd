"""What each step of a replay says (docs/PITBOSS.md "Replay"): the title of an operation, told
from the hand as it stands just before the operation is applied (the position a card goes to,
the street a decision is on, why a seat opens the round), by the operation's type."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.operations import (
    ActionUndone,
    Bet,
    BetsPlaced,
    CardDealt,
    CardExposed,
    DealerRevealed,
    Decision,
    DecisionCorrected,
    Decisions,
    DeckStarted,
    ForcedBet,
    HandOpened,
    HandSettled,
    HandVoided,
    Operation,
    PotAwarded,
    PotSignedOff,
    Showdown,
    StreetClosed,
)
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.state import GameState
from dealer_assist.pitboss.pot_replay import FROM_RECORD, NOT_RECORDED


def card_source(source: str, manual: bool) -> str:
    """``keypad`` (typed by the dealer), ``camera`` or ``reader`` (a shuffler or reader)."""
    if manual or source == "manual":
        return "keypad"
    return "camera" if "camera" in source.lower() else "reader"


Money = Callable[[int], str]


def title(state: GameState, op: Operation, money: Money = str) -> str:
    """What ``op`` does to ``state`` (which it has not changed yet), in a replay's words, its
    amounts (integer minor units) written by ``money``; the operation's kind for a type without
    its own words."""
    priced = _AMOUNTS.get(type(op))
    if priced is not None:
        return priced(state, op, money)
    if isinstance(state, BankedHand):
        said = _BANKED.get(type(op))
        return said(state, op) if said is not None else op.kind
    if isinstance(state, PeerHand):
        told = _PEER.get(type(op))
        return told(state, op) if told is not None else op.kind
    return op.kind


# -- both families ------------------------------------------------------------------------------
def _opened(state: Any, op: HandOpened) -> str:
    return "hand opened"


def _void(state: Any, op: HandVoided) -> str:
    return f"void: {op.detail or op.code}"


def _exposed(state: Any, op: CardExposed) -> str:
    return f"exposed card: {op.note}"


def _who(by: str, reason: str) -> str:
    return (
        f" by {by}" + (f": {reason}" if reason else "") if by else (f": {reason}" if reason else "")
    )


def _undo(state: Any, op: ActionUndone) -> str:
    return f"seat {op.seat}'s last action taken back{_who(op.by, op.reason)}"


# -- banked -------------------------------------------------------------------------------------
def _bets(state: BankedHand, op: BetsPlaced, money: Money) -> str:
    bets = "; ".join(
        f"{s}: " + ", ".join(f"{b} {money(v)}" for b, v in sorted(m.items()))
        for s, m in sorted(op.seats.items())
    )
    return f"bets placed ({bets})"


def _banked_card(state: BankedHand, op: CardDealt) -> str:
    # the card itself: in the seats, hidden
    return f"{state.pending_deal[0]} ({card_source(op.source, op.manual)})"


def _said(d: Decision) -> str:
    return f"{d.seat} {d.action}" + (f" x{d.multiple}" if d.multiple else "")


def _decisions(state: BankedHand, op: Decisions) -> str:
    said = ", ".join(_said(d) for d in op.decisions)
    return f"{state.street}: {said or 'no decision'}"


def _decision(state: BankedHand, op: Decision) -> str:
    return f"{state.street}: {_said(op)}"


def _closed(state: BankedHand, op: StreetClosed) -> str:
    return f"{state.street}: nobody left to decide"


def _corrected(state: BankedHand, op: DecisionCorrected) -> str:
    to = op.action + (f" x{op.multiple}" if op.multiple else "")
    by = f", made by {op.by}" if op.by else ""
    why = f": {op.reason}" if op.reason else ""
    return f"seat {op.seat}'s decision corrected to {to} (pit boss {op.pit_boss}{by}){why}"


_BANKED: dict[type[Operation], Callable[[BankedHand, Any], str]] = {
    HandOpened: _opened,
    CardDealt: _banked_card,
    CardExposed: _exposed,
    Decision: _decision,
    Decisions: _decisions,
    ActionUndone: _undo,
    DecisionCorrected: _corrected,
    StreetClosed: _closed,
    DealerRevealed: lambda state, op: "dealer revealed",
    HandSettled: lambda state, op: "settled",
    HandVoided: _void,
}


# -- peer ---------------------------------------------------------------------------------------
def _peer_card(state: PeerHand, op: CardDealt) -> str:
    """``seat 2 card 3 up (reader)``: face up when the game deals it so (Stud's door card)."""
    pos = str(state.pending_deal[0])
    deal = state.deal
    up = ""
    if deal is not None and pos.startswith("seat "):
        up = " up" if deal.face_up[len(deal.positions) - len(state.pending)] else " down"
        up = up if any(any(s.hole) for s in state.setup.streets) else ""  # all down: not said
    source = op.source
    said = source if source in (FROM_RECORD, NOT_RECORDED) else card_source(source, op.manual)
    return f"{pos}{up} ({said})"


def _signed_off(state: PeerHand, op: PotSignedOff, money: Money) -> str:
    return f"pot {op.pot} {money(op.amount)} signed off by {op.by} ({op.role}, {op.via})"


def _opens(state: PeerHand) -> bool:
    """The action about to be applied is the first of its round (its title tells why that seat
    acts first, when the game says: Stud's lowest door card, best exposed hand)."""
    b = state.betting
    if not state.opening_why or b is None:
        return False
    return not any(i == b.index for _, i in state.bets)


def _bet(state: PeerHand, op: Bet, money: Money) -> str:
    return (
        f"{state.street}: seat {op.seat} {op.bet}"
        + (f" to {money(op.to)}" if op.to is not None else "")
        + (f" ({state.opening_why})" if _opens(state) else "")
    )


_PEER: dict[type[Operation], Callable[[PeerHand, Any], str]] = {
    HandOpened: _opened,
    CardDealt: _peer_card,
    DeckStarted: lambda state, op: "new deck of the burns and the stub shuffled",
    CardExposed: _exposed,
    ActionUndone: _undo,
    Showdown: lambda state, op: f"seat {op.seat} {'shows' if op.shown else 'mucks'}",
    HandSettled: lambda state, op: "settle",
    HandVoided: _void,
}

#: The operations whose words carry amounts (either family's).
_AMOUNTS: dict[type[Operation], Callable[[Any, Any, Money], str]] = {
    BetsPlaced: _bets,
    ForcedBet: lambda state, op, money: f"seat {op.seat} posts {op.bet} {money(op.amount)}",
    Bet: _bet,
    PotAwarded: lambda state, op, money: f"pot {op.pot} {money(op.amount)} awarded",
    PotSignedOff: _signed_off,
}
