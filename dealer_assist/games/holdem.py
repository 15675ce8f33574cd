"""Poker-room Texas Hold'em (``holdem``), rules text 003 art. 6-7; GAMES.md "Poker-room Texas
Hold'em" and "Pot games".

The game as data: its streets (:data:`STREETS`: hole cards from the small blind, burn + flop,
burn + turn, burn + river; preflop opened by the first seat after the big blind, later streets by
the first seat after the button; small bet on preflop and flop, big bet on turn and river), its
forced bets (:func:`forced_bets`: antes, the blinds, heads-up the button posting the small blind,
or the record's ``posts``) and its conventions as named settings (:class:`HoldemSettings`).

The game's plug-in (:data:`dealer_assist.games.holdem_plugin.POT_RULES`) sits above this
module and the ones that read it: the record reader, the live hand and the table between hands.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

from dealer_assist.engine.peer import BettingRound, StreetSpec
from dealer_assist.games.pot_common import read_settings

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


ButtonRule = Literal["moving", "dead"]
MissedBlinds = Literal["post_both", "wait_for_big_blind"]
BUTTON_RULES: tuple[ButtonRule, ...] = ("moving", "dead")
MISSED_BLINDS: tuple[MissedBlinds, ...] = ("post_both", "wait_for_big_blind")
NewPlayer = Literal["post_big_blind", "wait_for_big_blind"]
NEW_PLAYER: tuple[NewPlayer, ...] = ("post_big_blind", "wait_for_big_blind")


@dataclass(frozen=True)
class HoldemSettings:
    """The conventions GAMES.md marks as table settings, with their documented defaults; the
    set in force is recorded with every hand (the record's ``settings``).

    Attributes:
        no_cap_heads_up: fixed limit, no raise cap when two players are left at the start of a
            round (GAMES.md "Fixed limit": convention, default on).
        max_raises: fixed limit, raises after the opening bet (GAMES.md, text 002: 3).
        reopen_by_sum: several incomplete all-in raises that together make a full raise reopen
            the betting for a player who has acted (GAMES.md "Incomplete all-in", TDA; on).
        button: ``moving`` (the button moves to the next seat dealt in, GAMES.md Hold'em 5) or
            ``dead`` (the dead-button rule: the big blind moves one seat, the button follows).
        missed_blinds: a player back from sitting out who missed blinds ``post_both`` (the big
            blind live, the small blind dead) or ``wait_for_big_blind`` (convention, Robert's).
        new_player: a player who sits down once the table has played a hand
            ``post_big_blind`` (posts one to come in, wherever they sit) or
            ``wait_for_big_blind`` (is dealt in when the big blind reaches them; convention).
        all_in_face_up: every hand is turned up when a player is all-in and no betting is left
            (GAMES.md "Showdown order": convention, on).
        no_flop_no_drop: no rake when the hand ends before the flop (GAMES.md "Rake").
        rake_percent, rake_cap: the rake (GAMES.md "Rake": cash only, default 0, cap per hand
            in chips; None: no cap).
    """

    no_cap_heads_up: bool = True
    max_raises: int = 3
    reopen_by_sum: bool = True
    button: ButtonRule = "moving"
    missed_blinds: MissedBlinds = "post_both"
    new_player: NewPlayer = "post_big_blind"
    all_in_face_up: bool = True
    no_flop_no_drop: bool = True
    rake_percent: Fraction = Fraction(0)
    rake_cap: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The settings as the record's ``settings`` object (the rake under the record's
        ``rake``, HAND_RECORD.md)."""
        return {
            "no_cap_heads_up": self.no_cap_heads_up,
            "max_raises": self.max_raises,
            "reopen_by_sum": self.reopen_by_sum,
            "button": self.button,
            "missed_blinds": self.missed_blinds,
            "new_player": self.new_player,
            "all_in_face_up": self.all_in_face_up,
            "no_flop_no_drop": self.no_flop_no_drop,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any], where: str = "settings") -> HoldemSettings:
        """Settings from a record's or a table file's object; absent keys keep the defaults.

        Raises:
            ConfigError: an unknown key or a value of the wrong type, naming ``where.key``.
        """
        kinds: dict[str, Any] = {
            "no_cap_heads_up": bool,
            "reopen_by_sum": bool,
            "all_in_face_up": bool,
            "no_flop_no_drop": bool,
            "max_raises": int,
            "button": BUTTON_RULES,
            "missed_blinds": MISSED_BLINDS,
            "new_player": NEW_PLAYER,
        }
        return read_settings(cls, obj, where, kinds)


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
    if len(order) == 2 and button in order:
        small, big = button, next(s for s in order if s != button)
    else:
        cut = bisect.bisect_right(order, button)  # the seats after the button come first
        after = order[cut:] + order[:cut]
        small, big = after[0], after[1]
    live = {}
    if blinds[0]:
        live[small] = blinds[0]
    if blinds[1]:
        live[big] = blinds[1]
    if ante <= 0:
        return {}, live, big
    return {big: ante} if ante_by_big else dict.fromkeys(order, ante), live, big
