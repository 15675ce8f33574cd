"""A ``holdem`` hand record as a PHH hand history, and PHH text (``.phh``, ``.phhs``).

PHH (Poker Hand History, phh.readthedocs.io, spec 0.0.1) is TOML: required fields ``variant``,
``antes``, ``blinds_or_straddles``, ``min_bet`` (no/pot limit) or ``small_bet``/``big_bet``
(fixed limit), ``starting_stacks``, ``actions``; optional ones (``seats``, ``seat_count``,
``table``, ``hand``, ``time``, ``finishing_stacks`` ...); user-defined fields start with ``_``.

Players are listed clockwise from the first seat after the button (p1 the small blind, the last
the button); PHH writes heads-up forced bets reversed (``[small, big]`` means the button posts
the small blind). ``cbr`` amounts are the player's total in the street, as our ``to``.

What PHH has no field for goes in user-defined fields, so that record -> PHH -> record settles
the same (docs/PHH.md): ``_chip``, ``_rake``, ``_settings``, ``_posts`` with ``_blinds``,
``_button`` (dead button), ``_board`` (board cards beyond those dealt in the actions).
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

import tomli_w

from dealer_assist.engine.betting import BET, CALL, CHECK, FOLD, RAISE
from dealer_assist.engine.pots import after_button
from dealer_assist.errors import InvalidRecordError
from dealer_assist.games.holdem import ANTE, BIG_BLIND, STREETS, forced_bets
from dealer_assist.games.stud import CODE as STUD
from dealer_assist.interchange.phh_common import (
    UNKNOWN_HOLE,
    add_metadata,
    sorted_fields,
    write_unanswerable_raises,
)
from dealer_assist.interchange.phh_stud import stud_to_phh
from dealer_assist.record import settle_record

VARIANTS = {"no_limit": "NT", "pot_limit": "PT", "fixed_limit": "FT"}
"""Betting structure -> PHH variant code. ``NT`` and ``FT`` are PHH's (spec "Variant code");
PHH 0.0.1 has no pot-limit Texas hold'em: ``PT`` follows its naming (``PO`` is pot-limit
Omaha) and readers that know only the listed codes (pokerkit) refuse it."""

PHH_CODES = {FOLD: "f", CHECK: "cc", CALL: "cc", BET: "cbr", RAISE: "cbr"}


def player_order(seats: Iterable[int], button: int) -> list[int]:
    """PHH's player order: the seats clockwise from the first after ``button`` (spec
    "Position": p1 the small blind, the last player the button)."""
    return after_button(list(seats), button)


def forced_slot(index: int, players: int) -> int:
    """Where player ``index`` (0-based) stands in ``antes`` / ``blinds_or_straddles``: the same
    index, reversed heads-up (spec "Antes", "Blinds or Straddles": reversed for two players)."""
    return 1 - index if players == 2 else index


def record_to_phh(
    record: Mapping[str, Any],
    settlement: Mapping[str, Any] | None = None,
    *,
    hand_id: int | str | None = None,
    table: str | int | None = None,
    time: datetime | None = None,
) -> dict[str, Any]:
    """One ``holdem`` hand record as a PHH hand (a dict ready for :func:`dumps_phh`); a
    ``stud`` record goes to :func:`~dealer_assist.interchange.phh_stud.stud_to_phh`.

    ``settlement`` (HAND_RECORD.md) gives ``finishing_stacks`` and ``winnings``; without it the
    record is settled here. ``hand_id`` -> ``hand``, ``table`` -> ``table``, ``time`` (UTC-aware)
    -> ``time`` (local time of day), ``day``, ``month``, ``year`` with ``time_zone = "UTC"``.

    Raises:
        InvalidRecordError: the record does not settle (naming its field), or a ``time`` without
            a timezone.
    """
    if record.get("game") == STUD:
        return stud_to_phh(record, settlement, hand_id=hand_id, table=table, time=time)
    computed = settle_record(dict(record))  # validates every field the mapping reads below
    if settlement is None:
        settlement = computed
    if computed["game"] != record.get("game"):
        raise InvalidRecordError("game", "not a pot game")
    seats = [int(p["seat"]) for p in record["players"]]
    button = int(record["button"])
    order = player_order(seats, button)
    index = {seat: i for i, seat in enumerate(order)}
    by_seat = {int(p["seat"]): p for p in record["players"]}
    blinds = [int(b) for b in record["blinds"]]
    dead, live = _forced(record, seats, button, blinds)
    antes, posted = _forced_arrays(record, order, dead, live)
    betting = record["betting"]
    phh: dict[str, Any] = {
        "variant": VARIANTS[betting],
        "antes": antes,
        "blinds_or_straddles": posted,
    }
    if betting == "fixed_limit":
        limits = record.get("limits", [blinds[1], 2 * blinds[1]])
        phh["small_bet"], phh["big_bet"] = int(limits[0]), int(limits[1])
    else:
        phh["min_bet"] = blinds[1]
    if _layered_antes(record, antes):
        # uniform antes are layered with the rest of the chips (pots.py), pokerkit's trimming
        # mode; PHH's default (false) is every ante dead money of the main pot
        phh["ante_trimming_status"] = True
    phh["starting_stacks"] = [int(by_seat[s]["stack"]) for s in order]
    actions, dealt_board = _actions(record, order, index, by_seat)
    phh["actions"] = actions
    write_unanswerable_raises(phh)
    add_metadata(
        phh, order, int(record["seats"]), settlement, hand_id=hand_id, table=table, time=time
    )
    phh.update(_user_fields(record, button, order, dealt_board))
    return phh


def _forced(
    record: Mapping[str, Any], seats: list[int], button: int, blinds: list[int]
) -> tuple[dict[int, int], dict[int, int]]:
    """Dead (antes) and live (blinds) forced bets per seat, as the record posts them."""
    ante = int(record.get(ANTE, 0))
    posts = record.get("posts")
    if posts is None:
        by_big = record.get("ante_kind") == BIG_BLIND
        dead, live, _big = forced_bets(
            seats, button, (blinds[0], blinds[1]), ante, ante_by_big=by_big
        )
        return dead, live
    dead, live = {}, {}
    for p in posts:
        target = dead if p["type"] == ANTE else live
        target[int(p["seat"])] = target.get(int(p["seat"]), 0) + int(p["amount"])
    if not dead and ante:
        dead = dict.fromkeys(seats, ante)
    return dead, live


def _forced_arrays(
    record: Mapping[str, Any], order: list[int], dead: Mapping[int, int], live: Mapping[int, int]
) -> tuple[list[int], list[int]]:
    """PHH's ``antes`` and ``blinds_or_straddles`` (player order, reversed heads-up).

    ``blinds_or_straddles`` holds the live posts of the two blind positions only: PHH readers
    take any other entry as a straddle, which acts last before the flop. Any other live post (a
    new player's or a missed big blind) is one the poster's first action completes: a call or
    a check is written ``cc``, a raise ``cbr TO``, and leaving it out of the forced bets moves
    the same chips. Only when the poster never adds to it (folds first, or is all-in by the
    post) is it written as that player's ante: dead chips, as they end up. Dead posts (type
    ``ante``: a dead small blind) are antes.
    """
    n = len(order)
    antes, posted = [0] * n, [0] * n
    for i, seat in enumerate(order):
        antes[forced_slot(i, n)] = dead.get(seat, 0)
        if i < 2 or n == 2:
            posted[forced_slot(i, n)] = live.get(seat, 0)
        elif live.get(seat) and not _completes_post(record, seat):
            antes[i] += live[seat]
    return antes, posted


def _completes_post(record: Mapping[str, Any], seat: int) -> bool:
    """Whether ``seat``'s first action before the flop is a check, call, bet or raise."""
    first = next((a for a in record["actions"] if int(a["seat"]) == seat), None)
    return first is not None and first["street"] == STREETS[0].name and first["action"] != FOLD


