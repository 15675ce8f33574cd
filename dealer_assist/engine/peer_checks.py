"""The checks of a peer hand's operations: what each one must satisfy before it is applied.

Used by :meth:`~dealer_assist.engine.peer_state.PeerHand.verify`: one check per operation type
(keyed by class), each reading the hand's :class:`~dealer_assist.engine.peer_facts.PeerFacts`.
Each raises the rule error that names the rule broken (IllegalActionError for the betting rules
of GAMES.md, HandStateError for an operation out of place: their subclasses ActionRefused and
StateRefused with the rule's code, :data:`RULES`) and changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

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
from dealer_assist.engine.peer_facts import OVER, PeerFacts, PeerPhase
from dealer_assist.errors import ActionRefused, StateRefused

RULES = (
    "wrong_operation",
    "hand_over",
    "already_open",
    "no_forced_bet",
    "forced_bet_due",
    "no_card_expected",
    "unidentified_card",
    "new_deck_unshuffled",
    "no_new_deck",
    "no_exposed_card",
    "no_betting",
    "betting_over",
    "street_dealing",
    "forced_bet_turn",
    "post_or_fold",
    "nothing_to_undo",
    "undo_other_seat",
    "undo_after_card",
    "no_showdown",
    "show_out_of_turn",
    "muck_all_in",
    "muck_last_hand",
    "no_pot",
    "award_mismatch",
    "pots_left",
    "cannot_void",
)
"""The codes of these checks' refusals (:class:`~dealer_assist.errors.ActionRefused` for the
betting rules, :class:`~dealer_assist.errors.StateRefused` for an operation out of place;
``values``: ``seat``, ``due_seat``, ``next``, ``last``, ``amount``, ``due_amount``, ``bet``,
``due_bet``, ``kind``, ``phase``, ``street``, ``pot``, ``op`` as the message names them)."""


def verify(hand: PeerFacts, op: Operation) -> None:
    """Raise the rule error ``op`` breaks on the hand of the facts ``hand`` now, else return."""
    check = _CHECKS.get(type(op))
    if check is None:
        raise StateRefused(
            "wrong_operation",
            f"a peer hand takes no {op.kind!r} operation ({type(op).__name__})",
            op=op.kind,
        )
    if hand.phase in OVER and not isinstance(op, CardExposed):
        raise StateRefused(
            "hand_over",
            f"the hand is {hand.phase.value}: no more {op.kind}",
            phase=hand.phase.value,
            op=op.kind,
        )
    check(hand, op)


def _open(hand: PeerFacts, op: HandOpened) -> None:
    if hand.phase is not PeerPhase.OPEN:
        raise StateRefused("already_open", "the hand is already open")


def _forced_bet(hand: PeerFacts, op: ForcedBet) -> None:
    if hand.phase is not PeerPhase.POSTING:
        raise StateRefused("no_forced_bet", "no forced bet is due now")
    p = hand.setup.posts[hand.posted]
    if (op.seat, op.bet, op.amount) != (p.seat, p.bet, p.amount):
        raise ActionRefused(
            "forced_bet_due",
            f"forced bet {op.bet} {op.amount} by seat {op.seat}: "
            f"seat {p.seat} posts {p.bet} {p.amount} now",
            seat=op.seat,
            bet=op.bet,
            amount=op.amount,
            due_seat=p.seat,
            due_bet=p.bet,
            due_amount=p.amount,
        )


def _card(hand: PeerFacts, op: CardDealt) -> None:
    if hand.phase is not PeerPhase.PLAY or not hand.pending:  # pending_deal without its copy
        raise StateRefused(
            "no_card_expected",
            f"no card expected in phase {hand.phase.value}",
            phase=hand.phase.value,
        )
    if op.card is None:
        raise StateRefused(
            "unidentified_card", "an unreadable card must be identified before it is placed"
        )
    if hand.new_deck_needed:
        raise StateRefused(
            "new_deck_unshuffled",
            "the new deck of the burns and the stub has not been shuffled yet",
        )


def _deck(hand: PeerFacts, op: DeckStarted) -> None:
    if not hand.new_deck_needed:
        raise StateRefused("no_new_deck", "no new deck is due: the hand deals from its deck")


def _exposed(hand: PeerFacts, op: CardExposed) -> None:
    if hand.phase in OVER:
        raise StateRefused(
            "no_exposed_card",
            f"cannot record an exposed card in phase {hand.phase.value}",
            phase=hand.phase.value,
        )


def _bet(hand: PeerFacts, op: Bet) -> None:
    betting = hand.betting
    if hand.phase is not PeerPhase.PLAY or betting is None:
        raise StateRefused(
            "no_betting", f"no betting in phase {hand.phase.value}", phase=hand.phase.value
        )
    if betting.round is None:
        raise ActionRefused("betting_over", "the hand's betting is over: no more actions")
    if hand.pending or betting.index >= hand.dealt_streets:
        raise StateRefused(
            "street_dealing",
            f"the {hand.street} is being dealt: no action before its cards",
            street=str(hand.street),
        )
    forced = betting.forced
    if forced is not None:  # the bring-in's seat posts it or folds (rules text 002)
        seat, amount = forced
        if op.seat != seat:
            raise ActionRefused(
                "forced_bet_turn",
                f"seat {op.seat} acted out of turn (seat {seat} is to post the forced bet of "
                f"{amount} or fold)",
                seat=op.seat,
                due_seat=seat,
                amount=amount,
            )
        if op.bet not in hand.legal(seat).kinds:
            raise ActionRefused(
                "post_or_fold",
                f"seat {seat} must post the forced bet of {amount} or fold, not {op.bet}",
                seat=seat,
                amount=amount,
                kind=op.bet,
            )
        return
    betting.round.verify(op.seat, op.bet, op.to)


def _undo(hand: PeerFacts, op: ActionUndone) -> None:
    if hand.phase is not PeerPhase.PLAY or not hand.bets:
        raise StateRefused("nothing_to_undo", "there is no action to undo")
    last = hand.bets[-1][0]
    if last.seat != op.seat:
        raise StateRefused(
            "undo_other_seat",
            f"the last action is seat {last.seat}'s, not seat {op.seat}'s",
            last=last.seat,
            seat=op.seat,
        )
    if hand.card_after_last_bet():
        raise StateRefused(
            "undo_after_card", "a card was dealt after that action: it cannot be undone"
        )


def _showdown(hand: PeerFacts, op: Showdown) -> None:
    if hand.phase is not PeerPhase.SHOWDOWN:
        raise StateRefused("no_showdown", "there is no showdown now")
    nxt = hand.next_to_show()
    if op.seat != nxt:
        raise ActionRefused(
            "show_out_of_turn",
            f"seat {op.seat} shows out of turn (seat {nxt} shows now)",
            seat=op.seat,
            next=nxt if nxt is not None else 0,
        )
    if not op.shown and hand.face_up():
        raise ActionRefused(
            "muck_all_in",
            f"seat {op.seat} cannot muck: a player is all-in, every hand is turned up",
            seat=op.seat,
        )
    if not op.shown and not hand.may_muck(op.seat):
        raise ActionRefused(
            "muck_last_hand",
            f"seat {op.seat} cannot muck: its hand is the last one left for a pot",
            seat=op.seat,
        )


def _pot(hand: PeerFacts, op: PotAwarded) -> None:
    if hand.phase is not PeerPhase.AWARDING:
        raise StateRefused("no_pot", "no pot to award now")
    order = hand.due_awards
    if len(hand.awards) >= len(order) or op != order[len(hand.awards)]:
        raise StateRefused(
            "award_mismatch", f"pot {op.pot} award does not match the showdown", pot=op.pot
        )


def _signed_off(hand: PeerFacts, op: PotSignedOff) -> None:
    nxt = hand.next_award()
    if nxt is None or (nxt.pot, nxt.amount) != (op.pot, op.amount):
        why = f"pot {op.pot} of {op.amount} is not the next to award"
        raise StateRefused("award_mismatch", why, pot=op.pot)
    if any(s.pot == op.pot for s in hand.signoffs):
        raise StateRefused("award_mismatch", f"pot {op.pot} is signed off already", pot=op.pot)
    if not op.by or not op.role:
        why = "a pot's sign-off names who signed and the role"
        raise StateRefused("award_mismatch", why, pot=op.pot)


def _settle(hand: PeerFacts, op: HandSettled) -> None:
    if hand.phase is not PeerPhase.AWARDING or len(hand.awards) < len(hand.due_awards):
        raise StateRefused("pots_left", "the pots are not all awarded yet")


def _void(hand: PeerFacts, op: HandVoided) -> None:
    if hand.phase in OVER:
        raise StateRefused(
            "cannot_void", f"cannot void a hand in phase {hand.phase.value}", phase=hand.phase.value
        )


_CHECKS: dict[type[Operation], Callable[[PeerFacts, Any], None]] = {
    HandOpened: _open,
    ForcedBet: _forced_bet,
    CardDealt: _card,
    DeckStarted: _deck,
    CardExposed: _exposed,
    Bet: _bet,
    ActionUndone: _undo,
    Showdown: _showdown,
    PotAwarded: _pot,
    PotSignedOff: _signed_off,
    HandSettled: _settle,
    HandVoided: _void,
}
