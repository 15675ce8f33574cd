"""A stored Seven Card Stud hand replayed as a fold over
:class:`~dealer_assist.engine.peer_state.PeerHand` operations (docs/PITBOSS.md "Replay").

:func:`stud_state` rebuilds the hand's :class:`~dealer_assist.engine.peer_setup.PeerSetup` with
the game module's own :func:`~dealer_assist.games.stud_hand.stud_setup` from the record's own
fields (betting, ante, bring-in, limits: the completion is the small bet, chip, settings, each
player's stack); :func:`stud_cards` says which card went to each position; then
:func:`~dealer_assist.pitboss.pot_replay.peer_derived` gives its operations as the table applied
them: the antes, third street's two down cards and the door card round by round, the bring-in by the
lowest door card (the seat that folds it passes it on), each later street's burn and up (or
seventh's down) card, the round opened by the best exposed hand, the new deck of a short
seventh street, the showdown in the game's order, the pots, the settlement.

A journaled hand carries each card's provenance (``extra.cards``: position, source, deck,
index). A record without it (an interchange file, a dispute case) gives its cards in deal order
(``players[].cards``, ``community``); what a record does not hold (the burns, a folded or mucked
down card shown as ``??``) is dealt as a stand-in card of those the record never names, marked
``not recorded``: such a card is never shown and plays no part in the settlement.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import cycle
from typing import Any

from dealer_assist.cards import FULL_DECK, Card, parse_card
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.state import Position
from dealer_assist.games.stud import STREETS, StudSettings
from dealer_assist.games.stud_hand import StudGame, stud_setup
from dealer_assist.pitboss.pot_replay import FROM_RECORD, NOT_RECORDED, CardsAt, provenance
from dealer_assist.ports import StoredHand

_UNKNOWN = "??"


def stud_state(hand: StoredHand) -> PeerHand:
    """A new :class:`PeerHand` set up as ``hand`` started (every player dealt in antes).

    Raises:
        DealerAssistError: a field the game refuses (ConfigError: a bring-in above half the
            small limit ...; HandStateError: fewer than two players). KeyError, TypeError,
            ValueError: a record without the fields of HAND_RECORD.md "Pot games".
    """
    rec = hand.record
    small, big = rec["limits"]
    game = StudGame(
        betting=rec["betting"],
        limits=(int(small), int(big)),
        ante=int(rec.get("ante", 0)),
        bring_in=int(rec["bring_in"]),
        chip=int(rec.get("chip", 1)),
        settings=StudSettings.from_json(rec.get("settings", {})),
    )
    stacks = {int(p["seat"]): int(p["stack"]) for p in rec["players"]}
    setup = stud_setup(game, table_seats=int(rec["seats"]), stacks=stacks)
    return PeerHand(setup, hand.hand_uid or f"{hand.table_id}-{hand.hand_id}")


def stud_cards(hand: StoredHand) -> CardsAt:
    """position text -> the card dealt there: the journal's provenance when the hand has it,
    else the record's cards in deal order with stand-ins (see the module doc).

    Raises:
        DealerAssistError: a card text that is not a card (CardError).
    """
    known = provenance(hand)
    if known:
        return known
    rec = hand.record
    at = hand.started_at.isoformat()
    placed: dict[str, Card | None] = {}
    for p in rec.get("players", []):
        for n, text in enumerate(p.get("cards", []), 1):
            card = None if text == _UNKNOWN else parse_card(str(text))
            placed[str(Position("seat", n, int(p["seat"])))] = card
    community = rec.get("community")
    for n, text in enumerate([community] if isinstance(community, str) else community or [], 1):
        placed[str(Position("board", n))] = parse_card(str(text))
    for n in range(1, sum(s.burn for s in STREETS) + 1):
        placed[str(Position("burn", n))] = None
    named = set(placed.values())
    # a full table names up to 49 cards: a stand-in may repeat (the hand checks no duplicate)
    spare = cycle([c for c in FULL_DECK if c not in named] or FULL_DECK)
    out: dict[str, Mapping[str, Any]] = {}
    for pos, card in placed.items():
        source = FROM_RECORD if card is not None else NOT_RECORDED
        out[pos] = {
            "card": str(card if card is not None else next(spare)),
            "source": source,
            "at": at,
        }
    return out
