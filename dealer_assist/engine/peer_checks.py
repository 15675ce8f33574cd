"""The checks of a peer hand's operations: what each one must satisfy before it is applied.

Used by :meth:`~dealer_assist.engine.peer_state.PeerHand.verify`: one check per operation kind;
each raises the rule error that names the rule broken (IllegalActionError for
the betting rules of GAMES.md, HandStateError for an operation out of place) and changes nothing.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

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
    Showdown,
)
from dealer_assist.errors import HandStateError, IllegalActionError

if TYPE_CHECKING:
    from dealer_assist.engine.peer_state import PeerHand


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


def verify(hand: PeerHand, op: Operation) -> None:
    """Raise the rule error ``op`` breaks on ``hand`` now, else return."""
    check = _CHECKS.get(op.kind)
    if check is None:
        raise HandStateError(f"a peer hand takes no {op.kind!r} operation")
    if hand.phase in OVER and not isinstance(op, CardExposed):
        raise HandStateError(f"the hand is {hand.phase.value}: no more {op.kind}")
    check(hand, op)


def _open(hand: PeerHand, op: HandOpened) -> None:
    if hand.phase is not PeerPhase.OPEN:
        raise HandStateError("the hand is already open")


def _forced_bet(hand: PeerHand, op: ForcedBet) -> None:
    if hand.phase is not PeerPhase.POSTING:
        raise HandStateError("no forced bet is due now")
    p = hand.setup.posts[hand.posted]
    if (op.seat, op.bet, op.amount) != (p.seat, p.bet, p.amount):
        raise IllegalActionError(
            f"forced bet {op.bet} {op.amount} by seat {op.seat}: "
            f"seat {p.seat} posts {p.bet} {p.amount} now"
        )


def _card(hand: PeerHand, op: CardDealt) -> None:
    if not hand.pending_deal:
        raise HandStateError(f"no card expected in phase {hand.phase.value}")
    if op.card is None:
        raise HandStateError("an unreadable card must be identified before it is placed")
    if hand.new_deck_needed:
        raise HandStateError("the new deck of the burns and the stub has not been shuffled yet")


def _deck(hand: PeerHand, op: DeckStarted) -> None:
    if not hand.new_deck_needed:
        raise HandStateError("no new deck is due: the hand deals from its deck")


def _exposed(hand: PeerHand, op: CardExposed) -> None:
    if hand.phase in OVER:
        raise HandStateError(f"cannot record an exposed card in phase {hand.phase.value}")


def _bet(hand: PeerHand, op: Bet) -> None:
    betting = hand.betting
    if hand.phase is not PeerPhase.PLAY or betting is None:
        raise HandStateError(f"no betting in phase {hand.phase.value}")
    if betting.round is None:
        raise IllegalActionError("the hand's betting is over: no more actions")
    if hand.pending or betting.index >= hand.dealt_streets:
        raise HandStateError(f"the {hand.street} is being dealt: no action before its cards")
    forced = betting.forced
    if forced is not None:  # the bring-in's seat posts it or folds (rules text 002)
        seat, amount = forced
        if op.seat != seat:
            raise IllegalActionError(
                f"seat {op.seat} acted out of turn (seat {seat} is to post the forced bet of "
                f"{amount} or fold)"
            )
        if op.bet not in hand.legal(seat).kinds:
            raise IllegalActionError(
                f"seat {seat} must post the forced bet of {amount} or fold, not {op.bet}"
            )
        return
    betting.round.verify(op.seat, op.bet, op.to)


def _undo(hand: PeerHand, op: ActionUndone) -> None:
    if hand.phase is not PeerPhase.PLAY or not hand.bets:
        raise HandStateError("there is no action to undo")
    last = hand.bets[-1][0]
    if last.seat != op.seat:
        raise HandStateError(f"the last action is seat {last.seat}'s, not seat {op.seat}'s")
    if hand._card_after(last):
        raise HandStateError("a card was dealt after that action: it cannot be undone")


def _showdown(hand: PeerHand, op: Showdown) -> None:
    if hand.phase is not PeerPhase.SHOWDOWN:
        raise HandStateError("there is no showdown now")
    nxt = hand._next_to_show()
    if op.seat != nxt:
        raise IllegalActionError(f"seat {op.seat} shows out of turn (seat {nxt} shows now)")
    if not op.shown and hand._face_up():
        raise IllegalActionError(
            f"seat {op.seat} cannot muck: a player is all-in, every hand is turned up"
        )
    if not op.shown and not hand._may_muck(op.seat):
        raise IllegalActionError(
            f"seat {op.seat} cannot muck: its hand is the last one left for a pot"
        )


def _pot(hand: PeerHand, op: PotAwarded) -> None:
    if hand.phase is not PeerPhase.AWARDING:
        raise HandStateError("no pot to award now")
    order = hand._award_order()
    if len(hand.awards) >= len(order) or op != order[len(hand.awards)]:
        raise HandStateError(f"pot {op.pot} award does not match the showdown")


def _settle(hand: PeerHand, op: HandSettled) -> None:
    if hand.phase is not PeerPhase.AWARDING or len(hand.awards) < len(hand._award_order()):
        raise HandStateError("the pots are not all awarded yet")


def _void(hand: PeerHand, op: HandVoided) -> None:
    if hand.phase in OVER:
        raise HandStateError(f"cannot void a hand in phase {hand.phase.value}")


_CHECKS: dict[str, Callable[[PeerHand, Any], None]] = {
    "open": _open,
    "forced_bet": _forced_bet,
    "card": _card,
    "deck": _deck,
    "exposed": _exposed,
    "bet": _bet,
    "undo": _undo,
    "showdown": _showdown,
    "pot": _pot,
    "settle": _settle,
    "void": _void,
}
