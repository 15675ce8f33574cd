"""The base of every operation and the JSON codec of its field types (design/ENGINE.md).

:class:`Operation` (``kind``, ``version``, ``to_json``/``from_json``) and the helpers that freeze
its fields and turn them into JSON and back: cards as text, times as ISO-8601 UTC, mappings and
sequences as JSON objects and lists, nested operations without their own ``"v"``. The operations
themselves are in :mod:`dealer_assist.engine.operations`.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from types import MappingProxyType
from typing import Any, ClassVar, Literal, TypeVar, Union, get_args, get_origin, get_type_hints

from dealer_assist.cards import Card, parse_card
from dealer_assist.errors import CardError, OperationError

Json = dict[str, Any]
VERSION_KEY = "v"


@dataclass(frozen=True, kw_only=True)
class Operation:
    """Base of every operation. Subclasses set ``kind`` and ``version`` (class constants)."""

    kind: ClassVar[str] = ""
    version: ClassVar[int] = 1

    def __post_init__(self) -> None:
        # frozen all the way down: a mapping or list given to an operation cannot change it
        # later (an operation already applied is part of the hand's history)
        for name in _names(type(self))[1]:
            value = getattr(self, name)
            frozen = _freeze(value)
            if frozen is not value:
                object.__setattr__(self, name, frozen)

    def to_json(self) -> Json:
        """The JSON object of this operation: its fields plus ``"v"`` (schema version); cards as
        text (``"As"``), times as ISO-8601 UTC, ``None`` fields left out. A new dict each call
        (its inner values are shared: do not change them)."""
        return dict(self._encoded())

    def to_entry(self) -> Json:
        """:meth:`to_json` without the fields that hold their default (``manual: false``, an
        empty ``identified_by``...): the compact form a journaled hand keeps (``from_json``
        gives the defaults back)."""
        defaults = _defaults(type(self))
        return {k: v for k, v in self._encoded().items() if k not in defaults or defaults[k] != v}

    def _encoded(self) -> Json:
        # worked out once and kept on the instance (frozen: set through its __dict__): the
        # step log writes an operation, the journal entry writes it again
        found: Json | None = self.__dict__.get("_json")
        if found is None:
            found = {VERSION_KEY: self.version}
            for name in _names(type(self))[0]:
                value = getattr(self, name)
                if value is not None:
                    found[name] = _encode(value)
            self.__dict__["_json"] = found
        return found

    @classmethod
    def from_json(cls: type[_Op], payload: Mapping[str, Any]) -> _Op:
        """The operation of a JSON object (as :meth:`to_json` writes it, or a version-1 payload
        without ``"v"``); keys it does not know (the step log's ``events``) are ignored.

        Raises:
            OperationError: a newer schema version, a missing field or a value of the wrong type
                (the message names the operation and the field).
        """
        if not isinstance(payload, Mapping):
            raise OperationError(f"{cls.kind}: a JSON object is expected, got {payload!r}")
        version = payload.get(VERSION_KEY, 1)
        if not isinstance(version, int) or not 1 <= version <= cls.version:
            raise OperationError(
                f"{cls.kind}: schema version {version!r} is not known (this release reads "
                f"1..{cls.version})"
            )
        hints = _hints(cls)
        values: Json = {}
        for f in dataclasses.fields(cls):
            if f.name not in payload or payload[f.name] is None:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    if _optional(hints[f.name]):
                        values[f.name] = None
                        continue
                    raise OperationError(f"{cls.kind}: field {f.name!r} is missing")
                continue
            try:
                values[f.name] = _decode(hints[f.name], payload[f.name])
            except (TypeError, ValueError, CardError) as e:
                raise OperationError(f"{cls.kind}: field {f.name!r}: {e}") from e
        return cls(**values)


_Op = TypeVar("_Op", bound=Operation)
_NAMES: dict[type, tuple[tuple[str, ...], tuple[str, ...]]] = {}
_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type[Operation]) -> dict[str, Any]:
    """The resolved type of each field of ``cls`` (``typing.get_type_hints``, worked out once
    per class: it compiles every annotation string again, and a fold reads a hand's journaled
    operations one by one)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def _names(cls: type[Operation]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The field names of ``cls``, and those whose type may hold a mapping or a sequence
    (worked out once per class: operations are made on the hot path, card by card)."""
    names = _NAMES.get(cls)
    if names is None:
        hints = get_type_hints(cls)
        fields = dataclasses.fields(cls)
        containers = tuple(f.name for f in fields if _container(hints[f.name]))
        names = _NAMES[cls] = (tuple(f.name for f in fields), containers)
    return names


_DEFAULTS: dict[type, dict[str, Any]] = {}


def _defaults(cls: type[Operation]) -> dict[str, Any]:
    """The JSON of each field of ``cls`` that has a default (worked out once per class)."""
    found = _DEFAULTS.get(cls)
    if found is None:
        found = {}
        for f in dataclasses.fields(cls):
            if f.default is not dataclasses.MISSING:
                found[f.name] = _encode(f.default)
            elif f.default_factory is not dataclasses.MISSING:
                found[f.name] = _encode(f.default_factory())
        _DEFAULTS[cls] = found
    return found


def _container(hint: Any) -> bool:
    if _is_union(hint):
        return any(_container(a) for a in get_args(hint))
    return get_origin(hint) in (tuple, dict, Mapping, list) or hint is Any


def plain(value: Any) -> Any:
    """``value`` (an operation's field) as plain JSON data: mappings as dicts, sequences as lists,
    cards as text, times as ISO-8601 (for the journal, which keeps JSON)."""
    return _encode(value)


_SCALARS = frozenset({int, str, bool, float, type(None), Card, datetime})
"""Types whose values need no freezing (immutable; an operation's fields are mostly these)."""


def _freeze(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is tuple:  # the common tuple of scalars is frozen already: no copy
        for v in value:
            if type(v) not in _SCALARS:
                break
        else:
            return value
    elif kind is dict or kind is MappingProxyType:
        for v in value.values():
            if type(v) not in _SCALARS:
                break
        else:
            return MappingProxyType(dict(value))
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        items = tuple(_freeze(v) for v in value)
        return (
            value
            if isinstance(value, tuple) and all(a is b for a, b in zip(items, value, strict=True))
            else items
        )
    return value


# -- JSON codec of the operations' field types ------------------------------------------------
def _encode(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, Operation):
        out = value.to_json()
        out.pop(VERSION_KEY)  # nested: the outer operation's version covers it
        return out
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_encode(v) for v in value]
    return value


def _optional(hint: Any) -> bool:
    return _is_union(hint) and type(None) in get_args(hint)


def _is_union(hint: Any) -> bool:
    return get_origin(hint) in (Union, types.UnionType)


def _decode(hint: Any, value: Any) -> Any:
    if _is_union(hint):
        inner = [a for a in get_args(hint) if a is not type(None)]
        return None if value is None else _decode(inner[0], value)
    origin = get_origin(hint)
    if hint is Card:
        return parse_card(_typed(value, str))
    if hint is datetime:
        when = datetime.fromisoformat(_typed(value, str))
        if when.tzinfo is None:
            raise ValueError(f"time {value!r} has no time zone (UTC expected)")
        return when
    if isinstance(hint, type) and issubclass(hint, Operation):
        return hint.from_json(_typed(value, dict))
    if origin is tuple:
        item = get_args(hint)[0]
        return tuple(_decode(item, v) for v in _typed(value, list))
    if origin in (Mapping, dict):
        key, item = get_args(hint)
        return {
            (int(k) if key is int else k): _decode(item, v) for k, v in _typed(value, dict).items()
        }
    if origin is Literal:
        if value not in get_args(hint):
            raise ValueError(f"{value!r} is not one of {', '.join(map(str, get_args(hint)))}")
        return value
    if hint is Any:
        return value
    if hint is bool:
        return _typed(value, bool)
    if hint is int:
        if isinstance(value, bool):
            raise TypeError(f"expected an integer, got {value!r}")
        return _typed(value, int)
    return _typed(value, hint)


_T = TypeVar("_T")


def _typed(value: Any, kind: type[_T]) -> _T:
    if not isinstance(value, kind):
        raise TypeError(f"expected {kind.__name__}, got {type(value).__name__} {value!r}")
    return value
