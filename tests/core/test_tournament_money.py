"""Entries and money (rules text 002): registration, rebuys below the starting stack and inside
their window, one add-on, Double Chance halves, the EUR 250 cap at each purchase, the records as
JSON and the ledger as their fold; the seeded seat draw."""

from __future__ import annotations

import json
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from dealer_assist.tournament.errors import PurchaseRefused
from dealer_assist.tournament.money import (
    Ledger,
    Purchase,
    addon,
    can_rebuy,
    due_second_halves,
    is_out,
    rebuy,
    register,
    second_half,
    second_half_due,
)
from dealer_assist.tournament.seating import SeatDraw, draw_seats
from dealer_assist.tournament.structure import TournamentStructure, shipped_structures
from dealer_assist.tournament.structure_reader import load_structure

SHIPPED = shipped_structures()
BY = "director Rossi"


def holdem() -> TournamentStructure:
    return load_structure(SHIPPED["holdem_rebuy"])


def custom(tmp_path: Path, name: str, **changes: Any) -> TournamentStructure:
    data = tomllib.loads(SHIPPED[name].read_text(encoding="utf-8"))
    for section, values in changes.items():
        data.setdefault(section, {}).update(values)
    p = tmp_path / f"{name}.toml"
    p.write_text(tomli_w.dumps(data), encoding="utf-8")
    return load_structure(p)


def entered(s: TournamentStructure, *players: str) -> Ledger:
    ledger = Ledger.empty()
    for p in players:
        ledger = ledger.apply(register(s, ledger, p, authorised_by=BY), s)
    return ledger


def test_registration_records_the_fee_and_who_authorised() -> None:
    s = holdem()
    ledger = Ledger.empty()
    rec = register(s, ledger, "Anna", authorised_by=BY)
    assert rec == Purchase("entry", "Anna", 2000, 5000, 1, BY)
    assert ledger.players == ()  # checking changes nothing
    ledger = ledger.apply(rec, s)
    assert ledger.account("Anna").paid_cents == 2000 and ledger.chips_issued == 5000
    with pytest.raises(PurchaseRefused, match="already registered"):
        register(s, ledger, "Anna", authorised_by=BY)
    with pytest.raises(PurchaseRefused, match="authorises"):
        register(s, ledger, "Bruno", authorised_by="  ")
    with pytest.raises(PurchaseRefused, match="not registered"):
        rebuy(s, ledger, "Bruno", stack=0, level=1, authorised_by=BY)


def test_rebuy_only_below_the_starting_stack_and_in_its_window() -> None:
    s = holdem()
    ledger = entered(s, "Anna")
    with pytest.raises(PurchaseRefused, match="only below the starting stack 5000"):
        rebuy(s, ledger, "Anna", stack=5000, level=1, authorised_by=BY)
    with pytest.raises(PurchaseRefused, match="rebuys end with level 4"):
        rebuy(s, ledger, "Anna", stack=0, level=5, authorised_by=BY)
    with pytest.raises(PurchaseRefused, match="between hands"):
        rebuy(s, ledger, "Anna", stack=0, level=2, authorised_by=BY, in_hand=True)
    for level in (1, 3, 4):
        rec = rebuy(s, ledger, "Anna", stack=4975, level=level, authorised_by=BY)
        assert (rec.kind, rec.amount_cents, rec.chips, rec.level) == ("rebuy", 2000, 5000, level)
        ledger = ledger.apply(rec, s)
    with pytest.raises(PurchaseRefused, match="at most 3 rebuys"):
        rebuy(s, ledger, "Anna", stack=0, level=4, authorised_by=BY)
    assert not can_rebuy(s, ledger, "Anna", stack=0, level=4)
    assert ledger.account("Anna").rebuys == 3 and ledger.fees_cents == 8000


