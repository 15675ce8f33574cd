"""Hand-record validation beyond the golden cases: every invalid input names its field."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from dealer_assist.errors import InvalidRecordError
from dealer_assist.record import parse_record, settle_record

BASE: dict[str, Any] = {
    "game": "uth",
    "seats": 7,
    "board": ["Ah", "Kd", "7c", "7s", "2h"],
    "dealer": ["Qs", "Jd"],
    "players": [
        {
            "seat": 1,
            "hole": ["As", "Ac"],
            "bets": {"ante": 1000, "blind": 1000, "trips": 500},
            "actions": [{"street": "preflop", "action": "play", "multiple": 4}],
        },
        {
            "seat": 6,
            "hole": ["3c", "9d"],
            "bets": {"ante": 1000, "blind": 1000},
            "actions": [
                {"street": "preflop", "action": "check"},
                {"street": "flop", "action": "check"},
                {"street": "river", "action": "fold"},
            ],
        },
    ],
}


def mutate(path: str, value: Any) -> dict[str, Any]:
    rec = copy.deepcopy(BASE)
    obj: Any = rec
    keys = [int(k) if k.isdigit() else k for k in path.split("/")]
    for k in keys[:-1]:
        obj = obj[k]
    if value is KeyError:
        del obj[keys[-1]]
    else:
        obj[keys[-1]] = value
    return rec


def test_base_record_matches_the_contract_example() -> None:
    out = settle_record(BASE)
    assert out["settlement_order"] == [6, 1]
    assert [s["net"] for s in out["seats"]] == [-2000, 12000]
    assert out["dealer"] == {
        "hand": {"category": "pair", "best_five": out["dealer"]["hand"]["best_five"]},
        "qualifies": True,
    }


@pytest.mark.parametrize(
    ("path", "value", "field"),
    [
        ("game", "baccarat", "game"),
        ("game", KeyError, "game"),
        ("seats", 9, "seats"),
        ("board", KeyError, "board"),
        ("board/4", "Zz", "board[4]"),
        ("dealer", ["Qs"], "dealer"),
        ("dealer/1", "Ah", "dealer[1]"),
        ("players", [], "players"),
        ("players/0/seat", 8, "players[0].seat"),
        ("players/0/seat", "1", "players[0].seat"),
        ("players/0/hole", ["As"], "players[0].hole"),
        ("players/0/bets/ante", -5, "players[0].bets.ante"),
        ("players/0/bets/trips", 2.5, "players[0].bets.trips"),
        ("players/0/bets/trips", True, "players[0].bets.trips"),
        ("players/0/bets/blind", KeyError, "players[0].bets.blind"),
        ("players/0/bets/bonus", 100, "players[0].bets.bonus"),
        ("players/0/actions/0/multiple", 5, "players[0].actions[0]"),
        ("players/1/actions/2", {"street": "river", "action": "check"}, "players[1].actions[2]"),
        ("players/1/actions", [{"street": "preflop", "action": "check"}], "players[1].actions"),
        ("players/1/actions/1/street", "turn", "players[1].actions[1]"),
        ("paytables", {"trips": {"flush": [6.5, 1]}}, "paytables.trips.flush"),
        ("paytables", {"bonus": {"aa": [30, 1]}}, "paytables.bonus"),
    ],
)
def test_invalid_field_is_named(path: str, value: Any, field: str) -> None:
    with pytest.raises(InvalidRecordError) as err:
        parse_record(mutate(path, value))
    assert err.value.field == field, str(err.value)


def test_paytable_override_changes_the_payout() -> None:
    rec = copy.deepcopy(BASE)
    rec["paytables"] = {"trips": {"full_house": [9, 1]}}
    seat1 = settle_record(rec)["seats"][1]
    trips = next(b for b in seat1["bets"] if b["box"] == "trips")
    assert trips["net"] == 4500


def test_records_written_by_simulate_settle_again() -> None:
    """A record carrying extra fields (hand_id, settlement) is still a valid input."""
    rec = copy.deepcopy(BASE)
    first = settle_record(rec)
    rec.update({"hand_id": 7, "settlement": first})
    assert settle_record(json.loads(json.dumps(rec))) == first


def test_amounts_are_integers_in_the_output() -> None:
    out = settle_record(BASE)
    for seat in out["seats"]:
        for box in seat["bets"]:
            assert type(box["stake"]) is int and type(box["net"]) is int
