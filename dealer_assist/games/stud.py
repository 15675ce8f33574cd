"""Seven Card Stud (``stud``), rules text 002; GAMES.md "Seven Card Stud" and "Pot games".

The game as data and small functions:

- :data:`STREETS`: third street (two down cards and the door card, in three rounds from seat 1,
  no burn), fourth to sixth (burn + one up card), seventh (burn + one down card); fixed limit
  small bet on third and fourth, big bet from fifth;
- :func:`bring_in_order`: the bring-in by the lowest door card (ace high; clubs < diamonds <
  hearts < spades), and the order the obligation passes in when it folds (rules text 002);
- :func:`exposed_value`, :func:`best_exposed`: the best exposed hand opens fourth street on
  (pairs, two pair, trips, quads, high cards only; a tie to the lowest seat);
- :func:`open_pair`: fourth street, a seat showing a pair may open with the big bet;
- :func:`opening`: what the betting engine's :meth:`PeerBetting.open_round
  <dealer_assist.engine.peer_hand.PeerBetting.open_round>` takes for a street, with the reason
  the dealer is shown ("lowest door card: 2c", "highest board: pair of kings");
- :func:`showdown_order`: the last aggressor, else the best exposed hand, then clockwise;
- :func:`odd_chip_order`: odd chips to the winner with the highest card by suit (GAMES.md
  "Odd chips", convention);
- :func:`seventh_street`: the deck shortage of GAMES.md "Seven Card Stud" 5 (reshuffle the burns
  with the stub, or one community card);
- :class:`StudSettings`: the conventions GAMES.md marks as settings, recorded with each hand.

The game's plug-in (:data:`dealer_assist.games.stud_plugin.POT_RULES`) sits above this module
and the ones that read it: the record reader and the live hand and table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from dealer_assist.cards import RANK_NAMES, Card
from dealer_assist.engine.peer import BettingRound, StreetSpec
from dealer_assist.errors import ConfigError
from dealer_assist.games.pot_common import read_settings

CODE = "stud"
ANTE = "ante"
"""The record's field of the ante every player posts (HAND_RECORD.md "Pot games")."""
MAX_SEATS = 8
"""Up to 8 seats (GAMES.md "Seven Card Stud")."""
DECK = 52

THIRD, FOURTH, FIFTH, SIXTH, SEVENTH = "third", "fourth", "fifth", "sixth", "seventh"
STREETS: tuple[StreetSpec, ...] = (
    StreetSpec(THIRD, hole=(False, False, True), round=BettingRound("bring_in", "small")),
    StreetSpec(FOURTH, burn=1, hole=(True,), round=BettingRound("best_exposed", "small")),
    StreetSpec(FIFTH, burn=1, hole=(True,), round=BettingRound("best_exposed", "big")),
    StreetSpec(SIXTH, burn=1, hole=(True,), round=BettingRound("best_exposed", "big")),
    StreetSpec(SEVENTH, burn=1, hole=(False,), round=BettingRound("best_exposed", "big")),
)
"""Rules text 002 and GAMES.md 1: third street two down cards and the door card to each seat in
three rounds, no burn (text 002: 48 dealt + 3 burns on fourth, fifth and sixth = 51); a burn and
one up card on fourth, fifth and sixth, a burn and one down card on seventh."""
STREET_NAMES = tuple(s.name for s in STREETS)
CARDS_AFTER = {s.name: 3 + i for i, s in enumerate(STREETS)}
"""Cards a player still in holds once a street is dealt (third 3 .. seventh 7)."""
FACE_UP = (False, False, True, True, True, True, False)
"""Position i of a player's cards in deal order is dealt face up (HAND_RECORD.md ``cards``)."""

BRING_IN_SUITS = {"c": 0, "d": 1, "h": 2, "s": 3}
"""The bring-in's suit order, lowest first: clubs, diamonds, hearts, spades (rules text 002)."""
ODD_CHIP_SUITS = BRING_IN_SUITS
"""The odd chip's suit order: spades > hearts > diamonds > clubs (GAMES.md "Odd chips")."""

_PLURAL = {6: "sixes"}


