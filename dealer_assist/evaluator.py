"""Best five of 5, 6 or 7 cards: category, comparable value and the five cards.

Source rule: GAMES.md, "Hand value". Categories high to low: royal flush (A-K-Q-J-T suited),
straight flush, four of a kind, full house, flush, straight, three of a kind, two pair, pair,
high card. Equal categories compare by the ranks forming the combination, then the kickers; suits
never rank hands; A-2-3-4-5 is the lowest straight (5-high).

Value layout (an ``int`` below 2**24): ``category << 20`` followed by five 4-bit ranks in order of
importance (combination ranks first, repeated as many times as they count, then kickers high to
low; a straight lists its ranks from the top, the wheel's ace counted as 1). Comparing these
integers compares hands exactly; equal integers are a tie. :mod:`dealer_assist.batch_eval` builds
its tables from the same functions, so its values are identical.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum

from dealer_assist import rank_values
from dealer_assist.cards import FULL_DECK, SUIT_CHARS, Card
from dealer_assist.errors import CardError

VALUE_SHIFT = 20
"""``value >> VALUE_SHIFT`` is the :class:`Category`."""

_ACE_LOW_BIT = 1 << 1  # the wheel's ace is rank 1 in rank bitmasks and values


class Category(IntEnum):
    """Hand category, higher is better (GAMES.md). ``code`` is the machine-readable name."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8
    ROYAL_FLUSH = 9

    @property
    def code(self) -> str:
        """GAMES.md name, e.g. ``royal_flush``, ``three_of_a_kind``, ``high_card``."""
        return self.name.lower()


@dataclass(frozen=True)
class HandValue:
    """The value of the best five cards.

    Attributes:
        category: the hand's :class:`Category`.
        value: comparable int (higher = better, equal = tie); layout in the module docstring.
        best_five: five of the evaluated cards realising ``value``, in order of importance
            (combination cards first, then kickers high to low; straights from the top card).
    """

    category: Category
    value: int
    best_five: tuple[Card, ...]


def _straight_top(mask: int) -> int:
    """Top rank of the best straight in a rank bitmask (bit r = rank r, 2..14); 0 if none."""
    if mask & (1 << 14):
        mask |= _ACE_LOW_BIT
    run = mask & (mask << 1) & (mask << 2) & (mask << 3) & (mask << 4)
    return run.bit_length() - 1 if run else 0


def _encode(category: Category, ranks: Sequence[int]) -> int:
    value = int(category)
    for r in ranks:
        value = (value << 4) | r
    return value


def flush_shape(mask: int) -> tuple[Category, tuple[int, ...]]:
    """Category and five ranks of the best hand among suited cards.

    Args:
        mask: rank bitmask of the suited cards (bit r = rank r, 2..14), at least 5 bits set.

    Returns:
        (ROYAL_FLUSH | STRAIGHT_FLUSH | FLUSH, five ranks in value order; wheel ace = 1).
    """
    top = _straight_top(mask)
    if top == 14:
        return Category.ROYAL_FLUSH, (14, 13, 12, 11, 10)
    if top:
        return Category.STRAIGHT_FLUSH, tuple(range(top, top - 5, -1))
    return Category.FLUSH, tuple(r for r in range(14, 1, -1) if mask >> r & 1)[:5]


def rank_shape(counts: Mapping[int, int]) -> tuple[Category, tuple[int, ...]]:
    """Category and five ranks of the best hand without a flush.

    Args:
        counts: rank (2..14) -> number of cards of that rank (1..4), 5..7 cards in total.

    Returns:
        (category below FLUSH or FULL_HOUSE / FOUR_OF_A_KIND, five ranks in value order).
    """
    groups = sorted(((n, r) for r, n in counts.items()), reverse=True)
    n0, r0 = groups[0]
    if n0 == 4:
        return Category.FOUR_OF_A_KIND, (r0, r0, r0, r0, max(r for r in counts if r != r0))
    if n0 == 3:
        pair = max((r for n, r in groups[1:] if n >= 2), default=0)
        if pair:
            return Category.FULL_HOUSE, (r0, r0, r0, pair, pair)
    mask = 0
    for r in counts:
        mask |= 1 << r
    top = _straight_top(mask)
    if top:
        return Category.STRAIGHT, tuple(range(top, top - 5, -1))
    if n0 == 3:  # no pair left, so groups[1:] are singles, high to low
        return Category.THREE_OF_A_KIND, (r0, r0, r0, groups[1][1], groups[2][1])
    if n0 == 2 and groups[1][0] == 2:
        r1 = groups[1][1]
        kicker = max(r for r in counts if r != r0 and r != r1)  # may come from a third pair
        return Category.TWO_PAIR, (r0, r0, r1, r1, kicker)
    if n0 == 2:
        return Category.PAIR, (r0, r0, groups[1][1], groups[2][1], groups[3][1])
    return Category.HIGH_CARD, tuple(r for _, r in groups[:5])


def flush_value(mask: int) -> int:
    """:attr:`HandValue.value` of the best hand among suited cards (``mask`` as in flush_shape)."""
    return _encode(*flush_shape(mask))


def rank_value(counts: Mapping[int, int]) -> int:
    """:attr:`HandValue.value` of a hand without a flush (``counts`` as in rank_shape)."""
    return _encode(*rank_shape(counts))


_SUIT_SHIFT = {"s": 0, "h": 16, "d": 32, "c": 48}
_RANK_MASK = 0x7FFC  # ranks 2..14 of one suit in a card mask (16 bits a suit)
# Shapes already worked out, keyed by the rank counts (3 bits a rank) or a flush's rank mask:
# the shape depends on nothing else, and there are at most 49,205 + 18,395 + 6,175 + 8,192.
_RANK_SHAPES: dict[int, tuple[Category, int, tuple[tuple[int, int], ...]]] = {}
_FLUSH_SHAPES: dict[int, tuple[Category, int, tuple[int, ...]]] = {}
# Packed rank counts hold one 3-bit field per rank r (bits 3r..3r+2, a count 0..4); _ONES has
# the low bit of every field, so one AND a shift reads one bit of every rank's count at once.
_ONES = sum(1 << (3 * r) for r in range(2, 15))
_ACE_FIELD = 1 << (3 * 14)
_WHEEL_ACE_FIELD = 1 << 3  # the wheel's ace counts as rank 1


