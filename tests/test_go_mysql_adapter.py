"""The go-mysql adapter (harness/parsers/go-mysql) built by harness/runtimes/go.py into the cache
and run through the persistent protocol: its hello, and both testees gated by their reviewed
expected failures on cases that cover the mapping (temporal fsp and TIMESTAMP epochs, BIT/SET
bit patterns, JSON text, MariaDB events, a compressed transaction, an expected failure)."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from .expected_entries import gate
from .go_builds import adapter_command

ROOT = Path(__file__).resolve().parent.parent
CASES = ["corpus/mysql-9.7/temporal--row", "corpus/mysql-9.7/enum_set_bit--row",
         "corpus/mysql-9.7/json--row", "corpus/mysql-9.7/ddl_dml_basic--row-compressed",
         "corpus/mariadb-11.8/ddl_dml_basic--row", "corpus/mariadb-10.5/integers--row"]


@pytest.fixture(scope="module")
def adapter() -> list[str]:
    return adapter_command("go-mysql")


@pytest.mark.parametrize("transport,name", [("file", "go-mysql-file"), ("stream", "go-mysql")])
def test_hello_names_the_testee(adapter: list[str], transport: str, name: str) -> None:
    proc = subprocess.run([*adapter, transport], input="", capture_output=True, text=True, timeout=60)
    hello = json.loads(proc.stdout.splitlines()[0])
    assert proc.returncode == 0
    assert (hello["type"], hello["name"], hello["transport"], hello["version"]) == ("hello", name, transport, "1.16.0")
    assert hello["unavailable"] is None and hello["capabilities"]["row_values"] == "*"


@pytest.mark.parametrize("transport,name", [("file", "go-mysql-file"), ("stream", "go-mysql")])
def test_testee_is_gated_by_its_expected_failures(adapter: list[str], transport: str, name: str,
                                                  tmp_path: Path) -> None:
    run = gate(adapter, transport, name, CASES, tmp_path)
    summary, outcomes = run.summary, run.outcomes
    assert run.entries == 2
    assert f"{name}: {len(CASES)} cases, 2 expected failures, 0 unexpected, 0 stale" in summary, summary
    assert run.returncode == 0, summary
    assert outcomes.count("pass") == len(CASES) - 2  # json--row and the compressed case are expected
