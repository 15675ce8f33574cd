"""The prize pool, the payouts and the special prizes (rules text 002, "Determinazione e
assegnazione delle vincite"; GAMES.md "Prize pool").

Rounding, in cents:

1. The pool is the sum of every fee paid (entries, rebuys, add-ons), or the guarantee if higher.
2. Each paid place gets ``pool x percentage`` rounded down (winner takes all: place 1 gets the
   pool). With fewer players than paid places, the places that exist share the pool in
   proportion to their percentages.
3. Players sharing places (equal stacks busted in the same hand) share the sum of those places'
   prizes equally, rounded down.
4. Whatever rounding left over goes to the best place (place 1); if several share it, equally,
   and the last cents one each in the ranking's order (registration order among equals).

The highest prize must be above the entry fee: payouts that would break it raise PrizeError.
Special prizes (e.g. a royal flush shown) are paid besides the pool, from the hands' showdowns.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.evaluator import evaluate
from dealer_assist.tournament.errors import PrizeError
from dealer_assist.tournament.ranking import Placing
from dealer_assist.tournament.structure import BASIS_POINTS, TournamentStructure, euros


def prize_pool(structure: TournamentStructure, fees_cents: int) -> int:
    """The pool in cents: ``fees_cents`` (all fees paid, ``Ledger.fees_cents``) or the
    structure's guarantee, whichever is higher."""
    return max(fees_cents, structure.guarantee_cents)


def place_amounts(structure: TournamentStructure, pool_cents: int, players: int) -> list[int]:
    """The prize of each paid place 1..m (m = paid places, at most ``players``), rounded down,
    with the rounding remainder added to place 1 (what the room's screen lists)."""
    amounts = _floors(structure, pool_cents, players)
    amounts[0] += pool_cents - sum(amounts)
    return amounts


def _floors(structure: TournamentStructure, pool_cents: int, players: int) -> list[int]:
    weights = (
        (BASIS_POINTS,)
        if structure.prize_kind == "winner_takes_all"
        else (structure.percentages_bp)
    )
    weights = weights[: max(players, 1)]
    total = sum(weights)
    return [pool_cents * w // total for w in weights]


@dataclass(frozen=True)
class Payout:
    """What ``player`` (at ``place``, ``shared`` by how many) wins from the pool, in cents."""

    place: int
    player: str
    shared: int
    cents: int


def payouts(
    structure: TournamentStructure, ranking: Sequence[Placing], pool_cents: int
) -> tuple[Payout, ...]:
    """Every ranked player's prize (0 for unpaid places), in ranking order; see the module's
    rounding rules. The amounts add up to ``pool_cents`` exactly.

    Raises:
        PrizeError: an empty ranking, or the best prize not above the entry fee (text 002).
    """
    if not ranking:
        raise PrizeError("no one is ranked")
    amounts = _floors(structure, pool_cents, len(ranking))
    first = amounts[0] + pool_cents - sum(amounts)
    if first <= structure.entry_fee_cents:
        raise PrizeError(
            f"the first prize {euros(first)} is not above the entry fee "
            f"{euros(structure.entry_fee_cents)} (rules text 002)"
        )
    # shared places: the sum of their prizes, equally, rounded down
    groups: dict[int, list[Placing]] = {}
    for row in ranking:
        groups.setdefault(row.place, []).append(row)
    cents: dict[str, int] = {}
    for place, rows in groups.items():
        prize = sum(amounts[place - 1 : place - 1 + len(rows)])
        for row in rows:
            cents[row.player] = prize // len(rows)
    # what rounding left goes to the best place
    left = pool_cents - sum(cents.values())
    best = groups[min(groups)]
    share, extra = divmod(left, len(best))
    for i, row in enumerate(best):
        cents[row.player] += share + (1 if i < extra else 0)
    return tuple(Payout(r.place, r.player, r.shared, cents[r.player]) for r in ranking)


@dataclass(frozen=True)
class SpecialAward:
    """A special prize won: ``category`` shown by ``player`` in hand ``hand``, ``cents`` paid."""

    category: str
    player: str
    hand: str
    cents: int

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "category": self.category,
            "player": self.player,
            "hand": self.hand,
            "cents": self.cents,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SpecialAward:
        """What ``to_json`` wrote. Raises PrizeError for a bad field."""
        c, p, h, cents = (data.get(k) for k in ("category", "player", "hand", "cents"))
        if not (
            isinstance(c, str)
            and isinstance(p, str)
            and isinstance(h, str)
            and isinstance(cents, int)
            and not isinstance(cents, bool)
            and cents >= 0
        ):
            raise PrizeError(f"not a special award: {dict(data)!r}")
        return cls(c, p, h, cents)


def categories_shown(shown: Mapping[str, Sequence[Card]]) -> dict[str, str]:
    """``{player: category code}`` of the best five of each hand shown (``shown[player]``: the
    player's cards with the board, 5 to 7 cards), for :func:`special_prizes_won`."""
    return {p: evaluate(cards).category.code for p, cards in shown.items()}


def special_prizes_won(
    structure: TournamentStructure,
    hand: str,
    showdown: Mapping[str, str],
    awarded: Sequence[SpecialAward] = (),
) -> tuple[SpecialAward, ...]:
    """The special prizes hand ``hand`` wins.

    ``showdown``: ``{player: category code}`` of the hands shown at its showdown, in showdown
    order (:func:`categories_shown`; mucked hands are not there); ``awarded``: the awards
    already paid in the tournament. Every player showing a prize's category wins its amount
    while the prize has awards left (``times``; 0: no limit); when one hand has more winners
    than awards left, they share those awards equally, rounded down, the last cents one each
    in showdown order.
    """
    out: list[SpecialAward] = []
    for prize in structure.special_prizes:
        winners = [p for p, cat in showdown.items() if cat == prize.category]
        if not winners:
            continue
        if prize.times == 0:
            left = len(winners)
        else:
            left = prize.times - sum(a.category == prize.category for a in awarded)
        if left <= 0:
            continue
        if left >= len(winners):
            out.extend(SpecialAward(prize.category, p, hand, prize.amount_cents) for p in winners)
            continue
        share, extra = divmod(left * prize.amount_cents, len(winners))
        out.extend(
            SpecialAward(prize.category, p, hand, share + (1 if i < extra else 0))
            for i, p in enumerate(winners)
        )
    return tuple(out)