def _layered_antes(record: Mapping[str, Any], antes: Sequence[int]) -> bool:
    """Whether the hand's antes are all the record's uniform ante: layered with each player's
    other chips by our pots, which PHH calls ``ante_trimming_status = true``. A big-blind ante
    and dead posts are dead money of the main pot (PHH's default)."""
    ante = int(record.get(ANTE, 0))
    return ante > 0 and record.get("ante_kind") != BIG_BLIND and all(a == ante for a in antes)


def _cards(cards: Sequence[str] | None) -> str:
    return UNKNOWN_HOLE if cards is None else "".join(cards)


def _actions(
    record: Mapping[str, Any],
    order: list[int],
    index: Mapping[int, int],
    by_seat: Mapping[int, Mapping[str, Any]],
) -> tuple[list[str], int]:
    """PHH actions: hole cards, the betting with each street's board, the showdown; and how
    many board cards they deal."""
    out = [f"d dh p{index[s] + 1} {_cards(by_seat[s].get('hole'))}" for s in order]
    names = [s.name for s in STREETS]
    board = list(record.get("board", []))
    dealt = 0
    street = 0

    def deal_to(target: int) -> None:
        nonlocal dealt, street
        while street < target:
            street += 1
            count = STREETS[street].board
            out.append("d db " + "".join(board[dealt : dealt + count]))
            dealt += count

    folded: set[int] = set()
    for a in record["actions"]:
        deal_to(names.index(a["street"]))
        code = PHH_CODES[a["action"]]
        text = f"p{index[int(a['seat'])] + 1} {code}"
        out.append(f"{text} {a['to']}" if code == "cbr" else text)
        if a["action"] == FOLD:
            folded.add(int(a["seat"]))
    live = [s for s in order if s not in folded]
    if len(live) > 1:
        mucked = set(record.get("mucked", []))
        shows = []
        for s in showdown_order(record["actions"], live):
            hole = by_seat[s].get("hole")
            shown = s not in mucked and hole is not None and "??" not in hole
            shows.append(f"p{index[s] + 1} sm" + (f" {_cards(hole)}" if shown else ""))
        # after an all-in before the river, PHH shows the hands before the run-out (pokerkit)
        out += shows
        deal_to(len(STREETS) - 1)
    return out, dealt


