"""A finished hand as the journal's entry (the table reaches storage only through the port)."""

from __future__ import annotations

from typing import Any

from dealer_assist.engine.state import GameState
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import HandStateError
from dealer_assist.ports import HandEntry


def hand_entry(
    table_id: str, hand: GameState, events: list[dict[str, Any]], extra: dict[str, Any]
) -> HandEntry:
    """The journal entry of the finished ``hand``: its record and settlement (HAND_RECORD.md),
    the device ``events`` of the hand (JSON), and ``extra`` after the hand's own card provenance.

    Raises:
        HandStateError: the hand is not over (nothing to journal yet).
    """
    if not hand.is_over:
        raise HandStateError(f"hand {hand.hand_uid} is not over: nothing to journal")
    void = hand.status == "void"
    reason = hand.void_reason_json() if void else None
    text = VoidReason(reason["code"], reason["detail"]).text("en") if reason else None
    return HandEntry(
        table_id=table_id,
        game=hand.game_code,
        started_at=hand.started_at,
        ended_at=hand.ended_at or hand.started_at,
        status="void" if void else "settled",
        void_reason=text,
        record=hand.record_json(),
        settlement=hand.result(),
        events=events,
        extra={**hand.journal_extra(), **extra},
        hand_uid=hand.hand_uid,
    )
