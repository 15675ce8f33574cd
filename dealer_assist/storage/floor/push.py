"""One table's journal pushed to the floor: what the forwarder does on each round and what
``dealer-assist floor sync`` does once.

On every round a :class:`Pusher` first compares the two sides where they meet (one entry read):
the table's record at the floor's head must have the floor's hash (else the table's copy was
changed after it was forwarded: the first changed position is found by bisection, both chains
being hash chains, and sent so the floor raises the alert there), and the journal must reach the
floor's head (else it was replaced or cut: an alert). Then it sends what follows the floor's
head, in batches, in chain order; the floor refuses anything that would leave a gap or break the
chain.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from itertools import islice, takewhile
from typing import Protocol

from dealer_assist.errors import JournalError
from dealer_assist.events import utc_now
from dealer_assist.notary.client import NotaryClient, NotaryUnavailableError
from dealer_assist.ports import StoredHand
from dealer_assist.storage.chain import GENESIS_HASH
from dealer_assist.storage.floor.checkpoints import Checkpoint
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.floor.ingest import IngestResult, Refusal
from dealer_assist.storage.floor.schema import JOURNAL_BEHIND, TAMPERED

BATCH = 500
#: The longest the floor goes without the signer's head while the forwarder runs.
CHECKPOINT_EVERY = timedelta(minutes=1)


def notary_checkpoints(notary: NotaryClient) -> Callable[[], Checkpoint | None]:
    """The signer's head as a :class:`Checkpoint`, asked of ``notary`` each time (``None``
    while the notary cannot be reached: the next round sends it)."""

    def head() -> Checkpoint | None:
        try:
            h = notary.head()
        except NotaryUnavailableError:
            return None
        return Checkpoint(h.position, h.hash, h.signature, h.key_id, h.signed_at)

    return head


class LocalJournal(Protocol):
    """What the pusher reads of a table's journal (:class:`~dealer_assist.storage.Journal`)."""

    def last_hand(self) -> StoredHand | None:
        """The chain's last entry."""

    def get_hand(self, hand_id: int) -> StoredHand:
        """One entry; JournalError when there is none."""

    def iter_hands(self, start: int | None = None) -> Iterator[StoredHand]:
        """Entries from ``start`` in chain order."""


@dataclass(frozen=True)
class PushResult:
    """One round of pushing.

    Attributes:
        table_id: the table (``None`` while its journal is empty).
        sent: records the floor newly stored; ``first``/``last`` their positions.
        local_position: the journal's last position when the round began.
        floor_position: the floor's head afterwards.
        pending_since: ``recorded_at`` of the first record still not on the floor, or None.
        refused: why the floor refused a record (an alert was raised), or None.
        checkpoint_refused: why the floor refused the signer's head this round (an alert was
            raised: another key, a rewound signer), or None.
    """

    table_id: str | None
    sent: int
    first: int | None
    last: int | None
    local_position: int
    floor_position: int
    pending_since: datetime | None = None
    refused: Refusal | None = None
    checkpoint_refused: str | None = None

    @property
    def lag(self) -> int:
        """Records of the journal not yet on the floor (as of the round's start)."""
        return max(0, self.local_position - self.floor_position)

    def sentence(self) -> str:
        """What the round did, in one sentence."""
        if self.table_id is None:
            return "the journal is empty: nothing to send"
        if self.refused is not None:
            done = f"sent {self.sent} record(s) then " if self.sent else ""
            return (
                f"table {self.table_id}: {done}refused by the floor: {self.refused.reason} "
                f"(alert #{self.refused.alert_id})"
            )
        if self.sent:
            span = str(self.first) if self.first == self.last else f"{self.first}-{self.last}"
            return (
                f"table {self.table_id}: sent {self.sent} record(s) (positions {span}); "
                f"the floor holds positions 1-{self.floor_position}"
            )
        return (
            f"table {self.table_id}: nothing to send, the floor already holds positions "
            f"1-{self.floor_position}"
        )


