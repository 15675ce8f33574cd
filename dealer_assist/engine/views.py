"""The view of a hand each family gives its screens: one type per family, the only thing about a
hand that a console reads (with ``legal()``), so that no rule is worked out again on a screen.

- :class:`BankedView` (UTH, THB): what the dealer's next step is and how many board cards it
  turns, which seats still decide, each seat's legal decisions, which decisions may still be
  taken back or corrected by a pit boss, the settlement once settled.
- :class:`PeerView` (Hold'em, Stud): to call, the forced bet's chain (Stud's bring-in), the
  street's opener, each seat's last action on this street, the mucked hands, the pots in the
  order the dealer pushes them.

Both extend :class:`~dealer_assist.engine.state.HandView` (privacy lives there: no hidden card is
in a view). :class:`Phase` names where a banked hand is; a peer hand's phase is ``view.phase``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from dealer_assist.engine.rules import Action, Settlement
from dealer_assist.engine.state import HandView


class Phase(StrEnum):
    """Where a banked hand is. ``DECISIONS`` carries the street in the view's ``street``."""

    BETS_OPEN = "bets_open"
    DEALING = "dealing"  # "rien ne va plus": cards are coming from the device
    DECISIONS = "decisions"
    SHOWDOWN = "showdown"  # decisions done, board complete, dealer's cards still hidden
    REVEALED = "revealed"  # dealer's cards and qualification turned
    SETTLED = "settled"
    VOID = "void"


OVER = (Phase.SETTLED, Phase.VOID)
"""The phases of a finished banked hand."""


def _empty() -> Mapping[Any, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class BankedView(HandView):
    """A banked hand as a viewer may see it, with what the dealer's screen does next.

    Attributes:
        next_step: what the dealer's single button does now: a street's name (turns board
            cards: ``flop``, ``turn``, ``river``), the game's showdown step, ``dealer`` (turns
            the dealer's cards and settles), or None (seats still decide, or nothing to turn).
        next_cards: how many board cards that step turns (UTH river: 2).
        coming_step: the dealer's step once every seat has decided on the street being decided
            (the button shown, not yet enabled, while seats still decide): the next street, the
            game's showdown step or ``dealer``.
        to_act: seats that still have a decision on this street, ascending.
        decisions: each seat's decisions so far (typed), by seat.
        choices: each seat's legal decisions now, by seat (empty: none).
        undoable: seats whose decision on this street may still be taken back.
        correctable: seats whose last decision (on a street already past) a pit boss may still
            correct, with the decisions that may replace it.
        settlement: the settled hand (dealer's hand and qualification), only once settled.
        returns: a void hand's wagers, every one returned, ``(seat, ((box, stake), ...))`` from
            the highest seat down, boxes in the game's order (empty unless void).
        placed: cards dealt in the hand so far.
        exposed: cards recorded as exposed by mistake.
    """

    next_step: str | None = None
    next_cards: int = 0
    coming_step: str = "dealer"
    to_act: tuple[int, ...] = ()
    decisions: Mapping[int, tuple[Action, ...]] = field(default_factory=_empty)
    choices: Mapping[int, tuple[Action, ...]] = field(default_factory=_empty)
    undoable: tuple[int, ...] = ()
    correctable: tuple[tuple[int, tuple[Action, ...]], ...] = ()
    settlement: Settlement | None = None
    returns: tuple[tuple[int, tuple[tuple[str, int], ...]], ...] = ()
    placed: int = 0
    exposed: int = 0

    @property
    def banked_phase(self) -> Phase:
        """:attr:`phase` as a :class:`Phase`."""
        return Phase(self.phase)


@dataclass(frozen=True)
class PeerView(HandView):
    """A peer hand as a viewer may see it, with what the poker console shows of its betting.

    Attributes:
        to_call: chips the actor must add to call (at most its stack); 0 with no actor.
        forced: the forced bet decided by its seat on the first street (Stud's bring-in): each
            seat that passed it on with its action, then the seat that posted it (``""`` while
            the actor is deciding it); empty for a game without one or on a later street.
        opener: the first seat to act on the street being bet when the game names why
            (:attr:`opening`), else None.
        last: each seat's last action on the street being bet (a call before the flop is not
            shown on the flop), by seat.
        raise_all_in: the largest bet or raise the actor may make puts its whole stack in.
        mucked: seats whose hand was mucked at the showdown.
        push_order: the settled pots' indexes (in ``result["pots"]``) in the order the dealer
            pushes them: side pots first, the main pot last (GAMES.md "Pots").
        void: a void hand's reason code, "" otherwise.
    """

    to_call: int = 0
    raise_all_in: bool = False
    forced: tuple[tuple[int, str], ...] = ()
    opener: int | None = None
    last: Mapping[int, str] = field(default_factory=_empty)
    mucked: tuple[int, ...] = ()
    push_order: tuple[int, ...] = ()
    void: str = ""
