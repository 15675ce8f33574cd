"""GAMES.md "A betting round": a raise that no remaining player can match in full is legal and
the part nobody called goes back to the raiser; only a raise when every other player is all-in
(no chips left) is refused."""

from __future__ import annotations

from typing import Any

import pytest

from dealer_assist.errors import InvalidRecordError
from dealer_assist.record import settle_record


def _record(stacks: dict[int, int], actions: list[tuple[int, str, int | None]]) -> dict[str, Any]:
    holes = [["2c", "3d"], ["4h", "5s"], ["As", "Ad"], ["Ks", "Kd"], ["Qs", "Qd"], ["Js", "Jd"]]
    return {
        "game": "holdem", "betting": "no_limit", "seats": 9, "button": 9, "blinds": [50, 100],
        "players": [{"seat": s, "stack": st, "hole": holes[s - 1]} for s, st in stacks.items()],
        "board": ["7c", "8d", "9h", "Tc", "2s"],
        "actions": [
            {"street": "preflop", "seat": s, "action": a} | ({"to": to} if to else {})
            for s, a, to in actions
        ],
    }  # fmt: skip


def test_an_all_in_raise_the_others_can_call_only_for_less_returns_the_uncalled_part() -> None:
    # seat 3 all-in to 900, seat 4 all-in to 1,000 over it; the blinds (600, 700) still to act
    # and able to call, for less: "every other player is all-in" would be false
    record = _record(
        {1: 600, 2: 700, 3: 900, 4: 1000},
        [(3, "raise", 900), (4, "raise", 1000), (1, "call", None), (2, "call", None)],
    )
    record["button"] = 4
    settlement = settle_record(record)
    assert settlement["returned"] == [{"seat": 4, "amount": 100}]
    assert [p["amount"] for p in settlement["pots"]] == [2400, 300, 400]  # 600, 700, 900 levels
    assert sum(s["stack"] for s in settlement["seats"]) == 3200


def test_a_raise_when_every_other_player_is_all_in_is_still_refused() -> None:
    record = _record(
        {1: 5000, 2: 5000, 3: 900},
        [(3, "raise", 900), (1, "call", None), (2, "raise", 2000)],
    )
    record["players"][0]["stack"] = 900  # seat 1 all-in by the call: nobody left to answer
    with pytest.raises(InvalidRecordError) as err:
        settle_record(record)
    assert "nobody can answer" in err.value.reason
