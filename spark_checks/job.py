"""The Spark job: cases -> (cases + mutants, built on the executors) -> every parser on the
executors -> Parquet partitioned by parser and outcome.

The results are written once and read back for the summary and the regression report, so
nothing is computed twice and the Parquet files are the run's record."""
from __future__ import annotations

import json
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass, field
from operator import itemgetter
from pathlib import Path
from typing import Any

from harness.isolation import DEFAULT_MEMORY_MB, Limits
from harness.selection import ParserSpec

from .execute import DEFAULT_BATCH, Item, check, expand
from .inputs import DEFAULT_INLINE_MAX, cases_frame

RESULTS = "results"
RUN_FILE = "run.json"


@dataclass
class Settings:
    corpora: list[str]
    parsers: list[ParserSpec]
    out: str
    mutants: int = 0
    seed: int = 0
    partitions: int = 0  # 0: 4 per core of the cluster
    timeout: float = 60.0
    memory_mb: int = DEFAULT_MEMORY_MB
    inline_max: int = DEFAULT_INLINE_MAX

    def limits(self) -> Limits:
        return Limits(self.timeout, self.memory_mb)


@dataclass
class RunInfo:
    settings: dict[str, Any]
    rows: int = 0
    inputs: int = 0
    cases: int = 0
    mutants: int = 0
    seconds: float = 0.0
    master: str = ""
    cores: int = 0
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # parser -> outcome -> rows


def result_schema():
    from pyspark.sql.types import (
        ArrayType,
        DoubleType,
        LongType,
        StringType,
        StructField,
        StructType,
    )
    s, n = StringType(), True
    cols = [("case", s), ("kind", s), ("parent", s), ("corpus", s), ("operator", s), ("rng_seed", s),
            ("mutation", s), ("expect", s), ("parser", s), ("outcome", s), ("message", s),
            ("n_diffs", LongType()), ("diff_summary", s), ("diffs_json", s), ("server_version", s),
            ("event_types", ArrayType(s)), ("failed_types", ArrayType(s)), ("duration", DoubleType()),
            ("input_bytes", LongType()), ("log", s), ("transport", s)]
    return StructType([StructField(name, t, n) for name, t in cols])


def _item(row) -> Item:
    d = row.asDict()
    for k in ("data", "expected"):
        if d.get(k) is not None:
            d[k] = bytes(d[k])
    return Item(d["id"], "case", d["id"], d["corpus"], d["meta_json"], d.get("data"), d["path"],
                d.get("expected"), d.get("expected_path"))


def results_frame(spark, s: Settings):
    """The lazily computed result rows of a run (nothing is run until they are written)."""
    cases = cases_frame(spark, s.corpora, s.inline_max)
    partitions = s.partitions or 4 * spark.sparkContext.defaultParallelism
    n, seed, specs, limits = s.mutants, s.seed, s.parsers, s.limits()
    # Cases spread before expansion (their seed windows are decoded there: one task did it all);
    # cases and mutant batches then spread in short runs (spread()); each batch's mutants are built
    # where they are checked.
    items = cases.repartition(partitions).rdd.map(_item).flatMap(lambda it: expand(it, n, seed))
    inputs = spread(items, partitions, _run_length(n))
    schema = result_schema()
    as_tuple = itemgetter(*(f.name for f in schema.fields))
    # Tuples in schema order, not checked against the schema row by row: row() makes every row
    # from the same code, and per-row verification was a measurable share of a mutant's cost.
    rows = inputs.mapPartitions(lambda items: map(as_tuple, check(items, specs, limits)))
    return spark.createDataFrame(rows, schema, verifySchema=False)


def spread(items, partitions: int, run: int = 1):
    """Items dealt round-robin over `partitions` in runs of `run` consecutive items (each source
    partition starting at its own index). RDD.repartition moves pickled groups of 10 items whole:
    with 500 mutants a batch of 50, a group was 500 mutants, and 8 partitions got 3 or 4 groups
    each (measured on local[2]: the longest task 2-3x the mean, one slot idle for the tail). Runs
    keep a case's batches together, as every partition that gets a batch decodes the case's
    windows once (1.3 ms a case)."""
    def dealt(index: int, part: Iterator[Item]) -> Iterator[tuple[int, Item]]:
        return ((index + j // run, item) for j, item in enumerate(part))
    return items.mapPartitionsWithIndex(dealt).partitionBy(partitions, lambda key: key).values()


def _run_length(n: int) -> int:
    """Half a case's items (the case and its batches of mutants): a case's windows are decoded in
    two or three partitions (runs need not start at a case), and runs are half as coarse as cases."""
    return max(1, (1 + -(-n // DEFAULT_BATCH)) // 2)


def run(spark, s: Settings) -> RunInfo:
    started = time.monotonic()
    out = Path(s.out) if "://" not in s.out else None
    target = f"{s.out.rstrip('/')}/{RESULTS}"
    (results_frame(spark, s).write.mode("overwrite").partitionBy("parser", "outcome").parquet(target))
    seconds = time.monotonic() - started
    df = read(spark, s.out)
    info = RunInfo(settings={**asdict(s), "parsers": [asdict(p) for p in s.parsers]},
                   seconds=round(seconds, 3), master=spark.sparkContext.master,
                   cores=spark.sparkContext.defaultParallelism)
    for r in df.groupBy("parser", "kind", "outcome").count().collect():
        info.rows += r["count"]
        info.counts.setdefault(r["parser"], {}).setdefault(r["outcome"], 0)
        info.counts[r["parser"]][r["outcome"]] += r["count"]
        if r["parser"] == s.parsers[0].label:
            info.inputs += r["count"]
            if r["kind"] == "case":
                info.cases += r["count"]
            else:
                info.mutants += r["count"]
    if out is not None:
        (out / RUN_FILE).write_text(json.dumps(asdict(info), indent=1) + "\n")
    return info


def read(spark, out: str):
    return spark.read.parquet(f"{out.rstrip('/')}/{RESULTS}")