def test_one_addon_in_its_window() -> None:
    s = holdem()
    ledger = entered(s, "Anna")
    with pytest.raises(PurchaseRefused, match="open at level 4 \\(now level 3\\)"):
        addon(s, ledger, "Anna", level=3, authorised_by=BY)
    rec = addon(s, ledger, "Anna", level=4, authorised_by=BY)
    assert (rec.amount_cents, rec.chips) == (2000, 5000)
    ledger = ledger.apply(rec, s)
    with pytest.raises(PurchaseRefused, match="at most one add-on"):
        addon(s, ledger, "Anna", level=4, authorised_by=BY)
    with pytest.raises(PurchaseRefused, match="at most one add-on"):
        ledger.apply(rec, s)  # a replayed second record is refused too


def test_freezeout_has_neither() -> None:
    s = load_structure(SHIPPED["stud_freezeout"])
    ledger = entered(s, "Anna")
    with pytest.raises(PurchaseRefused, match="no rebuys"):
        rebuy(s, ledger, "Anna", stack=0, level=1, authorised_by=BY)
    with pytest.raises(PurchaseRefused, match="no add-on"):
        addon(s, ledger, "Anna", level=1, authorised_by=BY)


def test_cap_of_eur_250_at_each_purchase(tmp_path: Path) -> None:
    # EUR 100 entry, 2 rebuys, EUR 50 add-on: at most EUR 350 by the structure, refused at 250
    s = custom(
        tmp_path,
        "holdem_rebuy",
        tournament={"entry_fee_cents": 10_000},
        rebuy={"max": 2},
        addon={"fee_cents": 5_000, "chips": 2_500},
    )
    assert s.warnings
    ledger = entered(s, "Anna")
    ledger = ledger.apply(rebuy(s, ledger, "Anna", stack=0, level=1, authorised_by=BY), s)
    assert ledger.account("Anna").paid_cents == 20_000
    with pytest.raises(PurchaseRefused) as info:
        rebuy(s, ledger, "Anna", stack=0, level=2, authorised_by=BY)
    msg = str(info.value)
    assert "EUR 250.00" in msg and "EUR 300.00" in msg and "EUR 200.00" in msg
    # the add-on still fits exactly: EUR 250.00 is allowed, not passed
    ledger = ledger.apply(addon(s, ledger, "Anna", level=4, authorised_by=BY), s)
    assert ledger.account("Anna").paid_cents == 25_000
    # a journal replay past the cap is refused as well
    bad = Purchase("rebuy", "Anna", 10_000, 5_000, 2, BY)
    with pytest.raises(PurchaseRefused, match=r"EUR 250\.00"):
        ledger.apply(bad, s)


def test_double_chance_halves(tmp_path: Path) -> None:
    s = custom(tmp_path, "stud_freezeout", double_chance={"second_half_level": 4})
    ledger = entered(s, "Anna", "Bruno", "Carla")
    assert ledger.chips_issued == 3 * 5000  # first halves only
    assert ledger.half_pending(s, "Anna") == 5000
    # out only when both halves are gone: 0 chips with a half pending is not out
    assert not is_out(s, ledger, "Anna", 0)
    assert not second_half_due(s, ledger, "Bruno", level=2, stack=3000)
    with pytest.raises(PurchaseRefused, match="due at level 4"):
        second_half(s, ledger, "Bruno", level=2, stack=3000)
    # Anna lost her first half at level 2: the second at once
    due = due_second_halves(s, ledger, {"Anna": 0, "Bruno": 3000, "Carla": 7000}, level=2)
    assert [(p.player, p.kind, p.amount_cents, p.chips) for p in due] == [
        ("Anna", "second_half", 0, 5000)
    ]
    ledger = ledger.apply(due[0], s)
    assert is_out(s, ledger, "Anna", 0) and not is_out(s, ledger, "Anna", 25)
    with pytest.raises(PurchaseRefused, match="already released"):
        second_half(s, ledger, "Anna", level=4, stack=0)
    # level 4: everyone else's second half
    due = due_second_halves(s, ledger, {"Anna": 2000, "Bruno": 3000, "Carla": 7000}, level=4)
    assert [p.player for p in due] == ["Bruno", "Carla"]
    for p in due:
        ledger = ledger.apply(p, s)
    assert ledger.chips_issued == 6 * 5000 and ledger.fees_cents == 3 * 5000


