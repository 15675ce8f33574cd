"""The console's modules import each other without a cycle (the cycle
``ui/console/app.py`` <-> ``ui/console/demo.py`` is broken: the demo drives a
:class:`ui.console.demo.DemoConsole`, which the app's ``Console`` is, and imports no app).

Imports inside functions count too: a cycle hidden in a function is still a module called back
by the one it called."""

from __future__ import annotations

from pathlib import Path

from tests.fixtures.import_graph import cycles, import_graph

ROOT = Path(__file__).resolve().parents[2]


def test_no_import_cycle_in_the_console() -> None:
    """No module of ``ui/console`` is imported back by a module it imports."""
    assert cycles(import_graph(ROOT, "ui.console")) == []


def test_the_check_finds_a_cycle() -> None:
    """The check reports a cycle when there is one."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert cycles(graph) == [["a", "b"]]
