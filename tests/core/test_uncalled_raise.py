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
        "game": "holdem",
        "betting": "no_limit",
        "seats": 9,
        "button": 9,
        "blinds": [50, 100],
        "players": [{"seat": s, "stack": st, "hole": holes[s - 1]} for s, st in stacks.items()],
        "board": ["7c", "8d", "9h", "Tc", "2s"],
        "actions": [
            {"street": "preflop", "seat": s, "action": a} | ({"to": to} if to else {})
            for s, a, to in actions
        ],
    }


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


def test_phh_writes_the_unanswerable_raise_as_a_call_that_pokerkit_replays() -> None:
    """pokerkit refuses a raise nobody can answer beyond the bet it raises ("no reason to
    complete, bet, or raise"): the export writes the call it amounts to (the rest goes back) and
    keeps the raise in ``_raises``, so the file reads back as the record."""
    pk = pytest.importorskip("pokerkit")
    from dealer_assist.interchange import dumps_phh, loads_phh_text, phh_to_record, record_to_phh
    from tests.fixtures.phh_oracle import classify

    record = _record(
        {1: 600, 2: 700, 3: 900, 4: 1000},
        [(3, "raise", 900), (4, "raise", 1000), (1, "call", None), (2, "call", None)],
    )
    record["button"] = 4
    settlement = settle_record(record)
    phh = loads_phh_text(dumps_phh(record_to_phh(record, settlement)))["<text>"]
    k = phh["actions"].index("p4 cc # raise to 1000: nobody can answer it in full")
    assert phh["_raises"] == [[k, 1000]]
    assert classify(pk, phh, settlement) == "same"
    again = phh_to_record(phh)
    assert again["actions"] == record["actions"]
    assert settle_record(again) == settlement
