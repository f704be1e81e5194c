"""Debezium's MySQL connector alone against a real MySQL 9.7: the embedded engine of
harness/parsers/debezium-mysql (configured as docs/findings.md says) connected straight to the
server, no harness primary in between. Each Debezium finding in docs/findings.md shows here beside
a control row Debezium gets right; the values compared are the oracle's decode of the file that
same server wrote. Reproducers: corpus/findings/debezium-mysql/."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from harness.runtimes.jvm import RUNTIME
from oracle.decoder import decode_file

from .parser_builds import built_folder
from .server_fixtures import replication_user_sql, start_server

pytestmark = pytest.mark.server
__all__ = ["start_server"]

USER, PASSWORD = "repl", "repl-pw"
FINDINGS = Path(__file__).resolve().parent.parent / "corpus" / "findings" / "debezium-mysql"
CONTROL_MARK = "-- the control"
OVERRIDES = "DEBEZIUM_CONFORMANCE_OVERRIDES"  # ConnectorConfig.OVERRIDES
GTIDS = {"gtid_mode": "ON", "enforce_gtid_consistency": "ON"}


@pytest.fixture(scope="module")
def adapter() -> list[str]:
    """The adapter's argv, built into the cache (once per machine)."""
    return RUNTIME.command(built_folder(RUNTIME, "debezium-mysql"))


def engine_stream(argv: list[str], port: int, file: str, end: int, overrides: str = "",
                  start: int = 4, timeout: float = 180) -> dict[str, Any]:
    """One run of the embedded engine from `file` position `start` to `end` on the real server: the reply
    (subprocess.TimeoutExpired if none comes within `timeout` seconds)."""
    request = {"type": "parse", "id": 1, "path": file, "stream": {
        "host": "127.0.0.1", "port": port, "user": USER, "password": PASSWORD, "file": file,
        "start_position": start, "end_file": file, "end_position": end}}
    env = {**os.environ, OVERRIDES: overrides}
    proc = subprocess.run(argv + ["stream"], input=json.dumps(request) + "\n", capture_output=True,
                          text=True, timeout=timeout, env=env)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 2, proc.stderr[-2000:]
    return json.loads(lines[1])


def rows_of(events: list[dict[str, Any]]) -> list[list[Any]]:
    return [r["values"] for e in events if "rows" in e["body"] for r in e["body"]["rows"]]


def run(start_server, tmp_path: Path, argv: list[str], name: str, settings: dict[str, str] | None = None,
        overrides: str = "") -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The reproducer on a fresh MySQL 9.7, then binlog.000001 through Debezium and the oracle."""
    server = start_server(LOCAL_PROFILES["mysql-9.7"], settings or {})
    defect, control = (FINDINGS / name / "repro.sql").read_text().split(CONTROL_MARK)
    server.execute(replication_user_sql(USER, PASSWORD) + defect)
    server.execute(CONTROL_MARK + control)
    file = server.binlog_files()[0]
    server.flush_logs()
    end = server.binlog_sizes()[file]
    path = server.copy_binlogs(tmp_path, [file])[0]
    return engine_stream(argv, server.port, file, end, overrides), [e.to_json() for e in decode_file(path)]


def test_year_zero(start_server, tmp_path, adapter):
    """YEAR 0000 arrives as 1900; YEAR 2024 (the control row) is right."""
    reply, oracle = run(start_server, tmp_path, adapter, "year-zero")
    assert reply["type"] == "events"
    ours, theirs = rows_of(reply["events"]), rows_of(oracle)
    assert theirs == [[1, 0], [2, 2024]]
    assert ours[1] == [2, 2024]
    assert ours[0] == [1, 1900]


def test_json_text(start_server, tmp_path, adapter):
    """A negative TIME inside JSON is garbled, an opaque value loses "base64:type15:", 1e300 is
    printed as its full decimal expansion; the control document is MySQL's text once spaced."""
    reply, oracle = run(start_server, tmp_path, adapter, "json-text")
    assert reply["type"] == "events"
    ours = [v[1]["value"] for v in rows_of(reply["events"])]
    theirs = [v[1]["value"] for v in rows_of(oracle)]
    assert theirs == ['{"t": "-12:34:56.789000"}', '{"b": "base64:type15:AP8="}', "[1e300]",
                      '{"b": "x", "n": 2.5, "t": "12:34:56"}']
    assert ours[3] == theirs[3]
    assert ours[0] != theirs[0] and "-" in ours[0][8:]  # minus signs inside the fields
    assert ours[1] == '{"b": "AP8="}'
    assert ours[2].startswith("[1000000000000000052504760255204420248704468581108159154915854115511802")
    assert float(ours[2][1:-1]) == 1e300  # the same double, another text


