"""A finished hand as the journal's entry (the table reaches storage only through the port).

The entry keeps the hand's typed operations, each as :func:`~dealer_assist.engine.operations.
operation_entry` writes it, in ``extra["operations"]`` (inside the hashed, signed content:
docs/AUDIT.md): they are the hand's record of truth, folded again by the replay, the dispute
recompute and ``audit recompute``; the record, the settlement and the card provenance beside
them are derived from them, kept for search and for the readers of HAND_RECORD.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dealer_assist.engine.operation_base import plain
from dealer_assist.engine.operations import (
    CardExposed,
    DeckStarted,
    HandOpened,
    HandVoided,
    Operation,
    operation_entry,
)
from dealer_assist.engine.state import GameState
from dealer_assist.engine.voids import VoidReason
from dealer_assist.errors import HandStateError
from dealer_assist.games.session import TableSession
from dealer_assist.ports import OPERATIONS_KEY, HandEntry, JournalPort, StoredHand
from dealer_assist.table.late_cards import LateCards


def hand_entry(
    table_id: str, hand: GameState, events: list[dict[str, Any]], extra: dict[str, Any]
) -> HandEntry:
    """The journal entry of the finished ``hand``: its record and settlement (HAND_RECORD.md),
    the device ``events`` of the hand (JSON), and ``extra`` after the hand's own card provenance,
    then the hand's operations (``extra["operations"]``; a hand rebuilt from a journaled record
    has none and keeps none).

    Raises:
        HandStateError: the hand is not over (nothing to journal yet).
    """
    if not hand.is_over:
        raise HandStateError(f"hand {hand.hand_uid} is not over: nothing to journal")
    void = hand.status == "void"
    reason = hand.void_reason_json() if void else None
    text = VoidReason(reason["code"], reason["detail"]).text("en") if reason else None
    extra = {**hand.journal_extra(), **extra}
    if hand.operations:
        extra[OPERATIONS_KEY] = [operation_entry(op) for op in hand.operations]
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
        extra=extra,
        hand_uid=hand.hand_uid,
    )


@dataclass
class HandFacts:
    """What the table knows of a hand beyond the hand itself, journaled in its ``extra``.

    Attributes:
        device: the device that dealt it (``model``, ``serial``).
        acks: void acknowledgements the hand carries into the journal.
        exposures: cards exposed by mistake (card, position, note, at).
        void_causes: the device events that voided it (JSON).
        resumes: how many times a restart picked it up again.
    """

    device: dict[str, str] = field(default_factory=dict)
    acks: list[dict[str, Any]] = field(default_factory=list)
    exposures: list[dict[str, Any]] = field(default_factory=list)
    void_causes: list[dict[str, Any]] = field(default_factory=list)
    resumes: int = 0

    def note(self, op: Operation) -> None:
        """What ``op``, once applied, tells beyond the hand: the device and the acknowledgements
        a hand opened with, the device that shuffled its deck, a card exposed, a void's causes."""
        if isinstance(op, HandOpened):
            self.device, self.acks = plain(op.device), plain(op.acks)
        elif isinstance(op, DeckStarted) and op.device:
            self.device = plain(op.device)
        elif isinstance(op, CardExposed):
            self.exposures.append(
                {
                    "card": str(op.card) if op.card else None,
                    "position": op.position,
                    "note": op.note,
                    "at": op.at.isoformat(),
                }
            )
        elif isinstance(op, HandVoided):
            self.void_causes = plain(op.causes)

    def extra(self, hand: GameState, session: TableSession) -> dict[str, Any]:
        """The journal's ``extra`` of ``hand`` beyond its card provenance, with the table
        ``session`` after it and the dealer on the box (``dealer``: the session's badge id,
        absent before the table's first dealer change)."""
        extra: dict[str, Any] = {}
        if hand.status == "void":
            extra["void"] = {**(hand.void_reason_json() or {}), "causes": self.void_causes}
        if self.exposures:
            extra["exposed_cards"] = self.exposures
        if self.acks:
            extra["void_acknowledgements"] = self.acks
        if self.resumes:
            extra["resumed"] = self.resumes
        if self.device:
            extra["device"] = self.device
        if session.dealer is not None:
            extra["dealer"] = session.dealer
        extra["session"] = session.to_json()
        return extra


def journal_hand(
    journal: JournalPort,
    table_id: str,
    hand: GameState,
    session: TableSession,
    facts: HandFacts,
    late: LateCards,
    events: list[dict[str, Any]],
) -> tuple[StoredHand, TableSession]:
    """Append the finished ``hand`` with its device ``events``, what the table knows beside it
    (``facts``) and the late cards of the hand before (then carried); ``session``: the table's
    after it. Returns the stored hand and the session the journal holds after it (the stored
    one when the hand was already there). Raises JournalError (nothing carried then)."""
    extra = facts.extra(hand, session)
    records = list(late.records)
    if records:
        extra["late_cards"] = records  # of the hand before: the recall of what left the device
    stored = journal.append_hand(hand_entry(table_id, hand, events, extra))
    late.carried(records)
    saved = stored.extra.get("session")  # the hand was already stored: its session
    return stored, TableSession.from_json(saved) if isinstance(saved, dict) else session
