"""Check a journal against an independent record of what was really dealt.

The soak run compares every card the journal holds with the emulator's dealt log
(each card that left the device: deck, index, the card reported and the card actually dealt),
and the hands the table started with the hands journaled: a wrong card accepted, a hand lost or
recorded twice is a failure. Settled hands are settled again from their record (the same code
path as ``dealer-assist settle``) and must give the stored settlement.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from dealer_assist.errors import DealerAssistError, JournalError
from dealer_assist.ports import ReadableJournal
from dealer_assist.record import settle_record
from dealer_assist.table.records import is_table_record

DealtLog = dict[tuple[str, int], str]


def read_dealt_log(path: Path) -> DealtLog:
    """(deck_id, index) -> the card physically dealt, from a dealt log (JSON lines with
    ``deck_id``, ``index``, ``card`` and, when it differs from ``card``, ``actual``). A
    coordinate dealt twice (a device fault) keeps its first card. Raises JournalError for an
    unreadable file."""
    out: DealtLog = {}
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as e:
        raise JournalError(f"cannot read the dealt log {path}: {e}") from e
    for line in lines:
        if not line.strip():
            continue
        try:
            row = json.loads(line)
            key = (str(row["deck_id"]), int(row["index"]))
            out.setdefault(key, str(row.get("actual", row["card"])))
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by a kill of the writer
    return out


@dataclass
class CrossCheck:
    """The comparison's result; the run passes when :attr:`ok`.

    Attributes:
        hands, settled, void: journaled hands checked and how they ended.
        voids: void reason code -> count.
        resumed, resumed_settled: hands finished after a restart, and those that settled.
        cards: journal cards compared; wrong_cards: those that differ from the dealt log (or
            are missing from it), as ``"hand H deck D index I: journal X, dealt Y"``.
        lost: hands the table started that are neither journaled nor pending.
        duplicated: hand uids or decks recorded by more than one hand.
        bad_settlements: settled hands whose stored settlement differs from a new one.
        verify_ok, verify_reason: the journal's hash chain.
        conflicted, conflicted_void: hands with a device frame conflict among their events
            (a second device or forged frames), and those voided; conflicted_not_void: the
            ids of the others (each a failure).
    """

    hands: int = 0
    settled: int = 0
    void: int = 0
    voids: Counter[str] = field(default_factory=Counter)
    resumed: int = 0
    resumed_settled: int = 0
    cards: int = 0
    wrong_cards: list[str] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    duplicated: list[str] = field(default_factory=list)
    bad_settlements: list[int] = field(default_factory=list)
    verify_ok: bool = False
    verify_reason: str = ""
    conflicted: int = 0
    conflicted_void: int = 0
    conflicted_not_void: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No wrong card, no hand lost or duplicated, settlements agree, every hand with a
        frame conflict voided, the chain verifies."""
        wrong = self.wrong_cards or self.lost or self.duplicated or self.bad_settlements
        return not (wrong or self.conflicted_not_void) and self.verify_ok


def cross_check(
    journal: ReadableJournal,
    dealt: DealtLog,
    *,
    started: Iterable[str] = (),
    pending: Iterable[str] = (),
    first_hand_id: int = 1,
) -> CrossCheck:
    """Compare the hands from ``first_hand_id`` on with ``dealt``; ``started`` are the hand uids
    the table started, ``pending`` those still in the step log. Raises JournalError."""
    result = CrossCheck()
    uids: Counter[str] = Counter()
    deck_owner: dict[str, str] = {}
    dup_decks: set[str] = set()
    for stored in journal.iter_hands(first_hand_id):
        if is_table_record(stored):
            continue  # a seat, buy-in or button change: no cards, nothing to settle
        result.hands += 1
        uid = stored.hand_uid or f"#{stored.hand_id}"
        uids[uid] += 1
        if stored.status == "void":
            result.void += 1
            result.voids[_void_code(stored.extra, stored.settlement)] += 1
        else:
            result.settled += 1
            if not _settles_again(stored.record, stored.settlement):
                result.bad_settlements.append(stored.hand_id)
        if any(e.get("kind") == "frame_conflict" for e in stored.events):
            result.conflicted += 1
            if stored.status == "void":
                result.conflicted_void += 1
            else:
                result.conflicted_not_void.append(stored.hand_id)
        if stored.extra.get("resumed"):
            result.resumed += 1
            result.resumed_settled += stored.status == "settled"
        for card in stored.extra.get("cards", []):
            result.cards += 1
            deck, index = str(card.get("deck_id")), int(card.get("index", 0))
            owner = deck_owner.setdefault(deck, uid)
            if owner != uid:
                dup_decks.add(deck)
            real = dealt.get((deck, index))
            if real != card.get("card"):
                result.wrong_cards.append(
                    f"hand {stored.hand_id} deck {deck} index {index}: journal {card.get('card')}, "
                    f"dealt {real or 'nothing'}"
                )
    result.duplicated = [u for u, n in uids.items() if n > 1] + sorted(
        f"deck {d}" for d in dup_decks
    )
    result.lost = sorted(set(started) - set(uids) - set(pending))
    verdict = journal.verify()
    result.verify_ok, result.verify_reason = verdict.ok, verdict.reason
    return result


def _void_code(extra: dict[str, object], settlement: dict[str, object] | None) -> str:
    void = extra.get("void") or (settlement or {}).get("void")
    if isinstance(void, dict):
        return str(void.get("code", "?"))
    return "?"


def _settles_again(record: dict[str, object], settlement: dict[str, object] | None) -> bool:
    try:
        return settle_record(record) == settlement
    except DealerAssistError:
        return False
