"""What the Hold'em and Stud PHH mappings share: the hand's metadata and end stacks.

PHH (spec 0.0.1) optional fields ``hand``, ``table``, ``time``/``day``/``month``/``year`` with
``time_zone``, ``seats``, ``seat_count``, ``players``, ``finishing_stacks``, ``winnings``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from dealer_assist.errors import InvalidRecordError

UNKNOWN_HOLE = "????"
UNKNOWN_CARD = "??"


def sorted_fields(mapping: Mapping[str, Any]) -> dict[str, Any]:
    """``mapping`` (a record's settings, rake, a post) with its keys in sorted order: a
    user-defined field's table is written the same whatever order the record was built in (a
    journal's stored JSON, the fold of the hand's operations)."""
    return {k: mapping[k] for k in sorted(mapping)}


def add_metadata(
    phh: dict[str, Any],
    order: Sequence[int],
    seat_count: int,
    settlement: Mapping[str, Any],
    *,
    hand_id: int | str | None,
    table: str | int | None,
    time: datetime | None,
) -> None:
    """Add to ``phh`` the optional fields of one hand: ``hand``, ``table``, the UTC time
    (``time`` local time of day, ``day``, ``month``, ``year``, ``time_zone = "UTC"``), the
    players in PHH order (``seats``, ``players``), ``seat_count``, and from ``settlement``
    (HAND_RECORD.md) ``finishing_stacks`` and ``winnings``.

    Raises:
        InvalidRecordError: a ``time`` without a timezone.
    """
    if hand_id is not None:
        phh["hand"] = hand_id
    if table is not None:
        phh["table"] = table
    if time is not None:
        if time.tzinfo is None:
            raise InvalidRecordError("time", "must be timezone-aware (UTC)")
        utc = time.astimezone(UTC)
        phh.update(time=utc.time().replace(tzinfo=None), time_zone="UTC")
        phh.update(day=utc.day, month=utc.month, year=utc.year)
    phh["seats"] = list(order)
    phh["seat_count"] = int(seat_count)
    phh["players"] = [f"Seat {s}" for s in order]
    ends = {int(s["seat"]): s for s in settlement["seats"]}
    phh["finishing_stacks"] = [int(ends[s]["stack"]) for s in order]
    phh["winnings"] = [int(ends[s]["won"]) for s in order]


# -- amounts of a file ------------------------------------------------------------------------


def whole(value: Any, path: str, low: int) -> int:
    """``value`` as an integer >= ``low`` (an integral float such as ``3.0`` is taken as 3).

    Raises:
        InvalidRecordError: at ``path``, not a whole number or below ``low``.
    """
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRecordError(path, f"must be a whole number of units, got {value!r}")
    if value < low:
        raise InvalidRecordError(path, f"must be >= {low}, got {value}")
    return value


def money(value: Any, path: str, low: int, unit: Decimal | None) -> int:
    """An amount of the file as a whole number of the record's units (``unit`` each; None:
    the file's amounts are the units).

    Raises:
        InvalidRecordError: at ``path``, not a whole number of ``unit``, or below ``low``.
    """
    if unit is None or isinstance(value, bool) or not isinstance(value, int | float | Decimal):
        return whole(value, path, low)
    exact = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
    if not exact.is_finite():
        raise InvalidRecordError(path, f"must be a number, got {value!r}")
    units = exact / unit
    if units != units.to_integral_value():
        raise InvalidRecordError(path, f"must be a whole number of units of {unit}, got {value!r}")
    return whole(int(units), path, low)


def numbers(
    phh: Mapping[str, Any], key: str, n: int | None, low: int, unit: Decimal | None = None
) -> list[int]:
    """The list ``phh[key]`` of ``n`` amounts (any length when None), each by :func:`money`.

    Raises:
        InvalidRecordError: at ``key``, not a list of ``n``; at ``key[i]``, a bad amount.
    """
    values = phh.get(key)
    if not isinstance(values, list) or (n is not None and len(values) != n):
        size = "a list" if n is None else f"a list of {n} numbers (one per player)"
        raise InvalidRecordError(key, f"must be {size}, got {values!r}")
    return [money(v, f"{key}[{i}]", low, unit) for i, v in enumerate(values)]


def amount(word: str, path: str, unit: Decimal | None = None) -> int | float | Decimal:
    """An action's amount text as a number (a Decimal when reading with a ``unit``).

    Raises:
        InvalidRecordError: at ``path``, not a number.
    """
    if unit is not None:
        try:
            return Decimal(word)
        except InvalidOperation:
            raise InvalidRecordError(path, f"{word!r} is not an amount") from None
    try:
        return int(word)
    except ValueError:
        try:
            return float(word)
        except ValueError:
            raise InvalidRecordError(path, f"{word!r} is not an amount") from None


# -- raises nobody can answer in full ---------------------------------------------------------

RAISES = "_raises"
"""User field: ``[[k, TO], ...]``, the PHH actions ``k`` written ``pN cc`` that were raises to
``TO`` nobody could answer in full (:func:`write_unanswerable_raises`)."""


def write_unanswerable_raises(phh: dict[str, Any]) -> None:
    """Rewrite as a call each ``cbr`` that no other player still in can answer beyond the bet
    it raises (every one all-in, or able only to call it for less), and list them in
    :data:`RAISES`.

    GAMES.md "A betting round": such a raise is legal and the part nobody called goes back to
    the raiser, so it moves the chips of a call; PHH readers (pokerkit) refuse it ("no reason
    to complete, bet, or raise"). The chips are followed as PHH readers see them: ``antes``,
    then ``blinds_or_straddles`` (Hold'em) or ``pN pb`` (``bring_in``), a deal after a player's
    action starting a street.
    """
    n = len(phh["starting_stacks"])
    antes, blinds = phh["antes"], phh.get("blinds_or_straddles", [0] * n)
    if n == 2:  # the forced bets' arrays are reversed heads-up (spec "Antes")
        antes, blinds = antes[::-1], blinds[::-1]
    left = [max(0, s - a) for s, a in zip(phh["starting_stacks"], antes, strict=True)]
    bets = [min(b, x) for b, x in zip(blinds, left, strict=True)]
    left = [x - b for x, b in zip(left, bets, strict=True)]
    folded: set[int] = set()
    acted = False
    rewritten: list[list[int]] = []
    actions = list(phh["actions"])
    for k, text in enumerate(actions):
        words = text.split("#", 1)[0].split()
        if not words:
            continue
        if words[0] == "d":
            if acted:
                bets, acted = [0] * n, False
            continue
        j = int(words[0][1:]) - 1
        op = words[1:]
        acted = True
        if op == ["f"]:
            folded.add(j)
            continue
        high = max(bets)
        if op == ["cc"]:
            to = high
        elif op == ["pb"]:
            to = int(phh["bring_in"])
        elif op[:1] == ["cbr"]:
            to = int(op[1])
            others = (i for i in range(n) if i != j and i not in folded)
            if high > 0 and not any(left[i] + bets[i] > high for i in others):
                actions[k] = f"p{j + 1} cc # raise to {to}: nobody can answer it in full"
                rewritten.append([k, to])
                to = high
        else:
            continue  # a show or a muck
        moved = max(0, min(to - bets[j], left[j]))
        left[j] -= moved
        bets[j] += moved
    if rewritten:
        phh["actions"] = actions
        phh[RAISES] = rewritten


def read_unanswerable_raises(phh: Mapping[str, Any]) -> Mapping[str, Any]:
    """``phh`` with the raises of :data:`RAISES` as made (``pN cbr TO``), for our reader.

    Raises:
        InvalidRecordError: ``_raises`` is not a list of ``[k, TO]`` naming ``pN cc`` actions.
    """
    marks = phh.get(RAISES)
    if marks is None:
        return phh
    actions = phh.get("actions")
    if not isinstance(marks, list) or not isinstance(actions, list):
        raise InvalidRecordError(RAISES, "must be a list of [action index, to]")
    actions = list(actions)
    for i, mark in enumerate(marks):
        words: list[str] = []
        pair = isinstance(mark, list) and len(mark) == 2 and all(type(v) is int for v in mark)
        if pair and 0 <= mark[0] < len(actions):
            words = str(actions[mark[0]]).split("#", 1)[0].split()
        if len(words) != 2 or words[1] != "cc":
            raise InvalidRecordError(
                f"{RAISES}[{i}]", f"must be [index of a 'pN cc', to], got {mark!r}"
            )
        actions[mark[0]] = f"{words[0]} cbr {mark[1]}"
    return {**phh, "actions": actions}
