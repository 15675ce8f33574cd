"""The table's hand history: the last hands from the journal as the dealer's
screen may show them. Qt-free; read on the worker thread, which owns the journal.

Each hand shows its board, the dealer's cards and each seat's result and pay/collect; the seats'
hole cards only when a pit boss opened the history with badge and PIN (``holes=True``). A void
hand shows its reason and no cards (nothing was settled). Table records (between hands) are not
hands and are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import CardError, DealerAssistError, JournalError
from dealer_assist.ports import HAND_STATUSES, StoredHand
from dealer_assist.storage.journal import Journal

HISTORY_HANDS = 20
"""How many of the last hands the history shows."""


@dataclass(frozen=True)
class HistorySeat:
    """A seat of a past hand: ``result`` (``win``, ``lose``, ``tie``, ``fold``, ``void``), ``net``
    (minor units: > 0 paid, < 0 collected), its boxes ``(box, net)``, the hole cards (empty unless
    a pit boss opened the history)."""

    seat: int
    result: str
    net: int
    boxes: tuple[tuple[str, int], ...]
    hole: tuple[Card, ...] = ()


@dataclass(frozen=True)
class HistoryHand:
    """A past hand: journal number, end time (UTC), ``status`` (``settled``/``void``), the void
    reason's code, the board and the dealer's cards (empty for a void hand), the seats in
    settlement order."""

    hand_id: int
    ended_at: datetime
    status: str
    void_code: str
    board: tuple[Card, ...]
    dealer: tuple[Card, ...]
    seats: tuple[HistorySeat, ...]


def read_history(
    journal: Journal, table_id: str, *, holes: bool = False, limit: int = HISTORY_HANDS
) -> tuple[HistoryHand, ...]:
    """The last ``limit`` hands of ``table_id`` in ``journal``, newest first.

    Raises:
        JournalError: the journal cannot be read.
    """
    last = journal.count()
    out: list[HistoryHand] = []
    start = last
    step = max(limit * 2, 8)
    while start > 0 and len(out) < limit:  # back from the head until enough hands are found
        first = max(1, start - step + 1)
        chunk = [h for h in journal.iter_hands(first) if h.hand_id <= start]
        for stored in reversed(chunk):
            if stored.status in HAND_STATUSES and stored.table_id == table_id:
                out.append(past_hand(stored, holes=holes))
                if len(out) == limit:
                    break
        start = first - 1
    return tuple(out)


def past_hand(stored: StoredHand, *, holes: bool = False) -> HistoryHand:
    """One journaled hand as the history shows it (hole cards only with ``holes``).

    Raises:
        JournalError: a card in the record cannot be read (a damaged record).
    """
    record = stored.record or {}
    void = stored.status == "void"
    settlement = stored.settlement or {}
    holes_of = {p.get("seat"): p.get("hole", []) for p in record.get("players", [])}
    seats: list[HistorySeat] = []
    if void:
        for p in record.get("players", []):
            boxes = tuple((str(b), 0) for b in p.get("bets", {}))
            seats.append(HistorySeat(int(p.get("seat", 0)), "void", 0, boxes))
        seats.sort(key=lambda s: -s.seat)
    else:
        for s in settlement.get("seats", []):
            boxes = tuple((str(b.get("box")), int(b.get("net", 0))) for b in s.get("bets", []))
            hole = _cards(holes_of.get(s.get("seat"), [])) if holes else ()
            seats.append(
                HistorySeat(
                    int(s.get("seat", 0)),
                    str(s.get("result", "")),
                    int(s.get("net", 0)),
                    boxes,
                    hole,
                )
            )
    why = stored.extra.get("void") if void else None
    return HistoryHand(
        hand_id=stored.hand_id,
        ended_at=stored.ended_at,
        status=stored.status,
        void_code=str(why.get("code", "")) if isinstance(why, dict) else "",
        board=() if void else _cards(record.get("board", [])),
        dealer=() if void else _cards(record.get("dealer", [])),
        seats=tuple(seats),
    )


def _cards(texts: Any) -> tuple[Card, ...]:
    try:
        return tuple(parse_card(str(t)) for t in texts)
    except CardError as e:
        raise JournalError(f"a journaled hand has a card that cannot be read: {e}") from e


TableBets = tuple[tuple[int, tuple[tuple[str, int], ...]], ...]
"""Bets by seat: ``(seat, ((box, stake), ...))``, minor units."""


def last_bets(journal: Journal, table_id: str) -> TableBets:
    """The bets of ``table_id``'s last journaled hand that had bets (settled or void), by seat
    (:data:`TableBets`): what *Repeat last bets* puts back after a restart; empty when the
    table has none yet.

    Raises:
        JournalError: the journal cannot be read.
    """
    start = journal.count()
    while start > 0:  # back from the head, a chunk at a time, to this table's last hand
        first = max(1, start - 15)
        chunk = [h for h in journal.iter_hands(first) if h.hand_id <= start]
        for stored in reversed(chunk):
            if stored.status not in HAND_STATUSES or stored.table_id != table_id:
                continue
            players = (stored.record or {}).get("players", [])
            bets = tuple(
                (int(p["seat"]), tuple((str(b), int(a)) for b, a in p["bets"].items()))
                for p in sorted(players, key=lambda p: int(p.get("seat", 0)))
                if isinstance(p.get("bets"), dict) and p["bets"]
            )
            if bets:  # a hand voided before its bets (a restart's) has none to repeat
                return bets
        start = first - 1
    return ()


def journal_bets(journal: Journal | None, table_id: str) -> TableBets:
    """:func:`last_bets`, or none when there is no journal or it cannot say (a storage fault is
    the banner's business, not this)."""
    if journal is None:
        return ()
    try:
        return last_bets(journal, table_id)
    except DealerAssistError:
        return ()
