"""Tournament structures (config/tournaments/*.toml): the shipped examples load, every rule of rules
text 002 a file can break is refused naming the file and the key path, a BOM is accepted, and
``to_dict`` round-trips."""

from __future__ import annotations

import copy
import dataclasses
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from dealer_assist.errors import ConfigError, DealerAssistError
from dealer_assist.tournament.errors import StructureError
from dealer_assist.tournament.structure import shipped_structures
from dealer_assist.tournament.structure_reader import load_structure, structure_from_dict

SHIPPED = shipped_structures()


def shipped(name: str) -> dict[str, Any]:
    return tomllib.loads(SHIPPED[name].read_text(encoding="utf-8"))


def write(tmp_path: Path, data: dict[str, Any], name: str = "t.toml") -> Path:
    p = tmp_path / name
    p.write_text(tomli_w.dumps(data), encoding="utf-8")
    return p


def refused(tmp_path: Path, data: dict[str, Any]) -> StructureError:
    p = write(tmp_path, data)
    with pytest.raises(StructureError) as info:
        load_structure(p)
    assert str(p) in str(info.value)
    assert info.value.source == str(p)
    return info.value


def test_shipped_examples_load() -> None:
    assert set(SHIPPED) == {"stud_freezeout", "holdem_rebuy", "stud_heats"}
    stud = load_structure(SHIPPED["stud_freezeout"])
    assert (stud.game, stud.betting, stud.rebuy, stud.addon) == ("stud", "fixed_limit", None, None)
    assert all(lv.big == 2 * lv.small and 2 * lv.bring_in <= lv.small for lv in stud.levels)
    assert stud.break_after(4) is not None and stud.levels[-1].minutes is None
    assert stud.special_prizes[0].category == "royal_flush"
    assert stud.percentages_bp == (5000, 3000, 2000)
    holdem = load_structure(SHIPPED["holdem_rebuy"])
    assert holdem.game == "holdem" and holdem.rebuy is not None and holdem.addon is not None
    assert holdem.rebuy.fee_cents == holdem.entry_fee_cents
    assert holdem.rebuy.chips == holdem.starting_stack
    assert holdem.max_total_cents == 10_000 and not holdem.warnings
    assert len(stud.sha256) == 64


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_to_dict_round_trips(name: str) -> None:
    s = load_structure(SHIPPED[name])
    back = structure_from_dict(s.to_dict())
    assert back == dataclasses.replace(s, source="<dict>", sha256="")


def test_bom_accepted(tmp_path: Path) -> None:
    p = tmp_path / "bom.toml"
    p.write_bytes(b"\xef\xbb\xbf" + SHIPPED["stud_freezeout"].read_bytes())
    assert load_structure(p).name == "Seven Card Stud Freezeout"


