"""Walking the hash chain: recompute every hash from stored content and check every link."""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from dealer_assist.errors import JournalError
from dealer_assist.ports import VerifyResult
from dealer_assist.storage.chain import GENESIS_HASH, chain_hash
from dealer_assist.storage.rows import row_to_hand
from dealer_assist.storage.schema import chain_head, hands

_BATCH = 500


def verify_chain(conn: Connection) -> VerifyResult:
    """Check the whole journal as seen by ``conn`` (call it inside one snapshot transaction).

    Hand ids must run 1, 2, 3 ... without gaps; each ``prev_hash`` must equal the previous
    hand's ``hash`` (``GENESIS_HASH`` for hand 1); each ``hash`` must equal
    ``sha256(prev_hash || canonical content)``; the chain head row must name the last hand and
    its hash, which catches a deleted last hand. A row rewritten together with every later hash
    and the head can only be caught by comparing ``head_hash`` with a copy kept elsewhere.

    Returns a :class:`VerifyResult`; the first failure stops the walk. Database errors raise
    (the caller translates them).
    """
    head = conn.execute(
        sa.select(chain_head.c.last_hand_id, chain_head.c.last_hash).where(chain_head.c.id == 1)
    ).one_or_none()
    if head is None:
        return VerifyResult(False, 0, None, "the chain head row is missing")
    expected, prev = 1, GENESIS_HASH
    rows = iter(
        conn.execution_options(yield_per=_BATCH).execute(sa.select(hands).order_by(hands.c.hand_id))
    )
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except (sa.exc.SQLAlchemyError, JournalError, ValueError, TypeError) as e:
            return _fail(expected, f"stored row cannot be read ({e})", prev)
        hand_id = int(row.hand_id)
        if hand_id != expected:
            return _fail(expected, f"missing (next stored hand is {hand_id})", prev)
        try:
            hand = row_to_hand(row)
            digest = chain_hash(hand.prev_hash, hand.content())
        except JournalError as e:
            return _fail(hand_id, f"stored content cannot be read ({e})", prev)
        if hand.prev_hash != prev:
            what = "does not start the chain" if hand_id == 1 else f"does not link to {hand_id - 1}"
            return _fail(hand_id, f"prev_hash {what}", prev)
        if digest != hand.hash:
            return _fail(hand_id, "content does not match its hash", prev)
        expected, prev = expected + 1, hand.hash
    last = expected - 1
    if head.last_hand_id > last:
        return _fail(last + 1, f"missing (the chain head records {head.last_hand_id})", prev)
    if head.last_hand_id < last:
        return _fail(head.last_hand_id + 1, "not recorded in the chain head", prev)
    if head.last_hash != prev:
        return _fail(last, "hash differs from the one in the chain head", prev)
    return VerifyResult(True, last, None, "chain verifies", None if last == 0 else prev)


def _fail(hand_id: int, reason: str, good_head: str) -> VerifyResult:
    good = hand_id - 1
    return VerifyResult(False, good, hand_id, reason, good_head if good else None)
