"""Converting between stored rows and :class:`StoredHand` / :class:`PendingStep`."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from sqlalchemy.engine import Row

from dealer_assist.errors import JournalError
from dealer_assist.ports import PendingStep, StoredHand
from dealer_assist.storage.chain import canonical_json

JSON_COLUMNS = ("record", "settlement", "events", "extra")
"""The columns of ``hands`` that hold JSON (as canonical text)."""


def hand_values(hand: StoredHand, texts: Mapping[str, str | None] | None = None) -> dict[str, Any]:
    """Column values for inserting ``hand`` into ``hands`` (JSON as canonical text; ``texts``:
    that text of each JSON column, already made when the hand was hashed)."""
    values: dict[str, Any] = {
        name: getattr(hand, name)
        for name in (
            "hand_id",
            "hand_uid",
            "table_id",
            "game",
            "started_at",
            "ended_at",
            "status",
            "void_reason",
            "recorded_at",
            "prev_hash",
            "hash",
            "signature",
            "key_id",
        )
    }
    for name in JSON_COLUMNS:
        if texts is not None:
            values[name] = texts[name]
            continue
        value = getattr(hand, name)
        values[name] = None if value is None else canonical_json(value)
    return values


def row_to_hand(row: Row[Any]) -> StoredHand:
    """A ``hands`` row as a :class:`StoredHand` (a row of a journal from before signatures,
    selected without their columns, is unsigned).

    Raises:
        JournalError: a JSON column does not hold JSON of the right shape (a damaged row).
    """
    m = row._mapping
    parsed = {name: _load(m["hand_id"], name, m[name]) for name in JSON_COLUMNS}
    if not isinstance(parsed["record"], dict) or not isinstance(parsed["extra"], dict):
        raise JournalError(f"hand {m['hand_id']}: stored record/extra is not a JSON object")
    if not isinstance(parsed["events"], list):
        raise JournalError(f"hand {m['hand_id']}: stored events is not a JSON list")
    return StoredHand(
        hand_id=int(m["hand_id"]),
        hand_uid=m["hand_uid"],
        table_id=m["table_id"],
        game=m["game"],
        started_at=m["started_at"],
        ended_at=m["ended_at"],
        status=m["status"],
        void_reason=m["void_reason"],
        record=parsed["record"],
        settlement=parsed["settlement"],
        events=parsed["events"],
        extra=parsed["extra"],
        recorded_at=m["recorded_at"],
        prev_hash=m["prev_hash"],
        hash=m["hash"],
        signature=m.get("signature"),
        key_id=m.get("key_id"),
    )


def row_to_step(row: Row[Any]) -> PendingStep:
    """A ``pending_steps`` row as a :class:`PendingStep`."""
    m = row._mapping
    payload = _load(m["hand_uid"], "payload", m["payload"])
    if not isinstance(payload, dict):
        raise JournalError(f"step {m['step_no']} of hand {m['hand_uid']}: payload not an object")
    return PendingStep(
        table_id=m["table_id"],
        hand_uid=m["hand_uid"],
        step_no=int(m["step_no"]),
        kind=m["kind"],
        payload=payload,
        written_at=m["written_at"],
    )


def _load(owner: object, column: str, text: str | None) -> Any:
    if text is None:
        return None
    try:
        return json.loads(text)
    except (TypeError, ValueError) as e:
        raise JournalError(f"hand {owner}: stored {column} is not valid JSON") from e
