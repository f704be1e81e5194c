"""Shared by the harness tests: real binlogs by path, the node example, running the CLI."""
from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from harness import cli
from tests.external import ROOT

PROJECT = Path(__file__).resolve().parents[1]
SCRIPTS = Path(__file__).resolve().parent / "harness_scripts"
NODE_EXAMPLE = PROJECT / "examples" / "node-header-parser" / "parse.js"
BB = ROOT / "blackbeam__rust_mysql_common"

# Small real binlogs: MySQL 8.0 (CRC32), 5.6 with GTIDs, 5.1 (no checksums), MariaDB 10.5,
# and one broken on purpose (truncated after 14 bytes).
GOOD = [BB / "test-data__binlogs__master-bin.000001",
        BB / "test-data__binlogs__binlog_transaction_with_GTID.000001",
        BB / "test-data__binlogs__binlog_savepoint.000001",
        BB / "test-data__binlogs__mariadb-bin.000001"]
TRUNCATED = BB / "test-data__binlogs__binlog_truncated_event.000001"

needs_external = pytest.mark.skipif(not GOOD[0].exists(), reason=f"external binlogs not found in {ROOT}")


def node_cmd(*extra: str) -> str:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    return " ".join([node, str(NODE_EXAMPLE), *extra])


def python_cmd(script: str) -> str:
    return f"{sys.executable} {SCRIPTS / script}"


def corpus_args(files) -> list[str]:
    return [a for f in files for a in ("--corpus", str(f))]


def run_cli(tmp_path: Path, *args: str) -> tuple[int, list[dict]]:
    """Run `python -m harness conformance` in-process; returns (exit code, result records).
    Stream testees run in position mode only, unless the test names `--modes`
    (tests/test_harness_stream_modes.py runs the others)."""
    results = tmp_path / "results.jsonl"
    modes = [] if "--modes" in args else ["--modes", "position"]
    rc = cli.main(["conformance", "--quiet", "--results", str(results), *modes, *args])
    records = [json.loads(line) for line in results.read_text().splitlines()] if results.exists() else []
    return rc, records
