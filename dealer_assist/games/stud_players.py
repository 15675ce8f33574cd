"""Random, legal Seven Card Stud hand records, played by the seeded Hold'em players.

:func:`random_record` deals a whole ``stud`` hand (HAND_RECORD.md "Pot games") the way the table
does (GAMES.md "Seven Card Stud"): antes, three cards each, the bring-in by the lowest door card
(who now and then folds, passing it on), burn + one card a street to the players still in, the
seventh-street shortage rule (:func:`~dealer_assist.games.stud.seventh_street`: the burns
reshuffled with the stub, or a community card), each round opened by
:func:`~dealer_assist.games.stud.opening` through
:meth:`~dealer_assist.engine.peer_hand.PeerBetting.open_round`. The decisions are those of
:class:`~dealer_assist.games.holdem_players.Player` (its two first cards as the "hole", the rest
as the "board"). Every draw comes from the ``random.Random`` it is given: a seed, a record.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from dealer_assist.cards import FULL_DECK, Card, format_cards
from dealer_assist.engine.betting import BET, BRING_IN, CALL, CHECK, COMPLETE, FOLD, RAISE
from dealer_assist.engine.peer import BettingStructure, Structure
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.errors import ConfigError
from dealer_assist.games.holdem_players import STYLES, Player
from dealer_assist.games.stud import (
    CODE,
    FACE_UP,
    MAX_SEATS,
    STREETS,
    StudSettings,
    opening,
    seventh_street,
)

_SEVENTH = len(STREETS) - 1


def random_record(
    rng: random.Random,
    *,
    betting: Structure,
    seats: int | None = None,
    table_seats: int = MAX_SEATS,
    styles: Sequence[str] | None = None,
    stay_in: bool = False,
) -> dict[str, Any]:
    """A complete, legal, random ``stud`` hand record (HAND_RECORD.md "Pot games").

    Args:
        rng: every draw comes from it (the same seed, the same record).
        betting: ``no_limit``, ``pot_limit`` or ``fixed_limit``.
        seats: players dealt in (2..``table_seats``); None draws 2..``table_seats``.
        table_seats: the table's seats (the record's ``seats``, at most 8).
        styles: the styles players are drawn from (default: every style).
        stay_in: nobody folds and stacks are deep (every player sees seventh street: with 8
            players the deck runs short and a community card is turned).

    Raises:
        ConfigError: a seat count out of range or an unknown style.
    """
    if not 2 <= table_seats <= MAX_SEATS:
        raise ConfigError(f"table_seats must be 2..{MAX_SEATS}, got {table_seats}")
    n = rng.randint(2, table_seats) if seats is None else seats
    if not 2 <= n <= table_seats:
        raise ConfigError(f"seats must be 2..{table_seats}, got {n}")
    pool = list(styles or STYLES)
    dealt = sorted(rng.sample(range(1, table_seats + 1), n))
    players = {s: Player(rng.choice(pool), rng) for s in dealt}
    chip = rng.choice((1, 1, 5, 25))
    small = chip * rng.choice((2, 4, 10, 20))
    big = 2 * small
    bring_in = max(chip, small // 2 // chip * chip) if rng.random() < 0.5 else chip
    bring_in = min(bring_in, small // 2 // chip * chip) or chip
    ante = rng.choice((0, chip, bring_in // 2 // chip * chip or chip))
    stacks = {s: _stack(rng, big, chip, deep=stay_in) for s in dealt}
    settings = _settings(rng, betting)
    record: dict[str, Any] = {
        "game": CODE,
        "betting": betting,
        "seats": table_seats,
        "ante": ante,
        "bring_in": bring_in,
        "limits": [small, big],
        "chip": chip,
    }
    if settings:
        record["settings"] = settings
    st = StudSettings.from_json(settings)
    fixed = betting == "fixed_limit"
    structure = BettingStructure(
        betting, small if fixed else big, big, st.max_raises if fixed else None, chip
    )
    hand = PeerBetting(
        dealt,
        stacks,
        0,
        STREETS,
        structure,
        dead=dict.fromkeys(dealt, ante) if ante else {},
        live={},
        big_blind=None,
        blind=0,
        uncapped_heads_up=st.no_cap_heads_up,
        reopen_by_sum=st.reopen_by_sum,
    )

    deck = list(FULL_DECK)
    rng.shuffle(deck)
    cards: dict[int, list[Card]] = {s: [] for s in dealt}
    for _ in range(3):  # third street: three rounds from seat 1
        for s in dealt:
            cards[s].append(deck.pop())
    burns: list[Card] = []
    community: Card | None = None
    street_index = 0
    actions: list[dict[str, Any]] = []
    while not hand.is_over or street_index < hand.reached:
        while street_index < (hand.reached if hand.is_over else hand.index):
            street_index += 1
            live = hand.live()
            if street_index == _SEVENTH:
                community = _seventh(rng, deck, burns, cards, live)
            else:
                burns.append(deck.pop())
                for s in live:
                    cards[s].append(deck.pop())
        if hand.is_over:
            break
        if hand.waiting:
            up = {s: [c for j, c in enumerate(cards[s]) if FACE_UP[j]] for s in hand.live()}
            op = opening(hand.street or "", up, bring_in=bring_in, fixed_limit=fixed, settings=st)
            hand.open_round(op.order, forced=op.forced, big_open=op.big_open)
            continue
        seat, street, rnd = hand.actor, hand.street, hand.round
        if seat is None or street is None or rnd is None:
            break  # is_over guards this; kept for the type checker
        space = hand.legal(seat)
        to: int | None = None
        if BRING_IN in space.kinds:
            kind = FOLD if not stay_in and rng.random() < 0.15 else BRING_IN
        else:
            held = [c for c in cards[seat]]
            kind, to = players[seat].choose(
                space,
                hole=held[:2],
                board=[*held[2:], *([community] if community else [])],
                pot=sum(hand.total.values()),
                to_call=rnd.high - rnd.committed[seat],
            )
            if stay_in and kind == FOLD:
                kind, to = (CALL if CALL in space.kinds else CHECK), None
        action: dict[str, Any] = {"street": street, "seat": seat, "action": kind}
        if to is not None and kind in (BET, RAISE, COMPLETE):
            action["to"] = to
        hand.act(street, seat, kind, to)
        actions.append(action)

    live_seats = hand.live()
    record["players"] = [
        {"seat": s, "stack": stacks[s], "cards": _cards_text(rng, cards[s], s in live_seats)}
        for s in dealt
    ]
    if community is not None:
        record["community"] = str(community)
    record["actions"] = actions
    return record


def _seventh(
    rng: random.Random,
    deck: list[Card],
    burns: list[Card],
    cards: dict[int, list[Card]],
    live: Sequence[int],
) -> Card | None:
    """Seventh street by the shortage rule; the community card when the deck runs short."""
    plan = seventh_street(sum(len(c) for c in cards.values()), len(burns), len(live))
    if plan.plan == "deal":
        if plan.burn:
            burns.append(deck.pop())
        for s in live:
            cards[s].append(deck.pop())
        return None
    pack = [*deck, *burns]  # the burns shuffled with the stub; folded cards never come back
    deck.clear()
    burns.clear()
    rng.shuffle(pack)
    if plan.plan == "community":
        return pack.pop()
    for s in live:
        cards[s].append(pack.pop())
    return None


def _stack(rng: random.Random, big: int, chip: int, *, deep: bool) -> int:
    """A starting stack in whole chips: mostly 10..100 big bets, sometimes short (down to one
    chip: all-in on the ante or the bring-in); ``deep``: 300..400 big bets."""
    if deep:
        return rng.randint(300 * big // chip, 400 * big // chip) * chip
    if rng.random() < 0.2:
        return rng.randint(1, max(1, 4 * big // chip)) * chip
    return rng.randint(10 * big // chip, 100 * big // chip) * chip


def _settings(rng: random.Random, betting: Structure) -> dict[str, Any]:
    """Now and then a table that departs from a default (StudSettings)."""
    out: dict[str, Any] = {}
    if rng.random() < 0.1:
        out["reopen_by_sum"] = False
    if betting == "fixed_limit" and rng.random() < 0.2:
        out["no_cap_heads_up"] = False
    if betting == "fixed_limit" and rng.random() < 0.1:
        out["max_raises"] = rng.choice((2, 4))
    if betting == "fixed_limit" and rng.random() < 0.1:
        out["open_pair"] = False
    return out


def _cards_text(rng: random.Random, held: list[Card], live: bool) -> list[str]:
    """The cards as written; a folded hand's down cards now and then unknown."""
    out = format_cards(held)
    if not live and rng.random() < 0.1:
        out = [t if FACE_UP[j] else "??" for j, t in enumerate(out)]
    return out
