"""The parser x event type x server version matrix that the HTML report shows.

A cell counts cases (passed / failed by outcome, as the Spark job prints them) and, where the
results carry them, the checks of that event type (harness/checks.py): the HTML report shows
those, so a case with one cosmetic difference still shows the event types it decoded right.

Server versions are grouped by flavor and major.minor (MySQL 8.0, MariaDB 10.5): forty exact
version strings would make columns nobody can read; the exact ones stay in cell tooltips."""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from ..checks import FAILED, PASSED, add_counts
from ..outcomes import CaseResult, Outcome
from ..plugins.protocol import MODES

NOT_KNOWN = frozenset({Outcome.SKIPPED, Outcome.UNAVAILABLE, Outcome.NOT_APPLICABLE})
_VERSION = re.compile(r"(\d+)\.(\d+)")


def version_group(server_version: str) -> str:
    m = _VERSION.search(server_version)
    if not m:
        return "unknown"
    flavor = "MariaDB" if "mariadb" in server_version.lower() else "MySQL"
    return f"{flavor} {m[1]}.{m[2]}"


def _group_key(group: str) -> tuple:
    parts = group.split()
    if len(parts) != 2:
        return (2, group)
    return (0 if parts[0] == "MySQL" else 1, tuple(int(x) for x in parts[1].split(".")))


@dataclass
class Cell:
    passed: int = 0
    failed: Counter = field(default_factory=Counter)  # outcome -> cases
    versions: set[str] = field(default_factory=set)
    checks: dict[str, int] = field(default_factory=dict)  # passed / failed / not_compared of the event type

    @property
    def total(self) -> int:
        return self.passed + sum(self.failed.values())

    @property
    def status(self) -> str:
        """pass / fail (a mismatch or rejection: the parser is wrong) / broken (crash, timeout) /
        na (skipped or unavailable: nothing known)."""
        if not self.failed:
            return "pass"
        if self.failed.keys() & {Outcome.CRASH.value, Outcome.TIMEOUT.value}:
            return "broken"
        if self.failed.keys() <= {Outcome.SKIPPED.value, Outcome.UNAVAILABLE.value}:
            return "na"
        return "fail"

    @property
    def check_status(self) -> str:
        """From the checks: broken (a crash or timeout) / fail (a failed check) / na (nothing
        compared: grey, never green) / pass."""
        if self.failed.keys() & {Outcome.CRASH.value, Outcome.TIMEOUT.value}:
            return "broken"
        if self.checks.get(FAILED):
            return "fail"
        return "pass" if self.checks.get(PASSED) else "na"


@dataclass
class Matrix:
    parsers: list[str]
    event_types: list[str]
    versions: list[str]
    cells: dict[tuple[str, str, str], Cell]
    # a stream parser's cases per stream mode (harness/stream_modes.py): (parser, mode) -> cell;
    # a mode it does not support counts its cases under not_applicable
    modes: list[str] = field(default_factory=list)
    mode_cells: dict[tuple[str, str], Cell] = field(default_factory=dict)

    def cell(self, parser: str, event_type: str, version: str) -> Cell | None:
        return self.cells.get((parser, event_type, version))

    def mode_cell(self, parser: str, mode: str) -> Cell | None:
        return self.mode_cells.get((parser, mode))


def mode_cells(results: list[CaseResult]) -> dict[tuple[str, str], Cell]:
    """One cell per stream parser and mode: its cases that passed, and the others by outcome."""
    cells: dict[tuple[str, str], Cell] = {}
    for r in results:
        if r.mode is None:
            continue
        cell = cells.setdefault((r.parser, r.mode), Cell())
        cell.versions.add(r.server_version)
        if r.outcome is Outcome.PASS:
            cell.passed += 1
        else:
            cell.failed[r.outcome.value] += 1
    return cells


def build(results: list[CaseResult]) -> Matrix:
    cells: dict[tuple[str, str, str], Cell] = {}
    matrix_results = [r for r in results if r.mode in (None, "position")]  # one row per case
    for r in matrix_results:
        group = version_group(r.server_version)
        for t in r.event_types or ["(no events)"]:
            cell = cells.setdefault((r.parser, t, group), Cell())
            cell.versions.add(r.server_version)
            if r.outcome is Outcome.PASS or t not in r.failed_types and r.outcome is Outcome.MISMATCH:
                cell.passed += 1
            else:
                cell.failed[r.outcome.value] += 1
            if r.checks and r.outcome not in NOT_KNOWN:
                add_counts(cell.checks, (r.checks.get("by_event_type") or {}).get(t))
    matrix = from_cells(cells)
    matrix.mode_cells = mode_cells(results)
    matrix.modes = [m for m in MODES if any(k[1] == m for k in matrix.mode_cells)]
    return matrix


def from_cells(cells: dict[tuple[str, str, str], Cell]) -> Matrix:
    """The matrix of (parser, event type, version group) cells, e.g. merged from partial builds."""
    parsers = sorted({k[0] for k in cells})
    types = sorted({k[1] for k in cells})
    versions = sorted({k[2] for k in cells}, key=_group_key)
    return Matrix(parsers, types, versions, cells)
