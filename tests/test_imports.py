"""The import graph inside ``tabletop/`` has no cycles (issue 15).

Edges are the imports that run: at module level and inside functions (lazy imports run
too, when called), but not those under ``if TYPE_CHECKING:``, which never run. A cycle
fails the test with its modules in order.
"""

from __future__ import annotations

import ast
from pathlib import Path

import tabletop

ROOT = Path(tabletop.__file__).parent


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def runtime_imports(tree: ast.AST) -> list[str]:
    """Every module a file imports when its code runs (``import a.b``, ``from a import b``
    as the module ``a.b`` if that is one, else ``a``)."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and is_type_checking(node):
            for other in node.orelse:
                visit(other)
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.extend(f"{node.module}.{alias.name}" for alias in node.names)
            found.append(node.module)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = {module_name(p): p for p in ROOT.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = runtime_imports(ast.parse(path.read_text(encoding="utf-8")))
        graph[name] = {t for t in targets if t in modules and t != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first repeated last), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*path[path.index(nxt) :], nxt]
            if nxt not in state and (cycle := visit(nxt)):
                return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (cycle := visit(node)):
            return cycle
    return None


def test_the_import_graph_inside_tabletop_has_no_cycle() -> None:
    graph = import_graph()
    assert "tabletop.agents.base" in graph and graph["tabletop.agents.search"]
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert find_cycle(graph) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_type_checking_imports_are_not_edges() -> None:
    tree = ast.parse(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tabletop.agents.base import Agent\n"
        "def f():\n    from tabletop import somewhere\n"
    )
    assert "tabletop.agents.base" not in runtime_imports(tree)
    assert "tabletop.somewhere" in runtime_imports(tree)


def test_the_agent_vocabulary_is_a_leaf() -> None:
    assert import_graph()["tabletop.agents.base"] == set()
