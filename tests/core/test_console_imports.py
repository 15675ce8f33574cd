"""The console's modules import each other without a cycle (the cycle
``ui/console/app.py`` <-> ``ui/console/demo.py`` is broken: the demo drives a
:class:`ui.console.demo.DemoConsole`, which the app's ``Console`` is, and imports no app).

Imports inside functions count too: a cycle hidden in a function is still a module called back
by the one it called."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parent.resolve().parent.parent


def import_graph(package: str) -> dict[str, set[str]]:
    """module -> the modules of ``package`` it imports (anywhere in its body)."""
    modules = {}
    for path in (ROOT / package.replace(".", "/")).rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                deps.add(node.module)
                deps.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        graph[name] = {d for d in deps if d in modules and d != name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import cycles of ``graph``: strongly connected groups of more than one module."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        order[v] = low[v] = len(order)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in order:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], order[w])
        if low[v] == order[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in order:
            visit(v)
    return found


def test_no_import_cycle_in_the_console() -> None:
    """No module of ``ui/console`` is imported back by a module it imports."""
    assert cycles(import_graph("ui.console")) == []


def test_the_check_finds_a_cycle() -> None:
    """The check reports a cycle when there is one."""
    graph = {"a": {"b"}, "b": {"a"}, "c": {"a"}}
    assert cycles(graph) == [["a", "b"]]
