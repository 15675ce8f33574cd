"""HAND_RECORD.md: parse and validate a hand record, and settle it.

``parse_record(obj)`` turns a decoded JSON object into a validated :class:`HandRecord` or raises
:class:`InvalidRecordError` naming the field (``players[0].bets.blind``) and the reason.
``settle_record(obj)`` does both steps and returns the settlement JSON object.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dealer_assist.cards import Card, take_cards
from dealer_assist.errors import BetError, ConfigError, InvalidRecordError, clip, quote
from dealer_assist.games import GAME_CODES, POT_GAME_CODES, get_game, get_pot_game

# The banked engine is imported inside the functions that read a banked record, for start-up
# alone (none of it imports this module): a pot game's settle never loads it.
if TYPE_CHECKING:
    from dealer_assist.engine.rules import GameRules, HandRecord, PlayerHand


def parse_record(obj: Any) -> HandRecord:
    """Validate a decoded hand record (HAND_RECORD.md).

    Raises:
        InvalidRecordError: unknown card, duplicate card, wrong count of cards, Blind != Ante,
            illegal action or multiple, action after a fold or a play, missing field, negative or
            non-integer amount, seat out of range or repeated, unknown pay-table line.
    """
    from dealer_assist.engine.rules import HandRecord  # start-up: see the imports
    from dealer_assist.paytables import build_paytables

    if not isinstance(obj, Mapping):
        raise InvalidRecordError("record", "must be a JSON object")
    game_code = _field(obj, "game", str, "record")
    if game_code not in GAME_CODES:
        raise InvalidRecordError("game", f"unknown game {quote(game_code)} (known: {GAME_CODES})")
    game = get_game(game_code)
    seats = obj.get("seats")
    if seats is not None and not (_is_int(seats) and 1 <= seats <= game.max_seats):
        raise InvalidRecordError(
            "seats", f"must be an integer 1..{game.max_seats}, got {quote(seats)}"
        )
    used: set[Card] = set()
    board = _cards(obj, "board", used)
    dealer = _cards(obj, "dealer", used)
    if len(dealer) != 2:
        raise InvalidRecordError("dealer", f"needs exactly 2 cards, got {len(dealer)}")
    players_obj = obj.get("players")
    if not isinstance(players_obj, list) or not players_obj:
        raise InvalidRecordError("players", "must be a non-empty list")
    seen_seats: set[int] = set()
    players = []
    for i, p in enumerate(players_obj):
        player = _player(game, p, f"players[{i}]", seats or game.max_seats, used)
        if player.seat in seen_seats:
            raise InvalidRecordError(f"players[{i}].seat", f"seat {player.seat} appears twice")
        seen_seats.add(player.seat)
        players.append(player)
    try:
        paytables = build_paytables(game.code, obj.get("paytables"), "paytables")
    except ConfigError as e:
        field, _, reason = str(e).partition(": ")
        raise InvalidRecordError(field, reason) from e
    unit = obj.get("payout_unit", 1)
    if not (_is_int(unit) and unit >= 1):
        raise InvalidRecordError("payout_unit", f"must be a positive integer, got {quote(unit)}")
    record = HandRecord(game.code, seats, board, dealer, tuple(players), paytables, unit)
    game.validate_record(record)
    return record


def check_tournament_field(value: Any) -> None:
    """A pot game's ``tournament`` field (docs/HAND_RECORDS.md): ``{"id": non-empty text,
    "level": integer >= 1}``, the tournament and the level the hand was played at; nothing
    else in it.

    Raises:
        InvalidRecordError: naming ``tournament``, ``tournament.id``, ``tournament.level`` or
            the unknown key.
    """
    if not isinstance(value, Mapping):
        raise InvalidRecordError(
            "tournament", f"must be an object {{id, level}}, got {quote(value)}"
        )
    for key in value:
        if key not in ("id", "level"):
            raise InvalidRecordError(f"tournament.{key}", "unknown key (id and level only)")
    tid = value.get("id")
    if not isinstance(tid, str) or not tid.strip():
        raise InvalidRecordError(
            "tournament.id", f"must be the tournament's id (text), got {quote(tid)}"
        )
    level = value.get("level")
    if not (isinstance(level, int) and not isinstance(level, bool) and level >= 1):
        raise InvalidRecordError("tournament.level", f"must be an integer >= 1, got {quote(level)}")


def settle_record(obj: Any) -> dict[str, Any]:
    """Validate and settle one hand record; returns the settlement JSON (HAND_RECORD.md): a
    banked game's record by :func:`parse_record`, a pot game's (``POT_GAME_CODES``) by its
    plug-in (HAND_RECORD.md "Pot games").

    Raises:
        InvalidRecordError: see :func:`parse_record`.
    """
    if (type(obj) is dict or isinstance(obj, Mapping)) and obj.get("game") in POT_GAME_CODES:
        if "tournament" in obj:
            check_tournament_field(obj["tournament"])
        return get_pot_game(obj["game"]).settle(obj)
    record = parse_record(obj)
    return get_game(record.game).settle(record).to_json()


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _field(obj: Mapping[str, Any], key: str, kind: type, where: str) -> Any:
    path = key if where == "record" else f"{where}.{key}"
    if key not in obj:
        raise InvalidRecordError(path, "missing")
    value = obj[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InvalidRecordError(path, f"must be {kind.__name__}, got {quote(value)}")
    return value


def _cards(
    obj: Mapping[str, Any], path: str, used: set[Card], key: str | None = None
) -> tuple[Card, ...]:
    texts = obj.get(key or path.rsplit(".", 1)[-1])
    if texts is None:
        raise InvalidRecordError(path, "missing")
    if not isinstance(texts, list):
        raise InvalidRecordError(path, "must be a list of cards")
    return take_cards(texts, used, lambda j: f"{path}[{j}]")


def _player(game: GameRules, p: Any, where: str, seats: int, used: set[Card]) -> PlayerHand:
    from dealer_assist.engine.rules import Action, PlayerHand  # start-up: see the imports

    if not isinstance(p, Mapping):
        raise InvalidRecordError(where, "must be an object")
    seat = _field(p, "seat", int, where)
    if not 1 <= seat <= seats:
        raise InvalidRecordError(f"{where}.seat", f"must be 1..{seats}, got {seat}")
    hole = _cards(p, f"{where}.hole", used, "hole")
    if len(hole) != 2:
        raise InvalidRecordError(f"{where}.hole", f"needs exactly 2 cards, got {len(hole)}")
    bets_obj = _field(p, "bets", dict, where)
    for box, amount in bets_obj.items():
        if not _is_int(amount):
            raise InvalidRecordError(
                f"{where}.bets.{clip(str(box))}",
                f"must be an integer of minor units, got {quote(amount)}",
            )
    try:
        bets = game.validate_bets(bets_obj, {})
    except BetError as e:
        raise InvalidRecordError(f"{where}.bets.{clip(e.box)}", e.reason) from e
    actions_obj = _field(p, "actions", list, where)
    actions: list[Action] = []
    for k, a in enumerate(actions_obj):
        path = f"{where}.actions[{k}]"
        if not isinstance(a, Mapping):
            raise InvalidRecordError(path, "must be an object")
        street = _field(a, "street", str, path)
        kind = _field(a, "action", str, path)
        multiple = a.get("multiple")
        if multiple is not None and not _is_int(multiple):
            raise InvalidRecordError(
                f"{path}.multiple", f"must be an integer, got {quote(multiple)}"
            )
        action = Action(street, kind, multiple)
        legal = game.legal_actions(street, actions)
        if action not in legal:
            options = ", ".join(x.label() for x in legal) or "nothing"
            said = f"{clip(action.label())} on the {clip(street)}"
            raise InvalidRecordError(path, f"{said} is not legal here (legal: {options})")
        actions.append(action)
    return PlayerHand(seat, hole, bets, tuple(actions))
