"""Theoretical hold of the pay tables in force ("Statistics and plots").

Two methods, by what the bet depends on:

- **Exact** for the side bets that depend on the cards alone: UTH's Trips (the player's best
  five of seven cards, rules text 000 table "Trips") from the seven-card census, and THB's Bonus
  (the two hole cards, rules text 004) by enumerating the C(52, 2) = 1,326 hole pairs. The house
  edge per unit wagered is a :class:`~fractions.Fraction`.
- **Seeded simulation** for the main games, whose result depends on the player's decisions: one
  seat plays ``n`` hands against the dealer with the game's :class:`PlayerStrategy`
  (``GameRules.strategy``, :mod:`dealer_assist.engine.strategy`) and the game's own ``settle``;
  the hold (house win / drop) is stated with a 95% confidence interval (delta method on the
  ratio of sums).

Published figures the exact ones agree with (checked in tests/core/test_hold.py):

- UTH Trips 50-40-30-8-7-4-3 (the default, rules text 000): house edge 3.50%
  (Wizard of Odds' Trips pay table analysis, quoted at
  https://pistvendulcilatau.netlify.app/ultimate-texas-holdem-trips-bet-house-edge:
  "the Trips Bonus bet ... house edge of 3.50%"); exactly 233,985 / 6,689,228 = 3.4979%.
  The other common table, 50-40-30-8-6-5-3, gives the published 1.90% (same page: "the house
  edge is quite significant at 1.9%").
- THB Bonus 30-25-20-15-10-5-3 without the dealer-also-AA line (rules text 004; the line as at
  http://www.nagaworld.com/play/the-world-best-games/texas-hold-em-bonus less its 1,000:1 AA/AA
  line): 118 / 1,326 = 59 / 663 = 8.899%.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import combinations

from dealer_assist.cards import FULL_DECK
from dealer_assist.engine.paytable import Odds, PayTable, PayTables
from dealer_assist.engine.rules import Action, HandRecord, PlayerHand
from dealer_assist.errors import ConfigError
from dealer_assist.evaluator import Category
from dealer_assist.games import POT_GAME_CODES, get_game
from dealer_assist.games.thb import bonus_line
from dealer_assist.paytables import build_paytables

#: Categories of all C(52, 7) = 133,784,560 seven-card hands (the best five of seven), as
#: :func:`dealer_assist.batch_eval.seven_card_census` counts them (tests/core/test_batch_eval.py
#: checks the census; the figures are the well-known ones).
SEVEN_CARD_COUNTS: Mapping[Category, int] = {
    Category.ROYAL_FLUSH: 4_324,
    Category.STRAIGHT_FLUSH: 37_260,
    Category.FOUR_OF_A_KIND: 224_848,
    Category.FULL_HOUSE: 3_473_184,
    Category.FLUSH: 4_047_644,
    Category.STRAIGHT: 6_180_020,
    Category.THREE_OF_A_KIND: 6_461_620,
    Category.TWO_PAIR: 31_433_400,
    Category.PAIR: 58_627_800,
    Category.HIGH_CARD: 23_294_460,
}

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""

_ANTE = 100  # the simulated seat's Ante in minor units: every payout of the defaults is whole


def _ratio(odds: Odds | None) -> Fraction:
    return Fraction(odds[0], odds[1]) if odds else Fraction(0)


def trips_edge(table: PayTable, counts: Mapping[Category, int] = SEVEN_CARD_COUNTS) -> Fraction:
    """House edge of UTH's Trips per unit wagered, exactly: 1 - E[return], where a line pays
    ``win:stake`` plus the stake back and any other hand loses (rules text 000, Trips).

    Args:
        table: the Trips pay table in force (``{category code: (win, stake) | None}``).
        counts: seven-card category counts (default :data:`SEVEN_CARD_COUNTS`).
    """
    total = sum(counts.values())
    returned = sum(
        (n * (1 + _ratio(table.get(c.code))) for c, n in counts.items() if table.get(c.code)),
        Fraction(0),
    )
    return 1 - returned / total


def bonus_edge(table: PayTable) -> Fraction:
    """House edge of THB's Bonus per unit wagered, exactly, over the 1,326 hole pairs (rules text
    004: the Bonus is settled on the two hole cards alone; a line not in ``table`` loses)."""
    pairs = list(combinations(FULL_DECK, 2))
    returned = Fraction(0)
    for hole in pairs:
        line = bonus_line(hole)
        odds = table.get(line) if line else None
        if odds:
            returned += 1 + _ratio(odds)
    return 1 - returned / len(pairs)


_EXACT = {("uth", "trips"): trips_edge, ("thb", "bonus"): bonus_edge}


def exact_side_edges(game: str, paytables: PayTables | None = None) -> dict[str, Fraction]:
    """``{box: house edge}`` of the side bets of ``game`` with an exact figure (UTH ``trips``,
    THB ``bonus``), for ``paytables`` (default the game's, GAMES.md). Empty for other games.

    Raises:
        ConfigError: unknown game.
    """
    if game in POT_GAME_CODES:
        return {}
    rules = get_game(game)
    tables = paytables.tables if paytables else rules.default_paytables
    return {box: f(tables[box]) for (g, box), f in _EXACT.items() if g == game and box in tables}


@dataclass(frozen=True)
class Estimate:
    """A simulated hold: house win / drop over ``hands`` hands, with its 95% interval.

    Attributes:
        hands: hands simulated.
        drop: total wagered, minor units; ``win``: the house's result, minor units.
        per_hand_sd: standard deviation of one hand's contribution to the hold (house win minus
            ``hold`` x wagered, over the mean wager): the hold of ``n`` hands has standard error
            ``per_hand_sd / sqrt(n)``; what the variance alert's band is made of.
    """

    hands: int
    drop: int
    win: int
    per_hand_sd: float

    @property
    def hold(self) -> Fraction:
        """``win / drop`` exactly (0 without drop)."""
        return Fraction(self.win, self.drop) if self.drop else Fraction(0)

    @property
    def half_width(self) -> float:
        """Half the 95% confidence interval of :attr:`hold`."""
        return Z95 * self.per_hand_sd / math.sqrt(self.hands) if self.hands else math.inf

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% confidence interval of :attr:`hold` (fractions of the drop)."""
        h = float(self.hold)
        return (h - self.half_width, h + self.half_width)

    def band(self, hands: int) -> tuple[float, float]:
        """Where 95% of observed holds over ``hands`` hands fall if the game is as simulated:
        ``hold ± 1.96 · per_hand_sd / sqrt(hands)`` (the simulation's own error added)."""
        if hands <= 0:
            return (-math.inf, math.inf)
        spread = Z95 * self.per_hand_sd * math.sqrt(1 / hands + 1 / max(self.hands, 1))
        return (float(self.hold) - spread, float(self.hold) + spread)


