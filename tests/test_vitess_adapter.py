"""The Vitess adapter (harness/parsers/vitess, vitess.io/vitess v0.24.4) built by
harness/runtimes/go.py into the cache and run through the persistent protocol: its hello, and
the library's findings of docs/findings/vitess.md pinned on committed corpus files (one parse
each, well under a second): NextLogFile's truncated name, a JSON TIME's lost value, the tagged
Previous_gtids the library cannot read, and unsigned integers read signed from a Table_map."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from .expected_entries import gate
from .go_builds import adapter_command

ROOT = Path(__file__).resolve().parent.parent
# one case the library gets right, four with reviewed entries (temporal values beside the Rotate
# name, JSON, a compressed transaction, MariaDB): their diffs are pinned by digest
CASES = ["corpus/mysql-8.0/shutdown--row", "corpus/mysql-8.0/temporal--row", "corpus/mysql-8.0/json--row",
         "corpus/mysql-8.0/ddl_dml_basic--row-compressed", "corpus/mariadb-11.8/ddl_dml_basic--row"]


@pytest.fixture(scope="module")
def adapter() -> list[str]:
    return adapter_command("vitess")


@pytest.mark.parametrize("transport,name", [("file", "vitess-file"), ("stream", "vitess")])
def test_hello_names_the_testee(adapter: list[str], transport: str, name: str) -> None:
    proc = subprocess.run([*adapter, transport], input="", capture_output=True, text=True, timeout=60)
    hello = json.loads(proc.stdout.splitlines()[0])
    assert proc.returncode == 0
    assert (hello["type"], hello["name"], hello["transport"], hello["version"]) == ("hello", name, transport, "0.24.4")
    assert hello["unavailable"] is None and hello["capabilities"]["row_values"] == "*"


@pytest.mark.parametrize("transport,name", [("file", "vitess-file"), ("stream", "vitess")])
def test_testee_is_gated_by_its_expected_failures(adapter: list[str], transport: str, name: str,
                                                  tmp_path: Path) -> None:
    run = gate(adapter, transport, name, CASES, tmp_path)
    count, summary, outcomes = run.entries, run.summary, run.outcomes
    assert count == len(CASES) - 1
    assert f"{name}: {len(CASES)} cases, {count} expected failures, 0 unexpected, 0 stale" in summary, summary
    assert run.returncode == 0, summary
    assert outcomes.count("pass") == 1


def _parse(adapter: list[str], relative: str) -> dict[str, Any]:
    request = json.dumps({"type": "parse", "id": 1, "path": str(ROOT / relative)})
    proc = subprocess.run([*adapter, "file"], input=request + "\n", capture_output=True, text=True, timeout=60)
    return json.loads(proc.stdout.splitlines()[1])


def _expected(relative: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (ROOT / (relative + ".expected.jsonl")).read_text().splitlines()]


def _by_position(events: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    return {e["position"]: e for e in events}


def test_next_log_file_drops_the_last_four_bytes_of_the_name(adapter: list[str]) -> None:
    case = "corpus/mysql-8.0/rotation--row/binlog.000001"
    reply = _parse(adapter, case)
    rotate = next(e for e in _expected(case) if e["type"] == "ROTATE_EVENT")
    got = _by_position(reply["events"])[rotate["position"]]
    assert (got["type"], got["library_type"]) == ("ROTATE_EVENT", "IsRotate")
    assert rotate["body"]["new_log_ident"] == "binlog.000002"
    assert got["body"]["new_log_ident"] == "binlog.00"  # NextLogFile strips a checksum already stripped


def test_json_time_inside_a_document_is_lost(adapter: list[str]) -> None:
    case = "corpus/mysql-8.0/json--row/binlog.000001"
    reply = _parse(adapter, case)
    texts = [json.dumps(e.get("body", {}).get("rows")) for e in reply["events"]]
    assert any('\\"time\\": \\"\\"' in t for t in texts), "the JSON TIME member should come back empty"
    assert any('-12:34:56.789000' in json.dumps(e.get("body")) for e in _expected(case))


def test_tagged_previous_gtids_are_not_read(adapter: list[str]) -> None:
    case = "corpus/mysql-9.7/gtid_tagged--row/binlog.000002"
    reply = _parse(adapter, case)
    previous = next(e for e in reply["events"] if e["type"] == "PREVIOUS_GTIDS_LOG_EVENT")
    assert previous["body"]["gtid_set"]["type"] == "error"
    assert reply["type"] == "events"  # the file goes on past it, as vstreamer goes on


def test_unsigned_integers_come_back_signed_from_table_map_fields(adapter: list[str]) -> None:
    case = "corpus/mysql-8.0/integers--row/binlog.000001"
    reply = _parse(adapter, case)
    values = [v for e in reply["events"] for row in (e.get("body") or {}).get("rows") or []
              for v in row.get("values", [])]
    assert -1 in values  # TINYINT UNSIGNED 255 (and BIGINT UNSIGNED 2^64-1) read as signed
