"""``dealer-assist console``: the argument checks and the headless demo (``--demo N
--screenshot DIR``), run in-process against the shipped table and its built-in emulator."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest

from dealer_assist.errors import ConfigError
from dealer_assist.storage.journal import Journal
from tests.console_conftest import console_app  # noqa: F401 (fixture; offscreen Qt)
from ui.commands import console as command


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


def test_demo_plays_a_hand_and_saves_every_phase(
    console_app: Any,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    shots = tmp_path / "shots"
    db = tmp_path / "journal.db"
    status = command.run(
        parse("--demo", "1", "--screenshot", str(shots), "--db", str(db), "--lang", "en",
              "--seed", "4")
    )  # fmt: skip
    assert status == 0
    names = sorted(p.name for p in shots.glob("*.png"))
    phases = [n.split("_", 2)[2].removesuffix(".png") for n in names]
    assert phases[:3] == ["bets_open", "rien_ne_va_plus", "preflop"]
    assert {"flop", "river", "reveal", "settlement", "settlement_done"} <= set(phases)
    assert all((shots / n).stat().st_size > 20_000 for n in names)
    out = capsys.readouterr().out
    assert "hand 1: settled" in out and f"{len(names)} screenshots" in out
    with Journal(str(db)) as journal:
        assert journal.count() == 1
        assert journal.verify().ok