def rank_name(rank: int, plural: bool = False) -> str:
    """``king``/``kings`` for rank 13 (``sixes`` for 6)."""
    name = RANK_NAMES[rank]
    return (_PLURAL.get(rank, name + "s")) if plural else name


# -- third street: the bring-in ----------------------------------------------------------------


def door_key(card: Card) -> tuple[int, int]:
    """Sort key of a door card for the bring-in: rank (ace high), then suit clubs lowest."""
    return card.rank, BRING_IN_SUITS[card.suit]


def bring_in_order(doors: Mapping[int, Card]) -> list[int]:
    """The seats by door card, lowest first: the first brings in, and when it folds the
    obligation passes to the next (rules text 002; GAMES.md "Seven Card Stud" 2)."""
    return sorted(doors, key=lambda s: door_key(doors[s]))


# -- fourth street on: the best exposed hand ----------------------------------------------------

ExposedCategory = Literal["high_card", "pair", "two_pair", "three_of_a_kind", "four_of_a_kind"]
_EXPOSED: tuple[ExposedCategory, ...] = (
    "high_card",
    "pair",
    "two_pair",
    "three_of_a_kind",
    "four_of_a_kind",
)


def exposed_value(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """The value of up cards (1..4 cards) for who acts first: ``(category, ranks)``, category 0
    high cards .. 4 four of a kind, ranks of the groups by size then rank, high first (only
    pairs, two pair, trips, quads and high cards count: GAMES.md "Seven Card Stud" 3; no
    straights or flushes)."""
    counts: dict[int, int] = {}
    for c in cards:
        counts[c.rank] = counts.get(c.rank, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    top = groups[0][1] if groups else 0
    pairs = sum(1 for _, n in groups if n == 2)
    if top == 4:
        cat = 4
    elif top == 3:
        cat = 3
    elif pairs >= 2:
        cat = 2
    elif pairs == 1:
        cat = 1
    else:
        cat = 0
    return cat, tuple(r for r, _ in groups)


def describe_exposed(cards: Sequence[Card]) -> str:
    """The exposed hand in words: ``pair of kings``, ``two pair, aces and sevens``, ``three
    nines``, ``four queens``, ``ace-king high``."""
    cat, ranks = exposed_value(cards)
    if cat == 4:
        return f"four {rank_name(ranks[0], True)}"
    if cat == 3:
        return f"three {rank_name(ranks[0], True)}"
    if cat == 2:
        return f"two pair, {rank_name(ranks[0], True)} and {rank_name(ranks[1], True)}"
    if cat == 1:
        return f"pair of {rank_name(ranks[0], True)}"
    return "-".join(rank_name(r) for r in ranks) + " high"


def exposed_order(up: Mapping[int, Sequence[Card]]) -> list[int]:
    """Seats by their up cards, best first; equal exposed hands by seat number, the lowest
    (nearest the dealer's left) first (rules text 002)."""
    values = {s: exposed_value(cards) for s, cards in up.items()}
    return sorted(up, key=lambda s: (_neg(values[s]), s))


def _neg(value: tuple[int, tuple[int, ...]]) -> tuple[int, ...]:
    cat, ranks = value
    return (-cat, *(-r for r in ranks))


def best_exposed(up: Mapping[int, Sequence[Card]]) -> int:
    """The seat whose up cards make the best exposed hand (ties: the lowest seat).

    Raises:
        ConfigError: ``up`` is empty.
    """
    if not up:
        raise ConfigError("no seat to compare exposed hands of")
    return exposed_order(up)[0]


def open_pair(up: Mapping[int, Sequence[Card]]) -> list[int]:
    """Seats whose up cards show a pair (or better), seat order: on fourth street they may open
    with the big bet in fixed limit (rules text 002, "coppia esposta")."""
    return sorted(s for s, cards in up.items() if exposed_value(cards)[0] >= 1)


@dataclass(frozen=True)
class Opening:
    """How a street's betting round opens, for :meth:`PeerBetting.open_round
    <dealer_assist.engine.peer_hand.PeerBetting.open_round>` (``order``, ``forced``,
    ``big_open``), with the reason in words for the dealer (``why``)."""

    order: tuple[int, ...]
    forced: int = 0
    big_open: tuple[int, ...] = ()
    why: str = ""
    facts: Mapping[str, Any] = field(default_factory=dict)
    """The reason as parts for a translated screen: ``{"rule": "lowest_door", "card": "2c"}``
    or ``{"rule": "best_exposed", "hand": "pair of kings"}``."""


def opening(
    street: str,
    up: Mapping[int, Sequence[Card]],
    *,
    bring_in: int,
    fixed_limit: bool,
    settings: StudSettings | None = None,
) -> Opening:
    """The opening of ``street``'s round from the up cards of the seats still in.

    Args:
        street: a name of :data:`STREETS`.
        up: each seat still in -> its up cards so far (third street: the door card only).
        bring_in: the bring-in amount (third street's forced bet).
        fixed_limit: the betting is fixed limit (the open-pair option applies only there).
        settings: the table's :class:`StudSettings` (default: :data:`DEFAULT_SETTINGS`).

    Raises:
        ConfigError: an unknown street, no seat, or a seat with no up card.
    """
    st = settings or DEFAULT_SETTINGS
    if street not in STREET_NAMES:
        raise ConfigError(f"no stud street {street!r} (streets: {', '.join(STREET_NAMES)})")
    if not up or any(not cards for cards in up.values()):
        raise ConfigError(f"the {street} needs an up card for every seat still in")
    if street == THIRD:
        doors = {s: cards[0] for s, cards in up.items()}
        order = bring_in_order(doors)
        door = doors[order[0]]
        return Opening(
            tuple(order),
            bring_in,
            (),
            f"lowest door card: {door}",
            {"rule": "lowest_door", "card": str(door)},
        )
    order = exposed_order(up)
    big: tuple[int, ...] = ()
    if street == FOURTH and fixed_limit and st.open_pair:
        big = tuple(open_pair(up))
    board = describe_exposed(up[order[0]])
    return Opening(
        tuple(order), 0, big, f"highest board: {board}", {"rule": "best_exposed", "hand": board}
    )


# -- showdown and odd chips ------------------------------------------------------------------


def showdown_order(
    live: Sequence[int], up: Mapping[int, Sequence[Card]], last_aggressor: int | None
) -> list[int]:
    """The live seats in the order they show (rules text 002; GAMES.md "Showdown order"): the
    last to bet or raise on the final round, else the best exposed hand, then clockwise."""
    order = sorted(live)
    if not order:
        return []
    first = last_aggressor if last_aggressor in order else None
    if first is None:
        first = best_exposed({s: up.get(s, ()) for s in order})
    i = order.index(first)
    return order[i:] + order[:i]


def card_key(card: Card) -> tuple[int, int]:
    """Sort key of a card for the odd chip: rank, then suit spades highest."""
    return card.rank, ODD_CHIP_SUITS[card.suit]


def odd_chip_order(
    cards: Mapping[int, Sequence[Card]], community: Sequence[Card] = ()
) -> Callable[[Sequence[int]], list[int]]:
    """The odd-chip order of a hand (``PotHand.odd_chips``): winners by the highest card by
    suit among all their cards (the community card included), spades > hearts > diamonds >
    clubs, then by the next highest card when that card is the shared one (GAMES.md "Odd
    chips": convention)."""
    keys = {
        s: sorted((card_key(c) for c in (*held, *community)), reverse=True)
        for s, held in cards.items()
    }

    def order(winners: Sequence[int]) -> list[int]:
        return sorted(winners, key=lambda s: keys.get(s, []), reverse=True)

    return order


# -- seventh street: the deck shortage ----------------------------------------------------------

Plan = Literal["deal", "reshuffle", "community"]


@dataclass(frozen=True)
class Shortage:
    """What the dealer does on seventh street (GAMES.md "Seven Card Stud" 5; rules text 002).

    Attributes:
        stub: cards left in the deck before seventh street.
        burns: cards burned so far (one each on fourth, fifth, sixth street).
        players: players still in, each needing a seventh card.
        plan: ``deal`` (burn when ``burn``, then one down card each), ``reshuffle`` (shuffle
            the burns with the stub, deal one card each from them) or ``community`` (shuffle
            the burns with the stub and turn one card face up: the seventh card of everyone).
        burn: ``deal`` burns a card first (False when the stub is exactly one card a player).
    """

    stub: int
    burns: int
    players: int
    plan: Plan
    burn: bool = True

    @property
    def short(self) -> bool:
        """The stub alone cannot give every player a card."""
        return self.plan != "deal"

    def message(self) -> str:
        """The instruction for the dealer, e.g. ``stub 1 card + 3 burns = 4, 8 players need 8:
        shuffle the burns, turn one community card``."""
        cards = "card" if self.stub == 1 else "cards"
        burns = "burn" if self.burns == 1 else "burns"
        facts = (
            f"stub {self.stub} {cards} + {self.burns} {burns} = {self.stub + self.burns}, "
            f"{self.players} players need {self.players}"
        )
        if self.plan == "community":
            return f"{facts}: shuffle the burns, turn one community card"
        if self.plan == "reshuffle":
            return f"{facts}: shuffle the burns with the stub, deal one card to each player"
        if not self.burn:
            return f"stub {self.stub} {cards}, {self.players} players: deal without a burn"
        return f"stub {self.stub} {cards}: burn one, deal one card to each player"


def seventh_street(dealt: int, burns: int, players: int, deck: int = DECK) -> Shortage:
    """The shortage rule for ``players`` players still in after ``dealt`` cards were dealt (to
    every player, folded ones included: their cards are never used again) and ``burns`` burned.

    The stub covers a burn and a card each: deal; it covers a card each but not the burn: deal
    without burning (the rule asks for a card to each player, the burn is not one); else the
    stub with the burns covers a card each: shuffle them together and deal; else shuffle the
    burns (with the stub) and turn one community card (rules text 002, "Casi particolari").

    Raises:
        ConfigError: negative counts or more cards than the deck holds.
    """
    stub = deck - dealt - burns
    if dealt < 0 or burns < 0 or players < 1 or stub < 0:
        raise ConfigError(
            f"impossible deck: {dealt} dealt + {burns} burned of {deck}, {players} players"
        )
    if stub >= players + 1:
        return Shortage(stub, burns, players, "deal")
    if stub == players:
        return Shortage(stub, burns, players, "deal", burn=False)
    if stub + burns >= players:
        return Shortage(stub, burns, players, "reshuffle", burn=False)
    return Shortage(stub, burns, players, "community", burn=False)


# -- settings and the plug-in --------------------------------------------------------------------


@dataclass(frozen=True)
class StudSettings:
    """The conventions GAMES.md marks as table settings, with their documented defaults; the
    set in force is recorded with every hand (the record's ``settings``).

    Attributes:
        no_cap_heads_up: fixed limit, no raise cap when two players are left at the start of a
            round (GAMES.md "Fixed limit": convention, default on).
        max_raises: fixed limit, raises after the opening bet (text 002: 3).
        reopen_by_sum: incomplete all-in raises that together make a full raise reopen the
            betting (GAMES.md "Incomplete all-in", TDA; on).
        all_in_face_up: every hand turned up when a player is all-in and no betting is left
            (GAMES.md "Showdown order": convention, on).
        open_pair: fixed limit, a player showing a pair on fourth street may open with the big
            bet (rules text 002; on).
    """

    no_cap_heads_up: bool = True
    max_raises: int = 3
    reopen_by_sum: bool = True
    all_in_face_up: bool = True
    open_pair: bool = True

    def to_json(self) -> dict[str, Any]:
        """The settings as the record's ``settings`` object."""
        return {
            "no_cap_heads_up": self.no_cap_heads_up,
            "max_raises": self.max_raises,
            "reopen_by_sum": self.reopen_by_sum,
            "all_in_face_up": self.all_in_face_up,
            "open_pair": self.open_pair,
        }

    @classmethod
    def from_json(cls, obj: Any, where: str = "settings") -> StudSettings:
        """Settings from a record's or a table file's object; absent keys keep the defaults.

        Raises:
            ConfigError: an unknown key or a value of the wrong type, naming ``where.key``.
        """
        kinds = {key: int if key == "max_raises" else bool for key in cls().to_json()}
        return read_settings(cls, obj, where, kinds)


DEFAULT_SETTINGS = StudSettings()
