"""The floor's search columns read from a journal entry (never hashed), and the ``[floor]``
section of a table TOML: pure, no database."""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.errors import ConfigError
from dealer_assist.ports import StoredHand
from dealer_assist.storage.floor import FloorSettings, floor_settings
from dealer_assist.storage.search_columns import search_columns

T = datetime(2026, 12, 1, 20, 0, tzinfo=UTC)
POT_SETTLEMENT: dict[str, Any] = {
    "game": "holdem",
    "returned": [{"seat": 5, "amount": 4000}],
    "rake": 300,
    "pots": [
        {"pot": "main", "amount": 7500, "eligible": [2, 5], "winners": []},
        {"pot": "side 1", "amount": 1200, "eligible": [5], "winners": []},
    ],
    "seats": [
        {"seat": 1, "put_in": 2500, "net": -2500},
        {"seat": 2, "put_in": 2500, "net": -2500},
        {"seat": 5, "put_in": 4000, "net": 4700},
    ],
}


def hand(**changes: Any) -> StoredHand:
    fields: dict[str, Any] = {
        "hand_id": 1,
        "hand_uid": "h1",
        "table_id": "HE-1",
        "game": "holdem",
        "started_at": T,
        "ended_at": T,
        "status": "settled",
        "void_reason": None,
        "record": {"players": [{"seat": 5}, {"seat": 1}, {"seat": 2}]},
        "settlement": POT_SETTLEMENT,
        "events": [],
        "extra": {},
        "recorded_at": T,
        "prev_hash": "0" * 64,
        "hash": "1" * 64,
    }
    fields.update(changes)
    return StoredHand(**fields)


def test_a_pot_hand_its_pots_and_rake() -> None:
    columns = search_columns(hand())
    assert columns == {
        "wagered": 9000,
        "top_amount": 7500,
        "house_net": 300,
        "seats": [1, 2, 5],
        "flags": None,
        "dealer": None,
    }


def test_the_dealer_the_table_recorded() -> None:
    assert search_columns(hand(extra={"dealer": "D-1042"}))["dealer"] == "D-1042"
    assert search_columns(hand(extra={"dealer": 1042}))["dealer"] is None
    assert search_columns(hand(extra={"dealer": "x" * 65}))["dealer"] is None


def test_flags_from_the_events_and_the_extra() -> None:
    events = [
        {"kind": "card", "source": "camera-1", "manual": False},
        {"kind": "card", "source": "keypad", "manual": True},
        {"kind": "fault", "code": "JAM"},
        {"kind": "source_switched"},
    ]
    columns = search_columns(hand(events=events, extra={"resumed": [1]}))
    assert columns["flags"] == [
        "camera_card",
        "device_fault",
        "manual_card",
        "resumed",
        "source_switched",
    ]


def test_a_void_hand_and_a_table_record() -> None:
    void = search_columns(hand(status="void", void_reason="misdeal", settlement=None))
    assert void["flags"] == ["void"] and void["wagered"] is None and void["seats"] == [1, 2, 5]
    record = search_columns(hand(status="table", record={"kind": "buy_in"}, settlement=None))
    assert set(record.values()) == {None}


@pytest.mark.parametrize(
    "settlement",
    [
        {"seats": "x"},
        {"seats": [{"net": "5"}]},
        {"pots": [{"amount": True}], "seats": [7]},
        {"seats": [{"bets": [{"stake": 1.5}], "net": 2}]},
    ],
)
def test_shapes_it_does_not_know_leave_columns_empty_not_an_error(settlement: Any) -> None:
    columns = search_columns(hand(settlement=settlement, record={"players": "?"}))
    assert columns["seats"] is None
    assert columns["wagered"] in (None, 0)
    banked = search_columns(dataclasses.replace(hand(), settlement={"seats": [{"net": 3}]}))
    assert (banked["wagered"], banked["top_amount"], banked["house_net"]) == (0, 3, -3)


def test_the_floor_section_of_a_table_toml(tmp_path: Path) -> None:
    toml = tmp_path / "t.toml"
    toml.write_text('[table]\nid = "X"\n')
    assert floor_settings(toml) == FloorSettings()
    toml.write_text('[floor]\nurl = ""\npit = "B"\n')
    assert floor_settings(toml) == FloorSettings(None, "B")
    toml.write_text("floor = 3\n")
    with pytest.raises(ConfigError, match="floor: must be a table"):
        floor_settings(toml)
    toml.write_text("[floor\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        floor_settings(toml)
    with pytest.raises(ConfigError, match="cannot read"):
        floor_settings(tmp_path / "missing.toml")
