"""A stored hand stepped through as it happened (docs/PITBOSS.md "Replay").

The hand's first state and its operations (:func:`dealer_assist.pitboss.hand_ops.
hand_operations`: the journal's own, or derived from the record of a release before them) go
through the one fold (:func:`dealer_assist.engine.fold.fold`), a snapshot after each
operation, titled from the hand as it stood just before (:mod:`dealer_assist.pitboss.titles`).
The last step's result is the fold's: :mod:`dealer_assist.pitboss.recompute` compares it with
the recorded one. Every game of the release folds (banked and pot games alike): there is no
replay of its own for any.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.fold import FoldError, fold
from dealer_assist.engine.operations import Operation
from dealer_assist.engine.peer_state import PeerHand
from dealer_assist.engine.state import GameState
from dealer_assist.errors import DealerAssistError
from dealer_assist.pitboss.hand_ops import folds, hand_operations
from dealer_assist.pitboss.titles import title
from dealer_assist.ports import StoredHand

_UNREADABLE = (DealerAssistError, KeyError, ValueError, TypeError)
"""What reading a record may raise: the project's errors, and a field missing or mistyped."""


@dataclass(frozen=True)
class SeatView:
    """One seat after a step: its hole cards (text), stakes by box (minor units), decisions;
    ``up``: which of its cards were dealt face up (Stud's door and up cards: seen by everyone at
    the table), empty when none is."""

    seat: int
    hole: tuple[str, ...]
    stakes: Mapping[str, int]
    actions: tuple[str, ...]
    up: tuple[bool, ...] = ()


@dataclass(frozen=True)
class ReplayStep:
    """The hand after operation ``index`` (0-based): ``title`` says what the operation did;
    ``board``/``dealer`` the cards placed so far; ``result`` the settlement once settled."""

    index: int
    kind: str
    title: str
    board: tuple[str, ...]
    dealer: tuple[str, ...]
    seats: tuple[SeatView, ...]
    result: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Replay:
    """Every step of a hand; ``stopped``: why the fold stopped early (``None``: it ran whole)."""

    steps: tuple[ReplayStep, ...]
    stopped: str | None = None
    operations: tuple[Operation, ...] = field(default_factory=tuple)

    @property
    def final(self) -> ReplayStep | None:
        """The last step, ``None`` for a hand without steps."""
        return self.steps[-1] if self.steps else None


def replay(hand: StoredHand, money: Callable[[int], str] = str) -> Replay:
    """The steps of ``hand`` (see the module doc), the amounts in the steps' words written by
    ``money`` (integer minor units -> text). Never raises for a record it cannot fold: the
    steps up to there and ``stopped`` naming the operation and the rule."""
    if hand.status == "table":
        return Replay((), "a table record is not a hand")
    if not folds(hand):
        return Replay((), f"no game of this release folds a {hand.game} hand")
    try:
        start = hand_operations(hand)
    except _UNREADABLE as e:
        return Replay((), f"the record cannot be read: {type(e).__name__}: {e}")
    steps: list[ReplayStep] = []
    done: list[Operation] = []
    said = [""]

    def titled(ops: Iterable[Operation]) -> Iterator[Operation]:
        for op in ops:
            said[0] = title(start.state, op, money)  # before the fold applies it
            yield op

    def step(state: GameState, op: Operation) -> None:
        done.append(op)
        steps.append(_snapshot(state, len(steps), op.kind, said[0], money))

    try:
        fold(start.state, titled(start.operations), step)
    except FoldError as e:
        why = f"{type(e.cause).__name__}: {e.cause}"
        return Replay(tuple(steps), f"step {len(steps) + 1} refused: {why}", tuple(done))
    except _UNREADABLE as e:
        name = type(e).__name__
        return Replay(tuple(steps), f"step {len(steps) + 1} refused: {name}: {e}", tuple(done))
    return Replay(tuple(steps), None, tuple(done))


def _snapshot(
    state: GameState, index: int, kind: str, said: str, money: Callable[[int], str] = str
) -> ReplayStep:
    if isinstance(state, PeerHand):
        return _peer_snapshot(state, index, kind, said, money)
    if isinstance(state, BankedHand):
        return _banked_snapshot(state, index, kind, said)
    raise TypeError(f"no replay snapshot of a {type(state).__name__}")


def _peer_snapshot(
    state: PeerHand, index: int, kind: str, said: str, money: Callable[[int], str]
) -> ReplayStep:
    put_in = state.put_in()
    seats = tuple(
        SeatView(
            s,
            tuple(str(c) for c in state.holes[s]),
            {"put in": put_in.get(s, 0)},
            tuple(
                f"{a.get('street')} {a.get('action')}"
                + (f" {money(a['to'])}" if a.get("to") is not None else "")
                for a in state.actions
                if a.get("seat") == s
            ),
            tuple(state.faces[s]),
        )
        for s in state.setup.seats
    )
    return ReplayStep(
        index, kind, said, tuple(str(c) for c in state.board), (), seats, state.result()
    )


def _banked_snapshot(state: BankedHand, index: int, kind: str, title: str) -> ReplayStep:
    seats = tuple(
        SeatView(
            s,
            tuple(str(st.hole[n]) for n in sorted(st.hole)),
            state.stakes(s),
            tuple(
                f"{a.street} {a.action}" + (f" x{a.multiple}" if a.multiple else "")
                for a in st.actions
            ),
        )
        for s, st in sorted(state.seats.items())
    )
    result = state.settlement.to_json() if state.settlement is not None else None
    return ReplayStep(
        index,
        kind,
        title,
        tuple(str(c) for c in state.board_visible()),
        tuple(str(c) for c in state.dealer_cards),
        seats,
        result,
    )
