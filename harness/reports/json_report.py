"""One JSON document for a whole run: per-parser summary, the gate verdict, every result."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ..expected_failures import Gate
from ..outcomes import CaseResult


def document(results: list[CaseResult], gates: dict[str, Gate]) -> dict[str, Any]:
    summary: dict[str, dict[str, int]] = {}
    for r in results:
        summary.setdefault(r.parser, Counter())[r.outcome.value] += 1  # type: ignore[index]
    return {
        "summary": {p: dict(c) for p, c in sorted(summary.items())},
        "gate": {p: {"ok": g.ok,
                     "unexpected": [{"case": r.key, "reason": why} for r, why in g.unexpected],
                     "stale": [{"case": e.case, "outcome": e.outcome, "prefix": e.prefix} for e in g.stale],
                     "expected_failures": len(g.expected)}
                 for p, g in sorted(gates.items())},
        "results": [r.to_json() for r in results],
    }


def write(path: Path, results: list[CaseResult], gates: dict[str, Gate]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document(results, gates), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
