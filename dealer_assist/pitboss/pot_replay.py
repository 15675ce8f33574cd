"""A stored Hold'em hand replayed as a fold over
:class:`~dealer_assist.engine.peer_state.PeerHand` operations (docs/PITBOSS.md "Replay").

The table's :class:`~dealer_assist.engine.peer_setup.PeerSetup` is rebuilt from the record's own
fields (betting, blinds, ante, chip, limits, settings, button, each player's stack, the posts; in
the plain case the posts the game module derives, in the order it posts them), then each step is
what the hand asks for next: its automatic operation (a forced bet, an all-in showdown, a pot,
the settlement), the card recorded at the position it asks for, the next recorded action of the
seat to act, or the seat's show or muck. Stud is not rebuilt here yet.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from dealer_assist.cards import parse_card
from dealer_assist.engine.operations import Bet, CardDealt, HandSettled, Operation, Showdown
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.games.holdem import ANTE, BIG_BLIND, SMALL_BLIND, HoldemSettings, forced_bets
from dealer_assist.games.holdem_hand import HoldemGame, holdem_setup
from dealer_assist.ports import StoredHand


def holdem_state(hand: StoredHand) -> PeerHand:
    """A new :class:`PeerHand` set up as ``hand`` started.

    Raises:
        DealerAssistError: a field the setup refuses. KeyError, TypeError, ValueError: a record
            without the fields of HAND_RECORD.md "Pot games".
    """
    rec = hand.record
    limits = rec.get("limits")
    game = HoldemGame(
        betting=rec["betting"], blinds=(int(rec["blinds"][0]), int(rec["blinds"][1])),
        ante=int(rec.get("ante", 0)), ante_kind=rec.get("ante_kind"), chip=int(rec["chip"]),
        limits=None if limits is None else (int(limits[0]), int(limits[1])),
        settings=HoldemSettings.from_json(rec.get("settings", {})),
    )  # fmt: skip
    stacks = {int(p["seat"]): int(p["stack"]) for p in rec["players"]}
    button = int(rec["button"])
    by_big = game.ante_kind == BIG_BLIND
    if "posts" in rec:
        posts = [(int(p["seat"]), str(p["type"]), int(p["amount"])) for p in rec["posts"]]
        big = next((s for s, k, _ in posts if k == BIG_BLIND), None)
    else:
        dead, live, big = forced_bets(list(stacks), button, game.blinds, game.ante,
                                      ante_by_big=by_big)  # fmt: skip
        blinds = [(s, BIG_BLIND if s == big else SMALL_BLIND, a) for s, a in live.items()]
        blinds.sort(key=lambda p: p[1] == BIG_BLIND)  # the small blind first
        antes = [(s, ANTE, a) for s, a in dead.items()]
        posts = [*blinds, *antes] if by_big else [*antes, *blinds]
    setup = holdem_setup(game, table_seats=int(rec["seats"]), seats=sorted(stacks),
                         stacks=stacks, button=button, posts=posts, big_blind=big,
                         plain="posts" not in rec)  # fmt: skip
    return PeerHand(setup, hand.hand_uid or f"{hand.table_id}-{hand.hand_id}")


def fold_holdem(hand: StoredHand, apply: Callable[[Operation, str], None], state: PeerHand) -> None:
    """Apply ``hand``'s operations to ``state`` one by one through ``apply(op, title)``.

    Raises:
        DealerAssistError: an operation the hand refuses (the record is not what the rules
            allow any more). KeyError, ValueError: a card or action the record lacks.
    """
    rec = hand.record
    cards: Mapping[Any, Any] = {c.get("position"): c for c in hand.extra.get("cards", [])}
    actions = list(rec.get("actions", []))
    mucked = set(rec.get("mucked", []))
    while not state.is_over:
        auto = state.automatic()
        if auto is not None:
            if isinstance(auto, HandSettled):
                auto = HandSettled(at=hand.ended_at)
            apply(auto, _auto_title(auto))
        elif state.pending_deal:
            pos = str(state.pending_deal[0])
            c = cards[pos]
            op: Operation = CardDealt(
                deck_id=str(c.get("deck_id", "")), index=int(c.get("index", 0)),
                card=parse_card(str(c["card"])), source=str(c.get("source", "")),
                manual=bool(c.get("manual")), at=datetime.fromisoformat(c["at"]),
            )  # fmt: skip
            apply(op, pos)
        elif state.actor is not None and state.street is None:
            seat = state.actor
            apply(Showdown(seat=seat, shown=seat not in mucked),
                  f"seat {seat} {'mucks' if seat in mucked else 'shows'}")  # fmt: skip
        elif state.actor is not None:
            if not actions:
                raise ValueError("the record has no more actions but a seat is to act")
            a = actions.pop(0)
            to = a.get("to")
            apply(Bet(seat=int(a["seat"]), bet=a["action"], to=None if to is None else int(to)),
                  f"{a.get('street')}: seat {a['seat']} {a['action']}"
                  + (f" to {to}" if to is not None else ""))  # fmt: skip
        else:
            return


def _auto_title(op: Operation) -> str:
    fields = op.to_json()
    if op.kind == "forced_bet":
        return f"seat {fields['seat']} posts {fields['bet']} {fields['amount']}"
    if op.kind == "pot":
        return f"pot {fields['pot']} {fields['amount']} awarded"
    if op.kind == "showdown":
        return f"seat {fields['seat']} shows"
    return op.kind
