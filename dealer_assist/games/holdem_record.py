"""A ``holdem`` hand record read, validated and replayed (HAND_RECORD.md "Pot games").

:func:`parse_holdem` checks every field, posts the forced bets, replays the actions through
:class:`~dealer_assist.engine.peer_hand.PeerBetting` (the first action the rules of GAMES.md do
not allow is refused, naming ``actions[i]`` and the rule) and returns the
:class:`~dealer_assist.engine.pot_settle.PotHand` to settle. Every refusal is an
:class:`~dealer_assist.errors.InvalidRecordError` naming the field.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, TypeGuard

from dealer_assist.cards import FULL_DECK, Card, take_cards
from dealer_assist.engine.betting import BET, KINDS, RAISE
from dealer_assist.engine.peer import STRUCTURES, BettingStructure, StreetSpec, Structure
from dealer_assist.engine.peer_hand import PeerBetting
from dealer_assist.engine.pot_settle import NO_RAKE, PotHand
from dealer_assist.errors import ConfigError, IllegalActionError, InvalidRecordError
from dealer_assist.games.holdem import (
    ANTE,
    BIG_BLIND,
    DEFAULT_SETTINGS,
    POST_TYPES,
    SMALL_BLIND,
    HoldemSettings,
    forced_bets,
)
from dealer_assist.games.pot_common import check_whole_chips

if TYPE_CHECKING:  # annotations only, for start-up (games/pot_types.py)
    from dealer_assist.games.pot_types import RecordRules

UNKNOWN = "??"
_BY_TEXT = {str(c): c for c in FULL_DECK}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _int(
    obj: Mapping[str, Any], key: str, path: str, *, low: int, default: int | None = None
) -> int:
    if key not in obj:
        if default is None:
            raise InvalidRecordError(path, "missing")
        return default
    v = obj[key]
    if not _is_int(v) or v < low:
        what = "a positive integer" if low == 1 else f"an integer >= {low}"
        raise InvalidRecordError(path, f"must be {what}, got {v!r}")
    return int(v)


def _int_pair(v: Any) -> TypeGuard[list[int]]:
    """A list of two integers (``blinds``, ``limits``)."""
    if type(v) is list and len(v) == 2 and type(v[0]) is int and type(v[1]) is int:
        return True  # the common case, without the generic checks below
    return isinstance(v, list) and len(v) == 2 and all(_is_int(x) for x in v)


@functools.lru_cache(maxsize=256)
def _structure(
    kind: Structure, first: int, later: int, cap: int | None, chip: int
) -> BettingStructure:
    """The record's betting structure, made once per setting (it is frozen)."""
    return BettingStructure(kind, first, later, cap, chip)