class Pusher:
    """Pushes one journal to one floor (both opened by the caller).

    Args:
        journal, floor: the table's journal and the floor.
        pit: the table's pit on the floor (registered with the table).
        public_key: the table's public key as 64 hex digits
            (:attr:`dealer_assist.storage.signing.PublicKey.hex`), registered once.
        signature_of: the signature of an entry, stored with it; None (default): the entry's
            own ``signature`` as the journal stores it.
        batch: records per floor transaction.
        signed_only: send nothing from the first unsigned entry on (a journal signed by its
            notary: an entry journaled while the notary was away waits until it is signed,
            so the floor never stores it unsigned).
        checkpoint_of: the table signer's head (:func:`notary_checkpoints`), sent to the floor
            after every round that stored records and at least every ``checkpoint_every``
            (by ``clock``, UTC-aware; tests give their own); ``None``: no checkpoints.
    """

    def __init__(
        self,
        journal: LocalJournal,
        floor: Floor,
        *,
        pit: str | None = None,
        public_key: str | None = None,
        signature_of: Callable[[StoredHand], str | None] | None = None,
        batch: int = BATCH,
        signed_only: bool = False,
        checkpoint_of: Callable[[], Checkpoint | None] | None = None,
        checkpoint_every: timedelta = CHECKPOINT_EVERY,
        clock: Callable[[], datetime] = utc_now,
    ) -> None:
        self.journal, self.floor = journal, floor
        self.checkpoint_of, self.checkpoint_every, self._clock = (
            checkpoint_of,
            checkpoint_every,
            clock,
        )
        self._checkpoint_at: datetime | None = None
        self.checkpoint_refused: str | None = None  # the floor's last refusal of a head
        self.signed_only = signed_only
        self.pit, self.public_key, self.signature_of = pit, public_key, signature_of
        self.batch = batch
        self._registered: str | None = None

    def reset(self) -> None:
        """Register the table again on the next round (after the floor was unreachable)."""
        self._registered = None

    def push(self, limit: int | None = None) -> PushResult:
        """Send what the floor lacks (at most ``limit`` records; all by default).

        Raises:
            FloorUnavailableError: the floor cannot be reached (what was stored stays).
            JournalError: the journal cannot be read, or another floor error.
        """
        last = self.journal.last_hand()
        if last is None:
            return PushResult(None, 0, None, None, 0, 0)
        table_id = last.table_id
        if self._registered != table_id:
            self.floor.register(table_id, last.game, pit=self.pit, public_key=self.public_key)
            self._registered = table_id
        held, held_hash = self.floor.head(table_id) or (0, GENESIS_HASH)
        if held > 0:  # every round: a journal rewritten meanwhile is caught at once
            refused = self._compare(table_id, last.hand_id, held, held_hash)
            if refused is not None:
                return PushResult(table_id, 0, None, None, last.hand_id, held, refused=refused)
        sent, first, end = 0, None, None
        pending: datetime | None = None
        start = held + 1
        hands = self.journal.iter_hands(start)
        if self.signed_only:
            hands = takewhile(lambda h: h.signature is not None, hands)
        while limit is None or sent < limit:
            size = self.batch if limit is None else min(self.batch, limit - sent)
            chunk = list(islice(hands, size))
            if not chunk:
                break
            result = self._ingest(table_id, chunk)
            sent += result.stored
            first = first if first is not None else result.first
            end = result.last if result.last is not None else end
            held = result.head_position
            if result.refused is not None:
                return PushResult(
                    table_id,
                    sent,
                    first,
                    end,
                    last.hand_id,
                    held,
                    chunk[0].recorded_at,
                    result.refused,
                )
        if held < last.hand_id:
            pending = self.journal.get_hand(held + 1).recorded_at
        self._checkpoint(table_id, last.game, sent > 0, held)
        return PushResult(
            table_id,
            sent,
            first,
            end,
            last.hand_id,
            held,
            pending,
            checkpoint_refused=self.checkpoint_refused,
        )

    def _checkpoint(self, table_id: str, game: str, stored: bool, held: int) -> None:
        """The signer's head to the floor: after records were stored, and when the last one
        sent is ``checkpoint_every`` old (the floor sees the signer alive each minute). A head
        past the records the floor holds (``held``: an entry signed meanwhile) waits for the
        next round: the floor takes a head only at a record it holds with that hash."""
        if self.checkpoint_of is None:
            return
        now = self._clock()
        due = self._checkpoint_at is None or now - self._checkpoint_at >= self.checkpoint_every
        if not (stored or due):
            return
        cp = self.checkpoint_of()
        if cp is None or cp.position == 0 or cp.position > held:
            return  # the signer away (nothing new is dealt), or its head not on the floor yet
        result = self.floor.checkpoint(table_id, cp, game=game)
        self.checkpoint_refused = result.refused
        self._checkpoint_at = now

    def _ingest(self, table_id: str, chunk: list[StoredHand]) -> IngestResult:
        signatures = None
        if self.signature_of is not None:
            signatures = {h.hand_id: s for h in chunk if (s := self.signature_of(h)) is not None}
        return self.floor.ingest(table_id, chunk, signatures=signatures)

    def _compare(self, table_id: str, local_last: int, held: int, held_hash: str) -> Refusal | None:
        """Where the journal meets the floor's head: the refusal (and its alert) when they
        disagree, None when the journal continues the floor's chain."""
        if local_last < held:
            reason = (
                f"the table's journal ends at position {local_last} but the floor holds "
                f"positions 1-{held}: the journal was replaced or cut"
            )
            alert = self.floor.raise_alert(JOURNAL_BEHIND, table_id, local_last + 1, reason)
            return Refusal(local_last + 1, JOURNAL_BEHIND, reason, alert)
        if self._local_hash(held) == held_hash:
            return None
        lo, hi = 1, held  # hi differs; find the first position that differs
        while lo < hi:
            mid = (lo + hi) // 2
            if self._local_hash(mid) != self.floor.hash_at(table_id, mid):
                hi = mid
            else:
                lo = mid + 1
        try:
            local = self.journal.get_hand(lo)
        except JournalError:
            reason = (
                f"position {lo}: the floor holds it but the table's journal no longer "
                "reads it back (removed or damaged after it was forwarded)"
            )
            return Refusal(
                lo, TAMPERED, reason, self.floor.raise_alert(TAMPERED, table_id, lo, reason)
            )
        return self.floor.ingest(table_id, [local]).refused

    def _local_hash(self, position: int) -> str | None:
        try:
            return self.journal.get_hand(position).hash
        except JournalError:
            return None
