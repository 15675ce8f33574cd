"""The dispute recompute: a recorded hand folded again (:func:`dealer_assist.engine.fold.fold`)
with today's rules and the pay tables recorded in the hand (those in force then), beside what
was recorded and paid, every difference named (docs/PITBOSS.md "Dispute recompute";
HAND_RECORD.md settlement).

A hand journaled with its operations is folded from them, and its stored record and status are
compared with the fold's too (a record changed after the hand: ``record.players[seat=2]...``); a
hand of a release before them is folded from the operations its record gives
(:mod:`dealer_assist.pitboss.hand_ops`). Every game of the release folds: none is settled
again another way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.engine.fold import FoldError, fold
from dealer_assist.errors import DealerAssistError, InvalidRecordError
from dealer_assist.pitboss.hand_ops import JOURNAL, RECORD, folds, hand_operations
from dealer_assist.ports import HAND_STATUSES, StoredHand


@dataclass(frozen=True)
class Difference:
    """One place where the recompute and the record disagree: ``path`` like
    ``seats[seat=3].bets[box=trips].net`` (the settlement), ``record.board[4]`` (the stored
    record), ``status``; the two values (``None``: absent)."""

    path: str
    recorded: Any
    recomputed: Any


@dataclass(frozen=True)
class Recompute:
    """The recorded settlement, today's, and their differences (``error``: the hand no longer
    folds or settles, with the reason). ``source``: what was folded, the journal's operations
    (``journal``) or those of the record (``record``)."""

    recorded: dict[str, Any] | None
    recomputed: dict[str, Any] | None
    differences: tuple[Difference, ...]
    error: str | None = None
    source: str = RECORD
    record: dict[str, Any] | None = None
    """The record the fold gives (HAND_RECORD.md), None when it did not fold."""

    @property
    def agrees(self) -> bool:
        """True when the recompute ran and found no difference."""
        return self.error is None and not self.differences


_UNREADABLE = (DealerAssistError, KeyError, ValueError, TypeError)


def recompute(hand: StoredHand) -> Recompute:
    """Fold ``hand`` again and compare (see the module doc). A void hand is folded to its void
    (every chip returned) and compared the same way; a table record has nothing to recompute
    (``error`` says so)."""
    recorded = hand.settlement if isinstance(hand.settlement, dict) else None
    if hand.status not in HAND_STATUSES:
        return Recompute(recorded, None, (), f"a {hand.status} entry is not a hand")
    if not folds(hand):
        return Recompute(recorded, None, (), f"no game of this release folds a {hand.game} hand")
    try:
        start = hand_operations(hand)
    except _UNREADABLE as e:
        return Recompute(recorded, None, (), f"the record cannot be read: {type(e).__name__}: {e}")
    try:
        state = fold(start.state, start.operations)
    except FoldError as e:
        why = (
            f"operation {e.index + 1} ({e.op.kind}) is refused: {type(e.cause).__name__}: {e.cause}"
        )
        return Recompute(recorded, None, (), f"the hand does not fold today: {why}", start.source)
    except _UNREADABLE as e:
        why = f"{type(e).__name__}: {e}"
        return Recompute(recorded, None, (), f"the record does not fold today: {why}", start.source)
    if not state.is_over:
        return Recompute(
            recorded, None, (), "the operations end before the hand does", start.source
        )
    today, record = state.result(), state.record_json()
    differences = diff(recorded, today)
    if start.source == JOURNAL:
        differences += diff(hand.record, record, "record")
        if state.status != hand.status:
            differences.append(Difference("status", hand.status, state.status))
    return Recompute(recorded, today, tuple(differences), None, start.source, record)


def folded_record(hand: StoredHand) -> tuple[dict[str, Any], dict[str, Any]]:
    """The record and the settlement of a settled or void ``hand`` as the one fold of its
    operations gives them (:func:`recompute`), what ``phh export`` writes: the fold must agree
    with what the journal stores, as the recompute compares them (a hand journaled with its
    operations: record, settlement and status; a hand of a release before them, folded from the
    operations its record gives: the settlement; its record comes back as the fold writes it,
    the settings it left to their defaults named).

    Raises:
        InvalidRecordError: the hand does not fold (``field`` ``operations``, the reason), or
            the fold disagrees with what is stored (``field`` the first difference's path, e.g.
            ``record.players[seat=2].hole[0]``; the stored and the folded values).
    """
    again = recompute(hand)
    if again.error is not None or again.record is None or again.recomputed is None:
        raise InvalidRecordError("operations", again.error or "the hand does not fold")
    differences = again.differences
    if differences:
        first = differences[0]
        more = f" (and {len(differences) - 1} more)" if len(differences) > 1 else ""
        raise InvalidRecordError(
            first.path,
            f"stored {first.recorded!r}, the fold of its operations gives {first.recomputed!r}"
            f"{more}",
        )
    return again.record, again.recomputed


_KEYS = ("seat", "box", "pot")


def _key(item: Any) -> str | None:
    if isinstance(item, dict):
        for k in _KEYS:
            if k in item:
                return f"{k}={item[k]}"
    return None


def diff(recorded: Any, recomputed: Any, path: str = "") -> list[Difference]:
    """Every difference between two JSON values; lists of seats, boxes or pots are matched by
    their ``seat``/``box``/``pot``, other lists by index."""
    if isinstance(recorded, dict) and isinstance(recomputed, dict):
        out: list[Difference] = []
        for k in sorted(set(recorded) | set(recomputed)):
            sub = f"{path}.{k}" if path else k
            out += diff(recorded.get(k), recomputed.get(k), sub)
        return out
    if isinstance(recorded, list) and isinstance(recomputed, list):
        keys_a = [_key(x) for x in recorded]
        keys_b = [_key(x) for x in recomputed]
        if all(keys_a) and all(keys_b):
            a = dict(zip(keys_a, recorded, strict=True))
            b = dict(zip(keys_b, recomputed, strict=True))
            order = [*keys_a, *(k for k in keys_b if k not in a)]
            return [d for k in order for d in diff(a.get(k), b.get(k), f"{path}[{k}]")]
        if len(recorded) == len(recomputed):
            return [
                d
                for i, (x, y) in enumerate(zip(recorded, recomputed, strict=True))
                for d in diff(x, y, f"{path}[{i}]")
            ]
    return [] if recorded == recomputed else [Difference(path, recorded, recomputed)]
