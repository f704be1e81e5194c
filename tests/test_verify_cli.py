"""`python -m oracle verify` picks the real tool for the file's flavor and never reports a tool
that stopped early as agreement (issue 11).

The tools are real: mariadb-binlog (Debian's mariadb-client, installed by .ci/install-docker.sh)
and MySQL 9.7's mysqlbinlog from the local image. The early stop is the real tool's output cut
short by a wrapper script, as a tool that dies partway through would leave it.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from generators import docker_env, tools
from tests.server_fixtures import missing

ROOT = Path(__file__).resolve().parent.parent
MARIADB_CASE = ROOT / "corpus/mariadb-10.11/blobs_text--row/binlog.000001"
MYSQL_CASE = ROOT / "corpus/mysql-9.7/json--row/binlog.000001"


def _verify(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "oracle", "verify", str(path), *extra],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, check=False)


def _decoded_events(path: Path) -> int:
    out = subprocess.run([sys.executable, "-m", "oracle", "decode", str(path)], capture_output=True,
                         text=True, cwd=ROOT, timeout=600, check=True).stdout
    return len(out.splitlines())


def _require_mariadb_binlog() -> str:
    exe = shutil.which("mariadb-binlog")
    if exe is None:
        missing("mariadb-binlog not installed (bash .ci/install-docker.sh)")
    return exe


def test_mariadb_file_is_verified_with_mariadb_binlog() -> None:
    _require_mariadb_binlog()
    proc = _verify(MARIADB_CASE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "mariadb-binlog" in proc.stdout.splitlines()[0]
    n = _decoded_events(MARIADB_CASE)
    assert f"{n} events compared, 0 disagreements" in proc.stdout


def test_mysql_file_is_verified_with_mysqlbinlog_97() -> None:
    reason = docker_env.unavailable_reason()
    if reason or not docker_env.image_exists(tools.MYSQL_IMAGE):
        missing(reason or f"image {tools.MYSQL_IMAGE} not built (python -m generators images build)")
    proc = _verify(MYSQL_CASE)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "mysqlbinlog 9.7" in proc.stdout.splitlines()[0]
    assert f"{_decoded_events(MYSQL_CASE)} events compared, 0 disagreements" in proc.stdout


def test_tool_that_stops_early_is_not_agreement(tmp_path: Path) -> None:
    exe = _require_mariadb_binlog()
    cut = tmp_path / "stops-early.sh"
    cut.write_text("#!/bin/sh\n"
                   f'"{exe}" "$@" | head -40\n'
                   "echo \"ERROR: Error in Log_event::read_log_event(): 'Found invalid event in "
                   "binary log', data_len: 0, event_type: 0\" >&2\n"
                   "exit 1\n")
    cut.chmod(0o755)
    proc = _verify(MARIADB_CASE, "--mysqlbinlog", str(cut))
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "not compared past offset" in proc.stdout
    last = proc.stdout.strip().splitlines()[-1]
    assert "not compared" in last and ", 0 disagreements, " in last
