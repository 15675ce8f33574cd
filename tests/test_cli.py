"""``dealer-assist`` argument parsing: no abbreviated options, and a sub-command's unknown
argument is reported with that sub-command's usage."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from ui import cli

REPO = Path(__file__).resolve().parents[1]


def _error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as exit_:
        cli.main(list(argv))
    assert exit_.value.code == 2
    return capsys.readouterr().err


def test_an_abbreviated_option_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(capsys, "simulate", "--hand", "3")
    assert "unrecognized arguments: --hand 3" in err
    assert cli.build_parser().parse_args(["simulate", "--hands", "3"]).hands == 3


@pytest.mark.parametrize(
    ("argv", "usage"),
    [
        (["simulate", "--handz", "5"], "usage: dealer-assist simulate "),
        (["audit", "verify", "--db", "x.db", "--bogus"], "usage: dealer-assist audit verify "),
        (["settle", "-", "surplus"], "usage: dealer-assist settle "),
    ],
)
def test_unknown_argument_shows_the_sub_command_usage(
    capsys: pytest.CaptureFixture[str], argv: list[str], usage: str
) -> None:
    err = _error(capsys, *argv)
    assert err.startswith(usage), err
    assert f"dealer-assist {' '.join(usage.split()[2:])}: error: unrecognized arguments" in err


def test_unknown_top_level_option_keeps_the_top_usage(capsys: pytest.CaptureFixture[str]) -> None:
    err = _error(capsys, "--bogus", "simulate")
    assert err.startswith("usage: dealer-assist [-h]") and "unrecognized arguments: --bogus" in err


@pytest.mark.integration  # subprocesses
@pytest.mark.parametrize(
    "argv",
    [
        ["-m", "drivers.emulator", "--pty", "--see", "3"],  # --seed abbreviated
        ["-m", "ui.commands.camera", "eval", "photos", "--label", "x.csv"],  # --labels
    ],
)
def test_module_entry_points_refuse_abbreviations_too(argv: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, *argv], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert done.returncode == 2
    assert f"unrecognized arguments: {' '.join(argv[-2:])}" in done.stderr