def test_unreadable_and_bad_toml(tmp_path: Path) -> None:
    with pytest.raises(StructureError, match="cannot read"):
        load_structure(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text("[tournament\nname = 1", encoding="utf-8")
    with pytest.raises(StructureError, match="not valid TOML"):
        load_structure(bad)
    latin = tmp_path / "latin.toml"
    latin.write_bytes(b'[tournament]\nname = "caf\xe9"\n')
    with pytest.raises(StructureError, match="not UTF-8"):
        load_structure(latin)


def test_error_is_in_the_tree() -> None:
    assert issubclass(StructureError, ConfigError) and issubclass(StructureError, DealerAssistError)


def _set(data: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    d = copy.deepcopy(data)
    node: Any = d
    parts = path.replace("]", "").replace("[", ".").split(".")
    for part in parts[:-1]:
        node = node[int(part)] if part.isdigit() else node[part]
    last = parts[-1]
    if value is _DELETE:
        del node[last]
    else:
        node[int(last) if last.isdigit() else last] = value
    return d


_DELETE = object()

# (example, key to set, value, key path the error names, words of the reason)
REFUSALS = [
    ("stud_freezeout", "levels[3].bring_in", 175, "levels[3].bring_in", "at most half"),
    ("stud_freezeout", "levels[0].big_limit", 300, "levels[0].big_limit", "twice the small"),
    ("stud_freezeout", "levels[2].small_limit", 100, "levels[2].small_limit", "must increase"),
    (
        "stud_freezeout",
        "levels[1]",
        {"small_limit": 100, "ante": 25, "bring_in": 25, "minutes": 20},
        "levels[1].small_limit",
        "is not above level 1",
    ),
    ("stud_freezeout", "levels[1].ante", 150, "levels[1].ante", "fraction of the small"),
    ("stud_freezeout", "levels[1].ante", 30, "levels[1].ante", "multiple of the chip 25"),
    ("stud_freezeout", "levels[4].minutes", _DELETE, "levels[4]", "minutes and/or hands"),
    ("stud_freezeout", "levels[4].minutes", 0, "levels[4].minutes", "at least 1"),
    ("stud_freezeout", "levels[4].minutes", "20", "levels[4].minutes", "whole number"),
    ("stud_freezeout", "levels[0].colour", "red", "levels[0].colour", "unknown key"),
    (
        "stud_freezeout",
        "tournament.entry_fee_cents",
        5025,
        "tournament.entry_fee_cents",
        "multiple of EUR 0.50",
    ),
    (
        "stud_freezeout",
        "tournament.entry_fee_cents",
        25050,
        "tournament.entry_fee_cents",
        "at most EUR 250.00",
    ),
    ("stud_freezeout", "tournament.game", "omaha", "tournament.game", "one of stud, holdem"),
    ("stud_freezeout", "tournament.max_seats", 9, "tournament.max_seats", "from 2 to 8"),
    (
        "stud_freezeout",
        "tournament.starting_stack",
        10010,
        "tournament.starting_stack",
        "multiple of the chip",
    ),
    ("stud_freezeout", "tournament.name", _DELETE, "tournament.name", "missing"),
    ("stud_freezeout", "prizes.percentages", [50, 30, 10], "prizes.percentages", "add up to 100"),
    (
        "stud_freezeout",
        "prizes.percentages",
        [30, 50, 20],
        "prizes.percentages[1]",
        "more than the place above",
    ),
    (
        "stud_freezeout",
        "prizes.percentages",
        [50, 30.555, 19.445],
        "prizes.percentages[1]",
        "hundredths",
    ),
    ("stud_freezeout", "prizes.kind", "lottery", "prizes.kind", "winner_takes_all"),
    # 6 players x EUR 50 = EUR 300; 10 % of it is not above the EUR 50 entry
    (
        "stud_freezeout",
        "prizes.percentages",
        [10] * 10,
        "prizes.percentages",
        "first prize must be above the entry fee",
    ),
    (
        "stud_freezeout",
        "special_prizes[0].category",
        "royal",
        "special_prizes[0].category",
        "one of",
    ),
    ("stud_freezeout", "breaks[1].after_level", 12, "breaks[1].after_level", "from 1 to 11"),
    ("stud_freezeout", "breaks[1].after_level", 4, "breaks[1].after_level", "a second break"),
    ("stud_freezeout", "clock.time_bank", "sometimes", "clock.time_bank", "automatic"),
    ("stud_freezeout", "tournament.qualifiers", 2, "tournament.qualifiers", "heats"),
    ("holdem_rebuy", "addon.fee_cents", 2500, "addon.fee_cents", "at most the entry fee"),
    ("holdem_rebuy", "addon.fee_cents", 1020, "addon.fee_cents", "multiple of EUR 0.50"),
    ("holdem_rebuy", "addon.from_level", 5, "addon.from_level", "from 1 to 4"),
    ("holdem_rebuy", "rebuy.fee_cents", 1000, "rebuy.fee_cents", "costs the entry fee"),
    ("holdem_rebuy", "rebuy.chips", 2500, "rebuy.chips", "gives the starting stack"),
    ("holdem_rebuy", "rebuy.until_level", 13, "rebuy.until_level", "from 1 to 12"),
    ("holdem_rebuy", "levels[2].big_blind", 50, "levels[2].big_blind", "at least the small"),
    ("holdem_rebuy", "levels[4].ante", 400, "levels[4].ante", "at most the big blind"),
    ("holdem_rebuy", "levels[0].bring_in", 25, "levels[0].bring_in", "unknown key"),
    ("holdem_rebuy", "tournament.betting", "spread", "tournament.betting", "one of"),
    ("holdem_rebuy", "jackpot", {}, "jackpot", "unknown section"),
]


@pytest.mark.parametrize(("example", "key", "value", "named", "words"), REFUSALS)
def test_refused_naming_the_key(
    tmp_path: Path, example: str, key: str, value: Any, named: str, words: str
) -> None:
    e = refused(tmp_path, _set(shipped(example), key, value))
    assert e.key == named, str(e)
    assert words in e.reason, str(e)
    assert f": {named}: " in str(e)


def test_free_tournament_needs_a_guarantee(tmp_path: Path) -> None:
    data = _set(shipped("stud_freezeout"), "tournament.entry_fee_cents", 0)
    e = refused(tmp_path, data)
    assert e.key == "prizes.guarantee_cents" and "above the entry fee EUR 0.00" in e.reason
    ok = load_structure(write(tmp_path, _set(data, "prizes.guarantee_cents", 10_000)))
    assert ok.entry_fee_cents == 0 and ok.guarantee_cents == 10_000


def test_guarantee_lifts_the_first_prize(tmp_path: Path) -> None:
    data = _set(shipped("stud_freezeout"), "prizes.percentages", [10] * 10)
    s = load_structure(write(tmp_path, _set(data, "prizes.guarantee_cents", 60_000)))
    assert s.guarantee_cents == 60_000


def test_maximum_total_past_the_cap_warns_not_refuses(tmp_path: Path) -> None:
    # EUR 100 entry, 2 rebuys, EUR 50 add-on: EUR 350 possible; each purchase checks the cap
    data = shipped("holdem_rebuy")
    data["tournament"]["entry_fee_cents"] = 10_000
    data["rebuy"]["max"] = 2
    data["addon"]["fee_cents"] = 5_000
    s = load_structure(write(tmp_path, data))
    assert s.max_total_cents == 35_000
    assert len(s.warnings) == 1 and "EUR 350.00" in s.warnings[0] and "EUR 250.00" in s.warnings[0]


def test_addon_chips_default_in_proportion(tmp_path: Path) -> None:
    data = shipped("holdem_rebuy")
    data["addon"]["fee_cents"] = 1_500
    del data["addon"]["chips"]
    s = load_structure(write(tmp_path, data))
    assert s.addon is not None and s.addon.chips == 3_750  # 5000 x 1500 / 2000
    data["addon"]["fee_cents"] = 1_000
    data["tournament"]["starting_stack"] = 5_050
    data["tournament"]["chip"] = 50
    for lv in data["levels"]:
        lv["ante"] = lv.get("ante", 0) // 50 * 50
    data["levels"] = [lv for lv in data["levels"] if lv["small_blind"] % 50 == 0]
    data["rebuy"]["until_level"] = 3
    data["addon"].update(from_level=3, until_level=3)
    data["breaks"] = [{"after_level": 3, "minutes": 10}]
    s = load_structure(write(tmp_path, data))
    assert s.addon is not None and s.addon.chips == 2_500  # 2525 rounded down to the chip 50


def test_double_chance_needs_even_halves(tmp_path: Path) -> None:
    data = shipped("stud_freezeout")
    data["double_chance"] = {"second_half_level": 4}
    assert load_structure(write(tmp_path, data)).double_chance_level == 4
    data["tournament"]["starting_stack"] = 10_025
    e = refused(tmp_path, data)
    assert e.key == "tournament.starting_stack" and "two equal halves" in e.reason
    data["tournament"]["starting_stack"] = 10_000
    data["double_chance"] = {"second_half_level": 1}
    assert refused(tmp_path, data).key == "double_chance.second_half_level"


def test_heats_formula(tmp_path: Path) -> None:
    data = shipped("stud_freezeout")
    data["tournament"].update(formula="heats", qualifiers=2)
    s = load_structure(write(tmp_path, data))
    assert (s.formula, s.qualifiers) == ("heats", 2)
    data["tournament"]["qualifiers"] = 8
    assert refused(tmp_path, data).key == "tournament.qualifiers"


def test_levels_by_hands_and_an_unending_last(tmp_path: Path) -> None:
    data = shipped("stud_freezeout")
    data["levels"][0] = {**data["levels"][0], "hands": 30}
    del data["levels"][0]["minutes"]
    data["levels"][1]["hands"] = 40
    s = load_structure(write(tmp_path, data))
    assert (s.levels[0].minutes, s.levels[0].hands) == (None, 30)
    assert (s.levels[1].minutes, s.levels[1].hands) == (20, 40)
    assert s.level(99) == s.levels[-1]


def test_winner_takes_all(tmp_path: Path) -> None:
    data = shipped("stud_freezeout")
    data["prizes"] = {"kind": "winner_takes_all"}
    s = load_structure(write(tmp_path, data))
    assert s.percentages_bp == (10_000,)
    data["prizes"]["percentages"] = [100]
    assert refused(tmp_path, data).key == "prizes.percentages"
