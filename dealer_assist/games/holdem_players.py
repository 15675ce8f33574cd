"""Seeded simulated Hold'em players and random, legal Hold'em hand records.

Not a solver: a :class:`Player` of one :data:`STYLES` style looks at a rough strength of its
cards (:func:`strength`: a preflop score from the two hole cards, after the flop the category of
the best five and whether the hole cards make it), the pot and the amount to call, and picks one
of the legal actions of an :class:`~dealer_assist.engine.state.ActionSpace` (GAMES.md "Pot games:
A betting round"). Every random draw comes from the ``random.Random`` it is given, so a seed gives
the same decisions. The same players drive the ``simulate`` table and :func:`random_record`.

:func:`random_record` deals a whole hand (HAND_RECORD.md "Pot games"): a random button, blinds,
sometimes antes or a big-blind ante, a chip unit, stacks (some short enough to go all-in on the
blinds), cards from a shuffled deck, the actions of the players driving
:class:`~dealer_assist.engine.peer_hand.PeerBetting`, the board as far as the hand needed it,
sometimes ``mucked`` hands at the showdown, a ``rake`` or non-default ``settings``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.cards import FULL_DECK, Card, format_cards
from dealer_assist.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from dealer_assist.engine.peer import BettingStructure, Structure
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.engine.state import ActionSpace, AmountRange
from dealer_assist.errors import ConfigError
from dealer_assist.evaluator import Category, evaluate
from dealer_assist.games.holdem import BIG_BLIND, CODE, MAX_SEATS, STREETS, forced_bets


@dataclass(frozen=True)
class Style:
    """How a simulated player plays (probabilities 0..1, strengths on the :func:`strength`
    scale 0..1).

    Attributes:
        name: the style's name (:data:`STYLES`).
        call_at: the strength needed to call a bet, plus ``price`` times the share of the pot
            the call costs.
        raise_at: the strength needed to bet or raise for value.
        bluff: probability of a bet or raise without that strength.
        shove: probability that a bet or raise goes to the range's maximum (all-in in no limit).
        sticky: probability of calling anyway when the strength says fold.
        price: how much the cost of a call raises ``call_at``.
    """

    name: str
    call_at: float
    raise_at: float
    bluff: float
    shove: float
    sticky: float
    price: float = 0.3


STYLES: dict[str, Style] = {
    s.name: s
    for s in (
        Style("tight", call_at=0.55, raise_at=0.72, bluff=0.02, shove=0.04, sticky=0.02),
        Style("loose", call_at=0.30, raise_at=0.55, bluff=0.15, shove=0.08, sticky=0.15),
        Style("all_in_happy", call_at=0.35, raise_at=0.50, bluff=0.12, shove=0.75, sticky=0.10),
        Style(
            "calling_station",
            call_at=0.12,
            raise_at=0.88,
            bluff=0.01,
            shove=0.02,
            sticky=0.6,
            price=0.1,
        ),
    )
}
"""The simulated players' styles by name: ``tight``, ``loose``, ``all_in_happy``,
``calling_station``."""

# Strength of the best five by category (before the hole cards' share is weighed).
_MADE = {
    Category.HIGH_CARD: 0.10,
    Category.PAIR: 0.38,
    Category.TWO_PAIR: 0.60,
    Category.THREE_OF_A_KIND: 0.70,
    Category.STRAIGHT: 0.78,
    Category.FLUSH: 0.84,
    Category.FULL_HOUSE: 0.92,
    Category.FOUR_OF_A_KIND: 0.97,
    Category.STRAIGHT_FLUSH: 0.99,
    Category.ROYAL_FLUSH: 1.0,
}


def strength(hole: Sequence[Card], board: Sequence[Card]) -> float:
    """A rough strength 0..1 of ``hole`` (two cards) with ``board`` (0 or 3..5 cards).

    Preflop: pairs 0.5 (deuces) .. 1.0 (aces); other hands by their two ranks, more when suited
    or connected (ace-king suited about 0.8, seven-deuce offsuit about 0.2). After the flop: the
    category of the best five (GAMES.md "Hand value"), its top rank, and much less when the board
    alone makes that category (the hole cards add nothing).
    """
    if len(hole) != 2:
        return 0.0
    a, b = hole
    hi, lo = max(a.rank, b.rank), min(a.rank, b.rank)
    if len(board) < 3:
        if hi == lo:
            return 0.5 + (hi - 2) / 24
        score = (hi - 2) / 12 * 0.45 + (lo - 2) / 12 * 0.25
        if a.suit == b.suit:
            score += 0.07
        if hi - lo == 1:
            score += 0.05
        return min(score, 0.95)
    value = evaluate((*hole, *board))
    made = _MADE[value.category]
    top = (value.value >> 16) & 0xF  # the first rank of the value (evaluator layout)
    score = made + (top - 2) / 12 * 0.08
    if _board_category(board) >= value.category:
        score = 0.10 + (hi - 2) / 12 * 0.15  # playing the board: the kicker at most
    return min(score, 1.0)


def _board_category(board: Sequence[Card]) -> Category:
    """The category the board alone shows (groups of equal ranks; a five-card board fully)."""
    if len(board) >= 5:
        return evaluate(board).category
    counts = sorted(
        (sum(1 for c in board if c.rank == r) for r in {c.rank for c in board}), reverse=True
    )
    if counts[0] >= 4:
        return Category.FOUR_OF_A_KIND
    if counts[0] == 3:
        return Category.THREE_OF_A_KIND
    if counts[0] == 2:
        return Category.TWO_PAIR if len(counts) > 1 and counts[1] == 2 else Category.PAIR
    return Category.HIGH_CARD


class Player:
    """A simulated player of one style, drawing from ``rng``.

    Args:
        style: a name of :data:`STYLES`.
        rng: the generator every decision draws from (the same seed, the same decisions).

    Raises:
        ConfigError: an unknown style.
    """

    def __init__(self, style: str, rng: random.Random) -> None:
        if style not in STYLES:
            raise ConfigError(f"unknown player style {style!r} (styles: {', '.join(STYLES)})")
        self.style = STYLES[style]
        self.rng = rng

    def choose(
        self,
        space: ActionSpace,
        *,
        hole: Sequence[Card],
        board: Sequence[Card],
        pot: int,
        to_call: int,
    ) -> tuple[str, int | None]:
        """One legal action of ``space``: ``(kind, to)``, ``to`` the total for a bet or raise
        (in ``space.amount``, on its step or its maximum), None otherwise.

        Args:
            space: what the seat may do (a non-empty :class:`ActionSpace`).
            hole, board: the seat's cards and the board dealt so far.
            pot: every chip in the pots and bets so far (minor units).
            to_call: chips the seat must add to call (0: it may check).

        Raises:
            ConfigError: an empty ``space`` (nothing to choose).
        """
        kinds = space.kinds
        if not kinds:
            raise ConfigError(f"seat {space.seat} has no action to choose")
        st, rng = self.style, self.rng
        s = strength(hole, board) + rng.uniform(-0.08, 0.08)
        aggressive = next((k for k in kinds if k not in (FOLD, CHECK, CALL)), None)
        if (
            aggressive is not None
            and space.amount is not None
            and (s >= st.raise_at or rng.random() < st.bluff)
        ):
            return aggressive, self._amount(space.amount, pot, to_call, s)
        if CHECK in kinds:
            return CHECK, None
        price = to_call / max(pot + to_call, 1)
        if CALL in kinds and (s >= st.call_at + st.price * price or rng.random() < st.sticky):
            return CALL, None
        if FOLD in kinds:
            return FOLD, None
        return kinds[0], (space.amount.minimum if space.amount is not None else None)

    def _amount(self, amounts: AmountRange, pot: int, to_call: int, s: float) -> int:
        """A total in ``amounts``: the maximum when shoving, else the minimum plus a share of
        the pot (a third to the whole of it, more with a strong hand), on the chip step."""
        low, high, step = amounts.minimum, amounts.maximum, amounts.step
        if high <= low or self.rng.random() < self.style.shove:
            return high
        share = self.rng.uniform(0.33, 1.0) * (0.5 + s)
        extra = int((pot + to_call) * share) // step * step
        to = low + extra
        return high if to >= high else to


def _stack(rng: random.Random, big: int, chip: int) -> int:
    """A starting stack in whole chips: mostly 20..200 big blinds, sometimes short (down to one
    chip: all-in on the blinds or the antes)."""
    if rng.random() < 0.2:
        chips = rng.randint(1, max(1, 8 * big // chip))
    else:
        chips = rng.randint(20 * big // chip, 200 * big // chip)
    return chips * chip


def random_record(
    rng: random.Random,
    *,
    betting: Structure,
    seats: int | None = None,
    table_seats: int = 9,
    styles: Sequence[str] | None = None,
) -> dict[str, Any]:
    """A complete, legal, random ``holdem`` hand record (HAND_RECORD.md "Pot games").

    Args:
        rng: every draw comes from it (the same seed, the same record).
        betting: ``no_limit``, ``pot_limit`` or ``fixed_limit``.
        seats: players dealt in (2..``table_seats``); None draws 2..``table_seats``.
        table_seats: the table's seats (the record's ``seats``, at most 10).
        styles: the styles players are drawn from (default: every style of :data:`STYLES`).

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
    button = rng.choice(dealt) if rng.random() < 0.9 else rng.randint(1, table_seats)
    chip = rng.choice((1, 1, 5, 25))
    big = chip * rng.choice((2, 4, 10, 20))
    small = max(chip, big // 2 // chip * chip)
    ante, ante_by_big = 0, False
    if rng.random() < 0.3:
        ante_by_big = rng.random() < 0.4
        ante = big if ante_by_big else max(chip, big // 10 // chip * chip)
    stacks = {s: _stack(rng, big, chip) for s in dealt}
    record: dict[str, Any] = {
        "game": CODE,
        "betting": betting,
        "seats": table_seats,
        "button": button,
        "blinds": [small, big],
        "ante": ante,
        "chip": chip,
    }
    if ante_by_big:
        record["ante_kind"] = BIG_BLIND
    settings = _settings(rng, betting)
    if settings:
        record["settings"] = settings
    limits = (big, 2 * big)
    if betting == "fixed_limit":
        record["limits"] = list(limits)
    cap = settings.get("max_raises", 3) if betting == "fixed_limit" else None
    first, later = limits if betting == "fixed_limit" else (big, big)
    structure = BettingStructure(betting, first, later, cap, chip)
    dead, live, big_seat = forced_bets(dealt, button, (small, big), ante, ante_by_big=ante_by_big)
    hand = PeerBetting(
        dealt,
        stacks,
        button,
        STREETS,
        structure,
        dead=dead,
        live=live,
        big_blind=big_seat,
        blind=big,
        uncapped_heads_up=settings.get("no_cap_heads_up", True),
        blinds_first=ante_by_big,
        reopen_by_sum=settings.get("reopen_by_sum", True),
    )

    deck = list(FULL_DECK)
    rng.shuffle(deck)
    holes = {s: (deck[i], deck[i + n]) for i, s in enumerate(dealt)}
    rest = deck[2 * n :]
    runout = [*rest[1:4], rest[5], rest[7]]  # burn, flop, burn, turn, burn, river
    shown = [0, *(sum(s.board for s in STREETS[: i + 1]) for i in range(1, len(STREETS)))]
    actions: list[dict[str, Any]] = []
    while not hand.is_over:
        seat, street, rnd = hand.actor, hand.street, hand.round
        if seat is None or street is None or rnd is None:
            break  # is_over guards this; kept for the type checker
        to_call = rnd.high - rnd.committed[seat]
        kind, to = players[seat].choose(
            hand.legal(seat),
            hole=holes[seat],
            board=runout[: shown[hand.index]],
            pot=sum(hand.total.values()),
            to_call=to_call,
        )
        action: dict[str, Any] = {"street": street, "seat": seat, "action": kind}
        if to is not None and kind in (BET, RAISE):
            action["to"] = to
        hand.act(street, seat, kind, to)
        actions.append(action)

    live_seats = hand.live()
    record["players"] = [
        {"seat": s, "stack": stacks[s], "hole": _hole_text(rng, holes[s], s in live_seats)}
        for s in dealt
    ]
    record["board"] = format_cards(runout[: shown[hand.reached]])
    record["actions"] = actions
    if len(live_seats) > 1 and rng.random() < 0.25:
        mucked = _mucked(rng, hand, live_seats, 0 if ante_by_big else ante)
        if mucked:
            record["mucked"] = mucked
    if rng.random() < 0.2:
        rake: dict[str, Any] = {"percent": rng.choice((2.5, 5, 10))}
        if rng.random() < 0.7:
            rake["cap"] = big * rng.choice((1, 3, 5))
        record["rake"] = rake
    return record


def _settings(rng: random.Random, betting: Structure) -> dict[str, Any]:
    """Now and then a table that departs from a default (HoldemSettings)."""
    out: dict[str, Any] = {}
    if rng.random() < 0.1:
        out["reopen_by_sum"] = False
    if betting == "fixed_limit" and rng.random() < 0.2:
        out["no_cap_heads_up"] = False
    if betting == "fixed_limit" and rng.random() < 0.1:
        out["max_raises"] = rng.choice((2, 4))
    if rng.random() < 0.05:
        out["no_flop_no_drop"] = False
    return out


def _hole_text(rng: random.Random, hole: tuple[Card, Card], live: bool) -> list[str] | None:
    """The hole cards as written; a folded hand now and then unknown (an imported record)."""
    if not live and rng.random() < 0.1:
        return None if rng.random() < 0.5 else ["??", "??"]
    return format_cards(hole)


def _mucked(rng: random.Random, hand: PeerBetting, live: list[int], ante: int) -> list[int]:
    """Some showdown hands thrown away, always leaving one hand shown at the top level every
    pot reaches, so no pot is left without a hand (HAND_RECORD.md: a mucked hand gives up its
    pots). A seat's level is what the pots layer (pot_settle): its live chips, the uncalled bet
    aside, plus its dead chips up to the common ``ante`` (dead money above it goes to the main
    pot)."""
    chips = {s: hand.total[s] - hand.dead.get(s, 0) for s in hand.seats}
    ranked = sorted(chips.values(), reverse=True)
    cap = ranked[1] if len(ranked) > 1 else ranked[0]  # the uncalled excess goes back
    level = {s: min(chips[s], cap) + min(hand.dead.get(s, 0), ante) for s in live}
    top = max(level.values())
    keep = rng.choice([s for s in live if level[s] == top])
    return [s for s in live if s != keep and rng.random() < 0.5]