def parse_holdem(obj: Mapping[str, Any], rules: RecordRules) -> PotHand:
    """Validate and replay a ``holdem`` record; returns the finished hand to settle.

    Raises:
        InvalidRecordError: a missing or mistyped field, a card given twice, an action the
            rules do not allow (``actions[3]: raise to 250 is below the minimum raise to
            400``), a hand that stops before it is over (``actions: the hand is not finished``).
    """
    betting = obj.get("betting")
    if betting not in STRUCTURES:
        raise InvalidRecordError("betting", f"must be one of {', '.join(STRUCTURES)}")
    n_seats = obj.get("seats")
    if type(n_seats) is not int or n_seats < 2:
        n_seats = _int(obj, "seats", "seats", low=2)
    if n_seats > rules.max_seats:
        raise InvalidRecordError("seats", f"at most {rules.max_seats}, got {n_seats}")
    button = obj.get("button")
    if type(button) is not int or button < 1:
        button = _int(obj, "button", "button", low=1)
    if button > n_seats:
        raise InvalidRecordError("button", f"must be a seat 1..{n_seats}, got {button}")
    blinds = obj.get("blinds")
    if not _int_pair(blinds):
        raise InvalidRecordError("blinds", f"must be [small, big] integers, got {blinds!r}")
    small, big = int(blinds[0]), int(blinds[1])
    if small < 0 or big <= 0 or small > big:
        raise InvalidRecordError("blinds", f"need 0 <= small <= big and big > 0, got {blinds}")
    ante = obj.get("ante", 0)
    if type(ante) is not int or ante < 0:
        ante = _int(obj, "ante", "ante", low=0, default=0)
    chip = obj.get("chip", 1)
    if type(chip) is not int or chip < 1:
        chip = _int(obj, "chip", "chip", low=1, default=1)
    ante_kind = obj.get("ante_kind")
    if ante_kind not in (None, BIG_BLIND):
        raise InvalidRecordError("ante_kind", f"must be {BIG_BLIND!r} or absent")
    limits = obj.get("limits", [big, 2 * big])
    if not _int_pair(limits):
        raise InvalidRecordError("limits", f"must be [small_bet, big_bet], got {limits!r}")
    try:
        settings = _settings(obj.get("settings", {}))
    except ConfigError as e:
        field, _, why = str(e).partition(": ")
        raise InvalidRecordError(field, why) from e
    cap = settings.max_raises if betting == "fixed_limit" else None
    try:
        first_bet = int(limits[0]) if betting == "fixed_limit" else big
        later_bet = int(limits[1]) if betting == "fixed_limit" else big
        structure = _structure(betting, first_bet, later_bet, cap, chip)
    except ConfigError as e:
        raise InvalidRecordError("limits" if "limits" in obj else "blinds", str(e)) from e

    used: set[str] = set()  # the canonical texts of the cards taken so far
    players = obj.get("players")
    if not isinstance(players, list) or len(players) < 2:
        raise InvalidRecordError("players", "must be a list of at least 2 players")
    stacks: dict[int, int] = {}
    holes: dict[int, tuple[Card, ...] | None] = {}
    where: dict[int, int] = {}
    for i, p in enumerate(players):
        # hot path: the well-formed player checked inline, paths built only on errors
        try:  # a plain dict's subscripts are quicker than get (no __missing__ to differ)
            if type(p) is not dict:
                raise KeyError
            seat, stack, hole = p["seat"], p["stack"], p["hole"]
        except KeyError:
            if type(p) is not dict and not isinstance(p, Mapping):
                raise InvalidRecordError(f"players[{i}]", "must be an object") from None
            seat, stack, hole = p.get("seat"), p.get("stack"), p.get("hole")
        if type(seat) is not int or seat < 1:
            seat = _int(p, "seat", f"players[{i}].seat", low=1)
        if seat > n_seats:
            raise InvalidRecordError(f"players[{i}].seat", f"must be 1..{n_seats}, got {seat}")
        if seat in stacks:
            raise InvalidRecordError(f"players[{i}].seat", f"seat {seat} appears twice")
        if type(stack) is not int or stack < 1:
            stack = _int(p, "stack", f"players[{i}].stack", low=1)
        stacks[seat] = stack
        if type(hole) is list and len(hole) == 2:  # the common case: two new canonical cards
            a, b = hole
            if type(a) is str and type(b) is str and a != b and a not in used and b not in used:
                first, second = _BY_TEXT.get(a), _BY_TEXT.get(b)
                if first is not None and second is not None:
                    used.add(a)
                    used.add(b)
                    holes[seat] = first, second
                    where[seat] = i
                    continue
        holes[seat] = _hole(hole, i, used)
        where[seat] = i
    board = _board(obj.get("board", []), used)

    posts = obj.get("posts")
    if chip != 1 and (
        small % chip
        or big % chip
        or ante % chip
        or posts is not None
        or any([stack % chip for stack in stacks.values()])
    ):
        # the field paths only for a record with something to name
        amounts = {"blinds[0]": small, "blinds[1]": big, "ante": ante}
        amounts.update({f"players[{where[s]}].stack": stacks[s] for s in stacks})
        if isinstance(posts, list):
            amounts.update(
                {
                    f"posts[{i}].amount": p["amount"]
                    for i, p in enumerate(posts)
                    if isinstance(p, Mapping) and _is_int(p.get("amount"))
                }
            )
        check_whole_chips(chip, amounts)
    dead, live, bb_seat = _posts(obj, stacks, button, (small, big), ante, ante_kind == BIG_BLIND)
    hand = PeerBetting(
        list(stacks),
        stacks,
        button,
        rules.streets,
        structure,
        dead=dead,
        live=live,
        big_blind=bb_seat,
        blind=big,
        uncapped_heads_up=settings.no_cap_heads_up,
        blinds_first=ante_kind == BIG_BLIND,
        reopen_by_sum=settings.reopen_by_sum,
    )
    actions = obj.get("actions")
    if not isinstance(actions, list):
        raise InvalidRecordError("actions", "must be a list")
    act = hand.act
    for i, a in enumerate(actions):
        # hot path, inline: the well-formed action checked here, paths built only on errors
        try:  # a plain dict's subscripts are quicker than get (no __missing__ to differ)
            if type(a) is not dict:
                raise KeyError
            street, kind, seat = a["street"], a["action"], a["seat"]
        except KeyError:
            if type(a) is not dict and not isinstance(a, Mapping):
                raise InvalidRecordError(f"actions[{i}]", "must be an object") from None
            street, kind, seat = a.get("street"), a.get("action"), a.get("seat")
        if type(street) is not str and not isinstance(street, str):
            raise InvalidRecordError(
                f"actions[{i}].street", f"must be a street name, got {street!r}"
            )
        if kind not in KINDS:
            raise InvalidRecordError(f"actions[{i}].action", f"must be one of {', '.join(KINDS)}")
        if type(seat) is not int or seat < 1:
            seat = _int(a, "seat", f"actions[{i}].seat", low=1)
        to: int | None = None
        if kind in (BET, RAISE):
            to = a.get("to")
            if type(to) is not int or to < 1:
                to = _int(a, "to", f"actions[{i}].to", low=1)
        try:
            act(street, seat, kind, to)
        except IllegalActionError as e:
            raise InvalidRecordError(f"actions[{i}]", str(e)) from e
    if not hand.is_over:
        raise InvalidRecordError(
            "actions", f"the hand is not finished: seat {hand.actor} is to act on the {hand.street}"
        )
    reached = hand.reached
    needed = _board_needed(rules.streets, reached)
    if len(board) < needed:
        name = rules.streets[reached].name
        raise InvalidRecordError(
            "board", f"the hand reached the {name}: {needed} board cards needed, got {len(board)}"
        )
    live_seats = hand.live()
    mucked = _mucked(obj["mucked"], live_seats) if "mucked" in obj else frozenset()
    if len(live_seats) > 1:
        for s in live_seats:
            if s not in mucked and holes[s] is None:
                raise InvalidRecordError(
                    f"players[{where[s]}].hole", f"seat {s} is in the showdown: two cards needed"
                )
    rake = obj.get("rake")
    percent, rake_cap = read_rake(rake)
    return PotHand(
        rules.code,
        tuple(sorted(stacks)),
        stacks,
        button,
        dict(hand.total),
        frozenset(stacks).difference(live_seats),
        dict(hand.dead),
        holes,
        board,
        mucked,
        chip,
        percent,
        rake_cap,
        flop_seen=reached >= 1 or not settings.no_flop_no_drop,
        ante=0 if ante_kind == BIG_BLIND else ante,
    )


