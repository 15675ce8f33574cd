"""What was changed in a hand after the fact, read from its journaled operations: each pit
boss's correction and each decision taken back, with who made it, the pit boss who authorised
it, what it was before and after (the decision and the stakes) and when (UTC).

``audit show`` and the pit boss's hand screen list them; the stakes come from the hand's replay
(:func:`dealer_assist.pitboss.replay.replay`), the state just before and just after each one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime

from dealer_assist.engine.operations import ActionUndone, DecisionCorrected
from dealer_assist.pitboss.replay import Replay, ReplayStep, SeatView, replay
from dealer_assist.ports import StoredHand


@dataclass(frozen=True)
class Change:
    """One change: ``kind`` ``correct`` (a pit boss's correction) or ``undo`` (a decision taken
    back before the next card); ``seat``; ``before``/``after``: the seat's decisions (``preflop
    check``...; ``after`` empty for an undo of its only one); ``stakes_before``/``stakes_after``
    by box, minor units; ``by``: the dealer who made it ("" when nobody was logged in);
    ``pit_boss``: the badge that authorised it ("" for a dealer's undo); ``reason``; ``at`` (UTC).
    """

    kind: str
    seat: int
    before: tuple[str, ...]
    after: tuple[str, ...]
    stakes_before: Mapping[str, int]
    stakes_after: Mapping[str, int]
    by: str
    pit_boss: str
    reason: str
    at: datetime


def changes(hand: StoredHand) -> tuple[Change, ...]:
    """Every correction and undo of ``hand`` in order (none for a hand journaled without its
    operations, or one whose replay stops before them). Never raises."""
    return changes_of(replay(hand))


def changes_of(r: Replay) -> tuple[Change, ...]:
    """:func:`changes` of a replay already made (the hand screen has one)."""
    out = []
    for i, op in enumerate(r.operations):
        if not isinstance(op, DecisionCorrected | ActionUndone) or i >= len(r.steps):
            continue
        before = _seat(r.steps[i - 1], op.seat) if i > 0 else None
        after = _seat(r.steps[i], op.seat)
        if isinstance(op, DecisionCorrected):
            kind, pit_boss = "correct", op.pit_boss
        else:
            kind, pit_boss = "undo", ""
        out.append(
            Change(
                kind,
                op.seat,
                before.actions if before is not None else (),
                after.actions if after is not None else (),
                dict(before.stakes) if before is not None else {},
                dict(after.stakes) if after is not None else {},
                "" if op.by == "dealer" and kind == "undo" else op.by,
                pit_boss,
                op.reason,
                op.at,
            )
        )
    return tuple(out)


def _seat(step: ReplayStep, seat: int) -> SeatView | None:
    return next((s for s in step.seats if s.seat == seat), None)


def change_text(c: Change, money: Callable[[int], str]) -> str:
    """One line of ``c`` (English; ``money`` writes minor units): ``2026-12-02T13:40:01Z seat 6:
    preflop check -> preflop play x4; play 0 -> EUR 120.00; made by dealer D-12, authorised by
    pit boss 4711: camera``."""
    old = c.before[-1] if c.before else "no decision"
    if c.kind == "correct":
        new = c.after[-1] if c.after else "no decision"
        what = f"decision corrected: {old} -> {new}"
    else:
        what = f"decision taken back: {old}"
    boxes = sorted(set(c.stakes_before) | set(c.stakes_after))
    moved = [
        f"{b} {money(c.stakes_before.get(b, 0))} -> {money(c.stakes_after.get(b, 0))}"
        for b in boxes
        if c.stakes_before.get(b, 0) != c.stakes_after.get(b, 0)
    ]
    who = f"made by {c.by or 'no dealer logged in'}"
    if c.pit_boss:
        who += f", authorised by pit boss {c.pit_boss}"
    why = f": {c.reason}" if c.reason else ""
    stakes = f" ({'; '.join(moved)})" if moved else ""
    return f"{c.at.isoformat()} seat {c.seat}: {what}{stakes}; {who}{why}"
