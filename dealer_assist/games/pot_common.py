"""Small readers shared by the pot games (Hold'em, Stud): named settings from a record or a
table file, and the keys of a table's ``[poker]`` section. Every refusal is a ConfigError naming
the key (``poker.settings.button: must be one of moving, dead``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from dealer_assist.errors import ConfigError, InvalidRecordError

T = TypeVar("T")


def is_whole(value: Any) -> bool:
    """An int that is not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_settings(cls: type[T], obj: Any, where: str, kinds: Mapping[str, Any]) -> T:
    """``cls()`` with the values of ``obj`` (absent keys keep the defaults). ``kinds`` names
    each setting's kind: ``bool``, ``int`` (>= 0) or a tuple of the allowed strings.

    Raises:
        ConfigError: not an object, an unknown key, a value of the wrong kind (``where.key``).
    """
    if not isinstance(obj, Mapping):
        raise ConfigError(f"{where}: must be an object")
    values: dict[str, Any] = {}
    for key, value in obj.items():
        kind = kinds.get(key)
        if kind is None:
            raise ConfigError(f"{where}.{key}: not a setting ({', '.join(kinds)})")
        if isinstance(kind, tuple):
            if value not in kind:
                raise ConfigError(f"{where}.{key}: must be one of {', '.join(kind)}")
        elif kind is int:
            if not is_whole(value) or value < 0:
                raise ConfigError(f"{where}.{key}: must be an integer >= 0, got {value!r}")
        elif not isinstance(value, bool):
            raise ConfigError(f"{where}.{key}: must be true or false, got {value!r}")
        values[key] = value
    return replace(cls(), **values)  # type: ignore[type-var]


def check_keys(section: Mapping[str, Any], known: set[str]) -> None:
    """Refuse a ``[poker]`` key the game does not know. Raises ConfigError naming it."""
    for key in section:
        if key not in known:
            raise ConfigError(f"poker.{key}: not a key ({', '.join(sorted(known))})")


def whole_key(section: Mapping[str, Any], key: str, default: int) -> int:
    """``poker.key`` as an integer >= 0 (``default`` when absent). Raises ConfigError."""
    value = section.get(key, default)
    if not is_whole(value) or value < 0:
        raise ConfigError(f"poker.{key}: must be an integer >= 0, got {value!r}")
    return int(value)


def pair_key(section: Mapping[str, Any], key: str, default: Any) -> tuple[int, int]:
    """``poker.key`` as two integers (``[small, big]``). Raises ConfigError."""
    value = section.get(key, default)
    if not (isinstance(value, list) and len(value) == 2 and all(is_whole(v) for v in value)):
        raise ConfigError(f"poker.{key}: must be two integers (minor units), got {value!r}")
    return int(value[0]), int(value[1])


def buy_in_key(section: Mapping[str, Any], default: tuple[int, int]) -> tuple[int, int]:
    """``poker.buy_in = {min, max}``. Raises ConfigError."""
    buy = section.get("buy_in", {"min": default[0], "max": default[1]})
    if not isinstance(buy, Mapping) or not all(is_whole(buy.get(k)) for k in ("min", "max")):
        raise ConfigError(f"poker.buy_in: must be {{min, max}} integers, got {buy!r}")
    return int(buy["min"]), int(buy["max"])


def check_whole_chips(chip: int, amounts: Mapping[str, int]) -> None:
    """Refuse a record whose forced bets or stacks are not whole chips (GAMES.md "Chips and
    stacks": they are whole numbers of chips, the record is refused naming the field).

    Args:
        chip: the table's smallest chip (the record's ``chip``).
        amounts: field path -> amount (``players[2].stack`` -> 1010).

    Raises:
        InvalidRecordError: the first amount that is not a multiple of ``chip``.
    """
    if chip == 1:
        return
    for field, amount in amounts.items():
        if amount % chip:
            raise InvalidRecordError(
                field, f"must be a whole number of chips of {chip}, got {amount}"
            )
