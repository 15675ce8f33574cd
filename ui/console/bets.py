"""Bets being entered before "rien ne va plus": per-seat drafts, chip entry and limit checks.

Qt-free. The table limits and the game's own rules are the core's
(:meth:`~dealer_assist.engine.rules.GameRules.validate_bets`, which names the limit broken);
this module only turns its verdict into something the dealer can read (which box, which limit)
and keeps the drafts. A chip that would take a box above its maximum is refused at once.
A box the game says follows another (``GameRules.followed_boxes``; UTH: the Blind equals the
Ante) is never entered: it takes the other box's amount.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dealer_assist.config import TableConfig
from dealer_assist.errors import BetError
from dealer_assist.games import get_game


@dataclass(frozen=True)
class BetIssue:
    """Why a seat's bets cannot go: ``code`` is ``below_min``, ``above_max``, ``missing`` (a
    mandatory box is empty) or ``other`` (then ``message`` is the core's English text);
    ``box`` the box concerned; ``limit`` the limit broken, minor units."""

    code: str
    box: str
    limit: int = 0
    message: str = ""


class BetBook:
    """The bets of every seat for the next deal, in minor units.

    Args:
        config: the table (game, seats, limits).
    """

    def __init__(self, config: TableConfig) -> None:
        self.config = config
        self.game = get_game(config.game)
        self.follows = self.game.followed_boxes
        self.drafts: dict[int, dict[str, int]] = {}
        self.chips: list[tuple[int, str, int]] = []  # (seat, box, chip) added, for undo

    @property
    def entry_boxes(self) -> tuple[str, ...]:
        """Boxes the dealer enters, mandatory first (UTH: ante, trips; THB: ante, bonus)."""
        boxes = self.game.required_boxes + self.game.optional_boxes
        return tuple(b for b in boxes if b not in self.follows)

    @property
    def shown_boxes(self) -> tuple[str, ...]:
        """Every box of a seat before the deal (UTH: ante, blind, trips)."""
        return self.game.required_boxes + self.game.optional_boxes

    def amount(self, seat: int, box: str) -> int:
        """The stake of ``box`` in the seat's draft (followed boxes included), minor units."""
        draft = self.drafts.get(seat, {})
        return draft.get(self.follows.get(box, box), 0)

    def seat_bets(self, seat: int) -> dict[str, int]:
        """The seat's full bets as the core takes them (zero boxes dropped, Blind filled in)."""
        draft = {b: a for b, a in self.drafts.get(seat, {}).items() if a > 0}
        for box, source in self.follows.items():
            if source in draft:
                draft[box] = draft[source]
        return draft

    def add_chip(self, seat: int, box: str, chip: int) -> BetIssue | None:
        """Add a ``chip`` (minor units) to ``box``; refused (returns the issue) above the box's
        maximum. Returns None when the chip was added."""
        box = self.follows.get(box, box)
        lim = self.config.limits.get(box)
        new = self.amount(seat, box) + chip
        broken = lim.broken(new) if lim is not None else None
        if broken is not None and broken[0] == "above_max":  # below the minimum: more chips come
            return BetIssue("above_max", box, broken[1])
        self.drafts.setdefault(seat, {})[box] = new
        self.chips.append((seat, box, chip))
        return None

    def undo_chip(self, seat: int) -> str | None:
        """Take back the last chip added to ``seat`` (since the last clear or load), never
        another seat's; returns its box, or None when the seat has none. A box emptied by it
        goes from the draft."""
        for i in range(len(self.chips) - 1, -1, -1):
            at, box, chip = self.chips[i]
            if at != seat:
                continue
            del self.chips[i]
            have = self.drafts.get(seat, {}).get(box, 0)
            if have < chip:
                continue  # its box was cleared since: nothing of it is left to take back
            if have == chip:
                self.clear_box(seat, box)
            else:
                self.drafts[seat][box] = have - chip
            return box
        return None

    def can_undo(self, seat: int | None) -> bool:
        """``seat`` has a chip :meth:`undo_chip` would take back."""
        return seat is not None and any(
            at == seat and self.drafts.get(at, {}).get(box, 0) >= chip
            for at, box, chip in self.chips
        )

    def clear_box(self, seat: int, box: str) -> None:
        """Empty one box of a seat's draft."""
        self.drafts.get(seat, {}).pop(self.follows.get(box, box), None)
        if not self.drafts.get(seat):
            self.drafts.pop(seat, None)

    def clear_seat(self, seat: int) -> None:
        """Remove every bet of a seat."""
        self.drafts.pop(seat, None)

    def clear(self) -> None:
        """Remove every draft (a new hand)."""
        self.drafts.clear()
        self.chips.clear()

    def load(self, bets: Mapping[int, Mapping[str, int]]) -> None:
        """Replace the drafts with ``bets`` (repeat last bets); followed boxes are dropped."""
        self.chips.clear()
        self.drafts = {
            seat: {b: a for b, a in seat_bets.items() if b not in self.follows}
            for seat, seat_bets in bets.items()
            if 1 <= seat <= self.config.seats
        }

    def issue(self, seat: int) -> BetIssue | None:
        """Why the seat's bets would be refused now, or None (also None for an empty seat): the
        core's verdict (:meth:`~dealer_assist.engine.rules.GameRules.validate_bets`), its table
        limit named by ``BetError.code``."""
        bets = self.seat_bets(seat)
        if not bets:
            return None
        try:
            self.game.validate_bets(bets, self.config.limits)
        except BetError as e:
            if e.code:
                return BetIssue(e.code, e.box, e.limit)
            return BetIssue("other", e.box, 0, str(e))
        return None

    def ready(self) -> dict[int, dict[str, int]]:
        """The bets of every seat with a draft, seat -> box -> minor units (may be empty)."""
        return {s: self.seat_bets(s) for s in sorted(self.drafts) if self.seat_bets(s)}
