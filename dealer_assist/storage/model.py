"""The check of a hand entry before the journal stores it (the records themselves, verify results
included, are the port's: :mod:`dealer_assist.ports`).

Timestamps are UTC-aware datetimes; amounts inside ``record``/``settlement`` are integer minor
units as HAND_RECORD.md defines them. The journal never interprets those dicts, it only stores
them and chains their hash.
"""

from __future__ import annotations

from datetime import datetime

from dealer_assist.errors import JournalError
from dealer_assist.events import iso_utc
from dealer_assist.ports import STATUSES, TABLE_RECORD, HandEntry


def validate_entry(entry: HandEntry) -> None:
    """Check an entry before it is stored.

    Raises:
        JournalError: naming the field: empty ids, unknown status, void without reason or
            settled with one, naive or reversed timestamps, wrong container types; a table
            record (status ``"table"``) with a void reason, a settlement, events or without
            a ``record["kind"]``.
    """
    for name in ("table_id", "game"):
        value = getattr(entry, name)
        if not isinstance(value, str) or not value:
            raise JournalError(f"{name}: must be a non-empty string, got {value!r}")
    if entry.hand_uid is not None and (not isinstance(entry.hand_uid, str) or not entry.hand_uid):
        raise JournalError(f"hand_uid: must be None or a non-empty string, got {entry.hand_uid!r}")
    if entry.status not in STATUSES:
        raise JournalError(f"status: must be one of {STATUSES}, got {entry.status!r}")
    if entry.status == "void" and not (isinstance(entry.void_reason, str) and entry.void_reason):
        raise JournalError("void_reason: a void hand needs a reason")
    if entry.status == "settled" and entry.void_reason is not None:
        raise JournalError("void_reason: must be None for a settled hand")
    if entry.status == TABLE_RECORD:
        _validate_table_record(entry)
    for name in ("started_at", "ended_at"):
        if not isinstance(getattr(entry, name), datetime):
            raise JournalError(f"{name}: must be a datetime")
        iso_utc(getattr(entry, name))  # rejects naive datetimes
    if entry.ended_at < entry.started_at:
        raise JournalError("ended_at: before started_at")
    if not isinstance(entry.record, dict):
        raise JournalError("record: must be a JSON object (dict)")
    if entry.settlement is not None and not isinstance(entry.settlement, dict):
        raise JournalError("settlement: must be a JSON object (dict) or None")
    if not isinstance(entry.events, list) or not all(isinstance(e, dict) for e in entry.events):
        raise JournalError("events: must be a list of JSON objects (dicts)")
    if not isinstance(entry.extra, dict):
        raise JournalError("extra: must be a JSON object (dict)")


def _validate_table_record(entry: HandEntry) -> None:
    """A table record is a change between hands: a kind, no hand's parts."""
    if entry.void_reason is not None:
        raise JournalError("void_reason: must be None for a table record")
    if entry.settlement is not None:
        raise JournalError("settlement: must be None for a table record")
    if entry.events:
        raise JournalError("events: must be empty for a table record")
    kind = entry.record.get("kind") if isinstance(entry.record, dict) else None
    if not isinstance(kind, str) or not kind:
        raise JournalError(f"record.kind: a table record needs a non-empty kind, got {kind!r}")
