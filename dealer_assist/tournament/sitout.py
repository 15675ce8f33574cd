"""Sit-out in a tournament (rules text 002, "Sit-out" and "Tempo per la giocata"; GAMES.md
"Sit-out"), pure.

A player sitting out is still in the tournament: they post their antes (and blinds in Hold'em)
and are dealt in, and their hand is folded when the action reaches them. A player whose action
clock runs out is put in sit-out, that decision checked if it can be, else folded. A player who
asks to come back ("SONO TORNATO") plays again from the next hand after they ask, never in the
hand in progress. One who runs out of chips while sitting out is eliminated at that moment, like
anyone else (the ranking does not look at sit-out).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dealer_assist.tournament.action_clock import timeout_action
from dealer_assist.tournament.errors import ClockError


@dataclass(frozen=True)
class SitOuts:
    """Who sits out, and who asked to come back (in from the next hand).

    Attributes:
        out: players sitting out, sorted.
        back_next_hand: those of them who asked to come back.
    """

    out: frozenset[str] = frozenset()
    back_next_hand: frozenset[str] = frozenset()

    def sit_out(self, player: str) -> SitOuts:
        """``player`` sits out (at their request, between or during hands; or timed out). A
        pending return is cancelled. Raises ClockError if they already sit out and stay out."""
        if player in self.out and player not in self.back_next_hand:
            raise ClockError(f"{player} already sits out")
        return SitOuts(self.out | {player}, self.back_next_hand - {player})

    def ask_back(self, player: str) -> SitOuts:
        """``player`` asks to come back ("SONO TORNATO"): in from the next hand. Raises
        ClockError if they do not sit out, or asked already."""
        if player not in self.out:
            raise ClockError(f"{player} does not sit out")
        if player in self.back_next_hand:
            raise ClockError(f"{player} already comes back with the next hand")
        return SitOuts(self.out, self.back_next_hand | {player})

    def hand_starts(self) -> SitOuts:
        """A hand starts: those who asked to come back play it."""
        return SitOuts(self.out - self.back_next_hand, frozenset())

    def remove(self, player: str) -> SitOuts:
        """``player`` is out of the tournament (eliminated): no longer listed."""
        return SitOuts(self.out - {player}, self.back_next_hand - {player})

    def sitting_out(self, player: str) -> bool:
        """True when ``player``'s hand is folded for them in the hand in progress."""
        return player in self.out

    def automatic_action(self, player: str, *, can_check: bool, timed_out: bool) -> str | None:
        """What the table does for ``player`` when the action reaches them: ``fold`` for a
        player sitting out; ``check`` or ``fold`` (:func:`timeout_action`) for a decision whose
        time ran out; None when the player decides."""
        if timed_out:
            return timeout_action(can_check)
        return "fold" if player in self.out else None

    def to_json(self) -> dict[str, Any]:
        """``{"out": [...], "back_next_hand": [...]}``, sorted."""
        return {"out": sorted(self.out), "back_next_hand": sorted(self.back_next_hand)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SitOuts:
        """What ``to_json`` wrote. Raises ClockError for a bad field."""
        out, back = data.get("out"), data.get("back_next_hand")
        if not isinstance(out, list) or not isinstance(back, list):
            raise ClockError("sit-outs: out and back_next_hand must be lists")
        if not all(isinstance(p, str) for p in [*out, *back]) or not set(back) <= set(out):
            raise ClockError("sit-outs: names expected, those coming back among those out")
        return cls(frozenset(out), frozenset(back))
