"""Large pots signed off at a poker table (docs/console.md "Large-pot sign-off").

What "a pot above a threshold" means here: each pot as the dealer pushes it (the main pot and
every side pot on its own, GAMES.md "Pots are settled separately"), by its whole amount — every
chip in it, the winners' own included, split or not — since that is the stack of chips that
crosses the felt and that surveillance watches. The table's ``[signoff]`` tiers
(:class:`~dealer_assist.config.SignoffTier`) say above which amount (minor units or tournament
chips) a pot waits and for whom (:func:`~dealer_assist.config.signoff_role`: the highest tier it
is above). A player's total over several pots is not summed: each push is signed for itself.

The hand stops before that pot's award (:class:`~dealer_assist.table.peer_runner.PeerRunner`:
the pots before it are awarded, it and those after wait, the hand is not settled nor journaled)
until a :class:`PotSignOff` is given: who signed (badge, the role checked by the caller), when,
the pot, its amount and winners, and the cards as read (each winner's cards, the board). It is
kept like the banked payout walk's marks (:mod:`dealer_assist.table.payouts`): a step of the
journal's pending-step log under ``<table_id>#pot_signoff`` (never read by the hand's resume),
durable when :meth:`PotSignoffLog.sign` returns, so a ``kill -9`` finds it again; once the hand
is journaled, each is journaled as a table record of kind :data:`POT_SIGNOFF_KIND` in the hash
chain (uid ``<table>-potsignoff-<hand>-<pot>``: a retry after a crash stores it once), then its
steps go.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from dealer_assist.config import SIGNOFF_ROLES
from dealer_assist.errors import OperationError
from dealer_assist.ports import JournalPort

POT_SIGNOFF_KIND = "pot_signoff"
"""The step kind and the table record's kind of a large pot's sign-off."""
SIGNOFF_SUFFIX = "#pot_signoff"


def covers(who: str, role: str) -> bool:
    """``who`` (a role name) may sign what needs ``role``: the same role or a higher one of
    :data:`~dealer_assist.config.SIGNOFF_ROLES` (a shift manager signs a pit boss's tier)."""
    if who not in SIGNOFF_ROLES or role not in SIGNOFF_ROLES:
        return False
    return SIGNOFF_ROLES.index(who) >= SIGNOFF_ROLES.index(role)


@dataclass(frozen=True)
class PotSignOff:
    """Pot ``pot`` (0 the main pot, 1.. the side pots) of ``hand_uid``: ``amount`` (minor units)
    to ``winners`` (``(seat, share)``), above a tier of ``role``; signed by ``by`` (a badge) at
    ``at`` (UTC), seeing ``cards`` (each winner's cards as read, deal order) and ``board``;
    ``via`` ``console`` (badge and PIN at the table) or ``pitboss`` (confirmed with PIN in the
    pit-boss application, through the floor: ``ui/poker/service_signoff.py``)."""

    hand_uid: str
    pot: int
    amount: int
    winners: tuple[tuple[int, int], ...]
    role: str
    by: str
    at: datetime
    cards: Mapping[int, tuple[str, ...]] = field(default_factory=dict)
    board: tuple[str, ...] = ()
    via: str = "console"

    def to_json(self) -> dict[str, Any]:
        """The step's (and the table record's) payload."""
        return {
            "hand_uid": self.hand_uid,
            "pot": self.pot,
            "amount": self.amount,
            "winners": [{"seat": s, "amount": a} for s, a in self.winners],
            "role": self.role,
            "by": self.by,
            "at": self.at.isoformat(),
            "cards": {str(s): list(c) for s, c in sorted(self.cards.items())},
            "board": list(self.board),
            "via": self.via,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PotSignOff:
        """The inverse of :meth:`to_json`. Raises OperationError naming a bad field."""
        try:
            return cls(
                str(data["hand_uid"]),
                int(data["pot"]),
                int(data["amount"]),
                tuple((int(w["seat"]), int(w["amount"])) for w in data["winners"]),
                str(data["role"]),
                str(data["by"]),
                datetime.fromisoformat(str(data["at"])),
                {int(s): tuple(str(c) for c in cs) for s, cs in dict(data["cards"]).items()},
                tuple(str(c) for c in data.get("board", ())),
                str(data.get("via", "console")),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise OperationError(f"pot sign-off: bad or missing field ({e})") from e


class PotSignoffLog:
    """The pot sign-offs of one table not journaled yet; a plain record without a journal.

    Args:
        journal: an opened journal (the port), or None.
        table_id: the table's id.

    Every write raises :class:`~dealer_assist.errors.JournalError` when it cannot be made durable
    (nothing is kept then).
    """

    def __init__(self, journal: JournalPort | None, table_id: str) -> None:
        self.journal = journal
        self.key = table_id + SIGNOFF_SUFFIX
        self._signed: dict[tuple[str, int], PotSignOff] = {}
        self._next: dict[str, int] = {}  # hand -> its next step number under the key

    def restore(self) -> None:
        """After a restart: the sign-offs the step log kept (a step it cannot read, another
        release's, is left out: that pot waits for a sign-off again)."""
        self._signed, self._next = {}, {}
        if self.journal is None:
            return
        for step in self.journal.pending_steps(self.key):
            self._next[step.hand_uid] = max(self._next.get(step.hand_uid, 0), step.step_no + 1)
            if step.kind != POT_SIGNOFF_KIND:
                continue
            try:
                so = PotSignOff.from_json(step.payload)
            except OperationError:
                continue
            self._signed.setdefault((so.hand_uid, so.pot), so)

    def signed(self, hand_uid: str, pot: int) -> PotSignOff | None:
        """The sign-off of ``pot`` of ``hand_uid``, None when it has none."""
        return self._signed.get((hand_uid, pot))

    def sign(self, signoff: PotSignOff) -> bool:
        """Keep ``signoff`` (durable on return); False, nothing written, when that pot was
        signed off already."""
        key = (signoff.hand_uid, signoff.pot)
        if key in self._signed:
            return False
        if self.journal is not None:
            step_no = self._next.get(signoff.hand_uid, 0)
            self.journal.write_step(
                self.key, signoff.hand_uid, step_no, POT_SIGNOFF_KIND, signoff.to_json()
            )
            self._next[signoff.hand_uid] = step_no + 1
        self._signed[key] = signoff
        return True

    def of_hand(self, hand_uid: str) -> tuple[PotSignOff, ...]:
        """The sign-offs of ``hand_uid`` in the order they were signed (the award order)."""
        return tuple(so for (uid, _), so in self._signed.items() if uid == hand_uid)

    def hands(self) -> tuple[str, ...]:
        """The hands with sign-offs kept (not journaled yet)."""
        return tuple(sorted({h for h, _ in self._signed} | set(self._next)))

    def drop(self, hand_uid: str) -> None:
        """The sign-offs of ``hand_uid`` are journaled: their steps go.

        Raises:
            JournalError: the step log cannot be written (they stay, journaled again by uid).
        """
        if self.journal is not None:
            self.journal.clear_steps(self.key, hand_uid)
        self._signed = {k: v for k, v in self._signed.items() if k[0] != hand_uid}
        self._next.pop(hand_uid, None)
