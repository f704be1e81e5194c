"""The cases of the corpus roots as a Spark DataFrame, their bytes read with the binaryFile source.

A root on the driver's filesystem is listed with the harness's own discovery (harness/corpus.py:
annotated case directories and bare binlogs, the same ids as the single-process harness); only
that metadata is built on the driver. Any other root (hdfs://, s3a://, ...) is listed by Spark and
every file in it is a bare binlog, its expectation the oracle's decode.

Files up to `inline_max` bytes travel as binaryFile content; larger ones as a path each executor
opens itself (a shared filesystem), because binaryFile ships a file as one value (2 GB at most)."""
from __future__ import annotations

import json
import os
import posixpath
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from harness.corpus import NOT_BINLOG_SUFFIXES, discover

DEFAULT_INLINE_MAX = 64 * 2**20

CASE_COLUMNS = ("id", "corpus", "path", "expected_path", "meta_json")


def is_remote(root: str) -> bool:
    return "://" in root and not root.startswith("file:")


def spark_uri(path: Path | str) -> str:
    """A local path as binaryFile's `path` column spells it (`file:/abs/path`)."""
    return "file:" + os.path.abspath(path)  # not resolve(): a symlink is listed under its own name


def local_cases(root: str) -> list[dict[str, Any]]:
    """Case rows for a root on the driver's filesystem (harness discovery, harness ids)."""
    out = []
    for c in discover(Path(root)):
        out.append({"id": c.id, "corpus": root, "path": spark_uri(c.path),
                    "expected_path": spark_uri(c.expected_file) if c.expected_file else None,
                    "meta_json": json.dumps(c.meta, sort_keys=True)})
    return out


def _remote_cases(spark, root: str):
    """Every file under a remote root as a bare binlog (id: <root name>/<relative path>)."""
    from pyspark.sql import functions as F
    base = root.rstrip("/")
    name = posixpath.basename(base)
    listing = (spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(root)
               .select("path"))
    lower = F.lower(F.col("path"))
    keep = ~F.element_at(F.split(F.col("path"), "/"), -1).startswith(".")
    for suffix in NOT_BINLOG_SUFFIXES:
        keep = keep & ~lower.endswith(suffix)
    # Listed paths may spell the authority differently (hdfs:///x lists as hdfs://nn:8020/x).
    root_path = urlparse(base).path.replace("'", "\\'")
    rel = F.expr(f"substring(path, instr(path, '{root_path}') + {len(urlparse(base).path) + 1})")
    return listing.where(keep).select(
        F.concat(F.lit(name + "/"), rel).alias("id"), F.lit(root).alias("corpus"), "path",
        F.lit(None).cast("string").alias("expected_path"), F.lit("{}").alias("meta_json"))


def _contents(spark, root: str, inline_max: int):
    """(path, content) of every file under root small enough to ship as a value."""
    from pyspark.sql import functions as F
    return (spark.read.format("binaryFile").option("recursiveFileLookup", "true").load(root)
            .where(F.col("length") <= inline_max).select("path", "content"))


def cases_frame(spark, roots: list[str], inline_max: int = DEFAULT_INLINE_MAX):
    """One row per case: id, corpus, meta_json, data (bytes, or null: read `path`), path,
    expected (bytes or null), expected_path."""
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType, StructField, StructType
    schema = StructType([StructField(c, StringType(), c == "expected_path") for c in CASE_COLUMNS])
    frames = []
    for root in roots:
        if is_remote(root):
            cases = _remote_cases(spark, root)
        else:
            rows = local_cases(root)
            if not rows:
                continue
            cases = spark.createDataFrame(rows, schema)
        content = _contents(spark, root if is_remote(root) else str(Path(root).resolve()), inline_max)
        binlog = content.select(F.col("path"), F.col("content").alias("data"))
        expected = content.select(F.col("path").alias("expected_path"), F.col("content").alias("expected"))
        frames.append(cases.join(binlog, "path", "left").join(expected, "expected_path", "left"))
    if not frames:
        raise ValueError(f"no cases under {roots}")
    out = frames[0]
    for f in frames[1:]:
        out = out.unionByName(f)
    return out
