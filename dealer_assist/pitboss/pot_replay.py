"""A stored pot-game hand replayed as a fold over
:class:`~dealer_assist.engine.peer_state.PeerHand` operations (docs/PITBOSS.md "Replay").

The table's :class:`~dealer_assist.engine.peer_setup.PeerSetup` is rebuilt from the record's own
fields by the game's own setup function (Hold'em here: betting, blinds, ante, chip, limits,
settings, button, each player's stack, the posts; in the plain case the posts the game module
derives, in the order it posts them; Stud: :mod:`dealer_assist.pitboss.stud_replay`), then
:func:`peer_derived` gives each operation the hand asks for next, for the one fold
(:func:`dealer_assist.engine.fold.fold`) of a hand journaled before its operations were: its
automatic operation (a forced bet, an all-in showdown, a pot, the settlement), the new deck of a
short street, the card recorded at the position it asks for, the next recorded action of the seat
to act, or the seat's show or muck.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import replace
from datetime import datetime
from typing import Any

from dealer_assist.cards import parse_card
from dealer_assist.engine.operations import (
    Bet,
    CardDealt,
    DeckStarted,
    HandSettled,
    HandVoided,
    Operation,
    Showdown,
)
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.games.holdem import ANTE, BIG_BLIND, SMALL_BLIND, HoldemSettings, forced_bets
from dealer_assist.games.holdem_hand import HoldemGame, holdem_setup
from dealer_assist.games.holdem_record import read_rake
from dealer_assist.ports import StoredHand

FROM_RECORD, NOT_RECORDED = "record", "not recorded"
"""The ``source`` of a card a record without provenance gives, and of a stand-in for one it
does not hold (a burn, a down card shown as ``??``): the replay's titles say so."""
CardsAt = Mapping[str, Mapping[str, Any]]
"""position text (``seat 3 card 2``, ``burn 1``, ``board 4``) -> the card's provenance entry
(``card``, ``source``, ``deck_id``, ``index``, ``manual``, ``at``: as the journal's
``extra.cards``)."""


def holdem_state(hand: StoredHand) -> PeerHand:
    """A new :class:`PeerHand` set up as ``hand`` started.

    Raises:
        DealerAssistError: a field the setup refuses. KeyError, TypeError, ValueError: a record
            without the fields of HAND_RECORD.md "Pot games".
    """
    rec = hand.record
    limits = rec.get("limits")
    percent, cap = read_rake(rec.get("rake"))  # the record keeps the rake beside the settings
    settings = HoldemSettings.from_json(rec.get("settings", {}))
    game = HoldemGame(
        betting=rec["betting"],
        blinds=(int(rec["blinds"][0]), int(rec["blinds"][1])),
        ante=int(rec.get("ante", 0)),
        ante_kind=rec.get("ante_kind"),
        chip=int(rec["chip"]),
        limits=None if limits is None else (int(limits[0]), int(limits[1])),
        settings=replace(settings, rake_percent=percent, rake_cap=cap),
    )
    stacks = {int(p["seat"]): int(p["stack"]) for p in rec["players"]}
    button = int(rec["button"])
    by_big = game.ante_kind == BIG_BLIND
    if "posts" in rec:
        posts = [(int(p["seat"]), str(p["type"]), int(p["amount"])) for p in rec["posts"]]
        big = next((s for s, k, _ in posts if k == BIG_BLIND), None)
    else:
        dead, live, big = forced_bets(
            list(stacks), button, game.blinds, game.ante, ante_by_big=by_big
        )
        blinds = [(s, BIG_BLIND if s == big else SMALL_BLIND, a) for s, a in live.items()]
        blinds.sort(key=lambda p: p[1] == BIG_BLIND)  # the small blind first
        antes = [(s, ANTE, a) for s, a in dead.items()]
        posts = [*blinds, *antes] if by_big else [*antes, *blinds]
    setup = holdem_setup(
        game,
        table_seats=int(rec["seats"]),
        seats=sorted(stacks),
        stacks=stacks,
        button=button,
        posts=posts,
        big_blind=big,
        plain="posts" not in rec,
    )
    return PeerHand(setup, hand.hand_uid or f"{hand.table_id}-{hand.hand_id}")


def provenance(hand: StoredHand) -> dict[str, Mapping[str, Any]]:
    """The journal's card provenance of ``hand`` by position (``extra.cards``); empty when the
    record came without it."""
    cards = hand.extra.get("cards", [])
    return {str(c.get("position")): c for c in cards if isinstance(c, Mapping)}


def peer_derived(hand: StoredHand, state: PeerHand, cards: CardsAt) -> Iterator[Operation]:
    """The operations of a pot-game ``hand`` after its ``HandOpened``, derived from its record
    as ``state`` asks for each (the fold applies each before the next is asked for), the cards
    from ``cards`` at the positions the hand asks for (see the module doc).

    A void hand's operations stop at the first card or action its record lacks, then its void.

    Raises:
        KeyError, ValueError: a card or action the record lacks, or an action recorded on
            another street than the one being bet (the record is not what the rules allow).
    """
    rec = hand.record
    actions = list(rec.get("actions", []))
    mucked = set(rec.get("mucked", []))
    void = hand.status == "void"  # it stops where its record does: the void comes next
    while not state.is_over:
        auto = state.automatic()
        if auto is not None:
            yield HandSettled(at=hand.ended_at) if isinstance(auto, HandSettled) else auto
        elif state.new_deck_needed:
            yield _new_deck(state, cards)
        elif state.pending_deal:
            pos = str(state.pending_deal[0])
            c = cards.get(pos)
            if c is None and void:
                break
            if c is None:
                raise KeyError(f"no card recorded at {pos}")
            yield card_of(c)
        elif state.actor is not None and state.street is None:
            yield Showdown(seat=state.actor, shown=state.actor not in mucked)
        elif state.actor is not None:
            if not actions and void:
                break
            if not actions:
                raise ValueError("the record has no more actions but a seat is to act")
            a = actions.pop(0)
            if a.get("street") != state.street:
                raise ValueError(
                    f"an action recorded on {a.get('street')} while {state.street} is bet: {a}"
                )
            to = a.get("to")
            yield Bet(seat=int(a["seat"]), bet=a["action"], to=None if to is None else int(to))
        else:
            break
    if void and not state.is_over:
        yield HandVoided(code="void", detail=hand.void_reason or "", at=hand.ended_at)


def card_of(c: Mapping[str, Any]) -> CardDealt:
    """The ``CardDealt`` of one card provenance entry (``extra.cards``, or a record's card).

    Raises:
        KeyError: no ``card``; CardError, ValueError: a card or time that does not read.
    """
    return CardDealt(
        deck_id=str(c.get("deck_id", "")),
        index=int(c.get("index", 0)),
        card=parse_card(str(c["card"])),
        source=str(c.get("source", "")),
        manual=bool(c.get("manual")),
        at=datetime.fromisoformat(str(c["at"])),
        identified_by=str(c.get("identified_by", "")),
        confirmed_by=str(c.get("confirmed_by", "")),
    )


def _new_deck(state: PeerHand, cards: CardsAt) -> DeckStarted:
    """The short street's new deck (the device shuffled the burns with the stub): its id is
    the one its first card carries."""
    deal = state.deal
    first = cards.get(str(state.pending_deal[0]), {}) if state.pending_deal else {}
    count = deal.new_deck_count if deal is not None else 0
    return DeckStarted(deck_id=str(first.get("deck_id", "")), count=count)
