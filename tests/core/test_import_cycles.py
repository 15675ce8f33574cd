"""No module of the core (``dealer_assist/``), the drivers or the UI is imported back by a module
it imports, counting every import: at the top, inside a function, under ``TYPE_CHECKING``
(docs/ARCHITECTURE.md).

import-linter's layer contracts (pyproject.toml, ``lint-imports``) keep the packages in their
order; this keeps the modules inside them one way, where an import moved into a function (or
under ``TYPE_CHECKING``) would otherwise hide a cycle from a reader and from the contracts. An
import deferred for start-up alone (settle of a pot game loads no banked engine, no table) is
fine: it is an edge like any other, and it closes no cycle. The graph is read from the source
with ``ast`` (:mod:`tests.fixtures.import_graph`); nothing is imported.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fixtures.import_graph import cycle_path, cycles, describe, import_graph

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("package", ["dealer_assist", "drivers", "ui"])
def test_no_import_cycle_in_a_package(package: str) -> None:
    """Every module of the core, the drivers and the UI imports one way."""
    graph = import_graph(ROOT, package)
    found = [describe(graph, g) for g in cycles(graph)]
    assert not found, f"import cycles in {package}:\n" + "\n".join(found)


def test_the_graph_sees_imports_in_functions_and_under_type_checking() -> None:
    """The deferred imports the core has are edges: the Hold'em plug-in's table modules (inside
    its methods, for start-up) and the operations the protocol types (under TYPE_CHECKING)."""
    graph = import_graph(ROOT, "dealer_assist")
    plugin = graph["dealer_assist.games.holdem_plugin"]
    assert plugin["dealer_assist.games.holdem_hand"].how == "function"
    assert plugin["dealer_assist.games.holdem_record"].how == "top"
    state = graph["dealer_assist.engine.state"]
    assert state["dealer_assist.engine.operations"].how == "TYPE_CHECKING"


def write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


@pytest.mark.parametrize(
    ("b_imports_a", "how"),
    [
        ("from pkg.a import A\n", "line 1"),
        ("def f():\n    from pkg.a import A\n    return A\n", "line 2, function"),
        (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg import a\n",
            "line 3, TYPE_CHECKING",
        ),
        ("class B:\n    def m(self):\n        import pkg.a\n", "line 3, function"),
        ("from . import a\n", "line 1"),
        ("from .a import A\n", "line 1"),
    ],
)
def test_a_cycle_is_found_however_it_is_hidden(tmp_path: Path, b_imports_a: str, how: str) -> None:
    """``pkg.a`` imports ``pkg.b`` at the top; ``pkg.b`` imports ``pkg.a`` back, at the top, in a
    function, a method, under TYPE_CHECKING or relatively: a cycle each time, named with the
    line and the way of the import that closes it."""
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": "",
            "pkg/a.py": "from pkg.b import B\nA = 1\n",
            "pkg/b.py": b_imports_a,
            "pkg/c.py": "from pkg import a\n",  # imports into the cycle: not part of it
        },
    )
    graph = import_graph(root, "pkg")
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
    assert describe(graph, ["pkg.a", "pkg.b"]) == (
        f"pkg.a (line 1) -> pkg.b ({how}) -> pkg.a  [modules: pkg.a, pkg.b]"
    )


def test_one_way_imports_and_a_package_importing_its_modules_are_no_cycle(
    tmp_path: Path,
) -> None:
    """Deferred imports that go one way, an ``else`` of TYPE_CHECKING, a package's ``__init__``
    importing its modules (which import a sibling through the package) are no cycle."""
    root = write(
        tmp_path,
        {
            "pkg/__init__.py": "from pkg.a import A\n",
            "pkg/a.py": "def f():\n    from pkg.sub import c\n    return c\nA = 1\n",
            "pkg/sub/__init__.py": "",
            "pkg/sub/c.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    pass\nelse:\n    from pkg.sub import d\n"
            ),
            "pkg/sub/d.py": "import pkg.b\n",
            "pkg/b.py": "X = 1\n",
        },
    )
    graph = import_graph(root, "pkg")
    assert graph["pkg.sub.c"] == {"pkg.sub.d": graph["pkg.sub.c"]["pkg.sub.d"]}
    assert graph["pkg.sub.c"]["pkg.sub.d"].how == "top"
    assert cycles(graph) == []


def test_every_cycle_is_reported_once_with_a_way_round_it() -> None:
    """Two separate cycles, one of three modules, found alike from any starting point."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": {"d"}, "f": {"a"}}
    assert cycles(graph) == [["a", "b", "c"], ["d", "e"]]
    assert cycle_path(graph, ["a", "b", "c"]) == ["a", "b", "c", "a"]
    assert cycle_path(graph, ["d", "e"]) == ["d", "e", "d"]
