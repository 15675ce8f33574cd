"""The action clock and the time bank in a simulated tournament (rules text 002, "Tempo per la
giocata"; GAMES.md "Action clock").

A simulated player's thinking time for decision ``index`` of tournament hand ``number`` is drawn
from the seed (:func:`think_ms`: mostly a few seconds, now and then longer than the action clock,
rarely longer than the clock and the bank together). Each decision runs on the core's clock
(:class:`~dealer_assist.tournament.action_clock.DecisionClock`): past the level's action clock the
player's time bank is drawn (``automatic``; ``on_request``: the player asks for it just before the
clock runs out), across hands until it is gone; a decision past both times out: the hand is
checked if it can be, else folded, and the player sits out from the next hand.

The same function runs live (the seat's choice replaced by the time-out action) and in the fold
of the journal (the banks after each settled hand recomputed from its record's actions), so a
restart finds every bank where it was. The simulated clock does not add thinking time to a hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.engine.betting import CHECK, FOLD
from dealer_assist.engine.state import ActionSpace
from dealer_assist.tournament.action_clock import (
    DecisionClock,
    DecisionOutcome,
    TimeBanks,
    timeout_action,
)
from dealer_assist.tournament.clock import SIM_EPOCH
from dealer_assist.tournament.draws import draw_number
from dealer_assist.tournament.structure import TournamentStructure


def think_ms(seed: int, number: int, index: int) -> int:
    """Milliseconds the simulated player thinks over decision ``index`` of hand ``number``:
    98.5 % 0.5-12 s, 1.3 % 12-40 s, 0.2 % 40-120 s (from the seed: the same after a restart)."""
    x = draw_number(seed, "think", number, index)
    y = draw_number(seed, "think-length", number, index)
    if x < 0.985:
        return 500 + int(y * 11_500)
    if x < 0.998:
        return 12_000 + int(y * 28_000)
    return 40_000 + int(y * 80_000)


def decide(
    structure: TournamentStructure,
    level: int,
    player: str,
    banks: TimeBanks,
    *,
    seed: int,
    number: int,
    index: int,
) -> DecisionOutcome:
    """How decision ``index`` of hand ``number`` by ``player`` ends on the clock (the bank
    drawn past the action clock; a time-out past both)."""
    clock = DecisionClock.begin(structure, level, player, SIM_EPOCH, banks)
    think = think_ms(seed, number, index)
    if not clock.bank_open and think >= clock.action_ms and clock.bank_ms > 0:
        clock = clock.open_bank(SIM_EPOCH + timedelta(milliseconds=clock.action_ms - 1))
    return clock.finish(SIM_EPOCH + timedelta(milliseconds=think))


def walk(
    structure: TournamentStructure,
    level: int,
    banks: TimeBanks,
    players: Sequence[tuple[int, str | None]],
    *,
    seed: int,
    number: int,
    timed_out: frozenset[str] | set[str] = frozenset(),
) -> tuple[TimeBanks, set[str]]:
    """The banks after the decisions ``players`` (``(index, player)``; None: a seat sitting out,
    on no clock) of hand ``number``, and who timed out (with ``timed_out`` before: a player
    timed out is folded or checked from then on, on no clock)."""
    out: set[str] = set(timed_out)
    for index, player in players:
        if player is None or player in out:
            continue
        outcome = decide(structure, level, player, banks, seed=seed, number=number, index=index)
        banks = banks.settle(outcome)
        if outcome.timed_out:
            out.add(player)
    return banks, out


class Clocked:
    """A seat's simulated player on the action clock (a
    :class:`~dealer_assist.table.peer_driving.SeatPlayer`): each decision first drawn on the clock;
    timed out, the hand checks or folds (:func:`timeout_action`) instead of the player's choice.

    Args:
        inner: the player. player: their name. hand: returns the hand in progress (its
            decisions so far are the decision's index). state: holds ``banks`` (updated in
            place for the hand) and ``timed_out``.
    """

    def __init__(
        self,
        inner: Any,
        player: str,
        hand: Any,
        state: Any,
        *,
        structure: TournamentStructure,
        level: int,
        seed: int,
        number: int,
    ) -> None:
        self.inner = inner
        self.player = player
        self.hand = hand
        self.state = state
        self.structure = structure
        self.level = level
        self.seed = seed
        self.number = number

    def choose(
        self,
        space: ActionSpace,
        *,
        hole: Sequence[Card],
        board: Sequence[Card],
        pot: int,
        to_call: int,
    ) -> tuple[str, int | None]:
        """See :meth:`dealer_assist.table.peer_driving.SeatPlayer.choose`."""
        if self.player in self.state.timed_out:  # in sit-out from the time-out on
            return _timed_out(space)
        index = len(self.hand().bets)
        outcome = decide(
            self.structure,
            self.level,
            self.player,
            self.state.banks,
            seed=self.seed,
            number=self.number,
            index=index,
        )
        self.state.banks = self.state.banks.settle(outcome)
        if not outcome.timed_out:
            kind, to = self.inner.choose(space, hole=hole, board=board, pot=pot, to_call=to_call)
            return str(kind), to
        self.state.timed_out.add(self.player)
        return _timed_out(space)


def _timed_out(space: ActionSpace) -> tuple[str, int | None]:
    kind = timeout_action(CHECK in space.kinds)
    if kind in space.kinds:
        return kind, None
    return (FOLD if FOLD in space.kinds else sorted(space.kinds)[0]), None


def decisions_of(
    record: Mapping[str, Any], names: Mapping[int, str], sitting_out: set[str]
) -> list[tuple[int, str | None]]:
    """``(index, player)`` of a hand record's actions (None for a seat sitting out)."""
    out: list[tuple[int, str | None]] = []
    for i, action in enumerate(record.get("actions", [])):
        name = names.get(int(action["seat"]))
        out.append((i, None if name is None or name in sitting_out else name))
    return out
