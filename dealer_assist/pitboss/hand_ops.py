"""A stored hand as its first state and its operations, for the one fold
(:func:`dealer_assist.engine.fold.fold`) of the replay, the dispute recompute and
``audit recompute``.

A hand journaled by this release keeps its operations (``extra["operations"]``,
:data:`~dealer_assist.ports.OPERATIONS_KEY`): they are folded as they are. A hand of a release
before them keeps only its record and its card provenance: its operations are derived from them
as the hand asks for each next one (:func:`banked_derived` here; Hold'em and Stud:
:func:`dealer_assist.pitboss.pot_replay.peer_derived`), in the order the table applied them.
Either way the first state is rebuilt from the record's own fields: the banked game's table
with the record's seats, pay tables and payout unit (its table limits were checked when the bets
were placed and are not recorded), the pot game's setup by its own setup function.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import cache
from itertools import chain
from typing import Any

from dealer_assist.config import TableConfig, load_table_config
from dealer_assist.engine.banked import BankedHand
from dealer_assist.engine.operations import (
    BetsPlaced,
    DealerRevealed,
    Decision,
    Decisions,
    HandOpened,
    HandSettled,
    HandVoided,
    Operation,
    StreetClosed,
    operations_of_entries,
)
from dealer_assist.engine.state import GameState
from dealer_assist.errors import OperationError
from dealer_assist.games import GAME_CODES, POT_GAME_CODES, get_game
from dealer_assist.games.stud import CODE as STUD
from dealer_assist.pitboss.pot_replay import card_of, holdem_state, peer_derived, provenance
from dealer_assist.pitboss.stud_replay import stud_cards, stud_state
from dealer_assist.ports import OPERATIONS_KEY, StoredHand
from dealer_assist.record import parse_record

JOURNAL, RECORD = "journal", "record"
"""Where a hand's operations come from: the journal's own, or derived from its record."""


@dataclass(frozen=True)
class HandOperations:
    """What the fold of a stored hand starts from: ``state`` (new, no operation applied),
    ``operations`` (a list, or an iterator that reads ``state`` as the fold goes: fold it once)
    and ``source``: :data:`JOURNAL` or :data:`RECORD`."""

    state: GameState
    operations: Iterable[Operation]
    source: str


def folds(hand: StoredHand) -> bool:
    """True when ``hand`` is a hand of a game of this release (banked or pot: every one
    folds); False for a table record or a game this release does not know."""
    if hand.status == "table":
        return False
    return hand.game in GAME_CODES or hand.game in POT_GAME_CODES


def journaled_operations(hand: StoredHand) -> list[Operation] | None:
    """The operations the journal keeps for ``hand``, None for an entry without them (written
    by a release before them).

    Raises:
        OperationError: the stored operations cannot be read (names the entry and the field).
    """
    entries = hand.extra.get(OPERATIONS_KEY)
    return None if entries is None else operations_of_entries(entries)


def hand_operations(hand: StoredHand) -> HandOperations:
    """The first state and the operations of ``hand`` (see the module doc).

    Raises:
        DealerAssistError: a record the game's setup refuses, operations that cannot be read
            (OperationError), a game that does not fold. KeyError, TypeError, ValueError: a
            record without the fields HAND_RECORD.md gives it.
    """
    if not folds(hand):
        raise OperationError(f"a {hand.game} {hand.status} entry has no operations to fold")
    stored = journaled_operations(hand)
    if hand.game in GAME_CODES:
        config = config_for(hand)
        banked = BankedHand(get_game(config.game), config, _uid(hand))
        if stored is not None:
            return HandOperations(banked, stored, JOURNAL)
        return HandOperations(banked, banked_derived(hand, banked), RECORD)
    if hand.game == STUD:
        peer, cards = stud_state(hand), stud_cards
    else:
        peer, cards = holdem_state(hand), provenance
    if stored is not None:
        return HandOperations(peer, stored, JOURNAL)
    derived = chain([opened(hand)], peer_derived(hand, peer, cards(hand)))
    return HandOperations(peer, derived, RECORD)


def _uid(hand: StoredHand) -> str:
    return hand.hand_uid or f"{hand.table_id}-{hand.hand_id}"


@cache
def _shipped(game: str) -> TableConfig:
    return load_table_config(game=game)


def config_for(hand: StoredHand) -> TableConfig:
    """The table of a banked ``hand`` as its record gives it: the game's shipped table with the
    record's table id, seats, pay tables and payout unit, and no table limits (they were checked
    when the bets were placed; the record does not keep them).

    Raises:
        InvalidRecordError: the record does not parse (HAND_RECORD.md).
    """
    record = parse_record(hand.record)
    return dataclasses.replace(
        _shipped(hand.game),
        table_id=hand.table_id,
        seats=record.seats or _shipped(hand.game).seats,
        limits={},
        paytables=record.paytables,
        payout_unit=record.payout_unit,
    )


def opened(hand: StoredHand) -> HandOpened:
    """The ``HandOpened`` of a stored hand (its start, device and session as journaled)."""
    return HandOpened(
        started_at=hand.started_at,
        device=dict(hand.extra.get("device", {})),
        session=hand.extra.get("session"),
    )


def banked_derived(hand: StoredHand, state: BankedHand) -> Iterator[Operation]:
    """The operations of a banked ``hand`` of a release before the journal kept them, derived
    as ``state`` asks for each (the fold applies each before the next is asked for): the hand
    opened, the bets, each card from the card provenance at the position the hand asks for
    next, each street's recorded decisions closing it, the reveal, the settlement; a void hand's
    void where its record ends.

    Raises:
        KeyError, ValueError, TypeError: a record or card provenance without its fields.
    """
    yield opened(hand)
    players = [p for p in hand.record.get("players", []) if isinstance(p, dict)]
    yield BetsPlaced(seats={int(p["seat"]): dict(p.get("bets", {})) for p in players})
    cards = {c.get("position"): c for c in hand.extra.get("cards", []) if isinstance(c, dict)}
    actions = _actions_by_street(hand.record)
    while not state.is_over:
        if state.pending_deal:
            c = cards.get(str(state.pending_deal[0]))
            if c is None:
                break  # the hand ended before this card (a void): no more cards recorded
            yield card_of(c)
        elif state.street is not None and state.seats_to_act:
            street = state.street
            ds = tuple(
                Decision(seat=s, street=street, action=a, multiple=m)
                for s, a, m in actions.get(street, [])
                if s in state.seats_to_act
            )
            yield Decisions(decisions=ds, advance=True)
        elif state.street is not None and state.phase.name == "DECISIONS":
            yield StreetClosed()
        elif state.phase.name == "SHOWDOWN":
            yield DealerRevealed()
        elif state.phase.name == "REVEALED":
            yield HandSettled(at=hand.ended_at)
        else:
            break
    if hand.status == "void" and not state.is_over:
        yield HandVoided(code="void", detail=hand.void_reason or "", at=hand.ended_at)


def _actions_by_street(record: Mapping[str, Any]) -> dict[str, list[tuple[int, str, int | None]]]:
    out: dict[str, list[tuple[int, str, int | None]]] = {}
    for p in record.get("players", []):
        for a in p.get("actions", []):
            out.setdefault(a["street"], []).append((int(p["seat"]), a["action"], a.get("multiple")))
    return out
