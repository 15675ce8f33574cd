"""Poker-room Texas Hold'em (``holdem``), rules text 003 art. 6-7; GAMES.md "Poker-room Texas
Hold'em" and "Pot games".

The game as data: its streets (:data:`STREETS`: hole cards from the small blind, burn + flop,
burn + turn, burn + river; preflop opened by the first seat after the big blind, later streets by
the first seat after the button; small bet on preflop and flop, big bet on turn and river), its
forced bets (:func:`forced_bets`: antes, the blinds, heads-up the button posting the small blind,
or the record's ``posts``) and its conventions as named settings (:class:`HoldemSettings`).

:data:`POT_RULES` settles a ``holdem`` hand record (HAND_RECORD.md "Pot games"); the record is
read by :mod:`dealer_assist.games.holdem_record` and settled by
:mod:`dealer_assist.engine.pot_settle`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.peer import BettingRound, StreetSpec
from dealer_assist.engine.pot_settle import settle_pot_hand

CODE = "holdem"
MAX_SEATS = 10
"""Up to 10 seats (GAMES.md, "Poker-room Texas Hold'em")."""

STREETS: tuple[StreetSpec, ...] = (
    StreetSpec("preflop", hole=(False, False), round=BettingRound("left_of_big_blind", "small")),
    StreetSpec("flop", burn=1, board=3, round=BettingRound("left_of_button", "small")),
    StreetSpec("turn", burn=1, board=1, round=BettingRound("left_of_button", "big")),
    StreetSpec("river", burn=1, board=1, round=BettingRound("left_of_button", "big")),
)
"""Rules text 003 art. 6: two hole cards in two rounds from the small blind; burn and three
cards (flop), burn and one (turn), burn and one (river); a betting round after each."""

ANTE, SMALL_BLIND, BIG_BLIND = "ante", "small_blind", "big_blind"
POST_TYPES = (SMALL_BLIND, BIG_BLIND, ANTE)
"""The ``posts`` types of HAND_RECORD.md."""


@dataclass(frozen=True)
class HoldemSettings:
    """The conventions GAMES.md marks as table settings, with their documented defaults.

    Attributes:
        no_cap_heads_up: fixed limit, no raise cap when two players are left at the start of a
            round (GAMES.md "Fixed limit": convention, default on).
        max_raises: fixed limit, raises after the opening bet (GAMES.md: 3).
        no_flop_no_drop: no rake when the hand ends before the flop (GAMES.md "Rake").
    """

    no_cap_heads_up: bool = True
    max_raises: int = 3
    no_flop_no_drop: bool = True


DEFAULT_SETTINGS = HoldemSettings()


def forced_bets(
    seats: Sequence[int], button: int, blinds: tuple[int, int], ante: int, *, ante_by_big: bool
) -> tuple[dict[int, int], dict[int, int], int | None]:
    """``(antes, blinds, big blind seat)`` of the plain button/blinds case (rules text 003
    art. 6.1; GAMES.md: heads-up the button posts the small blind).

    Antes are dead money posted by every player dealt in (or, ``ante_by_big``, one ante by the
    big blind); blinds are live: small blind the first seat after the button, big blind the next.
    """
    order = sorted(seats)
    after = [s for s in order if s > button] + [s for s in order if s <= button]
    if len(order) == 2 and button in order:
        small, big = button, next(s for s in order if s != button)
    else:
        small, big = after[0], after[1]
    live = {small: blinds[0], big: blinds[1]}
    dead = {big: ante} if ante_by_big else dict.fromkeys(order, ante)
    return {s: a for s, a in dead.items() if a > 0}, {s: b for s, b in live.items() if b}, big


class HoldemRules:
    """The Hold'em plug-in of the pot games: code, streets, settings, settlement."""

    code = CODE
    max_seats = MAX_SEATS
    streets = STREETS
    settings = DEFAULT_SETTINGS

    def settle(self, obj: Mapping[str, Any]) -> dict[str, Any]:
        """Validate and settle one ``holdem`` hand record (HAND_RECORD.md "Pot games").

        Raises:
            InvalidRecordError: naming the field (``actions[3]``, ``players[1].hole`` ...).
        """
        from dealer_assist.games.holdem_record import parse_holdem  # it reads this module

        return settle_pot_hand(parse_holdem(obj, self))


POT_RULES = HoldemRules()
