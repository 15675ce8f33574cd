"""The search columns of a hand: written beside it in the table's journal when it is appended, and
by the floor at ingest.

Never hashed and never trusted for audit: the content is. A shape this code does not know (an
older or newer record) leaves the column ``None`` rather than refusing the record: the chain
must be stored whole whatever the search can make of it.

- ``wagered``: every chip staked (banked: each box's ``stake``; pot games: each seat's
  ``put_in``), minor units.
- ``top_amount``: the largest single amount paid (banked: the best seat's ``net`` when
  positive; pot games: the largest pot), for "payout or pot above an amount".
- ``house_net``: what the house kept (banked: minus the seats' nets; pot games: the rake).
- ``seats``: the seats dealt in (``record.players[].seat``).
- ``flags``: ``void``, ``device_fault``, ``link_lost``, ``source_switched``,
  ``identity_changed``, ``manual_card``, ``camera_card``, ``resumed``.
- ``dealer``: the dealer's badge id the table recorded with the hand (``extra["dealer"]``; a
  string of at most 64 characters, else ``None``).
"""

from __future__ import annotations

from typing import Any

from dealer_assist.ports import TABLE_RECORD, StoredHand

_EVENT_FLAGS = {
    "fault": "device_fault",
    "link_lost": "link_lost",
    "source_switched": "source_switched",
    "identity_changed": "identity_changed",
}


def search_columns(hand: StoredHand) -> dict[str, Any]:
    """The search columns of ``hand`` (see the module doc); all ``None`` for a table record."""
    out: dict[str, Any] = {
        "wagered": None,
        "top_amount": None,
        "house_net": None,
        "seats": None,
        "flags": None,
        "dealer": None,
    }
    if hand.status == TABLE_RECORD:
        return out
    if isinstance(hand.extra, dict):
        dealer = hand.extra.get("dealer")
        if isinstance(dealer, str) and 0 < len(dealer) <= 64:
            out["dealer"] = dealer
    out["seats"] = _seats(hand.record) or None
    settlement = hand.settlement if isinstance(hand.settlement, dict) else None
    if settlement is not None:
        if isinstance(settlement.get("pots"), list):
            out.update(_pot_amounts(settlement))
        else:
            out.update(_banked_amounts(settlement))
    out["flags"] = _flags(hand) or None
    return out


def _ints(values: list[Any]) -> list[int]:
    return [v for v in values if isinstance(v, int) and not isinstance(v, bool)]


def _dicts(value: Any) -> list[dict[str, Any]]:
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


def _seats(record: dict[str, Any]) -> list[int]:
    seats = _ints([p.get("seat") for p in _dicts(record.get("players"))])
    return sorted(s for s in set(seats) if 0 < s < 2**15)


def _banked_amounts(settlement: dict[str, Any]) -> dict[str, Any]:
    seats = _dicts(settlement.get("seats"))
    stakes = _ints([b.get("stake") for s in seats for b in _dicts(s.get("bets"))])
    nets = _ints([s.get("net") for s in seats])
    if not seats or len(nets) != len(seats):
        return {}
    return {"wagered": sum(stakes), "top_amount": max(0, *nets), "house_net": -sum(nets)}


def _pot_amounts(settlement: dict[str, Any]) -> dict[str, Any]:
    put_in = _ints([s.get("put_in") for s in _dicts(settlement.get("seats"))])
    pots = _ints([p.get("amount") for p in _dicts(settlement.get("pots"))])
    rake = settlement.get("rake")
    return {
        "wagered": sum(put_in) if put_in else None,
        "top_amount": max(pots) if pots else None,
        "house_net": rake if isinstance(rake, int) and not isinstance(rake, bool) else None,
    }


def _flags(hand: StoredHand) -> list[str]:
    flags: set[str] = set()
    if hand.status == "void":
        flags.add("void")
    for event in _dicts(hand.events):
        kind = event.get("kind")
        if kind in _EVENT_FLAGS:
            flags.add(_EVENT_FLAGS[kind])
        elif kind == "card":
            if event.get("manual") is True:
                flags.add("manual_card")
            if "camera" in str(event.get("source", "")).lower():
                flags.add("camera_card")
    if isinstance(hand.extra, dict) and hand.extra.get("resumed"):
        flags.add("resumed")
    return sorted(flags)
