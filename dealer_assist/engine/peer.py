"""The peer family's building blocks: streets, betting rounds, openers and deal plans.

Poker-room Texas Hold'em (rules text 003) and Seven Card Stud (rules text 002) are player against
player: one actor at a time, rounds that close by themselves, stacks and a button that live
between hands, pots instead of boxes. Their hands (the Hold'em and Stud issues) are
:class:`~dealer_assist.engine.state.GameState` objects built from the types here; a game module
gives its streets as data (:class:`StreetSpec`), its betting structure and forced bets, and the
names of its conventions.

This module holds no game: it knows how a street is dealt (burn, hole cards with their face,
board cards; :meth:`DealPlan.cards_needed` tells when a deck runs short, as Stud's seventh street
can) and who opens a betting round.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from dealer_assist.engine.state import Position
from dealer_assist.errors import ConfigError

Structure = Literal["no_limit", "pot_limit", "fixed_limit"]
STRUCTURES: tuple[Structure, ...] = ("no_limit", "pot_limit", "fixed_limit")

# Who acts first in a betting round (GAMES.md "Pot games"):
# - left_of_big_blind: Hold'em preflop (heads-up: the button, who posts the small blind);
# - left_of_button: Hold'em after the flop (heads-up: the big blind);
# - bring_in: Stud third street (the lowest door card brings it in);
# - best_exposed: Stud later streets (the best hand showing; a tie as the game's rule says).
Opener = Literal["left_of_big_blind", "left_of_button", "bring_in", "best_exposed"]
OPENERS: tuple[Opener, ...] = ("left_of_big_blind", "left_of_button", "bring_in", "best_exposed")


@dataclass(frozen=True)
class BettingRound:
    """A round of betting: who opens it and the bet size in fixed limit (``small`` limit on the
    early streets, ``big`` on the later ones)."""

    opener: Opener
    limit: Literal["small", "big"] = "small"

    def __post_init__(self) -> None:
        if self.opener not in OPENERS:
            raise ConfigError(f"betting round opener {self.opener!r} is not one of {OPENERS}")


@dataclass(frozen=True)
class DecisionRound:
    """A round where every seat decides against the house at once (the banked games)."""


@dataclass(frozen=True)
class StreetSpec:
    """One street of a peer game: what is dealt before its round, then the round.

    Attributes:
        name: the street's name (``preflop``, ``flop``, ``third`` ...).
        burn: cards burned before the street's cards (0 or 1).
        hole: one entry per hole card each player still in gets, True for a card dealt face up
            (Stud's door card and up cards), False face down.
        board: community board cards dealt (Hold'em flop 3, turn 1, river 1).
        round: the betting round that follows, or a decision round.
    """

    name: str
    burn: int = 0
    hole: tuple[bool, ...] = ()
    board: int = 0
    round: BettingRound | DecisionRound | None = None


@dataclass(frozen=True)
class DealtPosition:
    """A position of a deal plan and whether its card is dealt face up."""

    position: Position
    face_up: bool = False


@dataclass(frozen=True)
class DealPlan:
    """The streets of a peer game in order, and the deck size they draw from."""

    streets: tuple[StreetSpec, ...]
    deck: int = 52

    def street(self, name: str) -> StreetSpec:
        """The street called ``name``. Raises ConfigError for an unknown one."""
        for s in self.streets:
            if s.name == name:
                return s
        names = ", ".join(s.name for s in self.streets)
        raise ConfigError(f"no street {name!r} (streets: {names})")

    def deal(
        self, name: str, players: Sequence[int], *, dealt: int, burned: int, board: int
    ) -> list[DealtPosition]:
        """The positions street ``name`` fills, in dealing order: its burn, then each hole card
        round by round to ``players`` (the seats still in, in dealing order: from the dealer's
        left), then its board cards.

        ``dealt`` is how many hole cards each of those players already holds, ``burned`` and
        ``board`` how many burn and board cards the hand already has (positions count on).

        When the deck cannot give every player its hole card (Stud, 8 players on seventh
        street: rules text 002), the caller decides; see :meth:`cards_needed`.
        """
        spec = self.street(name)
        out = [_dealt("burn", burned + i + 1, None, False) for i in range(spec.burn)]
        for k, face_up in enumerate(spec.hole):
            out += [_dealt("seat", dealt + k + 1, seat, face_up) for seat in players]
        out += [_dealt("board", board + i + 1, None, True) for i in range(spec.board)]
        return out

    def cards_needed(self, name: str, players: int) -> int:
        """Cards street ``name`` takes from the deck for ``players`` players (burns included)."""
        spec = self.street(name)
        return spec.burn + len(spec.hole) * players + spec.board


PlaceKind = Literal["board", "seat", "dealer", "burn"]
_DEALT: dict[tuple[PlaceKind, int, int | None, bool], DealtPosition] = {}
"""Every dealt position made so far (immutable values, a few hundred at most: the places of a
deck at a table): a street's deal reuses them instead of making each one again, card by card."""


def _dealt(kind: PlaceKind, n: int, seat: int | None, face_up: bool) -> DealtPosition:
    key = (kind, n, seat, face_up)
    found = _DEALT.get(key)
    if found is None:
        found = _DEALT[key] = DealtPosition(Position(kind, n, seat), face_up)
    return found


@dataclass(frozen=True)
class BettingStructure:
    """Limits of a peer game, chips in minor units.

    Attributes:
        kind: ``no_limit``, ``pot_limit`` or ``fixed_limit``.
        small_bet, big_bet: fixed-limit bet sizes (the small and big limit); in no-limit and
            pot-limit the big blind is the minimum bet (``small_bet``).
        max_raises: raises allowed per round in fixed limit (a bet and three raises: 3), None =
            no cap; GAMES.md says when the cap does not apply (heads-up).
        chip_unit: the smallest chip in play; every amount is a multiple of it.
    """

    kind: Structure
    small_bet: int
    big_bet: int
    max_raises: int | None = None
    chip_unit: int = 1

    def __post_init__(self) -> None:
        if self.kind not in STRUCTURES:
            raise ConfigError(f"betting structure {self.kind!r} is not one of {STRUCTURES}")
        for name in ("small_bet", "big_bet", "chip_unit"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ConfigError(f"{name} must be a positive integer (minor units), got {value!r}")
        if self.small_bet % self.chip_unit or self.big_bet % self.chip_unit:
            raise ConfigError(f"bet sizes must be multiples of the chip unit {self.chip_unit}")
