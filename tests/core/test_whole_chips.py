"""GAMES.md "Chips and stacks": a pot-game record whose forced bets or stacks are not whole chips
of its ``chip`` is refused up front, naming the field (docs/HAND_RECORDS.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from dealer_assist.errors import InvalidRecordError
from dealer_assist.record import settle_record
from tests.conftest import CASES

HOLDEM = CASES / "pot" / "valid" / "holdem-chip-unit-25-odd-chip.json"


def _holdem() -> dict[str, Any]:
    return json.loads(HOLDEM.read_text())["record"]


def _stud() -> dict[str, Any]:
    path = next(iter(sorted((CASES / "pot" / "valid").glob("stud-*.json"))))
    return {**json.loads(path.read_text())["record"], "chip": 5}


@pytest.mark.parametrize(
    ("change", "field", "amount"),
    [
        (lambda r: r.update(ante=12), "ante", 12),
        (lambda r: r.update(blinds=[r["blinds"][0] + 10, r["blinds"][1]]), "blinds[0]", None),
        (
            lambda r: r["players"][1].update(stack=r["players"][1]["stack"] + 10),
            "players[1].stack",
            None,
        ),
    ],
)
def test_holdem_forced_bets_and_stacks_in_whole_chips(change: Any, field: str, amount: Any) -> None:
    record = _holdem()
    assert record["chip"] == 25
    settle_record(record)  # valid as it is
    change(record)
    with pytest.raises(InvalidRecordError) as err:
        settle_record(record)
    assert err.value.field == field, str(err.value)
    assert "whole number of chips of 25" in err.value.reason
    if amount is not None:
        assert err.value.reason.endswith(f"got {amount}")


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda r: r.update(bring_in=8), "bring_in"),
        (lambda r: r["players"][1].update(stack=503), "players[1].stack"),
    ],
)
def test_stud_bring_in_and_stacks_in_whole_chips(change: Any, field: str) -> None:
    record = _stud()
    settle_record(record)  # ante 5, bring-in 10, limits 20/40, stacks 500: chips of 5
    change(record)
    with pytest.raises(InvalidRecordError) as err:
        settle_record(record)
    assert err.value.field == field and "whole number of chips of 5" in err.value.reason


def test_chip_one_accepts_any_integer() -> None:
    record = {**_holdem(), "chip": 1, "ante": 12}
    result = settle_record(record)
    assert sum(s["net"] for s in result["seats"]) <= 0
