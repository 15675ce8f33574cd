"""Resuming after a crash: what the step log holds, and whether the device still has the deck.

Crash safety: after ``kill -9`` at any moment a restart resumes the hand in progress
exactly where it was (bets, decisions, cards received), or voids it with reason ``restart`` if
the device lost or reshuffled the cards meanwhile (its deck changed, or it restarted: TCRP/1
HELLO with seq 0). The runner replays the steps (:meth:`TableRunner.resume`); this module sorts
the pending steps and reads the device's retransmission history (TCRP/1 "Reliability": the
device keeps its last 256 frames) to find the events the table missed while it was down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from dealer_assist.engine.operations import CardDealt, DeckStarted, Operation
from dealer_assist.engine.voids import VoidReason
from dealer_assist.events import CardRead, DeckShuffled, DeviceEvent
from dealer_assist.ports import PendingStep
from dealer_assist.source import CardSource, HistorySource
from dealer_assist.table.steplog import ACK_SUFFIX

# Reasons that, while a hand is being resumed, mean the device no longer holds its deck.
RESTART_CODES = frozenset({"wrong_deck", "index_gap", "index_repeat", "deck_reshuffled", "restart"})


@dataclass
class PendingWork:
    """The pending steps of one table, sorted out.

    Attributes:
        hands: (hand_uid, steps in write order) of unfinished hands, oldest first (normally at
            most one).
        alarms: hand_uid -> ``void_alarm`` payload of voids not yet acknowledged.
        acks: hand_uid -> ``void_ack`` payload of acknowledged voids not yet carried by a
            journaled hand.
    """

    hands: list[tuple[str, list[PendingStep]]] = field(default_factory=list)
    alarms: dict[str, dict[str, Any]] = field(default_factory=dict)
    acks: dict[str, dict[str, Any]] = field(default_factory=dict)


def sort_pending(steps: list[PendingStep]) -> PendingWork:
    """Group a table's pending steps (as :meth:`Journal.pending_steps` returns them) by hand
    and separate the acknowledgement markers."""
    work = PendingWork()
    by_hand: dict[str, list[PendingStep]] = {}
    for step in steps:
        if step.hand_uid.endswith(ACK_SUFFIX):
            uid = step.hand_uid[: -len(ACK_SUFFIX)]
            if step.kind == "void_alarm":
                work.alarms.setdefault(uid, step.payload)
            elif step.kind == "void_ack":
                work.acks[uid] = step.payload
            continue
        by_hand.setdefault(step.hand_uid, []).append(step)
    for uid in work.acks:
        work.alarms.pop(uid, None)
    work.hands = [(uid, sorted(s, key=lambda x: x.step_no)) for uid, s in by_hand.items()]
    return work


@dataclass
class DeviceRecord:
    """The device's history (oldest first) with its cards by (deck, index) and its decks'
    SHUFFLED by deck id, to check a resumed step log against."""

    events: list[DeviceEvent]
    cards: dict[tuple[str, int], CardRead] = field(init=False)
    decks: dict[str, DeckShuffled] = field(init=False)

    def __post_init__(self) -> None:
        self.cards, self.decks = {}, {}
        for ev in self.events:
            if isinstance(ev, CardRead) and not ev.manual:
                self.cards.setdefault((ev.deck_id, ev.index), ev)
            elif isinstance(ev, DeckShuffled):
                self.decks.setdefault(ev.deck_id, ev)


@dataclass(frozen=True)
class HistoryVerdict:
    """What the device's history says about the resumed hand's deck.

    Attributes:
        lost: why the device no longer holds the deck ("" when it may still hold it).
        after: events after the last card the table recorded, oldest first, to be handled as
            if they had just arrived (cards the table missed, faults, a reshuffle...).
        anchored: the deck was found in the history (else nothing is known about it).
    """

    lost: str
    after: list[DeviceEvent]
    anchored: bool


def assess_history(history: list[DeviceEvent], deck_id: str, last_index: int) -> HistoryVerdict:
    """Place the table's last recorded card (``deck_id``, ``last_index``; 0 = none dealt) in
    the device's history (oldest first) and return what came after it.

    ``history`` is what the device still keeps up to now, without a hole (the frames it resent
    from before the new session, then those the session received), so when the last recorded
    card (or the deck's SHUFFLED) is not in it, everything in it came later. Cards of the deck
    that follow a card the history no longer holds cannot be recovered: ``lost``. A restart or
    another deck's SHUFFLED among the events after is left to the misdeal detector.
    """
    anchor: int | None = None
    first_new: int | None = None
    for i, ev in enumerate(history):
        if isinstance(ev, DeckShuffled) and ev.deck_id == deck_id and anchor is None:
            anchor = i
        elif isinstance(ev, CardRead) and ev.deck_id == deck_id:
            if ev.index <= last_index:
                anchor = i
            elif first_new is None:
                first_new = i
    if anchor is not None:
        return HistoryVerdict("", history[anchor + 1 :], True)
    if first_new is not None:
        first = history[first_new]
        if isinstance(first, CardRead) and first.index != last_index + 1:
            return HistoryVerdict(
                f"cards {last_index + 1}..{first.index - 1} of deck {deck_id} were dealt while "
                "the table was down and the device no longer keeps them",
                [],
                True,
            )
    return HistoryVerdict("", list(history), first_new is not None)


class DeviceHistory:
    """What the device still holds from before this session, for one resume: its history
    (TCRP/1 RESEND, asked once, at the first card or deck step, within ``timeout`` s: the
    source's ``recover_history``; nothing from a source without one), and whether a step of the
    step log contradicts it."""

    def __init__(self, source: CardSource, timeout: float) -> None:
        self.source = source
        self.timeout = timeout
        self._record: DeviceRecord | None = None

    def record(self) -> DeviceRecord:
        """The device's history, read once."""
        if self._record is None:
            events: list[DeviceEvent] = []
            if isinstance(self.source, HistorySource):
                events = self.source.recover_history(self.timeout)
            self._record = DeviceRecord(events)
        return self._record

    def disagrees(self, op: Operation) -> VoidReason | None:
        """A card (or a deck) of the step log that the frames the device still holds
        contradict, as the void that refuses the step log (``history_mismatch``, the device's
        own events its causes); None when they agree or the device does not hold it."""
        if not isinstance(op, CardDealt | DeckStarted) or getattr(op, "manual", False):
            return None
        record = self.record()
        if isinstance(op, DeckStarted):
            shuffled = record.decks.get(op.deck_id)
            if shuffled is None or shuffled.count == op.count:
                return None
            detail = (
                f"deck {op.deck_id}: the step log has {op.count} cards, the device "
                f"shuffled {shuffled.count}"
            )
            return VoidReason("history_mismatch", detail, (shuffled,))
        dealt = record.cards.get((op.deck_id, op.index))
        if dealt is None or dealt.card == op.card:
            return None
        detail = (
            f"card {op.index} of deck {op.deck_id}: the step log has "
            f"{op.card or 'XX'}, the device dealt {dealt.card or 'XX'}"
        )
        return VoidReason("history_mismatch", detail, (dealt,))

    def since(self) -> list[DeviceEvent]:
        """Everything the device still knows, oldest first: its history, then the events this
        session has received so far (taken from the source without handling them)."""
        out = list(self.record().events)
        event = self.source.next_event(0)
        while event is not None:
            out.append(event)
            event = self.source.next_event(0)
        return out
