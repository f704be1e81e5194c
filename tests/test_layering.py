"""The layering the design fixes: oracle/ imports nothing above it (generators, harness,
spark_checks), not even lazily inside a function, so the reference decoder can be used and
reasoned about on its own; and no module of the project takes part in an import cycle, at
module level or inside a function (a lazy import only hides a cycle: the two modules still
cannot be understood, or split, one without the other)."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ABOVE_ORACLE = {"generators", "harness", "spark_checks", "tests", "plugins"}


def _imported_packages(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_oracle_imports_nothing_above_it() -> None:
    offenders = {str(p.relative_to(ROOT)): sorted(_imported_packages(p) & ABOVE_ORACLE)
                 for p in sorted((ROOT / "oracle").rglob("*.py"))}
    assert {k: v for k, v in offenders.items() if v} == {}
    assert len(offenders) > 30  # the scan saw the package


PROJECT_PACKAGES = ("oracle", "harness", "generators", "spark_checks", "tests")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _project_modules() -> dict[str, Path]:
    return {_module_name(p): p for pkg in PROJECT_PACKAGES for p in sorted((ROOT / pkg).rglob("*.py"))}


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The project modules a module imports anywhere in its body: `from P import m` names the
    submodule P.m when there is one, else P (TYPE_CHECKING imports included)."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in modules)
        elif isinstance(node, ast.ImportFrom):
            base = package
            for _ in range(node.level - 1):
                base = base.rpartition(".")[0]
            target = (f"{base}.{node.module}" if node.module else base) if node.level else (node.module or "")
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.update([sub] if sub in modules else [target] if target in modules else [])
    found.discard(name)
    return found


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[v] = min(low[v], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles() -> None:
    modules = _project_modules()
    graph = {name: _imports(name, path, modules) for name, path in modules.items()}
    assert _cycles(graph) == []
    assert len(graph) > 200 and sum(map(len, graph.values())) > 500  # the scan saw the project


def test_the_cycle_finder_finds_a_lazy_cycle() -> None:
    """A function-level import that closes a loop counts (what the two cycles issue 21 names were)."""
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []
