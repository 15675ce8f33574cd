"""A stored hand stepped through as it happened (docs/PITBOSS.md "Replay").

Banked games (UTH, THB): the journal keeps the record and each card's provenance, not the
operations (the step log is cleared once a hand is journaled), so the hand's operations are
rebuilt from them in the order the table applies them (``HandOpened``, ``BetsPlaced``, each
``CardDealt`` into the position the hand asks for next, each street's ``Decisions`` closing it,
``DealerRevealed``, ``HandSettled``) and folded over a new
:class:`~dealer_assist.engine.banked.BankedHand` through its ``apply`` (the same verify/apply the
resume code uses), a snapshot after each. The last step's settlement is the game's of today;
:mod:`dealer_assist.pitboss.recompute` compares it with the recorded one.

Hold'em and Stud: the same fold over :class:`~dealer_assist.engine.peer_state.PeerHand`
(:mod:`dealer_assist.pitboss.pot_replay`, :mod:`dealer_assist.pitboss.stud_replay`); a pot game
its plug-in does not mark ``replays_by_fold``: the record's actions in order with the forced bets
and the pots as recorded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from typing import Any

from dealer_assist.cards import parse_card
from dealer_assist.config import load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.operations import (
    BetsPlaced,
    CardDealt,
    DealerRevealed,
    Decision,
    Decisions,
    HandOpened,
    HandSettled,
    HandVoided,
    Operation,
    StreetClosed,
)
from dealer_assist.errors import DealerAssistError
from dealer_assist.games import GAME_CODES, POT_GAME_CODES, get_pot_game
from dealer_assist.ports import StoredHand
from dealer_assist.record import parse_record


@dataclass(frozen=True)
class SeatView:
    """One seat after a step: its hole cards (text), stakes by box (minor units), decisions;
    ``up``: which of its cards were dealt face up (Stud's door and up cards: seen by everyone at
    the table), empty when none is."""

    seat: int
    hole: tuple[str, ...]
    stakes: Mapping[str, int]
    actions: tuple[str, ...]
    up: tuple[bool, ...] = ()


@dataclass(frozen=True)
class ReplayStep:
    """The hand after operation ``index`` (0-based): ``title`` says what the operation did;
    ``board``/``dealer`` the cards placed so far; ``result`` the settlement once settled."""

    index: int
    kind: str
    title: str
    board: tuple[str, ...]
    dealer: tuple[str, ...]
    seats: tuple[SeatView, ...]
    result: Mapping[str, Any] | None = None


@dataclass(frozen=True)
class Replay:
    """Every step of a hand; ``stopped``: why the fold stopped early (``None``: it ran whole)."""

    steps: tuple[ReplayStep, ...]
    stopped: str | None = None
    operations: tuple[Operation, ...] = field(default_factory=tuple)

    @property
    def final(self) -> ReplayStep | None:
        """The last step, ``None`` for a hand without steps."""
        return self.steps[-1] if self.steps else None


def replay(hand: StoredHand) -> Replay:
    """The steps of ``hand`` (see the module doc). Never raises for a record it cannot fold:
    the steps up to there and ``stopped`` naming the operation and the rule."""
    if hand.status == "table":
        return Replay((), "a table record is not a hand")
    if hand.game in GAME_CODES:  # the banked games
        return _banked(hand)
    if hand.game in POT_GAME_CODES and get_pot_game(hand.game).replays_by_fold:
        return _peer(hand)
    return _pot(hand)


def _peer_fold(hand: StoredHand) -> tuple[Callable[[StoredHand], Any], Callable[..., None]]:
    """The game's state builder and fold: Hold'em's or Stud's (the game module's own setup)."""
    from dealer_assist.games.stud import CODE as STUD
    from dealer_assist.pitboss.pot_replay import fold_holdem, fold_peer, holdem_state

    if hand.game == STUD:
        from dealer_assist.pitboss.stud_replay import stud_cards, stud_state

        def fold_stud(h: StoredHand, apply: Callable[[Operation, str], None], state: Any) -> None:
            fold_peer(h, apply, state, stud_cards(h))

        return stud_state, fold_stud
    return holdem_state, fold_holdem


def _peer(hand: StoredHand) -> Replay:
    steps: list[ReplayStep] = []
    done: list[Operation] = []
    try:
        make, fold = _peer_fold(hand)
        state = make(hand)
    except (DealerAssistError, KeyError, ValueError, TypeError) as e:
        return Replay((), f"the record cannot be read: {type(e).__name__}: {e}")

    def apply(op: Operation, title: str) -> None:
        state.apply(op)
        done.append(op)
        put_in = state.put_in()
        seats = tuple(
            SeatView(s, tuple(str(c) for c in state.holes[s]), {"put in": put_in.get(s, 0)},
                     tuple(f"{a.get('street')} {a.get('action')}"
                           + (f" {a['to']}" if a.get("to") is not None else "")
                           for a in state.actions if a.get("seat") == s),
                     tuple(state.faces[s]))
            for s in state.setup.seats
        )  # fmt: skip
        steps.append(ReplayStep(len(steps), op.kind, title, tuple(str(c) for c in state.board),
                                (), seats, state.result()))  # fmt: skip

    try:
        apply(HandOpened(started_at=hand.started_at, device=dict(hand.extra.get("device", {})),
                         session=hand.extra.get("session")), "hand opened")  # fmt: skip
        fold(hand, apply, state)
        if hand.status == "void" and not state.is_over:
            why = hand.void_reason or ""
            apply(HandVoided(code="void", detail=why, at=hand.ended_at), f"void: {why}")
    except (DealerAssistError, KeyError, ValueError, TypeError) as e:
        name = type(e).__name__
        return Replay(tuple(steps), f"step {len(steps) + 1} refused: {name}: {e}", tuple(done))
    return Replay(tuple(steps), None, tuple(done))


def banked_operations(hand: StoredHand) -> list[Operation]:
    """The operations of a stored banked hand, in the order the table applied them, given the
    hand asks for cards in the recorded positions (see :func:`replay`).

    Raises:
        DealerAssistError: the record or the card provenance cannot be read.
    """
    ops: list[Operation] = [
        HandOpened(
            started_at=hand.started_at,
            device=dict(hand.extra.get("device", {})),
            session=hand.extra.get("session"),
        )
    ]
    players = [p for p in hand.record.get("players", []) if isinstance(p, dict)]
    ops.append(BetsPlaced(seats={int(p["seat"]): dict(p.get("bets", {})) for p in players}))
    return ops


def _config_for(hand: StoredHand) -> Any:
    record = parse_record(hand.record)
    config = load_table_config(game=hand.game)
    return dataclasses.replace(
        config,
        table_id=hand.table_id,
        seats=record.seats or config.seats,
        paytables=record.paytables,
        payout_unit=record.payout_unit,
    )


def _banked(hand: StoredHand) -> Replay:
    steps: list[ReplayStep] = []
    try:
        state = BankedHand(_config_for(hand), hand.hand_uid or f"{hand.table_id}-{hand.hand_id}")
        ops = banked_operations(hand)
    except DealerAssistError as e:
        return Replay((), f"the record cannot be read: {e}")
    cards = {c.get("position"): c for c in hand.extra.get("cards", []) if isinstance(c, dict)}
    actions = _actions_by_street(hand.record)
    done: list[Operation] = []

    def apply(op: Operation, title: str) -> None:
        state.apply(op)
        done.append(op)
        steps.append(_snapshot(state, len(steps), op.kind, title))

    try:
        for op in ops:
            apply(op, _title(op))
        while not state.is_over:
            if state.pending_deal:
                pos = str(state.pending_deal[0])
                c = cards.get(pos)
                if c is None:
                    break  # the hand ended before this card (a void): no more cards recorded
                op = CardDealt(
                    deck_id=str(c.get("deck_id", "")),
                    index=int(c.get("index", 0)),
                    card=parse_card(str(c["card"])),
                    source=str(c.get("source", "")),
                    manual=bool(c.get("manual")),
                    at=datetime.fromisoformat(c["at"]),
                    identified_by=str(c.get("identified_by", "")),
                    confirmed_by=str(c.get("confirmed_by", "")),
                )
                apply(op, f"{pos} ({_source(c)})")  # the card itself: in the seats, hidden
            elif state.street is not None and state.seats_to_act:
                street = state.street
                ds = tuple(
                    Decision(seat=s, street=street, action=a, multiple=m)
                    for s, a, m in actions.get(street, [])
                    if s in state.seats_to_act
                )
                said = ", ".join(
                    f"{d.seat} {d.action}" + (f" x{d.multiple}" if d.multiple else "") for d in ds
                )
                apply(Decisions(decisions=ds, advance=True), f"{street}: {said or 'no decision'}")
            elif state.street is not None and state.phase.name == "DECISIONS":
                apply(StreetClosed(), f"{state.street}: nobody left to decide")
            elif state.phase.name == "SHOWDOWN":
                apply(DealerRevealed(), "dealer revealed")
            elif state.phase.name == "REVEALED":
                apply(HandSettled(at=hand.ended_at), "settled")
            else:
                break
        if hand.status == "void" and not state.is_over:
            why = hand.void_reason or ""
            apply(HandVoided(code="void", detail=why, at=hand.ended_at), f"void: {why}")
    except (DealerAssistError, KeyError, ValueError, TypeError) as e:
        name = type(e).__name__
        return Replay(tuple(steps), f"step {len(steps) + 1} refused: {name}: {e}", tuple(done))
    return Replay(tuple(steps), None, tuple(done))


def _actions_by_street(record: Mapping[str, Any]) -> dict[str, list[tuple[int, str, int | None]]]:
    out: dict[str, list[tuple[int, str, int | None]]] = {}
    for p in record.get("players", []):
        for a in p.get("actions", []):
            out.setdefault(a["street"], []).append((int(p["seat"]), a["action"], a.get("multiple")))
    return out


def _source(card: Mapping[str, Any]) -> str:
    return card_source(str(card.get("source", "")), bool(card.get("manual")))


def card_source(source: str, manual: bool) -> str:
    """``keypad`` (typed by the dealer), ``camera`` or ``reader`` (a shuffler or reader)."""
    if manual or source == "manual":
        return "keypad"
    return "camera" if "camera" in source.lower() else "reader"


def _title(op: Operation) -> str:
    if isinstance(op, HandOpened):
        return "hand opened"
    if isinstance(op, BetsPlaced):
        bets = "; ".join(
            f"{s}: " + ", ".join(f"{b} {v}" for b, v in sorted(m.items()))
            for s, m in sorted(op.seats.items())
        )
        return f"bets placed ({bets})"
    return op.kind


def _snapshot(state: BankedHand, index: int, kind: str, title: str) -> ReplayStep:
    seats = tuple(
        SeatView(
            s,
            tuple(str(st.hole[n]) for n in sorted(st.hole)),
            state.stakes(s),
            tuple(
                f"{a.street} {a.action}" + (f" x{a.multiple}" if a.multiple else "")
                for a in st.actions
            ),
        )
        for s, st in sorted(state.seats.items())
    )
    result = state.settlement.to_json() if state.settlement is not None else None
    return ReplayStep(
        index,
        kind,
        title,
        tuple(str(c) for c in state.board_visible()),
        tuple(str(c) for c in state.dealer_cards),
        seats,
        result,
    )


@cache
def _board_shown() -> dict[str, int]:
    """street -> board cards shown once it is dealt, from the street lists of the pot games
    that deal a board (Hold'em); the first is the street the hole cards open."""
    shown: dict[str, int] = {}
    for code in POT_GAME_CODES:
        streets = get_pot_game(code).streets
        if not any(s.board for s in streets):
            continue
        total = 0
        for s in streets:
            total += int(s.board)
            shown.setdefault(s.name, total)
    return shown


def _pot(hand: StoredHand) -> Replay:
    rec = hand.record
    board = [str(c) for c in rec.get("board", [])]
    players = [p for p in rec.get("players", []) if isinstance(p, dict)]
    holes = {
        int(p["seat"]): tuple(str(c) for c in (p.get("hole") or p.get("cards") or []) if c)
        for p in players
    }
    stakes: dict[int, int] = {s: 0 for s in holes}
    acted: dict[int, list[str]] = {s: [] for s in holes}
    steps: list[ReplayStep] = []

    def add(kind: str, title: str, shown: int, result: Mapping[str, Any] | None = None) -> None:
        seats = tuple(
            SeatView(s, holes[s], {"in front": stakes[s]}, tuple(acted[s])) for s in sorted(holes)
        )
        steps.append(ReplayStep(len(steps), kind, title, tuple(board[:shown]), (), seats, result))

    for post in rec.get("posts", []):
        stakes[int(post["seat"])] = int(post["amount"])
        add("forced_bet", f"seat {post['seat']} posts {post['type']} {post['amount']}", 0)
    add("deal", "hole cards dealt", 0)
    street = next(iter(_board_shown()), "")  # the hole cards open it: no step of its own
    for a in rec.get("actions", []):
        if a.get("street") != street:
            street = str(a.get("street"))
            stakes = {s: 0 for s in stakes}
            add("deal", f"{street} dealt", _board_shown().get(street, len(board)))
        seat = int(a["seat"])
        if a.get("to") is not None:
            stakes[seat] = int(a["to"])
        acted[seat].append(f"{street} {a['action']}" + (f" {a['to']}" if "to" in a else ""))
        add(
            "bet",
            f"seat {seat} {a['action']}" + (f" to {a['to']}" if "to" in a else ""),
            _board_shown().get(street, len(board)),
        )
    if hand.status == "void":
        add("void", f"void: {hand.void_reason or ''}", len(board))
    elif hand.settlement is not None:
        add("settle", "pots awarded", len(board), hand.settlement)
    return Replay(tuple(steps), None)
