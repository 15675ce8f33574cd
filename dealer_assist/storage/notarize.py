"""A journal signed by its notary (:mod:`dealer_assist.notary`): the journal never holds the key.

Entries are appended unsigned and committed (a hand is never lost to the notary being down),
then each is sent to the notary in order, as the next position on the notary's own head, and
its signature written beside it. Before a new hand, :func:`catch_up` compares the journal with
the notary's head: a journal that ends before the head, or holds another hash at the head's
position, was cut, replaced or restarted, and the table deals no more (the notary would refuse
to sign anything that does not extend its head anyway). Entries committed while the notary was
away are signed when it is back, in order, each once.
"""

from __future__ import annotations

import logging

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from dealer_assist.errors import JournalError
from dealer_assist.notary.client import NotaryClient
from dealer_assist.notary.protocol import Head
from dealer_assist.ports import TABLE_RECORD
from dealer_assist.storage.engine import write_transaction
from dealer_assist.storage.schema import chain_head, hands
from dealer_assist.storage.signing import PublicKey, public_key_from_hex

_log = logging.getLogger(__name__)


class NotaryMismatchError(JournalError):
    """The journal is not the chain the notary signed (cut, replaced, restarted): the table
    stops; ``position`` is the first position that differs."""

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.position = position


def notary_key(head: Head) -> PublicKey | None:
    """The table's public key as its notary gives it (not pinned: pin it at the floor or in a
    file), ``None`` before the notary made one."""
    if head.public_key is None:
        return None
    return public_key_from_hex(head.public_key, f"notary key of table {head.table}", pinned=False)


def catch_up(
    engine: Engine,
    notary: NotaryClient,
    own: set[int] | frozenset[int] = frozenset(),
    *,
    at_start: bool = False,
) -> Head:
    """Check the journal against the notary's head and have every entry after it signed, in
    order; returns the notary's head afterwards (the journal's last entry). ``own``: the
    positions this process appended; a notary that has signed nothing signs only those (entries
    already there are a journal from before the notary: upgrade it, a signed legacy
    checkpoint). ``at_start``: also every entry the notary signed must still carry a signature
    (one read of the journal: a table's start, not every hand).

    Raises:
        NotaryMismatchError: the journal ends before the notary's head, or differs from it at
            the head's position (names both).
        NotaryUnavailableError: the notary cannot be reached (entries stay unsigned, to be
            signed when it is back).
        NotaryRefusedError: the notary refused an entry (the journal's chain does not extend
            its head: a forged or rechained entry).
        sqlalchemy errors: the journal's (the caller translates them).
    """
    head = notary.head()
    with engine.connect() as conn:
        last = conn.execute(
            sa.select(chain_head.c.last_hand_id, chain_head.c.last_hash).where(chain_head.c.id == 1)
        ).one()
        at_head, head_signed = None, True
        if head.position > 0:
            found = conn.execute(
                sa.select(hands.c.hash, hands.c.signature).where(hands.c.hand_id == head.position)
            ).one_or_none()
            if found is not None:
                at_head, head_signed = found.hash, found.signature is not None
        tail = conn.execute(
            sa.select(
                hands.c.hand_id,
                hands.c.prev_hash,
                hands.c.hash,
                hands.c.signature,
                hands.c.table_id,
                hands.c.hand_uid,
                hands.c.status,
            )
            .where(hands.c.hand_id > head.position)
            .order_by(hands.c.hand_id)
        ).all()
    last_id = int(last.last_hand_id)
    table = notary.table_id
    if last_id < head.position:
        what = "is empty" if last_id == 0 else f"ends at position {last_id}"
        raise NotaryMismatchError(
            f"table {table}: the signer's head is at position {head.position} but this journal "
            f"{what}: the journal was cut, deleted or replaced; no new hand (restore the journal, "
            "do not start a new one)",
            last_id + 1,
        )
    if head.position > 0 and at_head != head.hash:
        raise NotaryMismatchError(
            f"table {table}: entry {head.position} of this journal is not the one the signer "
            f"signed (hash {str(at_head)[:16]}…, signed {head.hash[:16]}…): the journal was "
            "rewritten; no new hand",
            head.position,
        )
    if head.position == 0 and any(int(r.hand_id) not in own for r in tail):
        raise NotaryMismatchError(
            f"table {table}: this journal holds entries its signer never signed (written before "
            "the notary): upgrade it first (dealer-assist audit upgrade: a signed legacy "
            "checkpoint)",
            1,
        )
    forged = next((r for r in tail if r.signature is not None), None)
    if forged is not None:  # the notary signs only after commit: nobody else's signature
        raise NotaryMismatchError(
            f"table {table}: entry {forged.hand_id} carries a signature its signer never gave "
            f"(the signer's head is {head.position}): a forged entry; no new hand",
            int(forged.hand_id),
        )
    if at_start and head.position > head.adopted_at + 1:
        with engine.connect() as conn:  # signed by the notary, the signature removed since
            stripped = conn.execute(
                sa.select(sa.func.min(hands.c.hand_id)).where(
                    hands.c.hand_id > head.adopted_at,
                    hands.c.hand_id < head.position,
                    hands.c.signature.is_(None),
                )
            ).scalar()
        if stripped is not None:
            raise NotaryMismatchError(
                f"table {table}: entry {stripped} carries no signature but the signer signed up "
                f"to position {head.position}: its signature was removed; no new hand",
                int(stripped),
            )
    if tail and tail[0].prev_hash != head.hash:
        raise NotaryMismatchError(
            f"table {table}: entry {tail[0].hand_id} does not link to the signer's head",
            int(tail[0].hand_id),
        )
    signed: list[tuple[int, str, str]] = []
    if not head_signed and head.signature is not None and head.key_id is not None:
        # the notary signed the head's entry but its answer never arrived (killed, timed out):
        # its signature is the head's own
        signed.append((head.position, head.signature, head.key_id))
    try:
        for row in tail:
            # a hand's entry names its hand: the notary signs one entry per hand, and an entry
            # found here, not journaled by this run, only for a hand whose steps it signed
            hand = None
            if row.hand_uid and row.status != TABLE_RECORD:
                hand = f"{row.table_id}/{row.hand_uid}"  # step_signing.notary_uid
            dealt = hand is not None and int(row.hand_id) not in own
            signature, key_id = notary.sign(
                int(row.hand_id), str(row.prev_hash), str(row.hash), hand, dealt
            )
            signed.append((int(row.hand_id), signature, key_id))
    finally:
        if signed:  # what the notary signed is stored even when a later entry failed
            _store(engine, signed)
    return notary.head() if signed else head


def _store(engine: Engine, signed: list[tuple[int, str, str]]) -> None:
    with write_transaction(engine) as conn:
        for hand_id, signature, key_id in signed:
            conn.execute(
                sa.update(hands)
                .where(hands.c.hand_id == hand_id)
                .values(signature=signature, key_id=key_id)
            )
    _log.debug("notary signed entries %d-%d", signed[0][0], signed[-1][0])