def showdown_order(actions: Sequence[Mapping[str, Any]], live: Sequence[int]) -> list[int]:
    """The seats still in (``live``, PHH order: clockwise from the first after the button) in
    the order they show (GAMES.md "Showdown order"): the last to bet or raise in the final
    betting round first, else the first after the button; then clockwise."""
    if not actions:
        return list(live)
    final = actions[-1]["street"]
    aggressors = [
        int(a["seat"])
        for a in actions
        if a["street"] == final and a["action"] in (BET, RAISE) and int(a["seat"]) in live
    ]
    if not aggressors:
        return list(live)
    k = list(live).index(aggressors[-1])
    return [*live[k:], *live[:k]]


def _user_fields(
    record: Mapping[str, Any], button: int, order: list[int], dealt_board: int
) -> dict[str, Any]:
    """The record's fields PHH has no field for (spec "User-defined Fields": ``_`` prefix)."""
    extra: dict[str, Any] = {}
    if "chip" in record:
        extra["_chip"] = int(record["chip"])
    if record.get("rake") is not None:
        extra["_rake"] = {k: v for k, v in sorted_fields(record["rake"]).items() if v is not None}
    if record.get("settings"):
        extra["_settings"] = sorted_fields(record["settings"])
    if record.get("posts") is not None:
        extra["_posts"] = [sorted_fields(p) for p in record["posts"]]
        extra["_blinds"] = [int(b) for b in record["blinds"]]
    if button != order[-1]:
        extra["_button"] = button
    board = list(record.get("board", []))
    if len(board) > dealt_board:
        extra["_board"] = board
    return extra


# -- text ---------------------------------------------------------------------------------------


def dumps_phh(phh: Mapping[str, Any]) -> str:
    """One hand as ``.phh`` text (TOML, written by tomli-w; keys whose value is None left out)."""
    return tomli_w.dumps({k: v for k, v in phh.items() if v is not None})


def dumps_phhs(hands: Iterable[Mapping[str, Any]]) -> str:
    """Hands as ``.phhs`` text: TOML tables ``[1]``, ``[2]`` ... in the order given."""
    doc = {str(i): {k: v for k, v in h.items() if v is not None} for i, h in enumerate(hands, 1)}
    return tomli_w.dumps(doc)


def loads_phh_text(text: str, name: str = "<text>") -> dict[str, dict[str, Any]]:
    """``.phh`` or ``.phhs`` text -> hands by name: a single hand (it has ``variant`` at the top
    level) under ``name``, the tables of a ``.phhs`` under ``name[KEY]``.

    Raises:
        InvalidRecordError: not TOML (field ``name``, the parser's line and column), or a
            ``.phhs`` entry that is not a table.
    """
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InvalidRecordError(name, f"not TOML: {e}") from e
    if "variant" in doc:
        return {name: doc}
    hands: dict[str, dict[str, Any]] = {}
    for key, value in doc.items():
        if not isinstance(value, dict):
            raise InvalidRecordError(f"{name}[{key}]", "not a hand (a .phhs holds tables)")
        hands[f"{name}[{key}]"] = value
    if not hands:
        raise InvalidRecordError(name, "no hand: neither a variant nor any [N] table")
    return hands
