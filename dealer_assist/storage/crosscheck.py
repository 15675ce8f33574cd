"""A table's journal against the floor database's copy: the floor keeps every
table's chain as it received it, and its public key, where whoever rewrites the table's files
cannot reach them; the first position whose hash differs is the first changed entry, even when
the journal was rewritten, re-hashed and re-signed with a stolen key.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from dealer_assist.ports import ReadableJournal, StoredHand
from dealer_assist.storage.floor.floor import Floor
from dealer_assist.storage.signing import PublicKey, public_key_from_text


@dataclass(frozen=True)
class FloorComparison:
    """One table's journal compared with the floor's copy.

    Attributes:
        table_id: the table.
        ok: every position the floor holds is in the journal with the same hash.
        compared: positions compared (those on the floor).
        first_changed: the first position whose hash differs or which the journal lacks.
        reason: one sentence.
        not_forwarded: journal entries after the floor's head (not yet forwarded: no failure).
    """

    table_id: str
    ok: bool
    compared: int
    first_changed: int | None
    reason: str
    not_forwarded: int = 0


def floor_public_keys(floor: Floor, table_ids: Iterable[str]) -> dict[str, PublicKey]:
    """The public keys the floor holds for ``table_ids`` (pinned: the floor's copy).

    Raises:
        FloorError: the floor cannot be read. JournalError: a stored key that is not one.
    """
    wanted = set(table_ids)
    return {
        t.table_id: public_key_from_text(t.public_key, f"the floor's key of {t.table_id}")
        for t in floor.tables()
        if t.table_id in wanted and t.public_key
    }


def compare_with_floor(journal: ReadableJournal, floor: Floor, table_id: str) -> FloorComparison:
    """Compare ``table_id``'s entries in ``journal`` with the floor's copy, position by
    position (the floor's position is the journal's ``hand_id``).

    Raises:
        FloorError: the floor cannot be read. JournalError: the journal cannot be read.
    """
    head = floor.head(table_id)
    if head is None:
        return FloorComparison(table_id, True, 0, None, "the floor holds no copy of this table")
    mine = _entries(journal.iter_hands(), table_id)
    compared = 0
    for theirs in floor.iter_records(table_id):
        position = theirs.hand_id
        local = _next_at(mine, position)
        if local is None:
            return FloorComparison(
                table_id,
                False,
                compared,
                position,
                f"position {position} is on the floor but not in the journal (removed)",
            )
        if local.hash != theirs.hash:
            return FloorComparison(
                table_id,
                False,
                compared,
                position,
                f"hand {position} differs from the floor's copy (hash {local.hash[:16]}…, the "
                f"floor's {theirs.hash[:16]}…): changed after it was forwarded",
            )
        compared += 1
    rest = sum(1 for _ in mine)
    if compared < head[0]:
        return FloorComparison(
            table_id,
            False,
            compared,
            compared + 1,
            f"the floor's head is position {head[0]} but its copy stops at {compared}",
        )
    return FloorComparison(
        table_id, True, compared, None, f"{compared} positions match the floor's copy", rest
    )


def _entries(hands: Iterator[StoredHand], table_id: str) -> Iterator[StoredHand]:
    return (h for h in hands if h.table_id == table_id)


def _next_at(hands: Iterator[StoredHand], position: int) -> StoredHand | None:
    """The entry at ``position`` from the ordered ``hands`` (skipping those before it), or
    ``None`` when the journal has none there."""
    for hand in hands:
        if hand.hand_id == position:
            return hand
        if hand.hand_id > position:
            return None
    return None
