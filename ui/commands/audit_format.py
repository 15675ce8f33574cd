"""How ``audit show`` prints a stored hand or table record for a person: board, cards, bets,
decisions, settlement, device events, corrections; amounts in the journal's currency."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from dealer_assist.ports import TABLE_RECORD
from ui.commands import audit_recompute
from ui.money import fmt_money

if TYPE_CHECKING:
    from dealer_assist.storage import StoredHand


def format_hand(hand: StoredHand, currency: str = "EUR") -> list[str]:
    """Readable lines for one hand: amounts (stored in minor units) as money in ``currency``,
    e.g. ``EUR 10.00``, nets signed; times ISO-8601 UTC. A table record (a change between
    hands) is shown as one: :func:`format_table_record`."""
    if hand.status == TABLE_RECORD:
        return format_table_record(hand, currency)
    content = hand.content()
    uid = f" (uid {hand.hand_uid})" if hand.hand_uid else ""
    status = hand.status + (f": {hand.void_reason}" if hand.void_reason else "")
    lines = [
        f"Hand {hand.hand_id}{uid}",
        f"  table     {hand.table_id}",
        f"  game      {hand.game}",
        f"  started   {content['started_at']}",
        f"  ended     {content['ended_at']}",
        f"  recorded  {content['recorded_at']}",
        f"  status    {status}",
    ]
    rec = hand.record
    lines.append(f"Board:  {_cards(rec.get('board'))}")
    lines.append(f"Dealer: {_cards(rec.get('dealer'))}")
    for player in _dicts(rec.get("players")):
        lines.append(f"Seat {player.get('seat', '?')}: {_cards(player.get('hole'))}")
        bets = player.get("bets")
        if isinstance(bets, dict) and bets:
            amounts = (f"{k} {_money(v, currency)}" for k, v in bets.items())
            lines.append("  bets:      " + ", ".join(amounts))
        decisions = [_decision(a) for a in _dicts(player.get("actions"))]
        if decisions:
            lines.append("  decisions: " + ", ".join(decisions))
    lines += _settlement_lines(hand.settlement, currency)
    lines += audit_recompute.change_lines(hand, currency)
    lines.append(f"Device events ({len(hand.events)}):")
    lines += [f"  {_event(e)}" for e in hand.events]
    ops = hand.extra.get("operations")
    extra = {k: v for k, v in hand.extra.items() if k != "operations"}
    if isinstance(ops, list):
        kinds = [str(op.get("kind")) for op in ops if isinstance(op, dict)]
        lines.append(f"Operations ({len(kinds)}): " + " ".join(kinds))
    if extra:  # lists and tables (the cards, the session: kilobytes) only counted: see --json
        lines.append("Extra (lists and tables in --json): " + ", ".join(map(_extra, extra.items())))
    lines += [f"prev_hash {hand.prev_hash}", f"hash      {hand.hash}"]
    return lines


def _extra(item: tuple[str, Any]) -> str:
    key, value = item
    return f"{key} ({len(value)})" if isinstance(value, list | dict) else f"{key}={value}"


def format_table_record(entry: StoredHand, currency: str = "EUR") -> list[str]:
    """Readable lines for one table record: what changed (kind, seat, amount as money in
    ``currency``, who, when), then the seats as the session stood after it."""
    rec = entry.record
    uid = f" (uid {entry.hand_uid})" if entry.hand_uid else ""
    lines = [
        f"Table record {entry.hand_id}{uid}",
        f"  table     {entry.table_id}",
        f"  kind      {rec.get('kind', '?')}",
        f"  at        {rec.get('at') or entry.content()['started_at']}",
        f"  by        {rec.get('by') or '-'}",
        f"  recorded  {entry.content()['recorded_at']}",
    ]
    if "seat" in rec:
        name = f" ({rec['name']})" if rec.get("name") else ""
        lines.append(f"  seat      {rec['seat']}{name}")
    for key in ("amount", "stack"):
        if key in rec:
            lines.append(f"  {key:<9} {_money(rec[key], currency)}")
    shown = {"kind", "at", "by", "seat", "name", "amount", "stack"}
    rest = {k: v for k, v in rec.items() if k not in shown}
    if rest:
        lines.append("  details   " + json.dumps(rest, sort_keys=True, ensure_ascii=False))
    session = entry.extra.get("session")
    if isinstance(session, dict):
        lines.append(
            f"Session after it: {session.get('hands', '?')} hands, "
            f"button {session.get('button') or '-'}"
        )
        seats = session.get("seats")
        for seat, player in sorted((seats or {}).items(), key=lambda kv: int(kv[0])):
            if not isinstance(player, dict):
                continue
            flags = [
                f
                for f, on in (
                    ("sitting out", player.get("sitting_out")),
                    ("waiting", player.get("waiting")),
                )
                if on
            ]
            if player.get("owes"):
                flags.append("owes " + ", ".join(map(str, player["owes"])))
            tail = f"  ({'; '.join(flags)})" if flags else ""
            who = player.get("name") or "-"
            lines.append(f"  seat {seat}: {who}, {_money(player.get('stack'), currency)}{tail}")
    lines += [f"prev_hash {entry.prev_hash}", f"hash      {entry.hash}"]
    return lines


def _settlement_lines(settlement: dict[str, Any] | None, currency: str) -> list[str]:
    if settlement is None:
        return ["Settlement: none"]
    lines = ["Settlement:"]
    dealer = settlement.get("dealer")
    if isinstance(dealer, dict):
        qualifies = dealer.get("qualifies")
        q = "" if qualifies is None else (" (qualifies)" if qualifies else " (does not qualify)")
        lines.append(f"  dealer: {_made_hand(dealer.get('hand'))}{q}")
    for seat in _dicts(settlement.get("seats")):
        lines.append(
            f"  seat {seat.get('seat', '?')}: {seat.get('result', '?')}, "
            f"{_made_hand(seat.get('hand'))}, net {_money(seat.get('net'), currency, net=True)}"
        )
        for bet in _dicts(seat.get("bets")):
            lines.append(
                f"    {bet.get('box', '?'):<6} stake {_money(bet.get('stake'), currency)}"
                f"  {bet.get('outcome', '?')}  net {_money(bet.get('net'), currency, net=True)}"
            )
    return lines


def _money(minor: Any, currency: str, *, net: bool = False) -> str:
    """Minor units as money (a net gets its sign, ``+EUR 30.00``); a stored value that is not
    an integer is shown as it is, ``?`` when missing."""
    if minor is None:
        return "?"
    if not isinstance(minor, int) or isinstance(minor, bool):
        return str(minor)
    return ("+" if net and minor > 0 else "") + fmt_money(minor, currency)


def _made_hand(made: Any) -> str:
    if not isinstance(made, dict):
        return "no hand"
    return f"{made.get('category', '?')} [{_cards(made.get('best_five'))}]"


def _decision(action: dict[str, Any]) -> str:
    text = f"{action.get('street', '?')} {action.get('action', '?')}"
    return text + (f" x{action['multiple']}" if "multiple" in action else "")


def _event(event: dict[str, Any]) -> str:
    head = f"{event.get('at', '?')}  {event.get('source') or '?':<8} {event.get('kind', '?'):<8}"
    rest = " ".join(
        f"{k}={'??' if v is None and k == 'card' else v}"
        for k, v in event.items()
        if k not in ("at", "source", "kind")
    )
    return f"{head} {rest}".rstrip()


def _cards(cards: Any) -> str:
    if not isinstance(cards, list) or not cards:
        return "-"
    return " ".join(str(c) for c in cards)


def _dicts(items: Any) -> list[dict[str, Any]]:
    return [i for i in items if isinstance(i, dict)] if isinstance(items, list) else []
