"""The JSON of ``dealer-assist settle``: each record decoded with hostile input refused by field,
each settlement encoded exactly as ``json.dumps(settlement, ensure_ascii=False)`` writes it.

Both have a quick path in orjson (a C library several times quicker than the standard module
on a record), taken only where its result is the standard module's, byte for byte; anything
else goes the standard way, which names the problem (:func:`decode`) or writes the text
(:func:`encode`).
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import orjson

from dealer_assist.errors import InvalidRecordError, clip

#: Deepest nesting of arrays/objects accepted; a record needs 5 levels. Far below the recursion
#: limit of the decoder and of the code that walks the record.
MAX_DEPTH = 100
#: Longest integer literal accepted, in digits: Python's own limit on int/str conversion.
MAX_DIGITS = sys.get_int_max_str_digits() or 4300


class NotJson(Exception):
    """Input that is not one JSON value: ``why``, at ``line``/``column`` when known."""

    def __init__(self, why: str, line: int = 0, column: int = 0) -> None:
        super().__init__(why)
        self.why, self.line, self.column = why, line, column

    def where(self, sep: str = "") -> str:
        """``line L, column C`` (or ``column C`` after ``sep`` inside a JSON Lines line)."""
        if not self.line:
            return "input" if not sep else ""
        if sep:
            return f"{sep}column {self.column}"
        return f"line {self.line}, column {self.column}"


class _Refused:
    """Decoded in place of a value the decoder refuses; :func:`_check` reports it by field."""

    def __init__(self, why: str) -> None:
        self.why = why


def decode(data: bytes) -> Any:
    """The JSON value in ``data``, checked by :func:`_check`.

    Raises:
        NotJson: not UTF-8 or not JSON.
        InvalidRecordError: a duplicate key, NaN/Infinity, an integer over :data:`MAX_DIGITS`
            digits, nesting deeper than :data:`MAX_DEPTH`, naming the field; or a record that
            does not fit in the memory available.
    """
    try:
        return _decode_checked(data)
    except MemoryError as e:
        raise InvalidRecordError("record", "too big to decode in the memory available") from e


def _decode_checked(data: bytes) -> Any:
    obj = _decode_plain(data)  # strict UTF-8 too: anything else is refused below
    if obj is not None:
        return obj
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        column = e.start - (data.rfind(b"\n", 0, e.start) + 1) + 1
        raise NotJson(f"not UTF-8 (byte {data[e.start]:#04x})", line, column) from e
    decoder = _Decoder()
    try:
        try:
            obj = decoder.decode(text)
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer over Python's digit limit: decoded again to name it
            decoder = _Decoder(parse_int=_integer)
            obj = decoder.decode(text)
    except json.JSONDecodeError as e:
        raise NotJson(e.msg, e.lineno, e.colno) from e
    except RecursionError as e:
        raise InvalidRecordError(_deep_path(text), f"nested deeper than {MAX_DEPTH} levels") from e
    # Nesting deeper than MAX_DEPTH needs that many brackets: counting them is nearly free.
    deep = data.count(b"[") + data.count(b"{") > MAX_DEPTH and not _shallow(obj)
    if decoder.refused or deep:
        _check(obj)  # names the field; the slower walk only for a record it refuses
    return obj


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")  # the checked way names the field


# NaN and Infinity stop the quick path where the decoder meets them: no search of the text
_PLAIN = json.JSONDecoder(parse_constant=_no_constant)
_loads = orjson.loads
# What the quick path counts, in one C-level pass (translate): the quotes, colons, commas,
# brackets and digits of a text, every digit made 0, every other byte left out.
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_NOT_COUNTED = bytes(range(256)).translate(None, b'":,[{0123456789')
_NINETEEN_DIGITS = b"0" * 19
# isinstance(x, dict) with no Python frame (orjson makes plain dicts only)
_is_dict = dict.__instancecheck__


def _decode_plain(data: bytes) -> Any:
    """The object in ``data`` by a decoder alone (no Python call per object: the common
    record's quick path), when ``data`` shows it has no duplicate key and nothing else
    :class:`_Decoder` marks; None: decode it the checked way (which then names the field).

    With no backslash, no string holds a quote, so every key ends in ``"`` followed by its
    colon (spaces between them left out of the marks counted): the count of ``":`` in the marks
    is at least the number of keys in the text, every key given counted. The keys decoded,
    counted in the object and in the objects one level down, can only reach it when no key was
    given twice (a duplicate is one key fewer; objects nested deeper are not counted, so such a
    record takes the checked way, and so does a string whose marks make a ``":``).

    The decoder is orjson, which gives the standard decoder's object or refuses the text
    (NaN, Infinity, a number beyond a double, a byte-order mark: the checked way then decides),
    except for an integer beyond 64 bits, which it reads as a float: a text with 19 digits in a
    row is decoded by the standard decoder.

    Raises:
        InvalidRecordError: nesting deeper than :data:`MAX_DEPTH`, naming the field.
    """
    # bytes.find, not ``in``: ``in`` tries the operand as an integer first (an error raised
    # and dropped each time)
    if data.find(b"\\") >= 0:
        return None
    marks = data.translate(_DIGITS_AS_ZERO, _NOT_COUNTED)
    try:
        if marks.find(_NINETEEN_DIGITS) >= 0:
            obj = _PLAIN.decode(data.decode("utf-8"))
        else:
            obj = _loads(data)  # refuses what is not strict UTF-8, as bytes.decode does
    except (ValueError, RecursionError):  # not UTF-8 or JSON, an integer too long, too deep
        return None
    if type(obj) is not dict:
        return None
    keys = len(obj)
    for value in obj.values():
        if type(value) is list:  # the keys of its objects, counted at C level
            keys += sum(map(len, filter(_is_dict, value)))
        elif type(value) is dict:
            keys += len(value)
    if keys != marks.count(b'":'):
        return None
    # Nesting deeper than MAX_DEPTH needs that many brackets: counting them is nearly free.
    if marks.count(b"[") + marks.count(b"{") > MAX_DEPTH and not _shallow(obj):
        _check(obj)  # names the field
    return obj


class _Decoder(json.JSONDecoder):
    """The standard decoder, marking duplicate keys, NaN/Infinity and (with ``parse_int``)
    over-long integers by :class:`_Refused` values and ``refused``."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(object_pairs_hook=self._object, parse_constant=self._constant, **kw)
        self.refused = "parse_int" in kw

    def _object(self, pairs: list[tuple[str, Any]]) -> dict[str, Any] | _Refused:
        obj = dict(pairs)
        if len(obj) == len(pairs):
            return obj
        self.refused = True
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        return _Refused(f"key {clip(json.dumps(twice, ensure_ascii=False))} given twice")

    def _constant(self, name: str) -> _Refused:
        self.refused = True
        return _Refused(f"{name} is not a JSON number")


def _shallow(obj: Any) -> bool:
    """Whether ``obj`` nests at most :data:`MAX_DEPTH` levels (level by level, no paths kept)."""
    level, depth = [obj], 0
    while level:
        depth += 1
        nested: list[Any] = []
        for c in level:
            if isinstance(c, dict):
                nested.extend(v for v in c.values() if isinstance(v, dict | list))
            elif isinstance(c, list):
                nested.extend(v for v in c if isinstance(v, dict | list))
        if nested and depth >= MAX_DEPTH:
            return False
        level = nested
    return True


def _integer(text: str) -> int | _Refused:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        return _Refused(f"an integer of {digits} digits (at most {MAX_DIGITS})")
    return int(text)


def _check(obj: Any) -> None:
    """Raise InvalidRecordError for the first refused value or too-deep nesting, in document
    order, naming its field (``players[0].bets``)."""
    todo: list[tuple[Any, tuple[str | int, ...]]] = [(obj, ())]
    while todo:
        value, path = todo.pop()
        if isinstance(value, _Refused):
            raise InvalidRecordError(_path(path), value.why)
        if isinstance(value, dict | list) and len(path) >= MAX_DEPTH:
            raise InvalidRecordError(_path(path), f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(value, dict):
            todo.extend((v, (*path, k)) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            todo.extend((v, (*path, i)) for i, v in reversed(list(enumerate(value))))


def _path(path: tuple[str | int, ...] | list[str | int]) -> str:
    text = "".join(f"[{p}]" if isinstance(p, int) else f".{clip(p)}" for p in path)
    return text.lstrip(".") or "record"


_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"(?:\s*:)?|[\[\]{},]')


def _deep_path(text: str) -> str:
    """The field at which ``text`` (JSON the decoder found too deep) passes :data:`MAX_DEPTH`."""
    path: list[str | int] = []
    for m in _TOKEN.finditer(text):
        token = m.group()
        if token.endswith(":") and path:
            path[-1] = token[1 : token.rstrip(":").rstrip().rfind('"')]
        elif token in "[{":
            if len(path) >= MAX_DEPTH:
                break
            path.append(0 if token == "[" else "")
        elif token in "]}" and path:
            path.pop()
        elif token == "," and path and isinstance(path[-1], int):
            path[-1] += 1
    return _path(path)


# -- encoding --------------------------------------------------------------------------------

#: ``json.dumps(obj, ensure_ascii=False)`` made once: a settlement holds no cycle to look for.
_json_encode = json.JSONEncoder(ensure_ascii=False, check_circular=False).encode
# subclasses of str/int/dict/list, dataclasses and dates go to ``default`` (none: TypeError),
# so orjson writes only the plain types, as the standard encoder does
_DUMPS_OPTIONS = (
    orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)
_dumps = orjson.dumps
# every byte but the quote, the separators and the point: deleted by translate
_NOT_MARKS = bytes(range(256)).translate(None, b'",:.')


def encode(result: Any) -> str:
    """``json.dumps(result, ensure_ascii=False)``, the same text, for a settlement (objects with
    string keys, arrays, strings, integers, booleans, null: chips are whole numbers).

    orjson writes the compact form (no space after ``,`` and ``:``). With no backslash in it,
    every ``"`` opens or closes a string, and two strings always have a ``,`` or ``:`` between
    them; so in the text's quotes, separators and points alone, a string holding none of them
    is ``""`` and any other leaves a quote once every ``""`` is taken out. When none does,
    every ``,`` and ``:`` separates and gets its space. Anything else is written by the
    standard encoder: such strings, a number with a point (a float), an integer beyond 64 bits,
    a key that is not a string, a type orjson leaves to ``default``. A float in exponent form
    or a NaN, which no settlement holds, orjson would write its own way (``1e16``, ``null``).

    Raises:
        TypeError, ValueError: as ``json.dumps`` for what JSON cannot hold.
    """
    try:
        data = _dumps(result, option=_DUMPS_OPTIONS)
    except TypeError:  # orjson.JSONEncodeError too
        return _json_encode(result)
    if data.find(b"\\") < 0:  # find, not ``in`` (see _decode_plain)
        marks = data.translate(None, _NOT_MARKS)
        if marks.find(b".") < 0 and marks.replace(b'""', b"").find(b'"') < 0:
            return data.replace(b",", b", ").replace(b":", b": ").decode()
    return _json_encode(result)
