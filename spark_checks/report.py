"""The parser x event type x server version matrix of a run, built on the executors with the
harness's own matrix code (harness/reports/matrix.py: one partial matrix per partition, merged),
so only the cells reach the driver, and printed as text."""
from __future__ import annotations

from typing import Iterable, Iterator

from harness.outcomes import CaseResult, Outcome
from harness.reports.matrix import Cell, Matrix, build, from_cells

Cells = dict[tuple[str, str, str], Cell]
MATRIX_COLUMNS = ("case", "parser", "outcome", "server_version", "event_types", "failed_types")
# pass; fail (mismatch/rejected); broken (crash/timeout); na (skipped/unavailable)
_MARK = {"pass": "", "fail": "F ", "broken": "X ", "na": "- "}


def _partial(rows: Iterable) -> Iterator[Cells]:
    results = [CaseResult(r["case"], r["parser"], Outcome(r["outcome"]), server_version=r["server_version"],
                          event_types=list(r["event_types"] or []), failed_types=list(r["failed_types"] or []))
               for r in rows]
    yield build(results).cells


def _merge(a: Cells, b: Cells) -> Cells:
    for key, cell in b.items():
        into = a.setdefault(key, Cell())
        into.passed += cell.passed
        into.failed.update(cell.failed)
        into.versions |= cell.versions
    return a


def matrix(df) -> Matrix:
    cells = df.select(*MATRIX_COLUMNS).rdd.mapPartitions(_partial).fold({}, _merge)
    return from_cells(cells)


def cell_text(cell: Cell | None) -> str:
    """`12` all passed; `F 3/12` failures out of 12 (X: crash/timeout, -: skipped/unavailable)."""
    if cell is None:
        return "."
    if not cell.failed:
        return str(cell.total)
    return f"{_MARK[cell.status]}{sum(cell.failed.values())}/{cell.total}"


def render(m: Matrix) -> str:
    lines = []
    for parser in m.parsers:
        versions = [v for v in m.versions if any(m.cell(parser, t, v) for t in m.event_types)]
        types = [t for t in m.event_types if any(m.cell(parser, t, v) for v in versions)]
        cols = [[cell_text(m.cell(parser, t, v)) for t in types] for v in versions]
        width0 = max([len("event type"), *map(len, types)])
        widths = [max(len(v), *map(len, col)) for v, col in zip(versions, cols)]
        lines.append(f"== {parser}: inputs with an event type that passed / failed, by server version")
        lines.append("  ".join(["event type".ljust(width0), *(v.rjust(w) for v, w in zip(versions, widths))]))
        for i, t in enumerate(types):
            lines.append("  ".join([t.ljust(width0), *(col[i].rjust(w) for col, w in zip(cols, widths))]))
        lines.append("")
    lines.append("cells: N inputs all passed; F failed/N mismatch or rejected; X crash or timeout; "
                 "- skipped or unavailable; . none")
    return "\n".join(lines)
