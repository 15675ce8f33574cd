"""The dispute recompute: a recorded hand settled again with today's rules and the pay tables
recorded in the hand (those in force then), beside what was recorded and paid, every difference
named (docs/PITBOSS.md "Dispute recompute"; HAND_RECORD.md settlement).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealer_assist.errors import DealerAssistError
from dealer_assist.ports import StoredHand
from dealer_assist.record import settle_record


@dataclass(frozen=True)
class Difference:
    """One place where the recompute and the record disagree: ``path`` like
    ``seats[seat=3].bets[box=trips].net``; the two values (``None``: absent)."""

    path: str
    recorded: Any
    recomputed: Any


@dataclass(frozen=True)
class Recompute:
    """The recorded settlement, today's, and their differences (``error``: the record no
    longer settles, with the reason)."""

    recorded: dict[str, Any] | None
    recomputed: dict[str, Any] | None
    differences: tuple[Difference, ...]
    error: str | None = None

    @property
    def agrees(self) -> bool:
        """True when the recompute ran and found no difference."""
        return self.error is None and not self.differences


def recompute(hand: StoredHand) -> Recompute:
    """Settle ``hand``'s record again (:func:`dealer_assist.record.settle_record`: today's code,
    the record's pay tables) and compare with the stored settlement. A void hand has nothing
    to settle: its record is not recomputed (``error`` says so)."""
    recorded = hand.settlement if isinstance(hand.settlement, dict) else None
    if hand.status != "settled":
        return Recompute(recorded, None, (), f"a {hand.status} hand is not settled")
    try:
        today = settle_record(hand.record)
    except DealerAssistError as e:
        return Recompute(recorded, None, (), f"the record does not settle today: {e}")
    return Recompute(recorded, today, tuple(diff(recorded, today)))


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