def test_offset_without_gtids(start_server, tmp_path, adapter):
    """On a server with gtid_mode=ON, an offset {file, pos} without GTIDs makes the binlog client
    throw a NullPointerException at the dump; with gtid.ignore.on.recovery=true (the control, the
    adapter's setting) the same offset streams both rows."""
    reply, _ = run(start_server, tmp_path, adapter, "offset-without-gtids", GTIDS,
                   overrides="gtid.ignore.on.recovery=false")
    assert reply["type"] == "error" and reply["kind"] == "NullPointerException", reply
    assert "GtidSet.getUUIDSets()" in reply["message"] and "this.gtidSet" in reply["message"]
    (tmp_path / "control").mkdir()
    control, oracle = run(start_server, tmp_path / "control", adapter, "offset-without-gtids", GTIDS)
    assert control["type"] == "events"
    assert rows_of(control["events"]) == rows_of(oracle) == [[1, "one"], [2, "two"]]


SYSTEM_SCHEMA_SQL = """
CREATE DATABASE d;
CREATE TABLE mysql.t (id INT PRIMARY KEY, s VARCHAR(10));
CREATE TABLE d.t (id INT PRIMARY KEY, s VARCHAR(10));
INSERT INTO mysql.t VALUES (1, 'system');
INSERT INTO d.t VALUES (2, 'user');
"""


def test_system_schema_rows_arrive_and_the_default_filters_them(start_server, tmp_path, adapter):
    """Not a finding: the adapter's configuration (docs/findings.md, Debezium, "Every table").
    With table.ignore.builtin=false the row of a table in the `mysql` schema arrives beside the
    control row of a user schema. With Debezium's default (true) it is filtered, yet counted by
    the streaming metrics' create counter the adapter reads, so the request ends with the
    adapter's shortfall error and the control row only: what four rust_mysql_common binlogs
    (tables in `mysql`) showed before the adapter set it."""
    server = start_server(LOCAL_PROFILES["mysql-9.7"], {})
    server.execute(replication_user_sql(USER, PASSWORD) + SYSTEM_SCHEMA_SQL)
    file = server.binlog_files()[0]
    server.flush_logs()
    end = server.binlog_sizes()[file]
    reply = engine_stream(adapter, server.port, file, end)
    assert reply["type"] == "events", reply
    assert rows_of(reply["events"]) == [[1, "system"], [2, "user"]]
    default = engine_stream(adapter, server.port, file, end, overrides="table.ignore.builtin=true")
    assert default["type"] == "error", default
    assert "counted 2 change records" in default["message"] and "1 reached the consumer" in default["message"]
    assert rows_of(default["events"]) == [[2, "user"]]


def _ddl_with_literal(start_server, tmp_path: Path, argv: list[str], length: int) -> dict[str, Any] | None:
    """On a fresh MySQL 9.7: a table whose column DEFAULT is a string literal of `length` characters,
    dropped again (so the connector's schema snapshot at its start never reads it: only the
    binlog's DDL does), then a row; Debezium's reply over that binlog, or None if none came within
    60 s. (A view would not do: Debezium's default DDL filter drops CREATE VIEW unparsed.)"""
    server = start_server(LOCAL_PROFILES["mysql-9.7"], {})
    server.execute(replication_user_sql(USER, PASSWORD) + "CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY);"
                   f"CREATE TABLE d.w (c VARCHAR({length}) CHARACTER SET latin1 DEFAULT '{'x' * length}');"
                   "DROP TABLE d.w; INSERT INTO d.t VALUES (1);")
    file = server.binlog_files()[0]
    server.flush_logs()
    try:
        return engine_stream(argv, server.port, file, server.binlog_sizes()[file], timeout=60)
    except subprocess.TimeoutExpired:
        return None


def test_a_long_string_literal_in_ddl_kills_the_binlog_reader(start_server, tmp_path, adapter):
    """DdlNormalizer.normalize (3.6.1) matches quoted literals with a regex whose repetition recurses
    once per character: a DDL statement holding a long string literal overflows the stack of the
    binlog client's reader thread. The StackOverflowError is an Error, which the client's listener
    loop does not catch: the reader thread dies, no lifecycle listener hears of it, and the
    connector waits for ever (no reply within 60 s), the row after it never delivered. The adapter
    runs the JVM with -Xss4m, so 60,000 characters here (about 16,000 are enough); with the JVM's default 1 MiB thread stack
    about 1,700 are enough (a table COMMENT may hold 2,048). Control: the same with 100 characters."""
    assert _ddl_with_literal(start_server, tmp_path, adapter, 60_000) is None
    control = _ddl_with_literal(start_server, tmp_path, adapter, 100)
    assert control is not None and control["type"] == "events", control
    assert rows_of(control["events"]) == [[1]]
