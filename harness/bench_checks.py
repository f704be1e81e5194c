"""What the per-check bookkeeping (issue 29) costs a conformance run, measured, not assumed.

`python -m harness.bench_checks [--reference REV] [--parser P ...] [--repeat N]` runs the same
conformance command (the same parsers over the same corpus, this checkout's) with this checkout's
harness and with the harness of REV (default: the last commit before harness/checks.py), taking
turns so that a change in the machine's load falls on both, best of N each. The reference tree is
`git archive`d once into the cache with its C speedups built. A run's gate is not the point (the
reference has its own expected failures, so it is run without them): each run must have produced
one result per case, which is checked. Results: a table, the ratio current / reference per parser
and for the sum, and out/bench-checks.json.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from .corpus import discover
from .parsers.registry import FILE, PARSERS

ROOT = Path(__file__).resolve().parents[1]
CACHE = Path.home() / ".cache" / "binlog-conformance" / "bench-checks"
BEFORE_CHECKS = "94e49a1"  # the last commit before harness/checks.py (c7c9a6e)
# the registry's file testees of the Python runtime (the oracle, a Python library, the real tools in
# their containers): no build of the reference's adapters, no waiting on a wire, so the
# comparison is a real share of their time
DEFAULT_PARSERS = tuple(p.name for p in PARSERS if p.transport == FILE and p.runtime == "python")


@dataclass
class Timing:
    parser: str
    reference_s: float
    current_s: float
    cases: int

    @property
    def ratio(self) -> float:
        return self.current_s / self.reference_s


def reference_tree(rev: str) -> Path:
    """REV's files under the cache, C speedups built (once per REV)."""
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short=12", rev], check=True,
                            capture_output=True, text=True).stdout.strip()
    tree = CACHE / commit
    if (tree / ".built").exists():
        return tree
    tree.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
    subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=tree, check=True,
                   capture_output=True)
    (tree / ".built").write_text(commit)
    return tree


def run_once(tree: Path, parser: str, corpus: Path, results: Path) -> float:
    """Wall seconds of one conformance run of `parser` with `tree`'s harness; checks it ran every case."""
    results.unlink(missing_ok=True)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    argv = [sys.executable, "-m", "harness", "conformance", "--parser", parser, "--corpus", str(corpus),
            "--results", str(results), "--quiet"]
    t0 = time.perf_counter()
    proc = subprocess.run(argv, cwd=tree, env=env, capture_output=True, text=True, timeout=3600)
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1) or not results.exists():
        raise SystemExit(f"{parser} with {tree} failed (exit {proc.returncode}): {proc.stderr[-1500:]}")
    return seconds


def measure(parsers: list[str], corpus: Path, reference: Path, repeat: int, work: Path) -> list[Timing]:
    cases = len(discover(corpus))
    best: dict[tuple[str, str], float] = {}
    for round_ in range(1, repeat + 1):
        for parser in parsers:
            for side, tree in (("reference", reference), ("current", ROOT)):
                results = work / f"{parser}-{side}.jsonl"
                s = run_once(tree, parser, corpus, results)
                outcomes = [json.loads(line).get("outcome") for line in results.open()]
                if len(outcomes) < cases or "unavailable" in outcomes:
                    raise SystemExit(f"{parser} ({side}): {len(outcomes)} results for {cases} cases, "
                                     f"{outcomes.count('unavailable')} unavailable")
                best[(parser, side)] = min(s, best.get((parser, side), s))
                print(f"[round {round_}/{repeat}] {parser:32} {side:9} {s:7.1f}s", file=sys.stderr, flush=True)
    return [Timing(p, best[(p, "reference")], best[(p, "current")], cases) for p in parsers]


def table(timings: list[Timing], rev: str) -> str:
    rows = [f"| parser | {rev} (s) | this checkout (s) | ratio |", "|---|---:|---:|---:|"]
    rows += [f"| {t.parser} | {t.reference_s:.1f} | {t.current_s:.1f} | {t.ratio:.3f} |" for t in timings]
    ref, cur = sum(t.reference_s for t in timings), sum(t.current_s for t in timings)
    rows.append(f"| **all** | {ref:.1f} | {cur:.1f} | {cur / ref:.3f} |")
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.bench_checks", description=__doc__.splitlines()[0])
    p.add_argument("--reference", default=BEFORE_CHECKS, help="the commit to compare with")
    p.add_argument("--parser", action="append", help=f"repeatable (default: {', '.join(DEFAULT_PARSERS)})")
    p.add_argument("--corpus", type=Path, default=ROOT / "corpus")
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--json", type=Path, default=Path("out/bench-checks.json"))
    a = p.parse_args(argv)
    reference = reference_tree(a.reference)
    work = CACHE / "results"
    work.mkdir(parents=True, exist_ok=True)
    timings = measure(a.parser or list(DEFAULT_PARSERS), a.corpus.resolve(), reference, a.repeat, work)
    print(table(timings, a.reference))
    a.json.parent.mkdir(parents=True, exist_ok=True)
    a.json.write_text(json.dumps({"reference": a.reference, "corpus": str(a.corpus),
                                  "timings": [asdict(t) | {"ratio": t.ratio} for t in timings]}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
