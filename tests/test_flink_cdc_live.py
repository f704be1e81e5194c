"""Flink CDC's binlog library (flink-sql-connector-mysql-cdc 3.5.0's mysql-binlog-connector-java
0.27.2) against a real MariaDB 10.11, no harness primary: the flink-cdc adapter's BinaryLogClient
straight to the server, beside the Zendesk line 0.30.1 through the same adapter source as the
control (docs/findings/flink-cdc.md, FC3)."""
from __future__ import annotations

import json
import subprocess
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from harness.runtimes.jvm import RUNTIME

from .parser_builds import built_folder
from .server_fixtures import replication_user_sql, start_server

pytestmark = pytest.mark.server
__all__ = ["start_server"]

USER, PASSWORD = "repl", "repl-pw"
XA_SQL = """
CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY);
INSERT INTO d.t VALUES (1);
XA START 'x1';
INSERT INTO d.t VALUES (2);
XA END 'x1';
XA PREPARE 'x1';
XA COMMIT 'x1';
"""


def stream(folder: str, port: int, file: str, end: int) -> dict[str, Any]:
    """One stream request to the adapter built from harness/parsers/<folder>: its reply."""
    argv = RUNTIME.command(built_folder(RUNTIME, folder)) + ["stream"]
    request = {"type": "parse", "id": 1, "path": file, "stream": {
        "host": "127.0.0.1", "port": port, "user": USER, "password": PASSWORD, "file": file,
        "start_position": 4, "end_file": file, "end_position": end}}
    proc = subprocess.run(argv, input=json.dumps(request) + "\n", capture_output=True, text=True, timeout=180)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 2, proc.stderr[-2000:]
    return json.loads(lines[1])


def test_mariadb_xa_transaction_refused_for_capability_1(start_server):
    """FC3: 0.27.2 announces @mariadb_slave_capability=1, so MariaDB replaces each GTID event by a
    backwards-compatible BEGIN and cannot for the XA PREPARE's: the server ends the dump with
    "Failed to replace GTID event with backwards-compatible event: corrupt event". The control:
    the Zendesk line (capability 4) streams the same file to its end, both rows events included."""
    server = start_server(LOCAL_PROFILES["mariadb-10.11"], {"binlog_format": "ROW"})
    server.execute(replication_user_sql(USER, PASSWORD) + XA_SQL)
    file = server.binlog_files()[0]
    server.flush_logs()
    end = server.binlog_sizes()[file]
    flink = stream("flink-cdc", server.port, file, end)
    assert flink["type"] == "error", flink
    assert "Failed to replace GTID event with backwards-compatible event" in flink["message"]
    control = stream("mysql-binlog-connector-java-zendesk", server.port, file, end)
    assert control["type"] == "events", control
    rows = [e for e in control["events"] if "rows" in e["body"]]
    assert [r["values"] for e in rows for r in e["body"]["rows"]] == [[1], [2]]
