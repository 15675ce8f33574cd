"""Device events as JSON objects for :attr:`HandEntry.events` (the journal keeps burns too)."""

from __future__ import annotations

import dataclasses
from datetime import datetime
from typing import Any

from dealer_assist.cards import Card
from dealer_assist.events import DeviceEvent
from dealer_assist.storage.chain import iso_utc


def event_to_json(event: DeviceEvent) -> dict[str, Any]:
    """One device event as a JSON object.

    Shape: ``{"kind": "card", "at": "<ISO-8601 UTC>", "source": "serial", ...}`` followed by the
    event's own fields (events.py); cards become their text (``"As"``), an unreadable card
    ``None``, datetimes ISO UTC.

    Raises:
        JournalError: the event's timestamp is naive.
    """
    out: dict[str, Any] = {"kind": event.kind}
    for f in dataclasses.fields(event):
        out[f.name] = _plain(getattr(event, f.name))
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, datetime):
        return iso_utc(value)
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value
