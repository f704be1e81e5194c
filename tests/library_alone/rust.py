"""mysql-binlog-connector-rust alone: its probe (harness/parsers/mysql-binlog-connector-rust/src/bin/
probe.rs: BinlogClient as ape-dts builds it, printing the crate's own EventHeader/EventData, nothing
of the harness), built from the folder's own Cargo.lock. Shared by tests/test_mysql_common_live.py
(against real servers) and tests/test_wire_fault_findings_alone.py (against harness serve)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from harness.runtimes.rust import RUNTIME
from tests.server_fixtures import missing

MBCR = Path(__file__).resolve().parents[2] / "harness" / "parsers" / "mysql-binlog-connector-rust"
MBCR_PROBE = "mysql-binlog-connector-rust-probe"


@pytest.fixture(scope="module")
def mbcr_probe() -> Path:
    """The probe, as `peers install` built it beside the adapter (the same cargo build, from the
    folder's own Cargo.lock); built here only where the cache's build of the folder lacks it."""
    if RUNTIME.missing_tool():
        missing(RUNTIME.missing_tool() or "")
    built = RUNTIME.build(MBCR, lambda line: None) / MBCR_PROBE
    if not built.is_file():  # a build made before the runtime kept the package's other binaries
        built = RUNTIME.build(MBCR, lambda line: None, force=True) / MBCR_PROBE
    assert built.is_file(), f"{built}: the build of {MBCR.name} holds no probe"
    return built


def probe_stream(probe: Path, url: str, file: str, position: int = 4) -> list[dict[str, Any]]:
    """`probe stream URL FILE POSITION`: BinlogClient from there until the server has been quiet
    for 3 s; the crate's events as JSON, the last line {"end"} or {"error"}."""
    proc = subprocess.run([str(probe), "stream", url, file, str(position)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr[-1000:]
    return [json.loads(line) for line in proc.stdout.split("\n") if line]
