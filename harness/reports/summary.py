"""The summary matrix that leads the combined report: parsers (rows) against feature areas
(column groups: event types, column types, server versions, metadata modes, transport, wire
faults). Pure functions over results; html.py only renders what this computes.

A cell counts the checks (harness/checks.py) of that parser's cases exercising that feature:
passed, failed and not compared; an event type's cell counts that event type's checks, a
column type's the row values of that type, any other feature every check of its cases. So one
cosmetic difference fails one check, not every cell of its case. A cell also keeps its cases, the
failing ones (a failed check, or a failed reply) with their first difference in the cell, and how
many of those the expected-failure file names. Skipped, unavailable and not-applicable cases are
left out: nothing is known about them (a stream parser skips every binlog no server could serve;
a documented refusal is no failure)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..checks import FAILED, NOT_COMPARED, PASSED, add_counts
from ..expected_failures import Gate
from ..features import COLUMN_TYPES, MODES
from ..outcomes import CaseResult
from .matrix import NOT_KNOWN, _group_key, version_group

EVENT_TYPES, VERSIONS, TRANSPORT, WIRE_FAULTS = "event types", "server versions", "transport", "wire faults"
AREAS = (EVENT_TYPES, COLUMN_TYPES, VERSIONS, MODES, TRANSPORT, WIRE_FAULTS)


@dataclass
class Tally:
    passed: int = 0        # checks
    failed: int = 0
    not_compared: int = 0
    cases: int = 0
    expected: int = 0  # failing cases its expected-failure file names
    failing: list[str] = field(default_factory=list)  # case ids (or fault names)
    first: dict[str, str] = field(default_factory=dict)  # failing case -> its first difference in the cell

    @property
    def compared(self) -> int:
        return self.passed + self.failed

    @property
    def ratio(self) -> float | None:
        """Checks passed over checks compared; None when nothing was compared (never a pass)."""
        return self.passed / self.compared if self.compared else None


@dataclass
class Summary:
    parsers: list[str]
    areas: list[tuple[str, list[str]]]  # (area, its columns in order), empty areas left out
    cells: dict[tuple[str, str, str], Tally]

    def cell(self, parser: str, area: str, value: str) -> Tally | None:
        return self.cells.get((parser, area, value))


def areas_of(r: CaseResult) -> dict[str, list[str]]:
    """The features one result exercises, by area."""
    return {EVENT_TYPES: r.event_types or ["(no events)"],
            COLUMN_TYPES: r.features.get(COLUMN_TYPES, []),
            VERSIONS: [version_group(r.server_version)],
            MODES: r.features.get(MODES, []),
            TRANSPORT: [r.transport]}


def counts_for(r: CaseResult, area: str, value: str) -> dict[str, int]:
    """The checks of one result that a cell counts: its event type's, its column type's, or all."""
    checks = r.checks or {}
    if area == EVENT_TYPES:
        return add_counts({}, (checks.get("by_event_type") or {}).get(value))
    if area == COLUMN_TYPES:
        return add_counts({}, (checks.get("by_column_type") or {}).get(value))
    return add_counts({}, checks)


def _first_diff(r: CaseResult, area: str, value: str) -> str:
    """The first reported difference of the case that belongs to the cell, with both values."""
    for d in r.diffs:
        path = str(d.get("path"))
        if (area == EVENT_TYPES and d.get("event_type") != value
                or area == COLUMN_TYPES and not path.endswith(f" {value}")):
            continue
        where = f" ({d['where']})" if d.get("where") else ""
        where += f" [library: {d['library_type']}]" if d.get("library_type") else ""
        return (f"{d.get('event_type')} @{d.get('position')} {path}{where}: expected {d.get('expected')!r}, "
                f"got {d.get('actual')!r}")
    return r.message.splitlines()[0][:200] if r.message else str(r.outcome)


def _add(cells: dict, key: tuple[str, str, str], counts: dict[str, int], failing: bool, expected: bool,
         name: str, first: str = "") -> None:
    t = cells.setdefault(key, Tally())
    t.cases += 1
    t.passed += counts.get(PASSED, 0)
    t.failed += counts.get(FAILED, 0)
    t.not_compared += counts.get(NOT_COMPARED, 0)
    if failing:
        t.failing.append(name)
        t.expected += expected
        if first:
            t.first[name] = first


def _column_order(area: str, values: Iterable[str]) -> list[str]:
    return sorted(values, key=_group_key) if area == VERSIONS else sorted(values)


def summarize(results: list[CaseResult], gates: dict[str, Gate],
              wire_faults: list[dict[str, Any]] | None = None) -> Summary:
    """`wire_faults`: the records `python -m harness faults --json` writes (client, fault,
    acceptable), each a cell count of its client under the "wire faults" area."""
    cells: dict[tuple[str, str, str], Tally] = {}
    parsers = {r.parser for r in results}
    for r in results:
        if r.outcome in NOT_KNOWN:
            continue
        gate = gates.get(r.parser)
        expected = gate is not None and gate.is_expected(r)
        for area, values in areas_of(r).items():
            for value in values:
                counts = counts_for(r, area, value)
                failing = counts.get(FAILED, 0) > 0
                _add(cells, (r.parser, area, value), counts, failing, expected, r.case,
                     _first_diff(r, area, value) if failing else "")
    for f in wire_faults or []:
        if f.get("verdict") == "unavailable":
            continue
        client, fault = str(f.get("client")), str(f.get("fault"))
        parsers.add(client)
        ok = bool(f.get("acceptable"))
        _add(cells, (client, WIRE_FAULTS, fault), {PASSED: int(ok), FAILED: int(not ok)}, not ok, False, fault,
             str(f.get("verdict", "")))
    areas = [(area, _column_order(area, {k[2] for k in cells if k[1] == area})) for area in AREAS]
    return Summary(sorted(parsers), [(a, vs) for a, vs in areas if vs], cells)

