"""The summary matrix that leads the combined report: parsers (rows) against feature areas
(column groups: event types, column types, server versions, metadata modes, transport, wire
faults). Pure functions over results; html.py only renders what this computes.

A cell counts the cases of that parser exercising that feature: passed / total, of them failures
its expected-failure file names, and the failing case ids (the cell links to them). Skipped and
unavailable cases are left out of the total: nothing is known about them, and a stream parser
skips every binlog no server could serve."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from ..expected_failures import Gate
from ..features import COLUMN_TYPES, MODES
from ..outcomes import CaseResult, Outcome
from .matrix import _group_key, version_group

EVENT_TYPES, VERSIONS, TRANSPORT, WIRE_FAULTS = "event types", "server versions", "transport", "wire faults"
AREAS = (EVENT_TYPES, COLUMN_TYPES, VERSIONS, MODES, TRANSPORT, WIRE_FAULTS)
NOT_KNOWN = frozenset({Outcome.SKIPPED, Outcome.UNAVAILABLE})


@dataclass
class Tally:
    passed: int = 0
    total: int = 0
    expected: int = 0  # failures its expected-failure file names
    failing: list[str] = field(default_factory=list)  # case ids (or fault names)

    @property
    def ratio(self) -> float:
        return self.passed / self.total if self.total else 1.0


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


def passed_for(r: CaseResult, area: str, value: str) -> bool:
    """A mismatch still passes the event types it decoded right (the others are in failed_types)."""
    if r.outcome is Outcome.PASS:
        return True
    return area == EVENT_TYPES and r.outcome is Outcome.MISMATCH and value not in r.failed_types


def _add(cells: dict, key: tuple[str, str, str], passed: bool, expected: bool, name: str) -> None:
    t = cells.setdefault(key, Tally())
    t.total += 1
    if passed:
        t.passed += 1
        return
    t.failing.append(name)
    t.expected += expected


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
                _add(cells, (r.parser, area, value), passed_for(r, area, value), expected, r.case)
    for f in wire_faults or []:
        if f.get("verdict") == "unavailable":
            continue
        client, fault = str(f.get("client")), str(f.get("fault"))
        parsers.add(client)
        _add(cells, (client, WIRE_FAULTS, fault), bool(f.get("acceptable")), False, fault)
    areas = [(area, _column_order(area, {k[2] for k in cells if k[1] == area})) for area in AREAS]
    return Summary(sorted(parsers), [(a, vs) for a, vs in areas if vs], cells)

