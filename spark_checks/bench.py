"""`python -m spark_checks bench`: inputs (cases + mutants) per second through the single-process
harness and through the Spark job on local[1] and local[2], same inputs, same run, so the
figures can be compared and a cluster's throughput estimated from them (docs/spark.md).

Spark's times are the job's (expansion, parsing, Parquet write), not the session start; the
single-process time is the harness run, plus building the mutant files it reads, reported apart."""
from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from harness.isolation import Limits

from . import job, session
from .parsers import resolve
from .reference import inputs, single_process

DEFAULT_MUTANTS = 5
CORES = (1, 2)


def default_corpora() -> list[str]:
    from harness.fuzz.seeds import default_seed_dirs
    return [str(d) for d in default_seed_dirs() if d.is_dir() and any(d.rglob("*"))]


def _rate(n: int, seconds: float) -> float:
    return round(n / seconds, 2) if seconds > 0 else 0.0


def _spark(s: job.Settings, cores: int) -> dict[str, Any]:
    started = time.monotonic()
    spark = session.get(f"local[{cores}]", quiet=True)
    startup = time.monotonic() - started
    try:
        info = job.run(spark, s)
    finally:
        spark.stop()
    return {"mode": f"spark local[{cores}]", "cores": cores, "inputs": info.inputs, "cases": info.cases,
            "mutants": info.mutants, "results": info.rows, "seconds": info.seconds,
            "session_start_seconds": round(startup, 2), "inputs_per_second": _rate(info.inputs, info.seconds),
            "results_per_second": _rate(info.rows, info.seconds)}


def measure(corpora: list[str], specs, n: int, seed: int, limits: Limits, work: Path) -> dict[str, Any]:
    started = time.monotonic()
    inputs(corpora, n, seed, work / "build")  # timed apart: building the mutant files on one core
    build_seconds = time.monotonic() - started
    ref = single_process(corpora, specs, n, seed, limits, work / "ref")
    rows = [{"mode": "single-process harness", "cores": 1, "inputs": ref.inputs, "cases": ref.cases,
             "mutants": ref.mutants, "results": len(ref.results), "seconds": round(ref.seconds, 3),
             "mutant_build_seconds": round(build_seconds, 3),
             "inputs_per_second": _rate(ref.inputs, ref.seconds),
             "results_per_second": _rate(len(ref.results), ref.seconds)}]
    for cores in CORES:
        s = job.Settings(corpora, specs, str(work / f"spark{cores}"), n, seed, timeout=limits.timeout,
                         memory_mb=limits.memory_mb)
        rows.append(_spark(s, cores))
    one, two = rows[1]["inputs_per_second"], rows[2]["inputs_per_second"]
    return {"corpora": corpora, "parsers": [p.label for p in specs], "mutants_per_case": n, "seed": seed,
            "runs": rows, "scaling_1_to_2": round(two / one, 3) if one else None}


def render(doc: dict[str, Any]) -> str:
    lines = [f"{'mode':24} {'inputs':>7} {'cases':>6} {'mutants':>7} {'seconds':>8} {'inputs/s':>9} {'results/s':>9}"]
    for r in doc["runs"]:
        lines.append(f"{r['mode']:24} {r['inputs']:7} {r['cases']:6} {r['mutants']:7} {r['seconds']:8.1f} "
                     f"{r['inputs_per_second']:9.1f} {r['results_per_second']:9.1f}")
    lines.append(f"scaling local[1] -> local[2]: x{doc['scaling_1_to_2']}  (parsers: {', '.join(doc['parsers'])}, "
                 f"{doc['mutants_per_case']} mutants per case)")
    return "\n".join(lines)


def main(args: argparse.Namespace) -> int:
    limits = Limits(args.timeout, args.memory_mb)
    specs = resolve(args.parser or ["oracle"], args.parser_cmd, args.parser_persistent, limits)
    corpora = args.corpus or default_corpora()
    n = args.mutants or DEFAULT_MUTANTS
    with tempfile.TemporaryDirectory(prefix="spark-bench-") as tmp:
        doc = measure(corpora, specs, n, args.seed, limits, Path(tmp))
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc, indent=1) + "\n")
    print(render(doc))
    print(f"figures in {out}")
    return 0
