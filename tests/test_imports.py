"""The package's import graph: no module imports another that imports it back (directly or
through others), function-local imports included."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "simulator"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for t in targets:
                if t in modules and t != name and not name.startswith(t + "."):
                    graph[name].add(t)
    return graph


def _cycle(graph) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m):
        state[m] = 1
        stack.append(m)
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                return stack[stack.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_no_import_cycles():
    cycle = _cycle(_graph())
    assert cycle is None, " -> ".join(cycle)


def test_the_kernel_is_layered():
    # The engine's modules in order: each imports only those before it (and the project's
    # bottom layers: layout, jit, checks; the package's entry builds tables from strategy files
    # and checks that a rules argument is a rule set, `rules.rule_set`).
    order = ["simulator.kernel.rng", "simulator.kernel.tally", "simulator.kernel.tables",
             "simulator.kernel.count", "simulator.kernel.play", "simulator.kernel"]
    graph = _graph()
    assert sorted(m for m in graph if m.startswith("simulator.kernel")) == sorted(order)
    base = {"simulator", "simulator.layout", "simulator.jit", "simulator.checks",
            "simulator.strategy", "simulator.rules"}
    for i, m in enumerate(order):
        above = graph[m] - base - set(order[:i])
        assert not above, f"{m} imports {sorted(above)}"
