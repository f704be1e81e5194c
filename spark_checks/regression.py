"""A run against a baseline run, joined on (case, parser) in Spark:
new failures (passed before, not now), fixed (failed before, pass now), changed outcomes (failed
before and now, differently), and inputs only one of the runs has. Only counts and the first few
of each kind reach the driver; the whole diff is written as Parquet next to the results."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from harness.outcomes import Outcome

NEW_FAILURE, FIXED, CHANGED, ADDED, REMOVED = "new_failure", "fixed", "changed", "added", "removed"
KINDS = (NEW_FAILURE, FIXED, CHANGED, ADDED, REMOVED)
REGRESSION = "regression"
SHOW = 50


@dataclass
class Regression:
    baseline: str
    counts: dict[str, int] = field(default_factory=dict)
    examples: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def new_failures(self) -> int:
        return self.counts.get(NEW_FAILURE, 0)

    def render(self) -> str:
        lines = [f"== regression against {self.baseline}: " +
                 ", ".join(f"{self.counts.get(k, 0)} {k.replace('_', ' ')}" for k in KINDS)]
        for kind in (NEW_FAILURE, CHANGED, FIXED):
            for e in self.examples.get(kind, []):
                lines.append(f"{kind.upper():12} {e['parser']} {e['case']}: {e['before']} -> {e['after']}"
                             f"{(' ' + e['message'][:160]) if e.get('message') else ''}")
            more = self.counts.get(kind, 0) - len(self.examples.get(kind, []))
            if more > 0:
                lines.append(f"{kind.upper():12} ... and {more} more")
        return "\n".join(lines)


def diff_frame(current, baseline):
    """(case, parser, before, after, change, message) for every input whose outcome changed."""
    from pyspark.sql import functions as F
    ok = Outcome.PASS.value
    cur = current.select("case", "parser", F.col("outcome").alias("after"), "message")
    base = baseline.select("case", "parser", F.col("outcome").alias("before"))
    joined = cur.join(base, ["case", "parser"], "full_outer")
    before, after = F.col("before"), F.col("after")
    change = (F.when(before.isNull(), ADDED).when(after.isNull(), REMOVED)
              .when((before == ok) & (after != ok), NEW_FAILURE)
              .when((before != ok) & (after == ok), FIXED)
              .when(before != after, CHANGED))
    return joined.withColumn("change", change).where(F.col("change").isNotNull())


def compare(current, baseline, baseline_name: str, out: str | None = None, show: int = SHOW) -> Regression:
    diff = diff_frame(current, baseline).cache()
    try:
        if out is not None:
            diff.write.mode("overwrite").partitionBy("change").parquet(f"{out.rstrip('/')}/{REGRESSION}")
        reg = Regression(baseline_name, {r["change"]: r["count"] for r in diff.groupBy("change").count().collect()})
        for kind in (NEW_FAILURE, CHANGED, FIXED):
            rows = diff.where(diff.change == kind).orderBy("parser", "case").limit(show).collect()
            reg.examples[kind] = [{k: r[k] for k in ("case", "parser", "before", "after", "message")} for r in rows]
    finally:
        diff.unpersist()
    if out is not None and "://" not in out:
        Path(out, f"{REGRESSION}.json").write_text(json.dumps(asdict(reg), indent=1) + "\n")
    return reg
