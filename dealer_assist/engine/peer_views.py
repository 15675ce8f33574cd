"""What a peer hand shows each viewer, its hand record and its result (the settlement JSON, or a
void one's), read from the hand's :class:`~dealer_assist.engine.peer_facts.PeerFacts`.

GAMES.md (privacy, "Pots and showdown"): the dealer's screen never shows a hole card before its
player shows it at the showdown (a mucked or folded hand is never shown), the board as it is
turned; the pit boss's audit screen sees every card dealt.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from dealer_assist.cards import Card, format_cards
from dealer_assist.engine.betting import BRING_IN, CALL, FOLD
from dealer_assist.engine.operations import Bet
from dealer_assist.engine.peer_facts import PeerFacts, PeerPhase
from dealer_assist.engine.pots import collected_pots
from dealer_assist.engine.state import ActionSpace, PotView, SeatView, Viewer
from dealer_assist.engine.views import PeerView
from dealer_assist.engine.voids import VoidReason


def peer_view(hand: PeerFacts, viewer: Viewer) -> PeerView:
    """The hand as ``viewer`` may see it now (see :class:`~dealer_assist.engine.views.PeerView`):
    each seat's stakes are ``stack`` (behind), ``bet`` (in front of it this round) and ``put_in``
    (the whole hand); pots hold the chips already in the middle."""
    everything = viewer == "pit_boss"
    put_in = hand.put_in()
    live = set(hand.live())
    round_ = hand.betting.round if hand.betting is not None else None
    in_front = dict(round_.committed) if round_ is not None else {}
    labels: dict[int, list[str]] = {s: [] for s in hand.setup.seats}
    for a in hand.actions:
        labels[a["seat"]].append(f"{a['action']} {a['to']}" if "to" in a else a["action"])
    seats = []
    for s in hand.setup.seats:
        shown = everything or s in hand.shown
        seats.append(
            SeatView(
                seat=s,
                stakes=MappingProxyType(
                    {"stack": hand.stack(s), "bet": in_front.get(s, 0), "put_in": put_in[s]}
                ),
                actions=tuple(labels[s]),
                hole=tuple(
                    c if shown or up else None
                    for c, up in zip(hand.holes[s], hand.faces[s], strict=True)
                ),
                folded=s not in live,
            )
        )
    middle = {s: put_in[s] - in_front.get(s, 0) for s in put_in}
    if hand.is_over or round_ is None:
        pots = tuple(PotView(p.amount, p.eligible) for p in hand.pots())
    else:
        dead = hand.betting.dead if hand.betting is not None else {}
        collected = collected_pots(middle, sorted(live), dead, hand.setup.ante)
        pots = tuple(PotView(p.amount, p.eligible) for p in collected if p.amount)
    actor = hand.actor
    legal = hand.legal(actor) if actor is not None else None
    to_call, all_in = _to_call(hand, actor, legal, in_front)
    settled = result(hand)
    return PeerView(
        viewer=viewer,
        game=hand.setup.game,
        hand_uid=hand.hand_uid,
        phase=hand.phase.value,
        street=hand.street,
        board=tuple(hand.board),
        dealer=(),
        seats=tuple(seats),
        pending=hand.pending_deal,
        qualifies=None,
        result=settled,
        button=hand.setup.button or None,  # 0: a game without a button (Stud)
        actor=actor,
        pots=pots,
        legal=legal,
        showdown=tuple(hand.show_order),
        posts=tuple((p.seat, p.bet, p.amount) for p in hand.setup.posts[: hand.posted]),
        opening=hand.opening_why,
        opening_facts=MappingProxyType(dict(hand.opening_facts)),
        new_deck=hand.new_deck_needed,
        shortage=hand.deal.shortage.message() if hand.deal and hand.deal.shortage else "",
        shortage_facts=_shortage_facts(hand),
        to_call=to_call,
        raise_all_in=all_in,
        forced=_forced(hand, actor, legal),
        opener=_opener(hand, actor),
        last=MappingProxyType(_last(hand)),
        mucked=tuple(sorted(hand.mucked)),
        push_order=tuple(reversed(range(len((settled or {}).get("pots", []))))),
        void=hand.void_reason.code if hand.void_reason is not None else "",
    )


def _to_call(
    hand: PeerFacts, actor: int | None, legal: ActionSpace | None, in_front: Mapping[int, int]
) -> tuple[int, bool]:
    """What the actor must add to call (at most its stack), and whether its largest bet or
    raise is all-in; (0, False) with nobody to act."""
    if actor is None or legal is None or not legal.kinds:
        return 0, False
    mine, stack = in_front.get(actor, 0), hand.stack(actor)
    high = max((in_front.get(s, 0) for s in hand.setup.seats), default=0)
    to_call = max(0, min(high - mine, stack))
    return to_call, legal.amount is not None and legal.amount.maximum >= mine + stack


def _forced(
    hand: PeerFacts, actor: int | None, legal: ActionSpace | None
) -> tuple[tuple[int, str], ...]:
    """The forced bet decided by its seat (Stud's bring-in): every action before it is posted is
    a seat passing it on (nobody else may act then); the seat to act may be deciding now. Empty
    for a game without one, on a later street, or once the hand is over."""
    if hand.is_over:
        return ()
    first = str(hand.actions[0]["street"]) if hand.actions else hand.street
    if hand.street != first:
        return ()  # decided on the first street: later streets do not repeat it
    out: list[tuple[int, str]] = []
    for a in hand.actions:
        out.append((int(a["seat"]), str(a["action"])))
        if a["action"] == BRING_IN:
            return tuple(out)
    if actor is not None and legal is not None and BRING_IN in legal.kinds:
        return (*out, (actor, ""))
    return ()


def _opener(hand: PeerFacts, actor: int | None) -> int | None:
    """The first seat to act on the street being bet when the game says why (its first
    action, else the actor); None where the seats decide it or once the hand is over."""
    if not hand.opening_why or hand.is_over:
        return None
    for a in hand.actions:
        if str(a["street"]) == hand.street:
            return int(a["seat"])
    return actor


def _last(hand: PeerFacts) -> dict[int, str]:
    """Each seat's last action label on the street being bet (not a street already past)."""
    out: dict[int, str] = {}
    for a in hand.actions:
        seat = int(a["seat"])
        label = f"{a['action']} {a['to']}" if "to" in a else str(a["action"])
        if str(a["street"]) == hand.street:
            out[seat] = label
        else:
            out.pop(seat, None)
    return out


def _shortage_facts(hand: PeerFacts) -> Mapping[str, Any]:
    """The deck shortage as parts for a translated screen (stub, burns, players, plan)."""
    short = hand.deal.shortage if hand.deal is not None else None
    if short is None:
        return MappingProxyType({})
    return MappingProxyType(
        {"stub": short.stub, "burns": short.burns, "players": short.players, "plan": short.plan}
    )


def action_json(street: str, op: Bet) -> dict[str, Any]:
    """One ``actions`` entry of the hand record (HAND_RECORD.md): the street, the seat, the
    action and, but for a fold or a call, the amount it makes the bet (``to``) when it has one."""
    out: dict[str, Any] = {"street": street, "seat": op.seat, "action": op.bet}
    if op.bet not in (FOLD, CALL) and op.to is not None:
        out["to"] = op.to
    return out


def record_json(hand: PeerFacts) -> dict[str, Any]:
    """The hand record (HAND_RECORD.md "Pot games") of the hand as it stands."""
    record: dict[str, Any] = dict(hand.setup.record)
    if hand.setup.cards_field == "cards":  # every card in deal order; a shared seventh card
        record["players"] = [
            {"seat": s, "stack": hand.setup.stacks[s], "cards": format_cards(hand.holes[s])}
            for s in hand.setup.seats
        ]
        if hand.board:
            record["community"] = format_cards(hand.board)[0]
    else:
        record["players"] = [
            {
                "seat": s,
                "stack": hand.setup.stacks[s],
                "hole": format_cards(hand.holes[s]) if len(hand.holes[s]) == 2 else None,
            }
            for s in hand.setup.seats
        ]
        record["board"] = format_cards(hand.board)
    record["actions"] = [dict(a) for a in hand.actions]
    if hand.mucked:
        record["mucked"] = sorted(hand.mucked)
    return record


def result(hand: PeerFacts) -> dict[str, Any] | None:
    """The settlement JSON (HAND_RECORD.md "Settlement of a pot game"; a void hand's: every chip
    returned), None before the hand is over."""
    if hand.phase is PeerPhase.SETTLED:
        return hand.settlement
    if hand.phase is PeerPhase.VOID:
        return void_result(hand)
    return None


def void_result(hand: PeerFacts) -> dict[str, Any]:
    """Settlement JSON of a void hand (GAMES.md "Misdeals"): every chip each player put in goes
    back to that player; stacks as at the start of the hand."""
    reason = hand.void_reason or VoidReason("dealer_void")
    put_in = hand.put_in()
    return {
        "game": hand.setup.game,
        "void": {"code": reason.code, "detail": reason.detail, "text": reason.text("en")},
        "returned": [{"seat": s, "amount": put_in[s]} for s in hand.setup.seats if put_in[s]],
        "rake": 0,
        "pots": [],
        "seats": [
            {
                "seat": s,
                "result": "void",
                "hand": None,
                "put_in": 0,
                "won": 0,
                "net": 0,
                "stack": hand.setup.stacks[s],
            }
            for s in hand.setup.seats
        ],
    }


def shown_cards(hand: PeerFacts, seat: int) -> tuple[Card, ...]:
    """The hole cards of ``seat`` once shown at the showdown (empty before)."""
    return tuple(hand.holes[seat]) if seat in hand.shown else ()
