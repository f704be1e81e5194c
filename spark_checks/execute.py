"""What runs on an executor: expand a case into itself plus its mutants, and check a partition of
inputs under every parser with the harness's own runner (expectation, isolation, classification).

Inputs travel as bytes (from Spark's binaryFile source); a case too large to ship as one value
travels as a path the executor reads itself. Either way the parser gets a file path, as the
plugin contract says, so the bytes are written to a private temporary directory first."""
from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from harness.corpus import Case
from harness.expectations import expectation_for
from harness.isolation import Limits
from harness.outcomes import CaseResult
from harness.runner import Target, run_case
from harness.selection import PLUGIN, ParserSpec

from .expand import mutants_of, seed_windows
from .inline import ORACLE_PLUGIN, Replay, WindowDecodes, mutant_expectation, oracle_hello, oracle_reply

CASE, MUTANT, BATCH = "case", "mutant", "batch"
DEFAULT_BATCH = 50  # mutants built and checked together
MAX_SUMMARY_DIFFS = 3


@dataclass(frozen=True)
class Item:
    """One input to check: a case of a corpus, or a mutant of one."""

    id: str
    kind: str
    parent: str
    corpus: str
    meta_json: str = "{}"
    data: bytes | None = None  # None: read `path` (a file too large to ship as one value)
    path: str | None = None
    expected: bytes | None = None  # the annotated expected decode, if any
    expected_path: str | None = None
    operator: str | None = None
    rng_seed: str | None = None
    description: str | None = None
    expect: str | None = None
    server_version: str | None = None  # a mutant's parent's, when its own FDE no longer says
    windows: tuple[bytes, ...] = ()  # a batch: the seed windows its mutants are made from
    window: bytes | None = None  # a mutant: the window it was made from (its expectation resumes there)
    ks: tuple[int, int] = (0, 0)  # a batch: mutants k in range(*ks)
    seed: int = 0  # a batch: the run's mutation seed

    def bytes(self) -> bytes:
        return self.data if self.data is not None else Path(local_path(self.path or "")).read_bytes()


def local_path(uri: str) -> str:
    """A path the executor can open, from the URI Spark lists (`file:/x`, `file:///x` or `/x`)."""
    if uri.startswith("file:"):
        rest = uri[5:]
        return "/" + rest.lstrip("/")
    return uri


def binlog_version(data: bytes) -> str | None:
    from harness.mutations import Binlog
    try:
        events = Binlog.parse(data).events
    except ValueError:
        return None
    return events[-1].format.server_version if events else None


def expand(item: Item, n: int, seed: int, batch: int = DEFAULT_BATCH) -> Iterator[Item]:
    """The case itself, then batches of its mutants to build: each carries the case's seed windows
    (<= 48 KB) and a range of k, so what is shuffled is the windows, once per batch, not every
    mutant's bytes; the mutants are built in the partition that checks them (mutant_items)."""
    yield item
    if n <= 0:
        return
    seeds = seed_windows(item.id, item.bytes())
    if not seeds:
        return
    for first in range(0, n, batch):
        yield Item(item.id, BATCH, item.id, item.corpus, windows=tuple(seeds),
                   ks=(first, min(n, first + batch)), seed=seed)


def mutant_items(batch: Item) -> Iterator[Item]:
    """The batch's mutants; server_version stays None (check() reads it only when needed)."""
    windows = list(batch.windows)
    for m in mutants_of(batch.id, windows, range(*batch.ks), batch.seed):
        yield Item(m.id, MUTANT, batch.id, batch.corpus, data=m.data, operator=m.operator,
                   rng_seed=m.rng_seed, description=m.description, expect=m.expect,
                   window=windows[m.index % len(windows)])


def _inputs(items: Iterable[Item]) -> Iterator[Item]:
    for item in items:
        if item.kind == BATCH:
            yield from mutant_items(item)
        else:
            yield item


