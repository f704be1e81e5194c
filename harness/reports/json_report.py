"""One JSON document for a whole run: per-parser summary, its checks by area, the gate verdict,
every result (each with its checks, docs/plugin-contract.md)."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from ..checks import AREAS, add_counts
from ..expected_failures import Gate
from ..outcomes import CaseResult
from .matrix import NOT_KNOWN


def parser_checks(results: list[CaseResult]) -> dict[str, dict[str, Any]]:
    """Per parser: its checks passed / failed / not compared, in all and by area, over the
    results with a verdict (skipped, unavailable and not-applicable ones left out)."""
    out: dict[str, dict[str, Any]] = {}
    for r in results:
        if r.outcome in NOT_KNOWN or not r.checks:
            continue
        mine = out.setdefault(r.parser, {"by_area": {a: {} for a in AREAS}})
        add_counts(mine, r.checks)
        for a in AREAS:
            add_counts(mine["by_area"][a], (r.checks.get("by_area") or {}).get(a))
    return dict(sorted(out.items()))


def document(results: list[CaseResult], gates: dict[str, Gate]) -> dict[str, Any]:
    summary: dict[str, dict[str, int]] = {}
    for r in results:
        summary.setdefault(r.parser, Counter())[r.outcome.value] += 1  # type: ignore[index]
    return {
        "summary": {p: dict(c) for p, c in sorted(summary.items())},
        "checks": parser_checks(results),
        "gate": {p: {"ok": g.ok,
                     "unexpected": [{"case": r.key, "reason": why} for r, why in g.unexpected],
                     "stale": [{"case": e.case, "outcome": e.outcome, "prefix": e.prefix} for e in g.stale],
                     "expected_failures": len(g.expected),
                     "not_applicable": [{"case": r.case, "cause": r.cause, "run_outcome": r.run_outcome}
                                        for r in g.not_applicable]}
                 for p, g in sorted(gates.items())},
        "results": [r.to_json() for r in results],
    }


def write(path: Path, results: list[CaseResult], gates: dict[str, Gate]) -> None:
    """Indented down to the results, then one result per line: json's indenting encoder is the
    slow pure-Python one, and each result carries its checks."""
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = document(results, gates)
    rows = doc.pop("results")
    head = json.dumps(doc, indent=1, ensure_ascii=False)[:-2]
    lines = ",\n".join(json.dumps(r, ensure_ascii=False) for r in rows)
    path.write_text(f'{head},\n "results": [\n{lines}\n ]\n}}\n', encoding="utf-8")
