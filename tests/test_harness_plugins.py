"""Real parsers through the real contracts over real binlogs."""
from __future__ import annotations

import pytest

from tests.harness_helpers import (GOOD, TRUNCATED, corpus_args, needs_external, node_cmd, run_cli)

pytestmark = needs_external


def by_parser(records, parser):
    return {r["case"]: r for r in records if r["parser"] == parser}


def test_oracle_plugin_passes_real_binlogs_and_broken_one(tmp_path):
    rc, records = run_cli(tmp_path, "--parser", "oracle", *corpus_args([*GOOD, TRUNCATED]))
    assert rc == 0
    assert len(records) == len(GOOD) + 1
    assert {r["outcome"] for r in records} == {"pass"}
    truncated = by_parser(records, "oracle")[TRUNCATED.name]
    assert truncated["message"].startswith("rejected as expected: TruncatedEvent at offset 4")
    versions = {r["server_version"] for r in records}
    assert "5.6.24-debug-log" in versions and any("MariaDB" in v for v in versions)


@pytest.mark.parametrize("mode", ["oneshot", "persistent"])
def test_node_example_passes_header_only_except_where_it_loses_rows(tmp_path, mode):
    """A header-only parser frames every event right, but a capability never excuses lost rows:
    the MariaDB binlog's rows event, which it hands back without rows, is a failed check."""
    args = (["--parser-cmd", node_cmd()] if mode == "oneshot"
            else ["--parser-persistent", node_cmd("--serve")])
    rc, records = run_cli(tmp_path, *args, *corpus_args([*GOOD, TRUNCATED]))
    assert rc == 1, records
    assert {r["parser"] for r in records} == {"node-header-parser"}
    outcomes = {r["case"]: r["outcome"] for r in records}
    assert outcomes.pop(GOOD[3].name) == "mismatch" and set(outcomes.values()) == {"pass"}
    (lost,) = [r for r in records if r["outcome"] == "mismatch"]
    assert "WRITE_ROWS_EVENT_V1 body.rows (rows lost): expected 1, got <absent>" in lost["message"]
    rows = lost["checks"]["by_area"]["row_values"]
    assert rows["passed"] == 0 and rows["failed"] == lost["n_diffs"] == 2  # its two rows events
    assert lost["checks"]["by_area"]["framing"]["failed"] == 0


def test_altered_node_output_is_a_mismatch_with_a_field_diff(tmp_path, monkeypatch):
    monkeypatch.setenv("NODE_PARSER_ALTER", "server_id")
    rc, records = run_cli(tmp_path, "--parser-cmd", node_cmd(), *corpus_args(GOOD[:1]))
    assert rc == 1
    (r,) = records
    assert r["outcome"] == "mismatch"
    diff = r["diffs"][0]
    assert diff["path"] == "server_id" and diff["index"] == 1
    assert diff["actual"] == diff["expected"] + 1
    assert "server_id: expected 1, got 2" in r["message"]
    assert r["failed_types"] == [diff["event_type"]]


def test_altered_field_outside_capabilities_is_not_compared(tmp_path, monkeypatch):
    """The node parser reports no bodies: changing a body-level field it never claims is no diff."""
    monkeypatch.setenv("NODE_PARSER_ALTER", "checksum")  # adds "checksum": null, a field it does not claim
    rc, records = run_cli(tmp_path, "--parser-cmd", node_cmd(), *corpus_args(GOOD[:1]))
    assert rc == 0 and records[0]["outcome"] == "pass"


def test_python_mysql_replication_decodes_without_a_server_or_is_unavailable(tmp_path):
    rc, records = run_cli(tmp_path, "--parser", "python-mysql-replication-file", *corpus_args(GOOD))
    try:
        import pymysqlreplication  # noqa: F401
    except ImportError:
        assert {r["outcome"] for r in records} == {"unavailable"} and rc == 1
        return
    assert rc == 0, [r["message"] for r in records]
    # MySQL 5.x files are outside the versions 1.0 supports (its manifest: not_applicable), and
    # still decoded: what the library did with them is their run_outcome
    assert [r.get("run_outcome") or r["outcome"] for r in records] == ["pass"] * len(GOOD)
    assert {r["outcome"] for r in records} == {"pass", "not_applicable"}


def test_mariadb_binlog_runs_or_is_unavailable_never_passed(tmp_path, monkeypatch):
    import harness.plugins.mariadb_binlog as m
    rc, records = run_cli(tmp_path, "--parser", "mariadb-binlog", *corpus_args(GOOD[1:2]))
    (r,) = records
    import shutil
    if shutil.which(m.EXE) is None:
        assert r["outcome"] == "unavailable" and rc == 1
    else:
        assert r["outcome"] == "pass", r["message"]


def test_missing_tool_is_unavailable_not_pass(tmp_path):
    rc, records = run_cli(tmp_path, "--parser-cmd", "/nonexistent/parser", *corpus_args(GOOD[:2]))
    assert rc == 1
    assert [r["outcome"] for r in records] == ["unavailable", "unavailable"]


def test_unknown_plugin_is_unavailable(tmp_path):
    rc, records = run_cli(tmp_path, "--parser", "no-such-parser", *corpus_args(GOOD[:1]))
    assert rc == 1 and records[0]["outcome"] == "unavailable"
    assert "no parser plugin named" in records[0]["message"]
