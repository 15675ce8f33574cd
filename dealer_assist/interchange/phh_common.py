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
