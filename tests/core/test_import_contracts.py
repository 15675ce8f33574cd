"""The layer contracts of pyproject.toml ([tool.importlinter], run by .ci/run) hold, and break
when a module imports across them. Each check runs ``lint-imports`` on a copy of the packages in
a temporary folder, so the real tree is never touched."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.resolve().parents[1]
PACKAGES = ("dealer_assist", "drivers", "ui")
#: the contracts that hold today (table-storage-port waits for the table's storage port)
HOLDING = ("layers", "core-pure", "core-no-database", "drivers-no-ui")
LINT_IMPORTS = "import sys, importlinter.cli as c; sys.exit(c.lint_imports_command())"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """dealer_assist/, drivers/, ui/ (Python files only: models and catalogues are not needed
    to analyse imports) and pyproject.toml, copied."""

    def not_python(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if not n.endswith(".py") and not (Path(folder) / n).is_dir()}

    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=not_python)
    shutil.copy2(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path


def lint_imports(tree: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` in ``tree`` (its packages first on the path), limited to ``contracts``."""
    args = [sys.executable, "-c", LINT_IMPORTS, "--no-cache", "--no-logo"]
    for contract in contracts:
        args += ["--contract", contract]
    env = {**os.environ, "PYTHONPATH": str(tree), "COLUMNS": "200"}  # no wrapped lines
    return subprocess.run(
        args, cwd=tree, env=env, capture_output=True, text=True, timeout=120, check=False
    )


def append(path: Path, line: str) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(f"\n{line}\n")


def test_the_packages_keep_the_layer_contracts(tree: Path) -> None:
    result = lint_imports(tree, *HOLDING)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 4 kept, 0 broken." in result.stdout


def test_a_core_module_importing_qt_breaks_the_core_contract(tree: Path) -> None:
    append(tree / "dealer_assist" / "cards.py", "import PySide6")
    result = lint_imports(tree, *HOLDING)
    assert result.returncode != 0
    out = result.stdout
    assert "The core imports no Qt, serial, USB, OpenCV, drivers or UI BROKEN" in out
    assert "dealer_assist.cards -> PySide6" in out
    assert "Layers ui > drivers > dealer_assist, imported downwards only KEPT" in out


def test_imports_against_the_layers_break_their_contracts(tree: Path) -> None:
    append(tree / "drivers" / "manual.py", "import ui.money")
    append(tree / "dealer_assist" / "evaluator.py", "import sqlalchemy")
    result = lint_imports(tree, *HOLDING)
    assert result.returncode != 0
    out = result.stdout
    assert "Layers ui > drivers > dealer_assist, imported downwards only BROKEN" in out
    assert "Device drivers import no UI BROKEN" in out
    assert "drivers.manual -> ui.money" in out
    assert "Only dealer_assist.storage imports the database libraries BROKEN" in out
    assert "dealer_assist.evaluator -> sqlalchemy" in out


def test_a_peer_module_importing_the_hand_breaks_the_one_way_contract(tree: Path) -> None:
    result = lint_imports(tree, "peer-one-way")
    assert result.returncode == 0, result.stdout + result.stderr
    engine = tree / "dealer_assist" / "engine"
    append(engine / "peer_checks.py", "import dealer_assist.engine.peer_state")
    append(engine / "peer_facts.py", "import dealer_assist.engine.peer_views")
    result = lint_imports(tree, "peer-one-way")
    assert result.returncode != 0
    out = result.stdout
    assert "BROKEN" in out
    assert "dealer_assist.engine.peer_checks -> dealer_assist.engine.peer_state" in out
    assert "dealer_assist.engine.peer_facts -> dealer_assist.engine.peer_views" in out