_SETTINGS: dict[tuple[tuple[tuple[str, Any], ...], tuple[type, ...]], HoldemSettings] = {}


def _settings(raw: Any) -> HoldemSettings:
    """:meth:`HoldemSettings.from_json` of the record's ``settings``, remembered for plain
    objects of scalar values (keyed by each value's type too: ``1`` and ``true`` differ)."""
    if type(raw) is not dict:
        return HoldemSettings.from_json(raw)
    if not raw:
        return DEFAULT_SETTINGS
    if not all(type(v) in (bool, int, str) for v in raw.values()):
        return HoldemSettings.from_json(raw)
    key = (tuple(raw.items()), tuple(map(type, raw.values())))
    known = _SETTINGS.get(key)
    if known is None:
        known = HoldemSettings.from_json(raw)  # a refusal raises: never remembered
        if len(_SETTINGS) < 1024:
            _SETTINGS[key] = known
    return known


_NEEDED: dict[tuple[int, int], tuple[Sequence[StreetSpec], int]] = {}


def _board_needed(streets: Sequence[StreetSpec], reached: int) -> int:
    """Board cards dealt up to street ``reached``; a game's streets tuple is read once (by
    identity, as the cache holds it: StreetSpec's hash is slow)."""
    known = _NEEDED.get((id(streets), reached))
    if known is not None and known[0] is streets:
        return known[1]
    needed = sum(s.board for s in streets[: reached + 1])
    if isinstance(streets, tuple) and len(_NEEDED) < 64:
        _NEEDED[(id(streets), reached)] = (streets, needed)
    return needed


def _take(texts: list[Any], used: set[str], field: Callable[[int], str]) -> tuple[Card, ...]:
    """:func:`~dealer_assist.cards.take_cards` for ``used`` kept as canonical texts: the common
    case (each text a canonical card not taken yet) by lookups alone, anything else by
    take_cards itself, so every refusal is its own."""
    out = []
    for text in texts:
        card = _BY_TEXT.get(text) if type(text) is str else None
        if card is None or text in used:
            break
        used.add(text)
        out.append(card)
    else:
        return tuple(out)
    used.difference_update(str(c) for c in out)  # start again the general way
    cards = take_cards(texts, {_BY_TEXT[t] for t in used}, field)
    used.update(str(c) for c in cards)
    return cards


