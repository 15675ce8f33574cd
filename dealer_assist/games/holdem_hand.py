"""A live Hold'em hand (rules text 003 art. 6-7): the game's :class:`PeerSetup` of one hand.

:func:`holdem_setup` turns the table's Hold'em settings and the hand's seating (who is dealt in,
stacks, the button, the posts: :mod:`dealer_assist.games.holdem_table` decides them between
hands) into the :class:`~dealer_assist.engine.peer_state.PeerSetup` of a
:class:`~dealer_assist.engine.peer_state.PeerHand`: the streets, the betting structure, the
dealing order (from the small blind, the first seat after the button), the conventions in force
and the hand record's fixed fields (HAND_RECORD.md "Pot games"), so that the journaled record
settles to exactly the live hand's settlement.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.engine.operations import ForcedBetKind
from dealer_assist.engine.peer import BettingStructure, Structure
from dealer_assist.engine.peer_state import ForcedPost, PeerSetup
from dealer_assist.engine.pots import after_button
from dealer_assist.errors import ConfigError
from dealer_assist.games.holdem import (
    ANTE,
    BIG_BLIND,
    CODE,
    SMALL_BLIND,
    STREETS,
    HoldemSettings,
)


@dataclass(frozen=True)
class HoldemGame:
    """A Hold'em table's fixed game: betting structure, blinds, ante, chip, fixed-limit bets,
    buy-in bounds (cash) and the named settings. Chips in minor units.

    Attributes:
        betting: ``no_limit``, ``pot_limit`` or ``fixed_limit``.
        blinds: ``(small, big)``.
        ante: per player (0: none); ``ante_kind`` ``big_blind``: one ante by the big blind.
        chip: the smallest chip in play.
        limits: fixed limit ``(small_bet, big_bet)`` (default: big blind, twice the big blind).
        buy_in: cash ``(minimum, maximum)`` a player may sit down with.
        settings: the conventions in force (:class:`~dealer_assist.games.holdem.HoldemSettings`).
    """

    betting: Structure = "no_limit"
    blinds: tuple[int, int] = (100, 200)
    ante: int = 0
    ante_kind: str | None = None
    chip: int = 1
    limits: tuple[int, int] | None = None
    buy_in: tuple[int, int] = (4000, 20000)
    settings: HoldemSettings = field(default_factory=HoldemSettings)

    def __post_init__(self) -> None:
        small, big = self.blinds
        if not 0 <= small <= big or big <= 0:
            raise ConfigError(f"blinds: need 0 <= small <= big, big > 0, got {self.blinds}")
        if self.ante < 0 or self.chip <= 0:
            raise ConfigError("ante must be >= 0 and chip > 0")
        if self.ante_kind not in (None, BIG_BLIND):
            raise ConfigError(f"ante_kind: must be {BIG_BLIND!r} or absent")
        low, high = self.buy_in
        if not 0 < low <= high:
            raise ConfigError(f"buy_in: need 0 < minimum <= maximum, got {self.buy_in}")
        self.structure()  # checks the bet sizes

    def structure(self) -> BettingStructure:
        """The betting structure (GAMES.md: fixed limit small/big bet and the 3-raise cap; no
        limit and pot limit: the big blind is the minimum bet)."""
        big = self.blinds[1]
        bets = self.limits or (big, 2 * big)
        if self.betting != "fixed_limit":
            bets = (big, big)
        cap = self.settings.max_raises if self.betting == "fixed_limit" else None
        return BettingStructure(self.betting, bets[0], bets[1], cap, self.chip)


def holdem_setup(
    game: HoldemGame,
    *,
    table_seats: int,
    seats: Sequence[int],
    stacks: Mapping[int, int],
    button: int,
    posts: Sequence[tuple[int, str, int]],
    big_blind: int | None,
    plain: bool,
) -> PeerSetup:
    """The :class:`PeerSetup` of one Hold'em hand.

    Args:
        game: the table's game.
        table_seats: seats at the table (the record's ``seats``).
        seats, stacks: the seats dealt in and their stacks at the start of the hand.
        button: the button's seat.
        posts: ``(seat, type, amount)`` in posting order, type ``small_blind``, ``big_blind``
            or ``ante`` (dead; a dead small blind is posted as one).
        big_blind: the seat the preflop opener follows.
        plain: the posts are the plain button/blinds case (no ``posts`` in the record).

    Raises:
        ConfigError: a post of an unknown type or by a seat not dealt in.
    """
    order = tuple(sorted(seats))
    forced: list[ForcedPost] = []
    kinds: dict[str, ForcedBetKind] = {ANTE: "ante", SMALL_BLIND: "small_blind",
                                       BIG_BLIND: "big_blind"}  # fmt: skip
    for seat, kind, amount in posts:
        if kind not in kinds or seat not in order:
            raise ConfigError(f"post {kind} by seat {seat}: not a post of this hand")
        forced.append(ForcedPost(seat, kinds[kind], amount, dead=kind == ANTE))
    st = game.settings
    record: dict[str, Any] = {
        "game": CODE,
        "betting": game.betting,
        "seats": table_seats,
        "button": button,
        "blinds": list(game.blinds),
        "ante": game.ante,
        "chip": game.chip,
        "settings": st.to_json(),
    }
    if game.ante_kind is not None:
        record["ante_kind"] = game.ante_kind
    if game.betting == "fixed_limit" and game.limits is not None:
        record["limits"] = list(game.limits)
    if not plain:
        record["posts"] = [{"seat": s, "type": k, "amount": a} for s, k, a in posts]
    if st.rake_percent > 0:
        p = st.rake_percent
        record["rake"] = {"percent": int(p) if p.denominator == 1 else float(p),
                          "cap": st.rake_cap}  # fmt: skip
    return PeerSetup(
        game=CODE, seats=order, stacks=dict(stacks), button=button, posts=tuple(forced),
        big_blind=big_blind, blind=game.blinds[1], structure=game.structure(), streets=STREETS,
        deal_order=tuple(after_button(order, button)),
        uncapped_heads_up=st.no_cap_heads_up, reopen_by_sum=st.reopen_by_sum,
        blinds_first=game.ante_kind == BIG_BLIND, all_in_face_up=st.all_in_face_up,
        no_flop_no_drop=st.no_flop_no_drop, rake_percent=st.rake_percent, rake_cap=st.rake_cap,
        record=record,
    )  # fmt: skip
