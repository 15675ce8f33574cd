"""``dealer-assist console``: the argument checks and the headless demo (``--demo N
--screenshot DIR``) against the shipped table and its built-in emulator."""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dealer_assist.errors import ConfigError
from dealer_assist.storage.journal import Journal
from ui.commands import console as command

REPO = Path(__file__).parent.resolve().parents[1]


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="dealer-assist")
    command.register(parser.add_subparsers(dest="command"))
    return parser.parse_args(["console", *argv])


def test_options_are_checked() -> None:
    with pytest.raises(ConfigError, match="needs --demo"):
        command.run(parse("--screenshot", "x"))
    with pytest.raises(ConfigError, match="--size"):
        command.parse_size("big")
    assert command.parse_size("1280x800") == (1280, 800)
    args = parse("--windowed", "--lang", "en", "--table", "t.toml")
    assert (args.windowed, args.lang, args.table, args.demo) == (True, "en", "t.toml", 0)


def test_demo_plays_a_hand_and_saves_every_phase(tmp_path: Path) -> None:
    """The real command in its own process: a QApplication that has run exec() cannot host
    another console in the same process, and the command is what a user runs anyway."""
    shots = tmp_path / "shots"
    db = tmp_path / "journal.db"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "ui.cli",
            "console",
            "--demo",
            "1",
            "--screenshot",
            str(shots),
            "--db",
            str(db),
            "--lang",
            "en",
            "--seed",
            "4",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    names = sorted(p.name for p in shots.glob("*.png"))
    phases = [n.split("_", 2)[2].removesuffix(".png") for n in names]
    assert phases[:3] == ["bets_open", "rien_ne_va_plus", "preflop"]
    assert {"flop", "river", "reveal", "settlement", "settlement_done"} <= set(phases)
    assert all((shots / n).stat().st_size > 20_000 for n in names)
    assert "hand 1: settled" in proc.stdout and f"{len(names)} screenshots" in proc.stdout
    settled = next(line for line in proc.stdout.splitlines() if line.startswith("hand 1: "))
    nets = settled.removeprefix("hand 1: settled (").removesuffix(")").split(", ")
    assert all(re.fullmatch(r"seat \d [+-]?EUR [\d,]+\.\d\d", n) for n in nets), settled
    with Journal(str(db)) as journal:
        assert journal.count() == 1
        assert journal.verify().ok


def test_headless_demo_keeps_its_hands_out_of_the_table_journal(tmp_path: Path) -> None:
    """No display: `dealer-assist console` plays 3 demo hands. They go to a journal of their own
    beside the screenshots, never to the table's journal in the user data folder."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
    }
    env |= {"XDG_DATA_HOME": str(tmp_path / "data"), "PYTHONPATH": str(REPO)}
    proc = subprocess.run(
        [sys.executable, "-m", "ui.cli", "console", "--lang", "en"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "no display here" in proc.stderr
    table_journal = tmp_path / "data" / "dealer-assist" / "journal.db"
    assert not table_journal.exists()
    demo_journal = tmp_path / "console-demo" / "demo-journal.db"
    assert f"demo hands journaled in {Path('console-demo') / 'demo-journal.db'}" in proc.stdout
    hands = [line.split(":")[0] for line in proc.stdout.splitlines() if line.startswith("hand ")]
    assert hands == ["hand 1", "hand 2", "hand 3"], proc.stdout  # each hand summed up once
    with Journal(str(demo_journal)) as journal:
        assert journal.count() == 3
        assert journal.verify().ok
