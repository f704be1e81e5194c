"""`python -m spark_checks bench`: cases and mutants per second through the single-process
harness and through the Spark job on local[1] and local[2], same inputs, same run, so the
figures can be compared and a cluster's throughput estimated from them (docs/spark.md).

Each mode runs twice, without and with N mutants per case: cases/s comes from the first run,
mutants/s from the difference (what one more mutant costs once the fixed costs are paid, which
is what a 10-million-mutant run is made of). Spark's times are the job's (listing, expansion,
parsing, Parquet write), not the session start; the single-process time is the harness run,
building the mutant files it reads reported apart."""
from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.isolation import Limits

from . import job, session
from .parsers import resolve
from .reference import inputs, single_process

DEFAULT_MUTANTS = 20
CORES = (1, 2)


def default_corpora() -> list[str]:
    from harness.fuzz.seeds import default_seed_dirs
    return [str(d) for d in default_seed_dirs() if d.is_dir() and any(d.rglob("*"))]


def _rate(n: int, seconds: float) -> float:
    return round(n / seconds, 2) if seconds > 0 else 0.0


@dataclass
class Timing:
    cases: int
    mutants: int
    seconds: float


def _figures(mode: str, cores: int, cases_only: Timing, with_mutants: Timing, **extra: Any) -> dict[str, Any]:
    """Cases per second from the run without mutants; mutants per second from the difference
    between the two runs (the marginal cost of a mutant, fixed start-up costs cancelled out)."""
    extra_seconds = with_mutants.seconds - cases_only.seconds
    return {"mode": mode, "cores": cores, "cases": cases_only.cases, "mutants": with_mutants.mutants,
            "seconds_cases_only": round(cases_only.seconds, 3),
            "seconds_with_mutants": round(with_mutants.seconds, 3),
            "cases_per_second": _rate(cases_only.cases, cases_only.seconds),
            "mutants_per_second": _rate(with_mutants.mutants, extra_seconds),
            "inputs_per_second_overall": _rate(with_mutants.cases + with_mutants.mutants, with_mutants.seconds),
            **extra}


def _single(corpora: list[str], specs, n: int, seed: int, limits: Limits, work: Path) -> Timing:
    ref = single_process(corpora, specs, n, seed, limits, work)
    return Timing(ref.cases, ref.mutants, ref.seconds)


def _spark_run(spark, s: job.Settings) -> Timing:
    info = job.run(spark, s)
    return Timing(info.cases, info.mutants, info.seconds)


def _mutant_task_seconds(spark, out: str) -> float:
    """Mean time a mutant spends in the harness on an executor (expectation, parse, classify)."""
    from pyspark.sql import functions as F
    row = job.read(spark, out).where(F.col("kind") == "mutant").agg(F.avg("duration")).first()
    return round(float(row[0] or 0.0), 5)


def _spark(corpora: list[str], specs, n: int, seed: int, limits: Limits, work: Path, cores: int) -> dict[str, Any]:
    started = time.monotonic()
    spark = session.get(f"local[{cores}]", quiet=True)
    startup = time.monotonic() - started
    def settings(k: int, name: str) -> job.Settings:
        return job.Settings(corpora, specs, str(work / f"spark{cores}-{name}"), k, seed,
                            timeout=limits.timeout, memory_mb=limits.memory_mb)
    try:
        _spark_run(spark, settings(0, "warmup"))  # JIT, Python workers: not what a long run pays
        runs = [_spark_run(spark, settings(k, str(k))) for k in (0, n)]
        per_mutant = _mutant_task_seconds(spark, str(work / f"spark{cores}-{n}"))
        parquet = sum(f.stat().st_size for f in (work / f"spark{cores}-{n}" / job.RESULTS).rglob("*.parquet"))
    finally:
        spark.stop()
    return _figures(f"spark local[{cores}]", cores, *runs, session_start_seconds=round(startup, 2),
                    mean_mutant_harness_seconds=per_mutant,
                    parquet_bytes_per_result=round(parquet / max(1, len(specs) * (runs[1].cases + runs[1].mutants))))


def measure(corpora: list[str], specs, n: int, seed: int, limits: Limits, work: Path) -> dict[str, Any]:
    started = time.monotonic()
    inputs(corpora, n, seed, work / "build")  # timed apart: building the mutant files on one core
    build_seconds = time.monotonic() - started
    rows = [_figures("single-process harness", 1, _single(corpora, specs, 0, seed, limits, work / "ref0"),
                     _single(corpora, specs, n, seed, limits, work / "ref"),
                     mutant_build_seconds=round(build_seconds, 3))]
    rows += [_spark(corpora, specs, n, seed, limits, work, cores) for cores in CORES]
    one, two = rows[1]["mutants_per_second"], rows[2]["mutants_per_second"]
    return {"corpora": corpora, "parsers": [p.label for p in specs], "mutants_per_case": n, "seed": seed,
            "cpus": os.cpu_count(), "load_average_at_end": [round(x, 2) for x in os.getloadavg()], "runs": rows,
            "mutants_scaling_1_to_2": round(two / one, 3) if one else None}


def render(doc: dict[str, Any]) -> str:
    lines = [f"{'mode':24} {'cases':>6} {'mutants':>7} {'s (cases)':>9} {'s (+mutants)':>12} "
             f"{'cases/s':>8} {'mutants/s':>9}"]
    for r in doc["runs"]:
        lines.append(f"{r['mode']:24} {r['cases']:6} {r['mutants']:7} {r['seconds_cases_only']:9.1f} "
                     f"{r['seconds_with_mutants']:12.1f} {r['cases_per_second']:8.1f} {r['mutants_per_second']:9.1f}")
    lines.append(f"mutants/s scaling local[1] -> local[2]: x{doc['mutants_scaling_1_to_2']}  "
                 f"(parsers: {', '.join(doc['parsers'])}; {doc['mutants_per_case']} mutants per case; "
                 f"{doc['cpus']} CPUs, load average at the end {doc['load_average_at_end']})")
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
