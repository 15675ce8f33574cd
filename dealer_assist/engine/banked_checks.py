"""The checks of a banked hand's operations (:class:`~dealer_assist.engine.banked.BankedHand`):
each takes the hand's :class:`~dealer_assist.engine.banked_facts.BankedFacts`, raises the rule
the operation breaks now and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.banked_facts import BankedFacts
from dealer_assist.engine.operations import (
    ActionUndone,
    BetsPlaced,
    CardDealt,
    CardExposed,
    DealerRevealed,
    Decision,
    DecisionCorrected,
    Decisions,
    HandOpened,
    HandSettled,
    HandVoided,
    Operation,
    StreetClosed,
)
from dealer_assist.engine.rules import Action
from dealer_assist.engine.views import OVER, Phase
from dealer_assist.errors import ExposedCardMismatch, HandStateError, IllegalActionError


def _open(hand: BankedFacts, op: HandOpened) -> None:
    hand.require(Phase.BETS_OPEN, "open the hand")


def _bets(hand: BankedFacts, op: BetsPlaced) -> None:
    hand.require(Phase.BETS_OPEN, "close bets")
    if not op.seats:
        raise HandStateError("no seat has placed a bet")
    for seat, bets in op.seats.items():
        hand.checked_bets(seat, bets)


def _card(hand: BankedFacts, op: CardDealt) -> None:
    if hand.phase is not Phase.DEALING or not hand.pending:
        raise HandStateError(f"no card expected in phase {hand.phase}")
    if op.card is None:
        raise HandStateError("an unreadable card must be identified before it is placed")


def _exposed(hand: BankedFacts, op: CardExposed) -> None:
    if hand.phase in OVER:
        raise HandStateError(f"cannot record an exposed card in phase {hand.phase}")
    if op.card is not None and op.position:
        read = cards_at(hand, op.position)
        if read is not None and op.card not in read:
            # the reader's card is not named: it may be a card nobody may see yet
            raise ExposedCardMismatch(
                f"the card entered is not the card the reader read at {op.position}: "
                "look at the card again"
            )


def cards_at(hand: BankedFacts, place: str) -> tuple[Card, ...] | None:
    """The cards the reader read at ``place`` (``seat 3``, ``dealer``, ``board``: the exposed-card
    form's places), or None for a place the hand does not know."""
    if place == "dealer":
        return hand.dealer_cards
    if place == "board":
        return hand.board
    kind, _, seat = place.partition(" ")
    if kind == "seat" and seat.isdigit() and int(seat) in hand.seats:
        st = hand.seats[int(seat)]
        return tuple(st.hole[n] for n in sorted(st.hole))
    return None


def _act(hand: BankedFacts, op: Decision) -> None:
    hand.require(Phase.DECISIONS, "decide")
    if op.seat not in hand.seats:
        raise HandStateError(f"seat {op.seat} is not in the hand")
    action = Action(op.street, op.action, op.multiple)
    legal = hand.legal_actions(op.seat)
    if action not in legal:
        options = ", ".join(a.label() for a in legal) or "nothing"
        raise IllegalActionError(
            f"seat {op.seat}: {action.label()} is not legal on the {hand.street} (legal: {options})"
        )


def _acts(hand: BankedFacts, op: Decisions) -> None:
    hand.require(Phase.DECISIONS, "decide")
    seats = [d.seat for d in op.decisions]
    if len(set(seats)) != len(seats):
        raise IllegalActionError(f"a seat decides twice in one step: {seats}")
    for d in op.decisions:
        _act(hand, d)
    if op.advance:
        waiting = sorted(set(hand.seats_to_act) - set(seats))
        if waiting:
            raise HandStateError(f"seats {waiting} have not decided: the street cannot turn")


def _undo(hand: BankedFacts, op: ActionUndone) -> None:
    # a mis-tapped decision is taken back until the next card is turned: only a decision
    # on the street being decided now (the cards after it are not out yet)
    hand.require(Phase.DECISIONS, "take back a decision")
    st = hand.seats.get(op.seat)
    if st is None or not st.actions or st.actions[-1].street != hand.street:
        raise HandStateError(
            f"seat {op.seat} has no decision on the {hand.street} to take back "
            "(the next cards are already out)"
        )


def _advance(hand: BankedFacts, op: StreetClosed) -> None:
    hand.require(Phase.DECISIONS, "advance")
    if hand.seats_to_act:
        raise HandStateError(f"seats {hand.seats_to_act} have not decided on the {hand.street}")


def _reveal(hand: BankedFacts, op: DealerRevealed) -> None:
    hand.require(Phase.SHOWDOWN, "reveal")


def _settle(hand: BankedFacts, op: HandSettled) -> None:
    hand.require(Phase.REVEALED, "settle")
    hand.game.validate_record(hand.hand_record())  # InvalidRecordError: cannot settle


def _void(hand: BankedFacts, op: HandVoided) -> None:
    if hand.phase in OVER:
        raise HandStateError(f"cannot void a hand in phase {hand.phase}")


def corrections(hand: BankedFacts, seat: int) -> list[Action]:
    """The decisions a pit boss may put in place of ``seat``'s last one, taken on a street
    already past (the next cards are out): the ones legal then, other than it, after which the
    seat is either done or decides on the street being decided now (nothing skipped)."""
    st = hand.seats.get(seat)
    street = hand.street
    if hand.phase is not Phase.DECISIONS or st is None or not st.actions or street is None:
        return []
    last, before = st.actions[-1], st.actions[:-1]
    names = [s.name for s in hand.game.streets]
    if last.street == street or last.street not in names:
        return []
    k = names.index(last.street)
    out = []
    for new in hand.game.legal_actions(last.street, before):
        if new == last:
            continue
        after = [*before, new]
        done = k + 1 >= len(names) or not hand.game.legal_actions(names[k + 1], after)
        if done or names[k + 1] == street:
            out.append(new)
    return out


def _correct(hand: BankedFacts, op: DecisionCorrected) -> None:
    hand.require(Phase.DECISIONS, "correct a decision")
    st = hand.seats.get(op.seat)
    last = st.actions[-1] if st is not None and st.actions else None
    new = Action(last.street, op.action, op.multiple) if last is not None else None
    if new is None or new not in corrections(hand, op.seat):
        raise IllegalActionError(
            f"seat {op.seat}: that decision cannot replace its last one now "
            "(a decision on this street is changed without a pit boss)"
        )
    if op.was and last is not None and (op.was, op.was_multiple) != (last.action, last.multiple):
        raise IllegalActionError(
            f"seat {op.seat}: the correction replaces {op.was}, its last decision was {last.action}"
        )


CHECKS: dict[type[Operation], Callable[[BankedFacts, Any], None]] = {
    HandOpened: _open,
    BetsPlaced: _bets,
    CardDealt: _card,
    CardExposed: _exposed,
    Decision: _act,
    Decisions: _acts,
    ActionUndone: _undo,
    DecisionCorrected: _correct,
    StreetClosed: _advance,
    DealerRevealed: _reveal,
    HandSettled: _settle,
    HandVoided: _void,
}
"""The check of each operation type a banked hand takes (raises the rule it breaks now), keyed
by the operation's class: a subclass or a stranger is not taken."""
