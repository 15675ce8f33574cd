"""Playing cards: parsing, formatting and the 52-card deck (GAMES.md, "Card text").

A card is a :class:`Card` with ``rank`` 2..14 (14 = ace) and ``suit`` one of ``s h d c``.
Its canonical text is two characters, e.g. ``Td``; ``index`` maps it to 0..51
(``(rank - 2) * 4 + suit_index``) for table-driven evaluators.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from dealer_assist.errors import CardError, InvalidRecordError

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "shdc"
_SUIT_ALIASES = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "♤": "s", "♡": "h", "♢": "d", "♧": "c"}
_EMOJI_STYLE = "\ufe0f"  # variation selector-16: the symbol before it drawn as an emoji
RANK_NAMES = {
    2: "two",
    3: "three",
    4: "four",
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}


@dataclass(frozen=True, slots=True)
class Card:
    """One card of the 52-card deck.

    Attributes:
        rank: 2..14, where 11 = J, 12 = Q, 13 = K, 14 = A.
        suit: ``"s"``, ``"h"``, ``"d"`` or ``"c"``.
    """

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not 2 <= self.rank <= 14 or self.suit not in SUIT_CHARS:
            raise CardError(f"not a card: rank={self.rank!r} suit={self.suit!r}")

    @property
    def index(self) -> int:
        """0..51, ranks ascending, suits in ``s h d c`` order inside a rank."""
        return (self.rank - 2) * 4 + SUIT_CHARS.index(self.suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with :attr:`index` ``index`` (0..51); raises CardError otherwise."""
        if not 0 <= index < 52:
            raise CardError(f"card index out of range: {index}")
        return cls(index // 4 + 2, SUIT_CHARS[index % 4])

    def __str__(self) -> str:
        return RANK_CHARS[self.rank - 2] + self.suit

    def __repr__(self) -> str:
        return f"Card({self})"


def parse_card(text: str) -> Card:
    """Parse one card text: rank ``A K Q J T 9..2`` or ``10``, suit ``s h d c`` or ``♠ ♥ ♦ ♣``.

    Upper and lower case are both accepted (``AS``, ``10H``, ``td``), and a suit symbol may be
    followed by the emoji variation selector U+FE0F, as phones type it (``6♠️``).

    Raises:
        CardError: the text is not a card; the message quotes it.
    """
    if type(text) is str:
        known = _CANONICAL.get(text)  # the common spelling, one shared Card each
        if known is not None:
            return known
    elif not isinstance(text, str):
        raise CardError(f"not a card: {text!r} (expected text like 'As' or 'Td')")
    t = text.strip()
    if t[-1:] == _EMOJI_STYLE and t[-2:-1] in _SUIT_ALIASES:
        t = t[:-1]  # "♠️": the symbol drawn as an emoji, the same suit
    if len(t) < 2:
        raise CardError(f"not a card: {text!r} (expected text like 'As' or 'Td')")
    rank_text, suit_text = t[:-1].upper(), t[-1]
    suit = _SUIT_ALIASES.get(suit_text, suit_text.lower())
    if rank_text == "10":
        rank_text = "T"
    if len(rank_text) != 1 or rank_text not in RANK_CHARS or suit not in SUIT_CHARS:
        raise CardError(f"not a card: {text!r} (expected text like 'As' or 'Td')")
    return Card(RANK_CHARS.index(rank_text) + 2, suit)


def parse_cards(texts: Iterable[str], *, seen: set[Card] | None = None) -> tuple[Card, ...]:
    """Parse several card texts, rejecting any card given twice.

    Args:
        texts: card texts, see :func:`parse_card`.
        seen: cards already used elsewhere in the same hand; updated in place.

    Raises:
        CardError: a text is not a card, or a card appears twice (GAMES.md: never a silent result).
    """
    used = seen if seen is not None else set()
    out = []
    for text in texts:
        card = parse_card(text)
        if card in used:
            raise CardError(f"duplicate card: {card}")
        used.add(card)
        out.append(card)
    return tuple(out)


def format_cards(cards: Sequence[Card]) -> list[str]:
    """Canonical two-character texts of ``cards``, in order."""
    return [str(c) for c in cards]


FULL_DECK: tuple[Card, ...] = tuple(Card.from_index(i) for i in range(52))
_CANONICAL = {str(c): c for c in FULL_DECK}


def take_cards(
    texts: Sequence[object], used: set[Card], field: Callable[[int], str]
) -> tuple[Card, ...]:
    """The cards of a hand record's list ``texts``, each one new to ``used`` (and added to it:
    a deck holds every card once; GAMES.md "Card text").

    Raises:
        InvalidRecordError: naming ``field(j)`` for the ``j``-th text that is not a card or is a
            card already dealt.
    """
    out = []
    for j, text in enumerate(texts):
        try:
            card = parse_card(text)  # type: ignore[arg-type]  # parse_card refuses a non-text
        except CardError as e:
            raise InvalidRecordError(field(j), str(e)) from e
        if card in used:
            raise InvalidRecordError(field(j), f"duplicate card: {card}")
        used.add(card)
        out.append(card)
    return tuple(out)