@dataclass(frozen=True)
class Simulation:
    """A main game simulated: ``main`` over the boxes played against the dealer, ``side`` per
    optional box staked on every hand (the Ante's size), with the settings used."""

    game: str
    hands: int
    seed: int
    main: Estimate
    side: Mapping[str, Estimate]


def _estimate(wins: list[int], wagers: list[int]) -> Estimate:
    n = len(wins)
    drop, win = sum(wagers), sum(wins)
    if n < 2 or drop == 0:
        return Estimate(n, drop, win, math.inf)
    h = win / drop
    mean_w = drop / n
    resid = [x - h * w for x, w in zip(wins, wagers, strict=True)]
    var = sum(r * r for r in resid) / (n - 1)
    return Estimate(n, drop, win, math.sqrt(var) / mean_w)


def _play(
    rules_code: str, rng: random.Random, tables: PayTables, sides: tuple[str, ...]
) -> tuple[HandRecord, dict[str, int]]:
    rules = get_game(rules_code)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    hole, dealer, board = tuple(deck[0:2]), tuple(deck[2:4]), tuple(deck[4:9])
    bets = {box: _ANTE for box in rules.required_boxes}
    bets.update({box: _ANTE for box in sides})
    actions: list[Action] = []
    for street in rules.streets:
        legal = rules.legal_actions(street.name, actions)
        if not legal:
            break
        want = rules.strategy.choice(street.name, hole, board[: street.board_visible])
        actions.append(next((a for a in legal if (a.action, a.multiple) == want), legal[-1]))
    player = PlayerHand(1, hole, bets, tuple(actions))
    return HandRecord(rules_code, None, board, dealer, (player,), tables), bets


def simulate_hold(
    game: str,
    hands: int,
    seed: int = 1,
    paytables: PayTables | None = None,
    side_bets: bool = True,
) -> Simulation:
    """Simulate ``hands`` hands of one seat at ``game`` (a banked game: ``uth``, ``thb``) with
    the game's basic strategy, settled by the game's ``settle``; seeded, so the same arguments
    give the same figures.

    Args:
        game: game code.
        hands: hands to play (at least 2).
        seed: the deck's random seed.
        paytables: the pay tables in force (default the game's).
        side_bets: stake each optional box (Trips, Bonus) on every hand too, reported apart.

    Raises:
        ConfigError: unknown game, a pot game, or fewer than 2 hands.
    """
    rules = get_game(game)
    if hands < 2:
        raise ConfigError(f"simulate_hold: at least 2 hands, got {hands}")
    tables = paytables or PayTables(rules.default_paytables)
    sides = tuple(rules.optional_boxes) if side_bets else ()
    rng = random.Random(seed)
    main_w: list[int] = []
    main_x: list[int] = []
    side_x: dict[str, list[int]] = {box: [] for box in sides}
    for _ in range(hands):
        record, _bets = _play(game, rng, tables, sides)
        seat = rules.settle(record).seats[0]
        staked = win = 0
        for box in seat.bets:
            if box.box in side_x:
                side_x[box.box].append(-box.net)
            else:
                staked += box.stake
                win -= box.net
        main_w.append(staked)
        main_x.append(win)
    side = {box: _estimate(xs, [_ANTE] * len(xs)) for box, xs in side_x.items()}
    return Simulation(game, hands, seed, _estimate(main_x, main_w), side)


@lru_cache(maxsize=32)
def _cached(game: str, hands: int, seed: int, tables_key: str) -> Simulation:
    tables = _tables_from_key(game, tables_key) if tables_key else None
    return simulate_hold(game, hands, seed, tables, side_bets=False)


def _tables_from_key(game: str, key: str) -> PayTables:
    return build_paytables(game, json.loads(key))


def main_game_hold(
    game: str, hands: int = 20_000, seed: int = 1, paytables: PayTables | None = None
) -> Estimate | None:
    """The simulated hold of ``game``'s main boxes (cached per arguments in this process), or
    ``None`` for a game without a house-banked main bet (pot games: the house takes a rake).

    Raises:
        ConfigError: fewer than 2 hands.
    """
    if game not in ("uth", "thb"):
        return None
    key = "" if paytables is None else json.dumps(paytables.to_json(), sort_keys=True)
    return _cached(game, hands, seed, key).main
