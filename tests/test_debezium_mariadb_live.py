"""Debezium's MariaDB connector alone against a real MariaDB 10.11: the embedded engine of
harness/parsers/debezium-mariadb (the adapter source of debezium-mysql, configured as
docs/findings/debezium-mariadb.md says) connected straight to the server, no harness primary in
between. Finding DM1 beside its control; the values compared are the oracle's decode of the file
that same server wrote."""
from __future__ import annotations

from pathlib import Path

import pytest

from generators.profiles import LOCAL_PROFILES
from harness.runtimes.jvm import RUNTIME
from oracle.decoder import decode_file

from .parser_builds import built_folder
from .server_fixtures import replication_user_sql, start_server
from .test_debezium_live import PASSWORD, USER, engine_stream, rows_of

pytestmark = pytest.mark.server
__all__ = ["start_server"]

DM1_SQL = """
CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY, s VARCHAR(10));
INSERT INTO d.t VALUES (1, 'one');
INSERT INTO d.t VALUES (2, 'two');
"""


@pytest.fixture(scope="module")
def adapter() -> list[str]:
    """The adapter's argv, built into the cache (once per machine)."""
    return RUNTIME.command(built_folder(RUNTIME, "debezium-mariadb"))


def test_start_before_any_gtid_fails_at_the_dump(start_server, tmp_path: Path, adapter):
    """DM1: from binlog.000001 position 4, where MariaDB's own BINLOG_GTID_POS is empty, the
    connector dumps by an empty GTID set and its binlog client throws a NullPointerException
    (`setGtidSet("")` turns GTID mode on and keeps no set). The control: the same file from the
    last transaction's Gtid event, where BINLOG_GTID_POS names the transaction before it, streams
    that transaction's row, the value the oracle decodes."""
    server = start_server(LOCAL_PROFILES["mariadb-10.11"], {"binlog_format": "ROW"})
    server.execute(replication_user_sql(USER, PASSWORD) + DM1_SQL)
    file = server.binlog_files()[0]
    server.flush_logs()
    end = server.binlog_sizes()[file]
    oracle = [e.to_json() for e in decode_file(server.copy_binlogs(tmp_path, [file])[0])]
    assert server.query(f"SELECT BINLOG_GTID_POS('{file}', 4) AS p")[0]["p"] == ""

    reply = engine_stream(adapter, server.port, file, end)
    assert reply["type"] == "error" and reply["kind"] == "NullPointerException", reply
    assert "GtidSet.toString()" in reply["message"] and "this.gtidSet" in reply["message"]
    assert rows_of(reply["events"]) == []

    last_gtid = [e for e in oracle if e["type"] == "GTID_EVENT"][-1]["position"]
    assert server.query(f"SELECT BINLOG_GTID_POS('{file}', {last_gtid}) AS p")[0]["p"] != ""
    control = engine_stream(adapter, server.port, file, end, start=last_gtid)
    assert control["type"] == "events", control
    assert rows_of(control["events"]) == rows_of(oracle)[-1:] == [[2, "two"]]
    # and at the rows event's own position (DM5's control: 10.11 writes real log_pos values)
    rows_event = [e for e in oracle if e["type"].startswith("WRITE_ROWS")][-1]
    assert [e["position"] for e in control["events"]] == [rows_event["position"]]


INET6_CONTROL_SQL = """
CREATE DATABASE d;
CREATE TABLE d.c (id INT PRIMARY KEY, s VARCHAR(10));
INSERT INTO d.c VALUES (1, 'one');
INSERT INTO d.c VALUES (2, 'two');
"""
INET6_SQL = """
CREATE TABLE d.t (id INT PRIMARY KEY, a INET6);
INSERT INTO d.t VALUES (1, '::1');
INSERT INTO d.c VALUES (3, 'three');
"""


def _from_last_transaction(server, tmp_path: Path, adapter: list[str]) -> tuple[dict, list[dict]]:
    """binlog.000001 from its last transaction's Gtid event (BINLOG_GTID_POS is not empty there:
    DM1 stays out of the way) to its end, through Debezium and the oracle."""
    file = server.binlog_files()[-1]  # the one being written
    server.flush_logs()
    end = server.binlog_sizes()[file]
    oracle = [e.to_json() for e in decode_file(server.copy_binlogs(tmp_path, [file])[0])]
    start = [e for e in oracle if e["type"] == "GTID_EVENT"][-1]["position"]
    return engine_stream(adapter, server.port, file, end, start=start), oracle


def test_inet6_column_stops_the_ddl_parser(start_server, tmp_path: Path, adapter):
    """DM2: a table with a MariaDB INET6 column (10.5+) stops the connector at its schema
    snapshot: its DDL parser refuses the type ("DDL statement couldn't be parsed"). The control:
    the same server before that table existed streams the last row of d.c."""
    server = start_server(LOCAL_PROFILES["mariadb-10.11"], {"binlog_format": "ROW"})
    server.execute(replication_user_sql(USER, PASSWORD) + INET6_CONTROL_SQL)
    (tmp_path / "control").mkdir()
    control, oracle = _from_last_transaction(server, tmp_path / "control", adapter)
    assert control["type"] == "events", control
    assert rows_of(control["events"]) == rows_of(oracle)[-1:] == [[2, "two"]]

    server.execute(INET6_SQL)
    reply, _ = _from_last_transaction(server, tmp_path, adapter)
    assert reply["type"] == "error" and reply["kind"] == "ParsingException", reply
    assert "INET6" in reply["message"].upper() and "couldn't be parsed" in reply["message"]


def test_row_positions_on_mariadb_11(start_server, tmp_path: Path, adapter):
    """DM5: MariaDB 11 binlogs store log_pos 0 in the events inside a transaction; the change
    record's `source.pos` (the adapter's `position`) comes out as 0 minus the rows event's size,
    a negative place. The control, MariaDB 10.11 with real log_pos values, is the end of
    test_start_before_any_gtid_fails_at_the_dump."""
    server = start_server(LOCAL_PROFILES["mariadb-11.8"], {"binlog_format": "ROW"})
    server.execute(replication_user_sql(USER, PASSWORD) + DM1_SQL)
    reply, oracle = _from_last_transaction(server, tmp_path, adapter)
    assert reply["type"] == "events", reply
    rows_event = [e for e in oracle if e["type"].startswith("WRITE_ROWS")][-1]
    assert rows_event["next_position"] == 0
    assert rows_of(reply["events"]) == [[2, "two"]]
    assert [e["position"] for e in reply["events"]] == [-rows_event["event_size"]]
