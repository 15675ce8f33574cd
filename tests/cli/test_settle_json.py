"""The JSON of ``dealer-assist settle`` against the standard module it stands in for.

:func:`ui.commands.settle_json.encode` must write ``json.dumps(value, ensure_ascii=False)`` byte
for byte, and :func:`ui.commands.settle_json.decode` must give ``json.loads``'s object for every
record it accepts; both take orjson's quick path only where that holds. Hypothesis values with
the strings and numbers that break the quick paths (separators, quotes and backslashes in
strings, integers beyond 64 bits), then the real settlements of random Hold'em and Stud records.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dealer_assist.games import holdem_players, stud_players
from dealer_assist.record import settle_record
from ui.commands.settle_json import decode, encode

# characters that matter to the quick paths, and a few others
_TEXT = st.text(alphabet=st.sampled_from(list(',:"\\ .{}[]aé\u2028\n\x01')), max_size=6)
_INTS = st.integers(min_value=-(10**25), max_value=10**25) | st.sampled_from(
    [2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1]
)
_SCALARS = st.none() | st.booleans() | _INTS | _TEXT
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_encode_writes_what_json_dumps_writes(value: Any) -> None:
    assert encode(value) == json.dumps(value, ensure_ascii=False)


@pytest.mark.parametrize(
    "value",
    [
        {"amount": 1.5},  # a float: the standard way writes it
        {"seat": True, "won": 0},  # a boolean is not written as an integer
        {1: "a"},  # a key that is not a string: the standard encoder makes it one
        {"cards": ("Ah", "Kd")},  # a tuple: an array
        {"pot": "side 1, main: 2"},  # separators inside a string
    ],
)
def test_encode_falls_back_to_the_standard_text(value: Any) -> None:
    assert encode(value) == json.dumps(value, ensure_ascii=False)


@settings(max_examples=400, deadline=None)
@given(st.dictionaries(_TEXT, _VALUES, min_size=1, max_size=5))
def test_decode_gives_what_json_loads_gives(record: dict[str, Any]) -> None:
    data = json.dumps(record, ensure_ascii=False).encode()
    assert decode(data) == json.loads(data)
    compact = json.dumps(record, ensure_ascii=False, separators=(",", ":")).encode()
    assert decode(compact) == json.loads(compact)


@pytest.mark.parametrize("digits", [18, 19, 20, 40])
def test_decode_keeps_long_integers_whole(digits: int) -> None:
    big = int("9" * digits)
    for value in (big, -big):
        obj = decode(json.dumps({"stack": value, "players": [{"stack": value}]}).encode())
        assert obj == {"stack": value, "players": [{"stack": value}]}
        assert type(obj["stack"]) is int and type(obj["players"][0]["stack"]) is int


@pytest.mark.parametrize("module", [holdem_players, stud_players])
def test_real_settlements_round_trip(module: Any) -> None:
    rng = random.Random(5)
    for i in range(300):
        record = module.random_record(rng, betting=("no_limit", "pot_limit", "fixed_limit")[i % 3])
        data = (json.dumps(record) + "\n").encode()
        assert decode(data) == record
        settlement = settle_record(record)
        assert encode(settlement) == json.dumps(settlement, ensure_ascii=False)
