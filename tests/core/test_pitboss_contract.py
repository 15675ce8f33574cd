"""The pit-boss application never imports the dealer console: its import-linter contract
(``pitboss-not-console`` in pyproject.toml) holds today and breaks when it would."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_import_contracts import append, lint_imports, tree  # noqa: F401  (fixture)

pytestmark = pytest.mark.integration


def test_the_pitboss_keeps_away_from_the_console(tree: Path) -> None:  # noqa: F811
    result = lint_imports(tree, "pitboss-not-console")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 1 kept, 0 broken." in result.stdout
    append(tree / "ui" / "pitboss" / "texts.py", "import ui.poker")
    result = lint_imports(tree, "pitboss-not-console")
    assert result.returncode == 1
    assert "ui.pitboss.texts -> ui.poker" in result.stdout
