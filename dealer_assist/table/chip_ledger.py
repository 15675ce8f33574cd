"""Chip conservation at a pot game's table, checked entry by entry along the journal.

Every chip on the table is in a stack of the table session; chips come in with a buy-in or a
top-up, leave with a player cashing out, and the house takes the rake. Walking a table's journal
entries in order (hands and table records, :mod:`dealer_assist.table.records`),
:class:`ChipLedger` checks for every hand that

    the stacks after the previous hand + the buy-ins since - the cash-outs since
        == the stacks after this hand + its rake

(the sessions are the ones the journal carries in ``extra["session"]``), and that the hand
itself agrees with the sessions around it: its record's stacks (HAND_RECORD.md "Pot games") are
the session's before it, its settlement's stacks are the session's after it, and its stacks at
the start equal its stacks at the end plus the rake. A void hand returns every chip: nothing
moves. Integers only.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dealer_assist.games.session import TableSession
from dealer_assist.ports import TABLE_RECORD, StoredHand

BUY_KINDS = frozenset({"buy_in", "top_up"})
"""Table records that bring chips to the table (their ``amount``)."""
OUT_KINDS = frozenset({"leave"})
"""Table records that take chips away (their ``amount``: the stack cashed out)."""


@dataclass(frozen=True)
class HandChips:
    """The chip check of one journaled hand (minor units).

    Attributes:
        hand_id, hand_uid: the journal entry.
        before: the stacks after the previous hand (0 before the table's first).
        buy_ins, cash_outs: chips brought and taken away between the two hands.
        after: the stacks after this hand; ``rake``: the house's chips of it.
        problems: what did not add up, each naming the numbers; empty when conserved.
    """

    hand_id: int
    hand_uid: str
    before: int
    buy_ins: int
    cash_outs: int
    after: int
    rake: int
    problems: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        """Every chip is accounted for."""
        return not self.problems

    def describe(self) -> str:
        """``hand 12 (uid): problem; problem`` for a report."""
        return f"hand {self.hand_id} ({self.hand_uid}): " + "; ".join(self.problems)


def session_stacks(session: Mapping[str, Any] | None) -> dict[int, int]:
    """seat -> stack of a journaled session object (seats without a stack left out).

    Raises:
        ConfigError: a malformed session (names the key).
    """
    if session is None:
        return {}
    parsed = TableSession.from_json(session)
    return {s: p.stack for s, p in parsed.seats.items() if p.stack is not None}


@dataclass
class ChipLedger:
    """Checks chip conservation entry by entry for table ``table_id``.

    Args:
        table_id: entries of other tables are skipped.
        start: the stacks at the start (seat -> chips), e.g. the session a run started from;
            empty for a table's first entry.
    """

    table_id: str
    start: Mapping[int, int] = field(default_factory=dict)
    checks: list[HandChips] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._stacks: dict[int, int] = dict(self.start)
        self._after_hand = sum(self._stacks.values())
        self._buy_ins = 0
        self._cash_outs = 0
        self._record_problems: list[str] = []

    @property
    def failures(self) -> list[HandChips]:
        """The hands whose chips did not add up."""
        return [c for c in self.checks if not c.ok]

    def add(self, entry: StoredHand) -> HandChips | None:
        """Take the next journal entry; the check of a hand (None for a table record or an
        entry of another table). A table record's session that does not add up to the one
        before plus its amount is reported with the next hand."""
        if entry.table_id != self.table_id:
            return None
        after = session_stacks(entry.extra.get("session"))
        if entry.status == TABLE_RECORD:
            self._table_record(entry, after)
            return None
        check = self._hand(entry, after)
        self.checks.append(check)
        self._stacks = after
        self._after_hand = sum(after.values())
        self._buy_ins = self._cash_outs = 0
        self._record_problems = []
        return check

    def _table_record(self, entry: StoredHand, after: dict[int, int]) -> None:
        kind = str(entry.record.get("kind", ""))
        amount = entry.record.get("amount", 0)
        amount = amount if isinstance(amount, int) and not isinstance(amount, bool) else 0
        change = 0
        if kind in BUY_KINDS:
            self._buy_ins += amount
            change = amount
        elif kind in OUT_KINDS:
            self._cash_outs += amount
            change = -amount
        was = sum(self._stacks.values())
        if sum(after.values()) != was + change:
            self._record_problems.append(
                f"table record {entry.hand_id} ({kind} {amount}) makes the stacks "
                f"{sum(after.values())}, not {was} + {change}"
            )
        self._stacks = after

    def _hand(self, entry: StoredHand, after: dict[int, int]) -> HandChips:
        settlement = entry.settlement or {}
        rake = settlement.get("rake", 0) if entry.status == "settled" else 0
        rake = rake if isinstance(rake, int) and not isinstance(rake, bool) else 0
        problems = list(self._record_problems)
        total_after = sum(after.values())
        expected = self._after_hand + self._buy_ins - self._cash_outs
        if expected != total_after + rake:
            problems.append(
                f"stacks {self._after_hand} + buy-ins {self._buy_ins} - cash-outs "
                f"{self._cash_outs} = {expected}, but after the hand {total_after} + rake {rake}"
            )
        start = {p["seat"]: p["stack"] for p in entry.record.get("players", [])}
        wrong = {s: (c, self._stacks.get(s)) for s, c in start.items() if self._stacks.get(s) != c}
        if wrong:
            problems.append(
                "stacks dealt in are not the session's before the hand: "
                + ", ".join(f"seat {s} {c} (session {w})" for s, (c, w) in sorted(wrong.items()))
            )
        end = {p["seat"]: p["stack"] for p in settlement.get("seats", [])}
        moved = {s: (c, after.get(s)) for s, c in end.items() if after.get(s) != c}
        if moved:
            problems.append(
                "settled stacks are not the session's after the hand: "
                + ", ".join(f"seat {s} {c} (session {n})" for s, (c, n) in sorted(moved.items()))
            )
        if end and sum(start.values()) != sum(end.values()) + rake:
            problems.append(
                f"the hand's stacks {sum(start.values())} at the start != "
                f"{sum(end.values())} at the end + rake {rake}"
            )
        return HandChips(
            entry.hand_id,
            entry.hand_uid or "",
            self._after_hand,
            self._buy_ins,
            self._cash_outs,
            total_after,
            rake,
            tuple(problems),
        )
