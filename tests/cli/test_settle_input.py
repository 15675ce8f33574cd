"""What ``dealer-assist settle`` accepts beyond the canonical spelling (docs/HAND_RECORDS.md):
card texts with the emoji variation selector U+FE0F after the suit symbol,
a UTF-8 byte-order mark at the start of a file, and ``payout_unit``.

Records are the shared golden cases, written to real files and settled by the real command.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.cards import parse_card
from dealer_assist.errors import CardError, InvalidRecordError
from dealer_assist.record import settle_record
from ui.cli import main

CASES = Path(__file__).parent.resolve().parents[2] / "shared" / "cases"
BOM = b"\xef\xbb\xbf"
EMOJI = "\ufe0f"
SYMBOL = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _case(path: str) -> dict[str, Any]:
    case: dict[str, Any] = json.loads((CASES / path).read_text(encoding="utf-8"))
    return case


def _phone(text: str) -> str:
    """``6s`` as a phone types it: ``6♠️`` (the suit symbol, then U+FE0F)."""
    return text[:-1] + SYMBOL[text[-1]] + EMOJI


def _respelled(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with every card text (board, dealer, holes) in the phone spelling."""
    out = copy.deepcopy(record)
    for key in ("board", "dealer"):
        if key in out:
            out[key] = [_phone(t) for t in out[key]]
    for p in out["players"]:
        if p.get("hole"):
            p["hole"] = [_phone(t) if t != "??" else t for t in p["hole"]]
    return out


def _settle_file(
    tmp_path: Path, data: bytes, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str]:
    path = tmp_path / "records.json"
    path.write_bytes(data)
    status = main(["settle", str(path)])
    return status, capsys.readouterr().out


# -- U+FE0F after the suit symbol ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "card"), [("6♠️", "6s"), ("A♥️", "Ah"), ("10♦️", "Td"), ("k♣️", "Kc")]
)
def test_a_suit_symbol_with_the_emoji_selector_is_that_suit(text: str, card: str) -> None:
    assert str(parse_card(text)) == card


@pytest.mark.parametrize(
    "text", ["6s" + EMOJI, "6" + EMOJI, "♠" + EMOJI, EMOJI + "6♠", "6♠" + EMOJI * 2]
)
def test_the_selector_anywhere_else_is_not_a_card(text: str) -> None:
    with pytest.raises(CardError, match="not a card"):
        parse_card(text)


@pytest.mark.parametrize(
    "case", ["pot/valid/holdem-board-plays-two-way-split.json", "valid/uth-royal-flush.json"]
)
def test_records_with_phone_typed_cards_settle_as_the_canonical_ones(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = _case(case)["record"]
    phone = _respelled(record)
    assert EMOJI in json.dumps(phone, ensure_ascii=False)
    data = json.dumps(phone, ensure_ascii=False).encode("utf-8")
    status, out = _settle_file(tmp_path, data, capsys)
    assert status == 0
    assert json.loads(out) == settle_record(record)


def test_a_phone_typed_card_given_twice_is_still_a_duplicate() -> None:
    record = _case("pot/valid/holdem-board-plays-two-way-split.json")["record"]
    record = copy.deepcopy(record)
    record["board"][0] = _phone(record["players"][0]["hole"][0])
    with pytest.raises(InvalidRecordError, match="duplicate card"):
        settle_record(record)


# -- a byte-order mark at the start of the file --------------------------------------------------


def test_a_single_record_file_with_a_bom_settles(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    case = _case("pot/valid/holdem-board-plays-two-way-split.json")
    text = json.dumps(case["record"], indent=1).encode("utf-8")  # spread over lines
    status, out = _settle_file(tmp_path, BOM + text, capsys)
    assert status == 0
    assert json.loads(out) == settle_record(case["record"])


def test_a_json_lines_file_with_a_bom_settles_every_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cases = [
        _case("pot/valid/holdem-board-plays-two-way-split.json"),
        _case("valid/uth-royal-flush.json"),
    ]
    lines = b"".join(json.dumps(c["record"]).encode("utf-8") + b"\n" for c in cases)
    status, out = _settle_file(tmp_path, BOM + lines, capsys)
    assert status == 0
    assert [json.loads(line) for line in out.splitlines()] == [
        settle_record(c["record"]) for c in cases
    ]


def test_a_bom_after_the_start_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.dumps(_case("valid/uth-royal-flush.json")["record"]).encode("utf-8")
    status, out = _settle_file(tmp_path, record + b"\n" + BOM + record + b"\n", capsys)
    assert status == 2
    first, second = out.splitlines()
    assert json.loads(first)["game"] == "uth"
    assert json.loads(second)["error"].startswith("line 2")


# -- payout_unit ---------------------------------------------------------------------------------


def test_payout_unit_rounds_odds_payouts_down_to_it() -> None:
    case = _case("valid/uth-flush-3to2-rounds-down.json")  # blind 1005 at 3:2 pays 1507
    record = dict(case["record"], payout_unit=100)
    boxes = {b["box"]: b["net"] for b in settle_record(record)["seats"][0]["bets"]}
    assert boxes == {"ante": 1005, "blind": 1500, "play": 1005}  # even money is never rounded
    exact = {b["box"]: b["net"] for b in settle_record(case["record"])["seats"][0]["bets"]}
    assert exact["blind"] == 1507


@pytest.mark.parametrize("unit", [0, -5, 2.5, True, "100"])
def test_a_payout_unit_other_than_a_positive_integer_is_refused(unit: Any) -> None:
    record = dict(_case("valid/uth-flush-3to2-rounds-down.json")["record"], payout_unit=unit)
    with pytest.raises(InvalidRecordError, match="payout_unit"):
        settle_record(record)