def _hole(texts: Any, i: int, used: set[str]) -> tuple[Card, ...] | None:
    if texts is None:
        return None
    if not isinstance(texts, list) or len(texts) != 2:
        raise InvalidRecordError(f"players[{i}].hole", f"needs exactly 2 cards, got {texts!r}")
    if UNKNOWN in texts:
        return None
    return _take(texts, used, lambda _j: f"players[{i}].hole")


def _board(texts: Any, used: set[str]) -> tuple[Card, ...]:
    if not isinstance(texts, list) or len(texts) > 5:
        raise InvalidRecordError("board", f"must be a list of at most 5 cards, got {texts!r}")
    return _take(texts, used, lambda j: f"board[{j}]")


def _posts(
    obj: Mapping[str, Any],
    stacks: Mapping[int, int],
    button: int,
    blinds: tuple[int, int],
    ante: int,
    ante_by_big: bool,
) -> tuple[dict[int, int], dict[int, int], int | None]:
    """Forced bets: the plain case (:func:`forced_bets`), or the record's ``posts``."""
    posts = obj.get("posts")
    if posts is None:
        return forced_bets(list(stacks), button, blinds, ante, ante_by_big=ante_by_big)
    if not isinstance(posts, list):
        raise InvalidRecordError("posts", "must be a list")
    dead: dict[int, int] = {}
    live: dict[int, int] = {}
    big: int | None = None
    for i, p in enumerate(posts):
        path = f"posts[{i}]"
        if not isinstance(p, Mapping):
            raise InvalidRecordError(path, "must be an object")
        seat = _int(p, "seat", f"{path}.seat", low=1)
        if seat not in stacks:
            raise InvalidRecordError(f"{path}.seat", f"seat {seat} is not dealt in")
        kind = p.get("type")
        if kind not in POST_TYPES:
            raise InvalidRecordError(f"{path}.type", f"must be one of {', '.join(POST_TYPES)}")
        amount = _int(p, "amount", f"{path}.amount", low=0)
        if kind == ANTE:
            dead[seat] = dead.get(seat, 0) + amount
        else:
            live[seat] = live.get(seat, 0) + amount
            if kind == BIG_BLIND and big is None:
                big = seat
    if not any(p.get("type") == ANTE for p in posts) and ante:
        dead = dict.fromkeys(stacks, ante)
    if big is None and not any(p.get("type") == SMALL_BLIND for p in posts):
        raise InvalidRecordError("posts", "no blind posted")
    return dead, live, big


def _mucked(seats: Any, live: list[int]) -> frozenset[int]:
    if not isinstance(seats, list) or not all(_is_int(s) for s in seats):
        raise InvalidRecordError("mucked", "must be a list of seats")
    for s in seats:
        if s not in live or len(live) < 2:
            raise InvalidRecordError("mucked", f"seat {s} was not in a showdown")
    return frozenset(seats)


def read_rake(rake: Any) -> tuple[Fraction, int | None]:
    """A record's ``rake`` (``{percent, cap}``, HAND_RECORD.md; None: no rake) as the exact
    percentage and the cap in chips (None: no cap).

    Raises:
        InvalidRecordError: not an object, a percentage outside 0..100, a cap not a whole
            number >= 0 (naming ``rake.percent`` / ``rake.cap``).
    """
    if rake is None:
        return NO_RAKE, None
    if type(rake) is not dict and not isinstance(rake, Mapping):
        raise InvalidRecordError("rake", "must be an object {percent, cap}")
    percent = rake.get("percent", 0)
    if isinstance(percent, bool) or not isinstance(percent, int | float) or not 0 <= percent <= 100:
        raise InvalidRecordError("rake.percent", f"must be a number 0..100, got {percent!r}")
    cap = rake.get("cap")
    if cap is not None and not (_is_int(cap) and int(cap) >= 0):
        raise InvalidRecordError("rake.cap", f"must be an integer >= 0, got {cap!r}")
    exact = _PERCENTS.get((type(percent), percent))
    if exact is None:
        exact = Fraction(str(percent))
        if len(_PERCENTS) < 1024:
            _PERCENTS[(type(percent), percent)] = exact
    return exact, cap


_PERCENTS: dict[tuple[type, float], Fraction] = {}
"""Rake percentages already read (``Fraction(str(p))``: 2.5 is exactly 5/2)."""
