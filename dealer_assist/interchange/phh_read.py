"""A PHH hand history (spec 0.0.1, phh.readthedocs.io) as a ``holdem`` (or ``stud``) hand record.

:func:`phh_to_record` reads the fields of one hand (a dict from
:func:`~dealer_assist.interchange.phh.loads_phh_text`), builds the record of HAND_RECORD.md
"Pot games" and settles it once: an action our rules (GAMES.md) refuse is reported against the
PHH action it came from (``actions[7] 'p2 cbr 300': raise to 300 is below ...``).

Variants ``NT``, ``PT``, ``FT`` (:data:`~dealer_assist.interchange.phh.VARIANTS`); Seven Card
Stud ``F7S``, ``P7S``, ``N7S`` by :mod:`~dealer_assist.interchange.phh_stud_read`. Amounts
must be whole units (an integral float such as ``3.0`` is taken as 3). In Hold'em straddles,
bring-ins, draws and ``min_bet`` other than the big blind are refused: GAMES.md has none.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import Any

from dealer_assist.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from dealer_assist.errors import InvalidRecordError
from dealer_assist.games.holdem import ANTE, BIG_BLIND, CODE, SMALL_BLIND, STREETS, forced_bets
from dealer_assist.interchange.phh import VARIANTS, forced_slot, player_order
from dealer_assist.interchange.phh_common import amount as _amount
from dealer_assist.interchange.phh_common import money as _money
from dealer_assist.interchange.phh_common import numbers as _numbers
from dealer_assist.interchange.phh_common import read_unanswerable_raises
from dealer_assist.interchange.phh_common import whole as _whole
from dealer_assist.interchange.phh_stud_read import STUD_BETTING, convert_stud
from dealer_assist.record import settle_record

BETTING = {code: betting for betting, code in VARIANTS.items()}
UNKNOWN = "??"


def phh_to_record(phh: Mapping[str, Any], unit: Decimal | None = None) -> dict[str, Any]:
    """The hand record of one PHH hand, checked by settling it (HAND_RECORD.md "Pot games").

    Players keep their PHH ``seats`` (1..n when absent), the button is the last player (or the
    user field ``_button``); ``seat_count`` gives the record's ``seats``.

    ``unit``: what one unit of the record is worth in the file's amounts (``Decimal("0.01")``:
    a file in euros with cents, ``200.3`` -> 20030); None: the file's amounts are the units.
    An amount that is not a whole number of ``unit`` is refused.

    Raises:
        InvalidRecordError: naming the PHH field (``antes``, ``actions[4]`` ...) and the reason;
            a record field (``p2.hole``: the second PHH player) when the settlement refuses one.
    """
    record, origin, texts = _convert(read_unanswerable_raises(phh), unit)
    try:
        settle_record(record)
    except InvalidRecordError as e:
        field = e.field
        if field.startswith("actions[") and "]" in field:
            i = int(field[len("actions[") : field.index("]")])
            if i < len(origin):
                k = origin[i]
                raise InvalidRecordError(f"actions[{k}]", f"{texts[k]!r}: {e.reason}") from e
        if field.startswith("players[") and "]" in field:
            i = int(field[len("players[") : field.index("]")])
            field = f"p{i + 1}" + field[field.index("]") + 1 :]
        raise InvalidRecordError(field, e.reason) from e
    return record


def _convert(
    phh: Mapping[str, Any], unit: Decimal | None
) -> tuple[dict[str, Any], list[int], list[str]]:
    """The record, the PHH action index of each record action, and the PHH action texts."""
    if not isinstance(phh, Mapping):
        raise InvalidRecordError("hand", "must be a TOML table")
    variant = phh.get("variant")
    if variant in STUD_BETTING:
        return convert_stud(phh, unit)
    if variant not in BETTING:
        known = ", ".join([*BETTING, *STUD_BETTING])
        raise InvalidRecordError("variant", f"must be one of {known}, got {variant!r}")
    betting = BETTING[variant]
    stacks = _numbers(phh, "starting_stacks", None, 1, unit)
    n = len(stacks)
    if n < 2:
        raise InvalidRecordError("starting_stacks", "at least 2 players")
    antes = _numbers(phh, "antes", n, 0, unit)
    blinds = _numbers(phh, "blinds_or_straddles", n, 0, unit)
    seats = _numbers(phh, "seats", n, 1) if "seats" in phh else list(range(1, n + 1))
    if len(set(seats)) != n:
        raise InvalidRecordError("seats", f"a seat appears twice: {seats}")
    button = _whole(phh.get("_button", seats[-1]), "_button", 1)
    if player_order(seats, button) != seats:
        raise InvalidRecordError(
            "seats", f"{seats} is not clockwise from the first seat after the button {button}"
        )
    seat_count = _whole(phh.get("seat_count", max(seats)), "seat_count", 1)
    # per player (PHH order): the forced bets, un-reversed heads-up
    ante_of = [antes[forced_slot(j, n)] for j in range(n)]
    blind_of = [blinds[forced_slot(j, n)] for j in range(n)]
    record: dict[str, Any] = {"game": CODE, "betting": betting, "seats": seat_count}
    record["button"] = button
    record.update(_forced(phh, seats, button, ante_of, blind_of))
    if "posts" in record and "_posts" in phh:  # ours: the posts as made (see phh._forced_arrays)
        ante_of, blind_of = _posted(record["posts"], seats, int(record.get(ANTE, 0)))
    big = record["blinds"][1]
    if betting == "fixed_limit":
        record["limits"] = [_money(phh.get(k), k, 1, unit) for k in ("small_bet", "big_bet")]
    elif _money(phh.get("min_bet"), "min_bet", 1, unit) != big:
        raise InvalidRecordError(
            "min_bet", f"must be the big blind {big} (GAMES.md: the smallest bet is the big blind)"
        )
    for key, field in (("_chip", "chip"), ("_rake", "rake"), ("_settings", "settings")):
        if key in phh:
            record[field] = phh[key]
    holes: list[list[str] | None] = [None] * n
    board: list[str] = []
    actions: list[dict[str, Any]] = []
    mucked: list[int] = []
    origin: list[int] = []
    texts = phh.get("actions")
    if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
        raise InvalidRecordError("actions", "must be a list of strings")
    track = _Tracker(stacks, ante_of, blind_of, big)
    names = [s.name for s in STREETS]
    for k, text in enumerate(texts):
        path = f"actions[{k}]"
        words = text.split("#", 1)[0].split()
        if not words:
            continue  # a no-op or a commentary
        if words[0] == "d":
            if len(words) == 4 and words[1] == "dh":
                j = _player(words[2], n, path)
                cards = _card_texts(words[3], 2, path)
                holes[j] = None if cards == [UNKNOWN, UNKNOWN] else cards
            elif len(words) == 3 and words[1] == "db":
                if track.street + 1 >= len(STREETS):
                    raise InvalidRecordError(path, f"{text!r}: no street is left to deal")
                track.next_street()
                cards = _card_texts(words[2], STREETS[track.street].board, path)
                if UNKNOWN in cards:
                    raise InvalidRecordError(path, f"{text!r}: a board card must be known")
                board += cards
            else:
                raise InvalidRecordError(path, f"{text!r}: not a dealing of hold'em")
            continue
        j = _player(words[0], n, path)
        op = words[1:]
        if op == ["f"]:
            kind, to = FOLD, None
        elif op == ["cc"]:
            kind, to = (CHECK if track.owed(j) == 0 else CALL), None
        elif len(op) == 2 and op[0] == "cbr":
            to = _money(_amount(op[1], path, unit), path, 1, unit)
            kind = BET if track.high == 0 else RAISE
        elif op and op[0] == "sm":
            _show(op[1:], j, holes, mucked, seats, path, text)
            continue
        else:
            raise InvalidRecordError(path, f"{text!r}: not an action of hold'em (f, cc, cbr, sm)")
        track.act(j, kind, to)
        action: dict[str, Any] = {"street": names[track.street], "seat": seats[j], "action": kind}
        if to is not None:
            action["to"] = to
        actions.append(action)
        origin.append(k)
    record["players"] = [{"seat": seats[j], "stack": stacks[j], "hole": holes[j]} for j in range(n)]
    record["board"] = list(phh["_board"]) if "_board" in phh else board
    record["actions"] = actions
    if mucked:
        record["mucked"] = mucked
    return record, origin, [str(t) for t in texts]


def _forced(
    phh: Mapping[str, Any], seats: list[int], button: int, ante_of: list[int], blind_of: list[int]
) -> dict[str, Any]:
    """``blinds``, ``ante`` (``ante_kind``) of the plain case when they give the PHH's forced
    bets exactly, else ``posts``; the user fields ``_posts``/``_blinds`` when present."""
    n = len(seats)
    if "_posts" in phh:
        return {"blinds": list(phh.get("_blinds", [0, max(blind_of)])), "posts": phh["_posts"]}
    nonzero = [j for j in range(n) if blind_of[j]]
    if not nonzero:
        raise InvalidRecordError("blinds_or_straddles", "no blind posted")
    if any(forced_slot(j, n) > 1 for j in nonzero):
        raise InvalidRecordError("blinds_or_straddles", "straddles are not supported (GAMES.md)")
    small_j, big_j = (1, 0) if n == 2 else (0, 1)
    small, big = blind_of[small_j], blind_of[big_j]
    dead = {seats[j]: a for j, a in enumerate(ante_of) if a}
    live = {seats[j]: b for j, b in enumerate(blind_of) if b}
    for ante, by_big in ((ante_of[0], False), (ante_of[big_j], True)):
        if 0 <= small <= big and big > 0:
            got = forced_bets(seats, button, (small, big), ante, ante_by_big=by_big)
            if (got[0], got[1]) == (dead, live):
                out: dict[str, Any] = {"blinds": [small, big], ANTE: ante}
                return out | ({"ante_kind": BIG_BLIND} if by_big and ante else {})
    top = max(blind_of)
    big_seat = seats[blind_of.index(top)]
    posts = [{"seat": s, "type": ANTE, "amount": a} for s, a in dead.items()]
    for s, b in live.items():
        posts.append({"seat": s, "type": BIG_BLIND if s == big_seat else SMALL_BLIND, "amount": b})
    others = [b for s, b in live.items() if s != big_seat]
    return {"blinds": [min(others, default=0), top], ANTE: 0, "posts": posts}


def _posted(posts: Any, seats: list[int], ante: int) -> tuple[list[int], list[int]]:
    """Dead and live forced bets per player (PHH order) of the user field ``_posts``.

    Raises:
        InvalidRecordError: ``_posts`` is not a list of posts of dealt seats.
    """
    dead, live = [0] * len(seats), [0] * len(seats)
    if not isinstance(posts, list):
        raise InvalidRecordError("_posts", "must be a list of posts")
    for i, p in enumerate(posts):
        if not isinstance(p, Mapping) or p.get("seat") not in seats:
            raise InvalidRecordError(f"_posts[{i}]", "must be a post of a seat dealt in")
        j = seats.index(p["seat"])
        amount = _whole(p.get("amount"), f"_posts[{i}].amount", 0)
        if p.get("type") == ANTE:
            dead[j] += amount
        else:
            live[j] += amount
    if ante and not any(isinstance(p, Mapping) and p.get("type") == ANTE for p in posts):
        dead = [ante] * len(seats)
    return dead, live


def _player(word: str, n: int, path: str) -> int:
    if len(word) < 2 or word[0] != "p" or not word[1:].isdigit() or not 1 <= int(word[1:]) <= n:
        raise InvalidRecordError(path, f"{word!r} is not a player p1..p{n}")
    return int(word[1:]) - 1


def _card_texts(word: str, count: int, path: str) -> list[str]:
    if len(word) != 2 * count:
        raise InvalidRecordError(path, f"{word!r}: {count} cards expected")
    return [word[i : i + 2] for i in range(0, len(word), 2)]


def _show(
    args: Sequence[str],
    j: int,
    holes: list[list[str] | None],
    mucked: list[int],
    seats: list[int],
    path: str,
    text: str,
) -> None:
    """``pN sm`` mucks; ``pN sm CARDS`` shows (the cards replace unknown ones dealt); ``-``
    shows the cards already dealt. A hand shown only in part gives up the pot, as a muck."""
    hole = holes[j]
    if not args:
        mucked.append(seats[j])
        return
    if args != ["-"]:
        shown = _card_texts(args[0], 2, path)
        if hole is not None and UNKNOWN not in hole and hole != shown:
            raise InvalidRecordError(path, f"{text!r}: shows other cards than those dealt {hole}")
        holes[j] = hole = shown
    if hole is None or UNKNOWN in hole:
        mucked.append(seats[j])


class _Tracker:
    """Just enough of the betting to tell a check from a call and a bet from a raise (the
    record's action words); the rules themselves are applied when the record is settled."""

    def __init__(self, stacks: list[int], antes: list[int], blinds: list[int], big: int) -> None:
        self.left = [max(0, s - a) for s, a in zip(stacks, antes, strict=True)]
        self.bets = [min(b, left) for b, left in zip(blinds, self.left, strict=True)]
        self.left = [left - b for left, b in zip(self.left, self.bets, strict=True)]
        self.high = max([big, *self.bets])
        self.street = 0

    def owed(self, j: int) -> int:
        return max(0, self.high - self.bets[j])

    def next_street(self) -> None:
        self.street += 1
        self.bets = [0] * len(self.bets)
        self.high = 0

    def act(self, j: int, kind: str, to: int | None) -> None:
        if kind == CALL:
            moved = min(self.owed(j), self.left[j])
        elif to is not None:
            moved = max(0, min(to - self.bets[j], self.left[j]))
            self.high = max(self.high, to)
        else:
            moved = 0
        self.left[j] -= moved
        self.bets[j] += moved
