"""What a peer hand is made of at its start: every forced bet and the :class:`PeerSetup` the game
module builds between hands (seats, stacks, button, posts, structure, streets, the conventions
in force, the game's hooks and the record's fixed fields). The engine reads it; the game fills
it (:mod:`dealer_assist.games.holdem_hand`, :mod:`dealer_assist.games.stud_hand`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.operations import ForcedBetKind
from dealer_assist.engine.peer import BettingStructure, StreetSpec


@dataclass(frozen=True)
class ForcedPost:
    """One forced bet of the hand: ``seat`` posts ``amount`` (chips) of kind ``bet``; ``dead``
    chips do not count toward calling (antes, a dead small blind: GAMES.md "Forced bets")."""

    seat: int
    bet: ForcedBetKind
    amount: int
    dead: bool


@dataclass(frozen=True)
class PeerSetup:
    """Everything a peer hand needs at its start, made by the game module between hands.

    Attributes:
        game: the game code.
        seats: seats dealt in, ascending; ``stacks`` their stacks at the start (chips).
        button: the button's seat (odd chips and openers count from it).
        posts: every forced bet, in posting order.
        big_blind: the seat the preflop opener follows (None: the game's other opener).
        blind: the bet to match before the first action.
        structure: the betting structure; ``streets`` the game's streets.
        deal_order: the seats in the order the hole cards are dealt (rules text 003 art. 6:
            from the small blind).
        uncapped_heads_up, reopen_by_sum, blinds_first, all_in_face_up, no_flop_no_drop:
            the conventions in force (GAMES.md; the game's named settings).
        rake_percent, rake_cap: the rake (0: none).
        record: the game's fixed hand-record fields (HAND_RECORD.md "Pot games": betting,
            seats, button, blinds, ante, chip, limits, posts, settings, rake).
        ante: the ante every player posts (0 with none or a big-blind ante): dead chips above
            it go to the main pot (:class:`~dealer_assist.engine.pot_settle.PotHand`).
        seating: the game's own facts of the hand's seating (who posted what and why), handed
            back to the game after the hand; the engine never reads it.
        opening: for rounds whose opener depends on the cards (Stud): ``(street, up cards of
            the seats still in) -> Opening`` (``order``, ``forced``, ``big_open``, ``why``).
        show_order: ``(live, up cards, last aggressor of the final round) -> order`` (None:
            the last aggressor, else the first after the button).
        odd_chips: ``(cards of each live seat, community) -> order(winners)`` (None: from the
            first seat after the button, rules text 003 art. 7).
        shortage: ``(street, cards dealt to players, burns, players) -> plan`` or None: the deck
            runs short (Stud's seventh street; :mod:`dealer_assist.engine.peer_deal`).
        cards_field: the record's card fields: ``hole`` + ``board`` (Hold'em) or ``cards`` in
            deal order + ``community`` (Stud).
        deck: cards in a full deck.
    """

    game: str
    seats: tuple[int, ...]
    stacks: Mapping[int, int]
    button: int
    posts: tuple[ForcedPost, ...]
    big_blind: int | None
    blind: int
    structure: BettingStructure
    streets: tuple[StreetSpec, ...]
    deal_order: tuple[int, ...]
    uncapped_heads_up: bool = True
    reopen_by_sum: bool = True
    blinds_first: bool = False
    all_in_face_up: bool = True
    no_flop_no_drop: bool = True
    rake_percent: Fraction = Fraction(0)
    rake_cap: int | None = None
    record: Mapping[str, Any] = field(default_factory=dict)
    seating: Any = None
    ante: int = 0
    opening: Callable[[str, Mapping[int, tuple[Card, ...]]], Any] | None = None
    show_order: (
        Callable[[list[int], Mapping[int, tuple[Card, ...]], int | None], list[int]] | None
    ) = None
    odd_chips: Callable[[Mapping[int, tuple[Card, ...]], tuple[Card, ...]], Any] | None = None
    shortage: Callable[[str, int, int, int], Any] | None = None
    cards_field: str = "hole"
    deck: int = 52
