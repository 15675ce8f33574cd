"""The one fold of a hand: its operations applied in order to a new state (design/ENGINE.md).

A hand changes only through :meth:`~dealer_assist.engine.state.GameState.apply`, so a hand is
its first state and its operations. :func:`fold` is the only place that folds them: the table's
resume, the pit boss's replay and dispute recompute, ``audit recompute`` and ``settle`` of a
record all come here. The operations may be a list (a journaled hand's, a step log's) or an
iterator that decides the next one from the state as it stands (a record of an older release,
whose operations are derived from its cards and actions as the hand asks for them). The table's
resume folds its step log with the runner's own ``apply`` (the hand's, and the table's part of
a step: the misdeal detector, the unreadable card held until a pit boss confirms it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from dealer_assist.engine.operations import Operation
from dealer_assist.engine.state import GameState
from dealer_assist.errors import DealerAssistError, RuleError

S = TypeVar("S", bound=GameState)


class FoldError(DealerAssistError):
    """Operation number ``index`` (0-based) of a fold was refused by the hand: ``op`` and the
    rule error ``cause``; the state is as it was after the operations before it."""

    def __init__(self, index: int, op: Operation, cause: RuleError) -> None:
        super().__init__(
            f"operation {index + 1} ({op.kind}) refused: {type(cause).__name__}: {cause}"
        )
        self.index, self.op, self.cause = index, op, cause


def fold(
    state: S,
    operations: Iterable[Operation],
    step: Callable[[S, Operation], None] | None = None,
    *,
    apply: Callable[[S, Operation], object] | None = None,
) -> S:
    """Apply ``operations`` to ``state`` in order and return it; ``step(state, op)`` is called
    after each one (a replay's snapshot). ``apply(state, op)`` applies one operation (default:
    ``state.apply(op)``; the table runner's resume passes its own, which applies it to the hand
    and to the table).

    Raises:
        FoldError: an operation the hand refuses (the rule it breaks, its index). Whatever the
            iterator of ``operations`` or ``apply`` raises otherwise (a record it cannot read, a
            journal error) goes through unchanged.
    """
    for index, op in enumerate(operations):
        try:
            if apply is None:
                state.apply(op)
            else:
                apply(state, op)
        except RuleError as e:
            raise FoldError(index, op, e) from e
        if step is not None:
            step(state, op)
    return state
