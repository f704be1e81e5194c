"""The layering the design fixes: oracle/ imports nothing above it (generators, harness,
spark_checks), not even lazily inside a function, so the reference decoder can be used and
reasoned about on its own."""
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