def _groups(ranks: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """``ranks`` (value order, wheel ace 1) as (card rank, how many) runs: 14,14,9,9,5 ->
    (14, 2), (9, 2), (5, 1)."""
    out: list[tuple[int, int]] = []
    for r in ranks:
        r = 14 if r == 1 else r
        if out and out[-1][0] == r:
            out[-1] = (r, out[-1][1] + 1)
        else:
            out.append((r, 1))
    return tuple(out)


def evaluate(cards: Sequence[Card]) -> HandValue:
    """Evaluate the best five of 5, 6 or 7 distinct cards (GAMES.md, "Hand value").

    Direct rank/suit counting, no 21-combination search. With 7 cards a flush excludes quads and
    full houses (they would need 3 cards outside the flush suit), so a flush suit decides alone.

    Raises:
        CardError: not 5..7 cards, a non-Card item, or a card given twice.
    """
    return HandValue(*evaluate_parts(cards))


# Per deck card, by id (the deck lives as long as the module, and Card's hash is slow): its bit
# in the 64-bit card mask, its 3-bit rank count, its 4-bit suit count.
_PARTS = {
    id(c): (1 << (c.rank + _SUIT_SHIFT[c.suit]), 1 << (c.rank * 3), 1 << (_SUIT_SHIFT[c.suit] >> 2))
    for c in FULL_DECK
}
_FIVE_OF_A_SUIT = 0x8888  # a 4-bit suit count of 5..7 plus 3 sets its top bit


def evaluate_parts(cards: Sequence[Card]) -> tuple[Category, int, tuple[Card, ...]]:
    """:func:`evaluate` as ``(category, value, best_five)`` (the settlement's hot path: no
    :class:`HandValue`); the same checks and errors."""
    n = len(cards)
    if not 5 <= n <= 7:
        raise CardError(f"a hand needs 5, 6 or 7 cards, got {n}")
    seen = counts = suits = 0
    twice = False
    parts = _PARTS.get
    for c in cards:
        known = parts(id(c))
        if known is None:  # a Card made elsewhere (or not a card)
            if type(c) is not Card and not isinstance(c, Card):
                raise CardError(f"not a card: {c!r}")
            shift = _SUIT_SHIFT[c.suit]
            known = (1 << (c.rank + shift), 1 << (c.rank * 3), 1 << (shift >> 2))
        bit = known[0]
        if seen & bit:
            twice = True
        seen |= bit
        counts += known[1]
        suits += known[2]
    if twice:
        dup = next(c for c in cards if cards.count(c) > 1)
        raise CardError(f"duplicate card: {dup}")
    if (suits + 0x3333) & _FIVE_OF_A_SUIT:  # five or more of one suit
        flush = _flush(cards, seen, suits)
        if flush is not None:
            return flush
    found = _RANK_SHAPES.get(counts)
    if found is None:
        found = _rank_shape(counts)
    # Among cards of equal rank the one given first wins (board before hole cards), so
    # best_five is reproducible across tools.
    best: list[Card] = []
    for rank, k in found[2]:
        for c in cards:
            if c.rank == rank:
                best.append(c)
                k -= 1
                if not k:
                    break
    return found[0], found[1], tuple(best)


def _flush(
    cards: Sequence[Card], seen: int, suits: int
) -> tuple[Category, int, tuple[Card, ...]] | None:
    """The flush of ``cards`` (their card mask ``seen``, suit counts ``suits``), or None."""
    for shift in (0, 16, 32, 48):
        mask = (seen >> shift) & _RANK_MASK
        if mask.bit_count() >= 5:  # at most one suit can hold five of seven cards
            shape = _FLUSH_SHAPES.get(mask)
            if shape is None:
                category, ranks = flush_shape(mask)
                shape = _FLUSH_SHAPES[mask] = (category, _encode(category, ranks), ranks)
            suit = SUIT_CHARS[shift >> 4]
            pools = {c.rank: c for c in cards if c.suit == suit}
            return shape[0], shape[1], tuple(pools[14 if r == 1 else r] for r in shape[2])
    return None


# A straight by its top rank (5..14): its value and its (rank, how many) runs, the wheel's ace 14.
_STRAIGHTS = {
    top: (
        _encode(Category.STRAIGHT, range(top, top - 5, -1)),
        _groups(tuple(range(top, top - 5, -1))),
    )
    for top in range(5, 15)
}


def _rank_shape(counts: int) -> tuple[Category, int, tuple[tuple[int, int], ...]]:
    """The shape of the hand whose packed rank ``counts`` these are, without a flush, looked
    up and remembered by ``counts``: :func:`packed_rank_shape`'s category, its ranks as
    :func:`_encode`'s value and :func:`_groups`' runs.

    A cold run misses the cache about twice a hand; the value then comes from the shipped
    table of every 5..7-card rank multiset (:mod:`dealer_assist.rank_values`, read at the
    first miss), its runs from the value, so no miss works the shape out in Python.
    """
    value = rank_values.lookup(counts)
    if value is None:  # not 5..7 cards of at most four a rank: not in the table
        return work_out_rank_shape(counts)
    category = value >> VALUE_SHIFT
    if category == 1:
        runs: tuple[tuple[int, int], ...] = (
            (value >> 16 & 15, 2),
            (value >> 8 & 15, 1),
            (value >> 4 & 15, 1),
            (value & 15, 1),
        )
    elif category == 0:
        runs = tuple((value >> shift & 15, 1) for shift in (16, 12, 8, 4, 0))
    elif category == 2:
        runs = ((value >> 16 & 15, 2), (value >> 8 & 15, 2), (value & 15, 1))
    elif category == 3:
        runs = ((value >> 16 & 15, 3), (value >> 4 & 15, 1), (value & 15, 1))
    elif category == 4:
        runs = _STRAIGHTS[value >> 16 & 15][1]
    elif category == 6:
        runs = ((value >> 16 & 15, 3), (value >> 4 & 15, 2))
    else:  # four of a kind
        runs = ((value >> 16 & 15, 4), (value & 15, 1))
    found = _RANK_SHAPES[counts] = (_CATEGORIES[category], value, runs)
    return found


_CATEGORIES = tuple(Category)


def work_out_rank_shape(counts: int) -> tuple[Category, int, tuple[tuple[int, int], ...]]:
    """:func:`_rank_shape` worked out from ``counts`` (5..7 cards) rather than looked up: the
    exact function :mod:`dealer_assist.rank_values`' table is made from; remembered alike."""
    low, mid, high = counts & _ONES, counts >> 1 & _ONES, counts >> 2 & _ONES
    held = low | mid | high
    singles, pairs, trips = low & ~mid, mid & ~low, low & mid
    found: tuple[Category, int, tuple[tuple[int, int], ...]] | None = None
    if high:  # four of a kind: the best other card is the kicker
        quad = (high.bit_length() - 1) // 3
        kicker = ((held ^ high).bit_length() - 1) // 3
        value = 7 << 20 | quad * 0x11110 | kicker
        found = (Category.FOUR_OF_A_KIND, value, ((quad, 4), (kicker, 1)))
    elif trips:
        top = trips.bit_length() - 1
        three = top // 3
        paired = (trips ^ (1 << top)) | pairs  # a second three of a kind gives its pair
        if paired:
            pair = (paired.bit_length() - 1) // 3
            value = 6 << 20 | three * 0x11100 | pair * 0x11
            found = (Category.FULL_HOUSE, value, ((three, 3), (pair, 2)))
    if found is None:
        straight = held | _WHEEL_ACE_FIELD if held & _ACE_FIELD else held
        run = straight & (straight << 3) & (straight << 6) & (straight << 9) & (straight << 12)
        if run:
            value, groups = _STRAIGHTS[(run.bit_length() - 1) // 3]
            found = (Category.STRAIGHT, value, groups)
        elif trips:  # no pair with it: the two best singles are the kickers
            three = (trips.bit_length() - 1) // 3
            a, b = _ranks_down(singles)[:2]
            value = 3 << 20 | three * 0x11100 | a << 4 | b
            found = (Category.THREE_OF_A_KIND, value, ((three, 3), (a, 1), (b, 1)))
        else:
            paired_ranks = _ranks_down(pairs)
            if len(paired_ranks) >= 2:  # the best two; the kicker may come from a third pair
                p, q = paired_ranks[:2]
                rest = held & ~((1 << 3 * p) | (1 << 3 * q))
                k = (rest.bit_length() - 1) // 3
                value = 2 << 20 | p * 0x11000 | q * 0x110 | k
                found = (Category.TWO_PAIR, value, ((p, 2), (q, 2), (k, 1)))
            elif paired_ranks:
                p = paired_ranks[0]
                a, b, c = _ranks_down(singles)[:3]
                value = 1 << 20 | p * 0x11000 | a << 8 | b << 4 | c
                found = (Category.PAIR, value, ((p, 2), (a, 1), (b, 1), (c, 1)))
            else:
                kickers = _ranks_down(singles)[:5]
                value = kickers[0] << 16 | kickers[1] << 12 | kickers[2] << 8 | kickers[3] << 4
                value |= kickers[4]
                found = (Category.HIGH_CARD, value, tuple((r, 1) for r in kickers))
    _RANK_SHAPES[counts] = found
    return found


def _ranks_down(fields: int) -> tuple[int, ...]:
    """The ranks of the fields set in ``fields`` (one bit at 3r for rank r), high to low;
    remembered (2**13 sets of ranks at most): the shape cache's misses share them."""
    known = _DOWN.get(fields)
    if known is not None:
        return known
    out = []
    bits = fields
    while bits:
        top = bits.bit_length() - 1
        out.append(top // 3)
        bits ^= 1 << top
    known = tuple(out)
    if len(_DOWN) < 8192:
        _DOWN[fields] = known
    return known


_DOWN: dict[int, tuple[int, ...]] = {}


def packed_rank_shape(counts: int) -> tuple[Category, tuple[int, ...]]:
    """:func:`rank_shape` of packed rank counts (``counts``: the sum of ``1 << 3 * rank`` over
    the 5..7 cards), worked out on every rank's count at once: the same category and ranks.

    A count of 1, 2, 3 or 4 is 0b001, 0b010, 0b011 or 0b100, so its bits tell singles, pairs,
    trips and quads apart without a loop over the ranks.
    """
    low, mid, high = counts & _ONES, counts >> 1 & _ONES, counts >> 2 & _ONES
    held = low | mid | high
    singles, pairs, trips = low & ~mid, mid & ~low, low & mid
    if high:  # four of a kind: the best other card is the kicker
        quad = (high.bit_length() - 1) // 3
        kicker = ((held ^ high).bit_length() - 1) // 3
        return Category.FOUR_OF_A_KIND, (quad, quad, quad, quad, kicker)
    if trips:
        top = trips.bit_length() - 1
        three = top // 3
        paired = (trips ^ (1 << top)) | pairs  # a second three of a kind gives its pair
        if paired:
            pair = (paired.bit_length() - 1) // 3
            return Category.FULL_HOUSE, (three, three, three, pair, pair)
    if held & _ACE_FIELD:
        held |= _WHEEL_ACE_FIELD
    run = held & (held << 3) & (held << 6) & (held << 9) & (held << 12)
    if run:
        top = (run.bit_length() - 1) // 3
        return Category.STRAIGHT, (top, top - 1, top - 2, top - 3, top - 4)
    if trips:  # no pair with it: the two best singles are the kickers
        three = (trips.bit_length() - 1) // 3
        a, b = _ranks_down(singles)[:2]
        return Category.THREE_OF_A_KIND, (three, three, three, a, b)
    paired_ranks = _ranks_down(pairs)
    if len(paired_ranks) >= 2:  # the best two pairs; the kicker may come from a third pair
        p, q = paired_ranks[:2]
        rest = held & ~((1 << 3 * p) | (1 << 3 * q) | _WHEEL_ACE_FIELD)
        kicker = (rest.bit_length() - 1) // 3
        return Category.TWO_PAIR, (p, p, q, q, kicker)
    kickers = _ranks_down(singles)
    if paired_ranks:
        p = paired_ranks[0]
        return Category.PAIR, (p, p, *kickers[:3])
    return Category.HIGH_CARD, tuple(kickers[:5])


BoardParts = tuple[int, int, int, dict[int, tuple[Card, ...]]]
"""The board's share of an evaluation (:func:`board_parts`): its card mask, rank counts, suit
counts, and its cards by rank in board order."""


def board_parts(board: Sequence[Card]) -> BoardParts | None:
    """The shared board's part of :func:`evaluate_hole`, worked out once a hand; None when a
    card is not one of :data:`~dealer_assist.cards.FULL_DECK` or is given twice (every hand
    then goes through :func:`evaluate_parts`, which names the problem)."""
    seen = counts = suits = 0
    by_rank: dict[int, tuple[Card, ...]] = {}
    for c in board:
        known = _PARTS.get(id(c))
        if known is None or seen & known[0]:
            return None
        seen |= known[0]
        counts += known[1]
        suits += known[2]
        by_rank[c.rank] = (*by_rank.get(c.rank, ()), c)
    return seen, counts, suits, by_rank


def evaluate_hole(
    hole: Sequence[Card], board: Sequence[Card], shared: BoardParts | None
) -> tuple[Category, int, tuple[Card, ...]]:
    """``evaluate_parts((*hole, *board))`` with the board's part ``shared`` (:func:`board_parts`
    of ``board``) added rather than counted again: the same result and the same errors (any
    case but two new deck cards on a 3- to 5-card board goes through evaluate_parts)."""
    if shared is None or len(hole) != 2 or not 3 <= len(board) <= 5:
        return evaluate_parts((*hole, *board))
    a, b = _PARTS.get(id(hole[0])), _PARTS.get(id(hole[1]))
    seen, counts, suits, by_rank = shared
    if a is None or b is None or (a[0] | b[0]) & seen or a[0] == b[0]:
        return evaluate_parts((*hole, *board))  # not deck cards, or one given twice: its errors
    seen |= a[0] | b[0]
    suits += a[2] + b[2]
    if (suits + 0x3333) & _FIVE_OF_A_SUIT:  # five or more of one suit
        flush = _flush((*hole, *board), seen, suits)
        if flush is not None:
            return flush
    counts += a[1] + b[1]
    found = _RANK_SHAPES.get(counts)
    if found is None:
        found = _rank_shape(counts)
    # the first cards of each rank in the order (*hole, *board), as evaluate_parts picks them
    h0, h1 = hole
    r0, r1 = h0.rank, h1.rank
    best: list[Card] = []
    for rank, k in found[2]:
        if r0 == rank:
            best.append(h0)
            k -= 1
        if k and r1 == rank:
            best.append(h1)
            k -= 1
        if k:
            best += by_rank[rank][:k]
    return found[0], found[1], tuple(best)
