"""The same inputs through the single-process harness (harness.runner.run, one case after
another, no Spark): what a Spark run is checked against, and the benchmark's baseline.

The mutants are rebuilt here from the same deterministic expansion and written to files, so the
harness sees them as ordinary bare binlogs."""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from harness.corpus import Case, discover
from harness.isolation import Limits
from harness.outcomes import CaseResult
from harness.runner import run
from harness.selection import ParserSpec

from .execute import binlog_version, finish
from .expand import mutants


@dataclass
class Reference:
    results: list[CaseResult]
    cases: int
    mutants: int
    seconds: float  # the harness run alone, not building the mutants

    @property
    def inputs(self) -> int:
        return self.cases + self.mutants


def inputs(corpora: list[str], n: int, seed: int, workdir: Path) -> tuple[list[Case], dict[str, str | None]]:
    """The cases of local corpus roots, then their mutants as files under workdir; and each
    mutant's fallback server version (as the executors give it)."""
    cases = [c for root in corpora for c in discover(Path(root))]
    out, versions = list(cases), {}
    workdir.mkdir(parents=True, exist_ok=True)
    for c in cases:
        for m in mutants(c.id, c.path.read_bytes(), n, seed):
            path = workdir / f"{len(out)}.binlog"
            path.write_bytes(m.data)
            out.append(Case(m.id, path))
            versions[m.id] = binlog_version(m.data)
    return out, versions


def single_process(corpora: list[str], specs: list[ParserSpec], n: int, seed: int, limits: Limits,
                   workdir: Path) -> Reference:
    cases, versions = inputs(corpora, n, seed, workdir)
    targets = [s.target(limits) for s in specs]
    started = time.monotonic()
    results = run(cases, targets, done=set(), on_result=lambda r: None)
    seconds = time.monotonic() - started
    results = [finish(r, versions.get(r.case)) for r in results]
    return Reference(results, len(cases) - len(versions), len(versions), seconds)
