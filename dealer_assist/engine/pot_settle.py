"""Settlement of a finished pot-game hand (HAND_RECORD.md "Pot games"; GAMES.md "Pots and
showdown"; rules text 003 art. 7).

:func:`settle_pot_hand` takes a :class:`PotHand` (the facts after the betting: what each seat put
in, who folded, the cards, who mucked) and gives the settlement JSON: the uncalled bet returned,
the rake from the main pot, main and side pots each awarded to its best hands (equal hands split
it, odd chips one at a time from the first winner after the button, or in the order the
game's ``odd_chips`` gives), and each seat's result,
hand, put-in, winnings, net and end stack. Chips are conserved: the nets and the rake sum to 0.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dealer_assist.cards import FULL_DECK, Card
from dealer_assist.engine.pots import after_button, layers, shares, uncalled
from dealer_assist.errors import InvalidRecordError
from dealer_assist.evaluator import Category, board_parts, evaluate_hole, evaluate_parts

_CODES = {c: c.code for c in Category}

NO_RAKE = Fraction(0)
"""The rake percentage of a hand with no rake (the readers share it: a Fraction's truth and
comparisons are Python calls, this one is known by identity)."""


@dataclass(frozen=True, init=False)
class PotHand:
    """A pot-game hand whose betting is over.

    Attributes:
        game: the game code (the settlement's ``game``).
        seats: the seats dealt in, ascending.
        stacks: each seat's stack at the start of the hand.
        button: the button's seat (odd chips start after it).
        put_in: every chip each seat put in (antes, blinds, bets; before the uncalled bet goes
            back).
        dead: the dead part of ``put_in`` (antes): never returned as an uncalled bet.
        folded: seats that folded.
        holes: each seat's hole cards (None for a hand not known: a folded player's).
        board: the community cards.
        mucked: seats that threw their hand away at showdown.
        chip: the smallest chip (odd chips are of this size).
        rake_percent, rake_cap: the rake setting (0: none; cap None: no cap).
        flop_seen: the hand reached the flop (no flop, no drop).
        ante: the ante every player posts (0 with a big-blind ante): dead chips above it (a
            big-blind ante for everyone, a dead missed blind) go to the main pot and make no
            pot level of their own; a short ante below it is layered (an all-in for it wins
            only the main pot).
        odd_chips: the game's odd-chip order: the winners of a pot (seat order) in the order
            its odd chips go (Stud: highest card by suit, GAMES.md "Odd chips"); None: from the
            first winner after the button (Hold'em, rules text 003 art. 7).
    """

    game: str
    seats: tuple[int, ...]
    stacks: Mapping[int, int]
    button: int
    put_in: Mapping[int, int]
    folded: frozenset[int]
    dead: Mapping[int, int]
    holes: Mapping[int, tuple[Card, ...] | None]
    board: tuple[Card, ...]
    mucked: frozenset[int] = frozenset()
    chip: int = 1
    rake_percent: Fraction = NO_RAKE
    rake_cap: int | None = None
    flop_seen: bool = False
    extra: Mapping[str, Any] = field(default_factory=dict)
    ante: int = 0
    odd_chips: Callable[[Sequence[int]], Sequence[int]] | None = None

    def __init__(
        self,
        game: str,
        seats: tuple[int, ...],
        stacks: Mapping[int, int],
        button: int,
        put_in: Mapping[int, int],
        folded: frozenset[int],
        dead: Mapping[int, int],
        holes: Mapping[int, tuple[Card, ...] | None],
        board: tuple[Card, ...],
        mucked: frozenset[int] = frozenset(),
        chip: int = 1,
        rake_percent: Fraction = NO_RAKE,
        rake_cap: int | None = None,
        flop_seen: bool = False,
        extra: Mapping[str, Any] | None = None,
        ante: int = 0,
        odd_chips: Callable[[Sequence[int]], Sequence[int]] | None = None,
    ) -> None:
        # the dataclass's own __init__ of a frozen class sets each field by a call of
        # object.__setattr__; one update of the instance's dict is ~2x quicker (a hand a record)
        self.__dict__.update(
            game=game,
            seats=seats,
            stacks=stacks,
            button=button,
            put_in=put_in,
            folded=folded,
            dead=dead,
            holes=holes,
            board=board,
            mucked=mucked,
            chip=chip,
            rake_percent=rake_percent,
            rake_cap=rake_cap,
            flop_seen=flop_seen,
            extra={} if extra is None else extra,
            ante=ante,
            odd_chips=odd_chips,
        )


def settle_pot_hand(hand: PotHand) -> dict[str, Any]:
    """The settlement JSON of ``hand`` (HAND_RECORD.md "Pot games", "Settlement of a pot game").

    Raises:
        InvalidRecordError: ``mucked`` leaves a pot with no hand shown for it.
    """
    put_in = dict(hand.put_in)
    dead = hand.dead
    # antes are dead: the uncalled bet counts live chips only
    back = uncalled({s: c - dead.get(s, 0) for s, c in put_in.items()} if dead else put_in)
    returned = []
    if back is not None:
        put_in[back[0]] -= back[1]
        returned.append({"seat": back[0], "amount": back[1]})
    folded = hand.folded
    live = [s for s in hand.seats if s not in folded]
    # dead money above the common ante belongs to the main pot, never to a level of its own
    above = 0
    if dead:
        ante = hand.ante
        above = sum(d - ante for s, d in dead.items() if d > ante and s in put_in)
    if above:
        extra = {s: max(0, dead.get(s, 0) - ante) for s in put_in}
        pots = layers({s: c - extra[s] for s, c in put_in.items()}, live)
        if pots:
            pots[0] = (pots[0][0] + above, pots[0][1])
    else:
        pots = layers(put_in, live)
    rake = 0  # pot amounts are never negative: no rake setting, no flop, no rake
    if hand.flop_seen and hand.rake_percent is not NO_RAKE and hand.rake_percent:
        rake = min(_rake(hand, sum(p[0] for p in pots)), pots[0][0] if pots else 0)
    showdown = len(live) > 1
    values: dict[int, tuple[Category, int, tuple[Card, ...]]] = {}  # evaluate_hole
    if showdown:
        board, mucked, holes = hand.board, hand.mucked, hand.holes
        on_board = board_parts(board) if len(board) >= 3 else None  # the board counted once
        for s in live:
            hole = holes.get(s)
            if s not in mucked and hole is not None:
                if on_board is None:  # Stud's seven cards, no board
                    values[s] = evaluate_parts((*hole, *board))
                else:
                    values[s] = evaluate_hole(hole, board, on_board)
    won = dict.fromkeys(hand.seats, 0)
    shared: set[int] = set()
    pots_json = []
    odd, button, chip = hand.odd_chips, hand.button, hand.chip
    for i, (amount, eligible) in enumerate(pots):
        if i == 0:
            amount -= rake
        if showdown:
            ranked = [(values[s][1], s) for s in eligible if s in values]
            if not ranked:
                raise InvalidRecordError("mucked", f"every hand eligible for pot {i} was mucked")
            best = max(ranked)[0]
            winners = [s for v, s in ranked if v == best]
            category: str | None = _CODES[values[winners[0]][0]]
        else:
            winners, category = list(eligible), None
        if odd is None and len(winners) == 1 and amount % chip == 0:
            parts = [(winners[0], amount, False)]  # shares() of one winner, whole chips
        else:
            order = after_button(winners, button) if odd is None else list(odd(winners))
            parts = shares(amount, order, chip)
        if len(parts) > 1:
            shared.update(winners)
        for seat, part, _ in parts:
            won[seat] += part
        pots_json.append(
            {
                "pot": "main" if i == 0 else f"side {i}",
                "amount": amount,
                "eligible": list(eligible),
                "winners": [
                    {"seat": seat, "amount": part, "odd_chip": o} for seat, part, o in parts
                ],
                "category": category,
            }
        )
    seats_json = []
    stacks = hand.stacks
    for s in hand.seats:
        if s in folded:
            result = "fold"
        elif s in shared:
            result = "split"
        else:
            result = "win" if won[s] > 0 else "lose"
        value = values.get(s)
        paid, got = put_in[s], won[s]
        seats_json.append(
            {
                "seat": s,
                "result": result,
                "hand": None
                if value is None
                else {
                    "category": _CODES[value[0]],
                    "best_five": _texts(value[2]),
                },
                "put_in": paid,
                "won": got,
                "net": got - paid,
                "stack": stacks[s] - paid + got,
            }
        )
    return {
        "game": hand.game,
        "returned": returned,
        "rake": rake,
        "pots": pots_json,
        "seats": seats_json,
    }


# the deck's cards live as long as the module, so their ids name them (Card's hash is slow)
_TEXT = {id(c): str(c) for c in FULL_DECK}


def _texts(cards: Sequence[Card]) -> list[str]:
    """:func:`~dealer_assist.cards.format_cards`, by lookups for the deck's own cards."""
    try:
        return list(map(_TEXT.__getitem__, map(id, cards)))
    except KeyError:  # a Card made elsewhere
        return [str(c) for c in cards]


def _rake(hand: PotHand, total: int) -> int:
    """GAMES.md "Rake": a percentage of the pots, capped, rounded down to the chip, none when
    the hand ends before the flop; taken from the main pot before it is split."""
    percent = hand.rake_percent
    if not hand.flop_seen or total <= 0 or not percent or percent <= 0:
        return 0
    if type(percent) is Fraction:  # whole numbers: int() of a positive Fraction is its floor
        raw = total * percent.numerator // (100 * percent.denominator)
    else:
        raw = int(total * percent / 100)
    rake = raw // hand.chip * hand.chip
    if hand.rake_cap is not None:
        rake = min(rake, hand.rake_cap)
    return rake
