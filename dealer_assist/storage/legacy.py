"""The upgrade of a journal written before signing: a **signed legacy checkpoint**.

The unsigned entries of such a journal prove nothing by themselves (whoever strips every
signature from a signed journal makes one that looks alike), so the default verify accepts
unsigned entries only up to a legacy checkpoint: a table record of kind ``legacy_checkpoint``
naming the entry before it (``covers``: its position, ``hash``), signed by the table's signer
(its notary, or the key folder's new key), who upgraded and when. Entries after it must all be
signed (:func:`dealer_assist.storage.verify.verify_chain`, ``checkpoint``).
"""

from __future__ import annotations

from datetime import datetime

from dealer_assist.errors import JournalError
from dealer_assist.events import iso_utc, utc_now
from dealer_assist.ports import TABLE_RECORD, HandEntry, StoredHand
from dealer_assist.storage.journal import Journal
from dealer_assist.storage.verify import LEGACY_CHECKPOINT


def checkpoint_entry(last: StoredHand, table_id: str, by: str, now: datetime) -> HandEntry:
    """The legacy checkpoint after ``last`` (the journal's last entry); the table's session is
    carried over from it, so the table resumes from the checkpoint as from ``last``."""
    extra = {"session": last.extra["session"]} if "session" in last.extra else {}
    return HandEntry(
        table_id=table_id,
        game=last.game,
        started_at=now,
        ended_at=now,
        status=TABLE_RECORD,
        record={
            "kind": LEGACY_CHECKPOINT,
            "covers": last.hand_id,
            "hash": last.hash,
            "by": by,
            "at": iso_utc(now),
        },
        extra=extra,
        hand_uid=f"{table_id}-legacy-checkpoint-{last.hand_id}",
    )


def upgrade(journal: Journal, table_id: str, by: str, now: datetime | None = None) -> StoredHand:
    """Sign a legacy checkpoint at the end of ``journal`` (open, writable) for ``table_id``:
    with a notary, the notary first adopts the journal's head (it has signed nothing for the
    table yet); else the key folder's key signs it (made with ``audit keygen`` first).

    Raises:
        JournalError: ``by`` empty; the journal is empty (nothing to cover: a new journal is
            signed from its first entry); its last entry is signed already (nothing to
            upgrade); the notary refuses (it has signed for this table already); the checkpoint
            came back unsigned (no key).
    """
    if not by.strip():
        raise JournalError("upgrade: who upgrades (--by) must be given")
    last = journal.last_hand()
    if last is None:
        raise JournalError("upgrade: the journal is empty: a new journal is signed from its start")
    if last.signature is not None:
        raise JournalError(f"upgrade: entry {last.hand_id} is signed already: nothing to upgrade")
    if journal.notary is not None:
        head = journal.notary.head()
        if head.position == 0:
            journal.notary.adopt(last.hand_id, last.hash)
    stored = journal.append_hand(checkpoint_entry(last, table_id, by, now or utc_now()))
    if stored.signature is None:
        raise JournalError(
            f"upgrade: the checkpoint {stored.hand_id} is journaled but unsigned (no signing key "
            f"of table {table_id}: dealer-assist audit keygen, or start its notary) - run it again"
        )
    return stored
