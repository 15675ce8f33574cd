"""Every golden case in ../shared/cases: valid ones settle as expected, invalid ones exit 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.errors import InvalidRecordError
from dealer_assist.record import settle_record
from tests.conftest import CASES

if not CASES.is_dir():  # README: tests that need ../shared skip without it
    pytest.skip(f"golden cases not found at {CASES}", allow_module_level=True)

VALID = sorted((CASES / "valid").glob("*.json"))
INVALID = sorted((CASES / "invalid").glob("*.json"))


def _normalise(settlement: dict[str, Any]) -> dict[str, Any]:
    """best_five compared as a set (HAND_RECORD.md: its order is free)."""
    out = json.loads(json.dumps(settlement))

    def fix(hand: dict[str, Any] | None) -> None:
        if hand is not None:
            hand["best_five"] = sorted(hand["best_five"])

    fix(out["dealer"]["hand"])
    for seat in out["seats"]:
        fix(seat["hand"])
    return out


def test_cases_present() -> None:
    assert len(VALID) >= 20 and len(INVALID) >= 5, f"golden cases missing under {CASES}"


@pytest.mark.parametrize("path", VALID, ids=lambda p: p.stem)
def test_valid_case_settles_as_expected(path: Path) -> None:
    case = json.loads(path.read_text())
    got = settle_record(case["record"])
    assert _normalise(got) == _normalise(case["expected"]), case["why"]


@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_invalid_case_is_rejected_naming_a_field(path: Path) -> None:
    case = json.loads(path.read_text())
    with pytest.raises(InvalidRecordError) as err:
        settle_record(case["record"])
    assert err.value.field and err.value.reason


def _cli(args: list[str], stdin: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ui.cli", "settle", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.integration  # the settle command in a subprocess
def test_cli_settles_every_valid_case_as_json_lines() -> None:
    cases = [json.loads(p.read_text()) for p in VALID]
    stdin = "".join(json.dumps(c["record"]) + "\n" for c in cases)
    proc = _cli(["-"], stdin)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert len(lines) == len(cases)
    for case, line in zip(cases, lines, strict=True):
        assert _normalise(json.loads(line)) == _normalise(case["expected"]), case["name"]


@pytest.mark.integration
@pytest.mark.parametrize("path", INVALID, ids=lambda p: p.stem)
def test_cli_invalid_file_exits_2_and_names_the_field(path: Path, tmp_path: Path) -> None:
    record = json.loads(path.read_text())["record"]
    f = tmp_path / "record.json"
    f.write_text(json.dumps(record, indent=1))
    proc = _cli([str(f)], "")
    assert proc.returncode == 2
    assert proc.stdout == ""
    field = settle_field(record)
    assert field in proc.stderr


def settle_field(record: dict[str, Any]) -> str:
    try:
        settle_record(record)
    except InvalidRecordError as e:
        return e.field
    raise AssertionError("record was accepted")


@pytest.mark.integration
def test_cli_json_lines_error_line_in_place() -> None:
    good = json.loads(VALID[0].read_text())["record"]
    bad = json.loads(INVALID[0].read_text())["record"]
    stdin = "\n".join(json.dumps(r) for r in (good, bad, good)) + "\n"
    proc = _cli([], stdin)
    assert proc.returncode == 2
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert len(out) == 3
    assert "error" not in out[0] and "error" not in out[2]
    assert set(out[1]) == {"error"}