def _materialize(item: Item, tmp: Path, n: int) -> Case:
    meta = json.loads(item.meta_json or "{}")
    if item.data is None and item.path:
        binlog = Path(local_path(item.path))
    else:
        binlog = tmp / f"{n}.binlog"
        binlog.write_bytes(item.data or b"")
    expected = None
    if item.expected is not None:
        expected = tmp / f"{n}.expected.jsonl"
        expected.write_bytes(item.expected)
    elif item.expected_path:
        expected = Path(local_path(item.expected_path))
    return Case(item.id, binlog, meta, expected)


def finish(result: CaseResult, fallback_version: str | None | Callable[[], str | None]) -> CaseResult:
    """A mutant whose damage hides the server version keeps its window's, for the matrix (the
    fallback may be a function, called only then)."""
    if result.server_version == "unknown":
        version = fallback_version() if callable(fallback_version) else fallback_version
        if version:
            return replace(result, server_version=version)
    return result


def diff_summary(result: CaseResult) -> str:
    parts = [f"#{d.get('index')} {d.get('event_type')} {d.get('path')}: expected "
             f"{json.dumps(d.get('expected'))[:60]}, got {json.dumps(d.get('actual'))[:60]}"
             for d in result.diffs[:MAX_SUMMARY_DIFFS]]
    more = result.n_diffs - len(parts)
    return "; ".join(parts) + (f"; +{more} more" if more > 0 else "")


def row(item: Item, r: CaseResult, size: int) -> dict[str, Any]:
    return {"case": r.case, "kind": item.kind, "parent": item.parent, "corpus": item.corpus,
            "operator": item.operator, "rng_seed": item.rng_seed, "mutation": item.description,
            "expect": item.expect, "parser": r.parser, "outcome": r.outcome.value, "message": r.message,
            "n_diffs": r.n_diffs, "diff_summary": diff_summary(r),
            "diffs_json": json.dumps(r.diffs, ensure_ascii=False), "server_version": r.server_version,
            "event_types": list(r.event_types), "failed_types": list(r.failed_types),
            "duration": float(r.duration), "input_bytes": size, "log": r.log[-2000:],
            "transport": r.transport}


def check(items: Iterable[Item], specs: list[ParserSpec], limits: Limits) -> Iterator[dict[str, Any]]:
    """Every item under every parser; one testee process per parser for the whole partition.
    A mutant's expectation is decoded from its window's checkpoints, and the oracle as a parser
    answers with the decode its expectation was made of (spark_checks/inline.py)."""
    targets = [s.target(limits) for s in specs]
    oracle = [s.kind == PLUGIN and s.spec == ORACLE_PLUGIN for s in specs]
    hello = oracle_hello() if any(oracle) else None
    decodes = WindowDecodes()
    try:
        with tempfile.TemporaryDirectory(prefix="spark-checks-") as tmp:
            for n, item in enumerate(_inputs(items)):
                started = time.monotonic()
                case: Case | None = None
                if item.kind == MUTANT and item.window is not None and item.data is not None:
                    expectation = mutant_expectation(decodes.of(item.window), item.data)
                    size = len(item.data)
                else:
                    case = _materialize(item, Path(tmp), n)
                    expectation = expectation_for(case)
                    size = case.path.stat().st_size
                decoded = time.monotonic() - started
                version = (lambda: binlog_version(item.bytes())) if item.kind == MUTANT else item.server_version
                for spec, target, is_oracle in zip(specs, targets, oracle):
                    if is_oracle and expectation.source == "oracle":
                        inline = Target(target.label, Replay(hello, oracle_reply(expectation)))
                        r = run_case(case or Case(item.id, Path(item.id)), inline, expectation)
                        r = replace(r, duration=round(r.duration + decoded, 3))
                    else:
                        case = case or _materialize(item, Path(tmp), n)
                        r = run_case(case, target, expectation)
                    yield row(item, finish(r, version), size)
                for f in (tmp_file for tmp_file in ((case.path, case.expected_file) if case else ())
                          if tmp_file is not None and str(tmp_file).startswith(tmp)):
                    os.unlink(f)
    finally:
        for t in targets:
            t.testee.close()