def test_double_chance_rebuy_counts_the_pending_half(tmp_path: Path) -> None:
    s = custom(tmp_path, "holdem_rebuy", double_chance={"second_half_level": 3})
    ledger = entered(s, "Anna")
    # 2600 chips + 2500 pending = 5100, not below the starting stack 5000
    with pytest.raises(PurchaseRefused, match="has 5100"):
        rebuy(s, ledger, "Anna", stack=2600, level=1, authorised_by=BY)
    assert can_rebuy(s, ledger, "Anna", stack=2400, level=1)


def test_records_round_trip_and_fold() -> None:
    s = holdem()
    ledger = entered(s, "Anna", "Bruno")
    records = [*ledger.purchases]
    records.append(rebuy(s, ledger, "Bruno", stack=100, level=2, authorised_by=BY))
    ledger = ledger.apply(records[-1], s)
    records.append(addon(s, ledger, "Anna", level=4, authorised_by=BY))
    text = [json.dumps(r.to_json()) for r in records]
    back = [Purchase.from_json(json.loads(t)) for t in text]
    assert back == records
    folded = Ledger.fold(s, back)
    assert folded.fees_cents == 8000 and folded.chips_issued == 20_000
    assert folded.account("Anna").addon and folded.account("Bruno").rebuys == 1
    assert folded.count("entry") == 2


@pytest.mark.parametrize(
    "bad",
    [
        {
            "kind": "gift",
            "player": "A",
            "amount_cents": 0,
            "chips": 0,
            "level": 1,
            "authorised_by": "x",
        },
        {
            "kind": "entry",
            "player": "A",
            "amount_cents": 1.5,
            "chips": 0,
            "level": 1,
            "authorised_by": "x",
        },
        {"kind": "entry", "player": "A", "amount_cents": 100, "chips": 0, "level": 1},
        {
            "kind": "entry",
            "player": "",
            "amount_cents": 100,
            "chips": 0,
            "level": 1,
            "authorised_by": "x",
        },
    ],
)
def test_bad_records_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(PurchaseRefused):
        Purchase.from_json(bad)


def test_fold_refuses_a_purchase_before_the_entry() -> None:
    with pytest.raises(PurchaseRefused, match="not registered"):
        Ledger.fold(holdem(), [Purchase("rebuy", "Anna", 2000, 5000, 1, BY)])


# -- seat draw -------------------------------------------------------------------------------


def test_seat_draw_is_deterministic_and_balanced() -> None:
    players = [f"P{i:02d}" for i in range(19)]
    a = draw_seats(7, players, 8)
    assert a == draw_seats(7, players, 8)
    assert a != draw_seats(8, players, 8)
    sizes = sorted(len(v) for v in a.tables.values())
    assert sizes == [6, 6, 7]
    assert all(
        sorted(s for t2, s in a.seats.values() if t2 == t) == list(range(1, len(v) + 1))
        for t, v in a.tables.items()
    )
    assert sorted(a.seats) == players
    assert SeatDraw.from_json(json.loads(json.dumps(a.to_json()))) == a
    # a known draw (the shuffle is SHA-256 driven, the same on every Python)
    assert draw_seats(1, list("ABCDE"), 8).tables == {1: ["A", "D", "C", "E", "B"]}
    assert draw_seats(2, list("ABCDE"), 2).tables == {1: ["B", "E"], 2: ["C", "D"], 3: ["A"]}


def test_seat_draw_is_fair_enough() -> None:
    # every player lands on seat 1 sometimes over many seeds (no fixed seat)
    firsts = Counter(draw_seats(seed, ["A", "B", "C", "D"], 8).tables[1][0] for seed in range(400))
    assert set(firsts) == {"A", "B", "C", "D"} and min(firsts.values()) > 60


def test_seat_draw_refusals() -> None:
    with pytest.raises(PurchaseRefused, match="twice"):
        draw_seats(1, ["A", "A"], 8)
    with pytest.raises(PurchaseRefused):
        draw_seats(1, [], 8)
