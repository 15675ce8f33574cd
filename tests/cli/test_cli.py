"""``dealer-assist`` argument parsing: no abbreviated options, and a sub-command's unknown
argument is reported with that sub-command's usage."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ui import cli

REPO = Path(__file__).parent.resolve().parents[1]


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


# -- start-up: a command imports only what it needs ------------------------------------------

#: Modules no command line below may import: the database layer, the simulators, Qt, OpenCV.
HEAVY = ("sqlalchemy", "alembic", "tqdm", "PySide6", "cv2", "pokerkit", "ui.commands.simulate")


@pytest.mark.integration  # subprocesses
@pytest.mark.parametrize(
    ("argv", "status"),
    [
        (["settle", "RECORD"], 0),
        (["--help"], 0),
        (["settle", "--help"], 0),
        (["settle", "--bogus"], 2),
        (["bogus"], 2),
        ([], 2),
    ],
)
def test_settle_help_and_bad_arguments_import_nothing_heavy(
    tmp_path: Path, argv: list[str], status: int
) -> None:
    record = tmp_path / "hand.json"
    case = REPO.parent / "shared" / "cases" / "pot" / "valid" / "holdem-big-blind-only.json"
    record.write_text(json.dumps(json.loads(case.read_text())["record"]))
    argv = [str(record) if a == "RECORD" else a for a in argv]
    code = (
        "import sys\nfrom ui.cli import main\n"
        "try:\n    status = main(sys.argv[1:])\nexcept SystemExit as e:\n    status = e.code\n"
        f"heavy = sorted(m for m in sys.modules\n"
        f"    if m.split('.')[0] in {HEAVY!r} or m in {HEAVY!r})\n"
        "print('HEAVY', heavy, file=sys.stderr)\nsys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert done.returncode == status, done.stderr
    assert "HEAVY []" in done.stderr, done.stderr


#: The banked games' machinery: settling a pot game's records needs none of it.
BANKED = (
    "dealer_assist.engine.rules",
    "dealer_assist.engine.operations",
    "dealer_assist.engine.banked",
    "dealer_assist.paytables",
    "dealer_assist.games.uth",
)


@pytest.mark.integration  # subprocesses
@pytest.mark.parametrize("case", ["holdem-big-blind-only", "stud-bring-in-fold-passes-on"])
def test_settling_a_pot_game_loads_no_banked_game_module(tmp_path: Path, case: str) -> None:
    record = tmp_path / "hand.json"
    path = REPO.parent / "shared" / "cases" / "pot" / "valid" / f"{case}.json"
    record.write_text(json.dumps(json.loads(path.read_text())["record"]))
    code = (
        "import sys\nfrom ui.cli import main\nstatus = main(['settle', sys.argv[1]])\n"
        f"print('LOADED', sorted(m for m in sys.modules if m in {BANKED!r}), file=sys.stderr)\n"
        "sys.exit(status)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(record)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert "LOADED []" in done.stderr, done.stderr


@pytest.mark.integration  # a subprocess
def test_building_the_parser_imports_no_command_module() -> None:
    code = (
        "import sys\nfrom ui.cli import build_parser\nbuild_parser()\n"
        "print(sorted(m for m in sys.modules if m.startswith('ui.commands')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=REPO
    )
    assert done.returncode == 0 and done.stdout.strip() == "[]", done.stdout + done.stderr


def test_every_command_has_help_and_its_module_registers_it() -> None:
    for command in cli.COMMANDS:
        parser = cli.build_parser()
        lazy = parser._subparsers._group_actions[0].choices[command.name]  # type: ignore[union-attr]
        try:
            real = lazy.real()
        except cli.MissingExtraError:  # an extra this environment lacks: named, not hidden
            continue
        assert real.prog == f"dealer-assist {command.name}"
        assert real.format_help().startswith(f"usage: dealer-assist {command.name}")


@pytest.mark.integration  # subprocesses
def test_a_missing_extra_is_named(tmp_path: Path) -> None:
    # PySide6 made unimportable as if the gui extra were not installed
    code = (
        "import sys\nsys.modules['PySide6'] = None\nfrom ui.cli import main\n"
        "sys.exit(main(['console', '--lang', 'en']))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "dealer-assist console: needs the 'gui' extra" in done.stderr
    assert "pip install 'dealer-assist[gui]'" in done.stderr
