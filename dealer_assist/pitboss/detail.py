"""A stored hand's detail as the pit boss reads it (docs/PITBOSS.md "Hand detail"): each card
with its position and source (reader, camera, keypad), the bets and decisions in order, each
box's or pot's result, the device events, the void reason. Hole cards are in it: the
application shows them only to a role that may see them, and logs the view."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from dealer_assist.games import GAME_CODES, get_game
from dealer_assist.pitboss.titles import card_source
from dealer_assist.ports import StoredHand

Money = Callable[[int], str]
"""How an amount (integer minor units) is written: the window's says the unit (EUR)."""


@dataclass(frozen=True)
class CardLine:
    """One card: ``position`` (``seat 3 card 1``, ``board 2``, ``dealer 1``, ``burn 1``),
    ``card``, ``source`` (reader/camera/keypad), ``device`` (the source's name), ``at`` (ISO),
    ``hole`` when it is a player's or the dealer's down card."""

    position: str
    card: str
    source: str
    device: str
    at: str
    hole: bool


@dataclass(frozen=True)
class HandDetail:
    """The readable parts of a stored hand (amounts in minor units)."""

    table_id: str
    position: int
    game: str
    status: str
    void_reason: str | None
    started_at: str
    ended_at: str
    cards: tuple[CardLine, ...]
    bets: tuple[str, ...]
    decisions: tuple[str, ...]
    results: tuple[str, ...]
    events: tuple[str, ...]


def _cards(hand: StoredHand) -> list[CardLine]:
    out = []
    for c in hand.extra.get("cards", []):
        if not isinstance(c, dict):
            continue
        pos = str(c.get("position", ""))
        src = str(c.get("source", ""))
        out.append(
            CardLine(
                pos,
                str(c.get("card", "")),
                card_source(src, bool(c.get("manual"))),
                src,
                str(c.get("at", "")),
                pos.startswith(("seat", "dealer", "burn")),
            )
        )
    return out


def _bets(rec: dict[str, Any], money: Money) -> list[str]:
    out = []
    for p in rec.get("players", []):
        bets = p.get("bets")
        if isinstance(bets, dict):
            out.append(
                f"seat {p['seat']}: "
                + ", ".join(f"{k} {_m(money, v)}" for k, v in sorted(bets.items()))
            )
        elif "stack" in p:
            out.append(f"seat {p['seat']}: stack {_m(money, p['stack'])}")
    for post in rec.get("posts", []):
        out.append(f"seat {post['seat']} posts {post['type']} {_m(money, post['amount'])}")
    return out


def _m(money: Money, value: Any) -> str:
    """An amount through ``money`` (integers only: anything else as it is)."""
    return money(value) if isinstance(value, int) and not isinstance(value, bool) else str(value)


def _decisions(game: str, rec: dict[str, Any], money: Money) -> list[str]:
    if isinstance(rec.get("actions"), list):  # pot games: one list in order
        return [
            f"{a.get('street')}: seat {a.get('seat')} {a.get('action')}"
            + (f" to {_m(money, a['to'])}" if "to" in a else "")
            for a in rec["actions"]
        ]
    out = []
    for p in rec.get("players", []):
        for a in p.get("actions", []):
            m = f" x{a['multiple']}" if a.get("multiple") else ""
            out.append(f"{a.get('street')}: seat {p['seat']} {a.get('action')}{m}")
    # in the order of the game's streets; a street the game does not know (or a record of an
    # unknown game) last, in record order
    streets = get_game(game).streets if game in GAME_CODES else ()
    order = {s.name: i for i, s in enumerate(streets)}
    return sorted(out, key=lambda s: order.get(s.split(":")[0], 9))


def _results(settlement: dict[str, Any] | None, money: Money) -> list[str]:
    if not isinstance(settlement, dict):
        return []
    out = []
    for pot in settlement.get("pots", []):
        winners = ", ".join(
            f"seat {w['seat']} {_m(money, w['amount'])}" for w in pot.get("winners", [])
        )
        out.append(f"{pot.get('pot')} {_m(money, pot.get('amount'))}: {winners}")
    for s in sorted(settlement.get("seats", []), key=lambda s: s.get("seat", 0)):
        boxes = ", ".join(
            f"{b['box']} {b['outcome']} {_signed(money, b['net'])}" for b in s.get("bets", [])
        )
        out.append(
            f"seat {s.get('seat')}: {s.get('result')} net {_signed(money, s.get('net', 0))}"
            + (f" ({boxes})" if boxes else "")
        )
    return out


def _signed(money: Money, value: Any) -> str:
    text = _m(money, value)
    return text if text.startswith("-") or not isinstance(value, int) else f"+{text}"


def _events(hand: StoredHand) -> list[str]:
    out = []
    for e in hand.events:
        if not isinstance(e, dict) or e.get("kind") == "card":
            continue
        rest = ", ".join(f"{k} {v}" for k, v in sorted(e.items()) if k not in ("at", "kind"))
        out.append(f"{e.get('at', '')} {e.get('kind')}: {rest}")
    return out


def hand_detail(hand: StoredHand, money: Money = str) -> HandDetail:
    """The detail of ``hand`` (see :class:`HandDetail`), every amount written by ``money``
    (integer minor units -> text; default the bare number); never raises for a shape it does
    not know (the part is left empty)."""
    return HandDetail(
        hand.table_id,
        hand.hand_id,
        hand.game,
        hand.status,
        hand.void_reason,
        hand.started_at.isoformat(),
        hand.ended_at.isoformat(),
        tuple(_cards(hand)),
        tuple(_bets(hand.record, money)),
        tuple(_decisions(hand.game, hand.record, money)),
        tuple(_results(hand.settlement, money)),
        tuple(_events(hand)),
    )
