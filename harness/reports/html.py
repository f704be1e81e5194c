"""A single self-contained HTML page (no script, font or style from the network): the summary
matrix of parsers against feature areas (summary.py, summary_html.py), outcome counts per parser,
one matrix per parser (event types down, server versions across; each cell the checks of that
event type "passed/compared", coloured, grey where none was compared), then every non-pass result
with its message and first field differences, expected and actual."""
from __future__ import annotations

from collections import Counter
from html import escape
from pathlib import Path
from typing import Any

from ..checks import FAILED, NOT_COMPARED, PASSED
from ..expected_failures import Gate
from ..outcomes import CaseResult, Outcome
from . import summary, summary_html
from .matrix import Matrix, build

STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.8em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}
th{background:#f3f3f3}
td.pass{background:#c8f0c8}td.fail{background:#f8c0c0}td.broken{background:#f0a050}
td.na{background:#e4e4e4;color:#666}td.none{background:#fff}
td.num{text-align:right}
.ok{color:#060;font-weight:bold}.bad{color:#a00;font-weight:bold}
code{font-size:12px;white-space:pre-wrap}
"""
ORDER = [o.value for o in Outcome]


def _summary(results: list[CaseResult], gates: dict[str, Gate]) -> str:
    counts: dict[str, Counter] = {}
    for r in results:
        counts.setdefault(r.parser, Counter())[r.outcome.value] += 1
    head = "".join(f"<th>{o}</th>" for o in ORDER)
    rows = []
    for parser, c in sorted(counts.items()):
        gate = gates.get(parser)
        verdict = ('<span class="ok">as expected</span>' if gate is None or gate.ok else
                   f'<span class="bad">{len(gate.unexpected)} unexpected, {len(gate.stale)} stale</span>')
        cells = "".join(f'<td class="num">{c.get(o, 0) or ""}</td>' for o in ORDER)
        rows.append(f"<tr><th>{escape(parser)}</th>{cells}<td>{verdict}</td></tr>")
    return f"<table><tr><th>parser</th>{head}<th>gate</th></tr>{''.join(rows)}</table>"


def _matrix_table(m: Matrix, parser: str) -> str:
    versions = [v for v in m.versions if any(m.cell(parser, t, v) for t in m.event_types)]
    head = "".join(f"<th>{escape(v)}</th>" for v in versions)
    rows = []
    for t in m.event_types:
        cells = []
        for v in versions:
            c = m.cell(parser, t, v)
            if c is None:
                cells.append('<td class="none"></td>')
                continue
            failed = ", ".join(f"{n} {o}" for o, n in sorted(c.failed.items()))
            checks = c.checks
            tip = (f"checks: {checks.get(PASSED, 0)} passed, {checks.get(FAILED, 0)} failed, "
                   f"{checks.get(NOT_COMPARED, 0)} not compared; cases: {c.passed} passed"
                   f"{'; ' + failed if failed else ''}; versions: {', '.join(sorted(c.versions))}")
            compared = checks.get(PASSED, 0) + checks.get(FAILED, 0)
            text = f"{checks.get(PASSED, 0)}/{compared}" if compared else "nc"
            cells.append(f'<td class="{c.check_status}" title="{escape(tip)}">{text}</td>')
        if any('class="none"' not in x for x in cells):
            rows.append(f"<tr><th>{escape(t)}</th>{''.join(cells)}</tr>")
    return (f'<h2 id="matrix-{escape(parser)}">{escape(parser)}</h2>'
            f'<table class="matrix" data-parser="{escape(parser)}"><tr><th>event type</th>{head}</tr>'
            f"{''.join(rows)}</table>")


def _modes_table(m: Matrix) -> str:
    """Stream parser x stream mode: cases passed / cases run in that mode (not_applicable: the
    parser does not support the mode; the cause is in each result's message)."""
    parsers = sorted({p for p, _ in m.mode_cells})
    if not parsers:
        return ""
    head = "".join(f"<th>{escape(mode)}</th>" for mode in m.modes)
    rows = []
    for parser in parsers:
        cells = []
        for mode in m.modes:
            c = m.mode_cell(parser, mode)
            if c is None:
                cells.append('<td class="none"></td>')
            elif set(c.failed) == {Outcome.NOT_APPLICABLE.value}:
                cells.append('<td class="na" title="not supported by the parser">n/a</td>')
            else:
                failed = ", ".join(f"{n} {o}" for o, n in sorted(c.failed.items()))
                tip = f"{c.passed} passed{'; ' + failed if failed else ''}"
                cells.append(f'<td class="{c.status}" title="{escape(tip)}">{c.passed}/{c.total}</td>')
        rows.append(f"<tr><th>{escape(parser)}</th>{''.join(cells)}</tr>")
    return (f'<h2>Stream modes: parser × mode</h2><table class="matrix modes"><tr><th>parser</th>{head}</tr>'
            f"{''.join(rows)}</table>")


def failure_anchors(results: list[CaseResult]) -> dict[tuple[str, str], str]:
    """The id of each non-pass result's row in the failure list, for the summary's links."""
    failing = [r for r in results if r.outcome is not Outcome.PASS]
    return {(r.parser, r.key): f"r{i}" for i, r in enumerate(failing)}


def _failures(results: list[CaseResult], gates: dict[str, Gate], anchors: dict[tuple[str, str], str]) -> str:
    rows = []
    for r in results:
        if r.outcome is Outcome.PASS:
            continue
        gate = gates.get(r.parser)
        status = "expected" if gate is not None and gate.is_expected(r) else '<span class="bad">unexpected</span>'
        if r.outcome is Outcome.NOT_APPLICABLE and (gate is None or all(u is not r for u, _ in gate.unexpected)):
            status = escape(f"not applicable (cause {r.cause}); the parser's outcome: {r.run_outcome}")
        diffs = "\n".join(f"{d.get('event_type')} @{d.get('position')} {d.get('path')}"
                          + (f" ({d['where']})" if d.get("where") else "")
                          + (f" [library: {d['library_type']}]" if d.get("library_type") else "")
                          + f": expected {d.get('expected')!r}, got {d.get('actual')!r}" for d in r.diffs[:5])
        detail = f"<details><summary>diffs</summary><code>{escape(diffs)}</code></details>" if diffs else ""
        rows.append(f'<tr id="{anchors[(r.parser, r.key)]}"><td>{escape(r.parser)}</td>'
                    f"<td>{escape(r.key)}</td><td>{r.outcome}</td><td class=\"num\">{_checks_text(r)}</td>"
                    f"<td>{status}</td><td>{escape(r.message[:300])}{detail}</td></tr>")
    if not rows:
        return "<p>Every case passed.</p>"
    return ("<table class=\"failures\"><tr><th>parser</th><th>case</th><th>outcome</th>"
            "<th>checks passed / failed / not compared</th><th>gate</th>"
            f"<th>message</th></tr>{''.join(rows)}</table>")


def _checks_text(r: CaseResult) -> str:
    c = r.checks or {}
    return f"{c.get(PASSED, 0)} / {c.get(FAILED, 0)} / {c.get(NOT_COMPARED, 0)}" if c else ""


def render(results: list[CaseResult], gates: dict[str, Gate],
           wire_faults: list[dict[str, Any]] | None = None) -> str:
    m = build(results)
    anchors = failure_anchors(results)
    overview = summary_html.render(summary.summarize(results, gates, wire_faults), anchors)
    legend = ('<p>Each cell: the checks of that event type that passed / all compared. '
              '<span style="background:#c8f0c8">green</span> all passed, '
              '<span style="background:#f8c0c0">red</span> a check failed, '
              '<span style="background:#f0a050">orange</span> a crash or timeout, '
              '<span style="background:#e4e4e4">grey</span> nothing compared (nc: outside the '
              'capabilities, after a failed reply, skipped or tool unavailable). '
              'Hover a cell for passed / failed / not compared and the cases.</p>')
    return ("<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>Binlog parser conformance</title><style>{STYLE}{summary_html.STYLE}</style></head><body>"
            f"<h1>Binlog parser conformance</h1><h2>Parsers × features</h2>{overview}"
            f"<h2>Outcomes per parser</h2>{_summary(results, gates)}"
            f"<h2>Matrix: parser × event type × server version</h2>{legend}"
            + "".join(_matrix_table(m, p) for p in m.parsers) + _modes_table(m)
            + f"<h2>Not passing</h2>{_failures(results, gates, anchors)}</body></html>\n")


def write(path: Path, results: list[CaseResult], gates: dict[str, Gate],
          wire_faults: list[dict[str, Any]] | None = None) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render(results, gates, wire_faults), encoding="utf-8")
