"""The pending-step log: durable steps of a hand in progress, cleared when the hand is journaled.

A restarted table reads :func:`pending` to resume or void the hand it was dealing.
"""

from __future__ import annotations

import json
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from dealer_assist.errors import JournalError
from dealer_assist.events import utc_now
from dealer_assist.ports import PendingStep
from dealer_assist.storage.chain import canonical_json
from dealer_assist.storage.rows import row_to_step
from dealer_assist.storage.schema import pending_steps

_t = pending_steps.c


def write(
    engine: Engine, table_id: str, hand_uid: str, step_no: int, kind: str, payload: dict[str, Any]
) -> PendingStep:
    """Insert one step and commit (durable on return: SQLite synchronous=FULL, PostgreSQL
    synchronous_commit). Writing the same step again with the same kind and payload returns the
    stored one.

    Raises:
        JournalError: empty ids, non-object payload, or the step number already holds a
            different step. SQLAlchemy errors propagate (the journal translates them).
    """
    if not (isinstance(table_id, str) and table_id and isinstance(hand_uid, str) and hand_uid):
        raise JournalError("write_step: table_id and hand_uid must be non-empty strings")
    if isinstance(step_no, bool) or not isinstance(step_no, int) or step_no < 0:
        raise JournalError(f"write_step: step_no must be an integer >= 0, got {step_no!r}")
    if not isinstance(kind, str) or not kind:
        raise JournalError("write_step: kind must be a non-empty string")
    if not isinstance(payload, dict):
        raise JournalError("write_step: payload must be a JSON object (dict)")
    text = canonical_json(payload)
    written_at = utc_now()
    values: dict[str, Any] = {
        "table_id": table_id,
        "hand_uid": hand_uid,
        "step_no": step_no,
        "kind": kind,
        "payload": text,
        "written_at": written_at,
    }
    try:
        with engine.begin() as conn:
            conn.execute(sa.insert(pending_steps).values(values))
    except sa.exc.IntegrityError:
        with engine.connect() as conn:
            row = conn.execute(
                sa.select(pending_steps).where(
                    _t.table_id == table_id, _t.hand_uid == hand_uid, _t.step_no == step_no
                )
            ).one_or_none()
        if row is None:
            raise
        stored = row_to_step(row)
        if stored.kind != kind or canonical_json(stored.payload) != text:
            raise JournalError(
                f"step {step_no} of hand {hand_uid} at table {table_id} was already written "
                f"with other content"
            ) from None
        return stored
    return PendingStep(table_id, hand_uid, step_no, kind, json.loads(text), written_at)


def pending(engine: Engine, table_id: str) -> list[PendingStep]:
    """Steps not yet cleared for ``table_id``, in the order they were written."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(pending_steps).where(_t.table_id == table_id).order_by(_t.id)
        ).all()
    return [row_to_step(r) for r in rows]


def clear(conn: Connection, table_id: str, hand_uid: str) -> int:
    """Delete the steps of one hand inside the caller's transaction; returns how many."""
    result = conn.execute(
        sa.delete(pending_steps).where(_t.table_id == table_id, _t.hand_uid == hand_uid)
    )
    return int(result.rowcount)
