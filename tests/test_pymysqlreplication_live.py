"""python-mysql-replication's own BinLogStreamReader against a real MySQL 9.7 server, beside the
harness's file adapter on the binlog that server wrote: the adapter must report exactly the row
values the library gives its users over the wire, so that every row-value difference the harness
records against the oracle is the library's, not the adapter's. The two defects of issue 13 show
here, on a live server:
- binlog_row_metadata=MINIMAL: unsigned columns come back as signed (255 -> -1);
- binlog_transaction_compression=ON: the rows of a compressed transaction never arrive."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from harness.compare import compare_events
from harness.plugins.pymysqlreplication_plugin import PyMysqlReplicationFileParser
from harness.plugins.pymysqlreplication_rows import canonical_rows
from oracle.decoder import decode_file

from .server_fixtures import start_server

pytestmark = pytest.mark.server
__all__ = ["start_server"]

USER, PASSWORD = "repl", "repl-pw"
SQL = f"""
CREATE USER '{USER}'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}';
GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '{USER}'@'127.0.0.1';
CREATE DATABASE d;
CREATE TABLE d.u (id INT PRIMARY KEY, ti TINYINT UNSIGNED, i INT UNSIGNED, bi BIGINT UNSIGNED,
                  s VARCHAR(10), dt DATETIME(3), e ENUM('a', 'b'));
INSERT INTO d.u VALUES (1, 255, 4294967295, 18446744073709551615, 'été', '2024-02-29 12:34:56.789', 'b');
INSERT INTO d.u VALUES (2, 1, 2, 3, NULL, NULL, NULL);
UPDATE d.u SET ti = 254 WHERE id = 1;
DELETE FROM d.u WHERE id = 2;
CREATE TABLE d.y (id INT PRIMARY KEY, y YEAR);
INSERT INTO d.y VALUES (1, 0);
FLUSH BINARY LOGS;
CREATE TABLE d.l (id INT PRIMARY KEY, s VARCHAR(10) CHARACTER SET latin1);
INSERT INTO d.l VALUES (1, 'é');
FLUSH BINARY LOGS;
"""
Rows = list[list[dict[str, Any]]]


def _failure(e: Exception) -> str:
    return f"{type(e).__name__}: {e}"


def stream_rows(port: int, log_file: str) -> tuple[Rows, str | None]:
    """Rows of every rows event, read the way the library's users read them, and the exception
    that ended the stream, if any."""
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import RowsEvent
    reader = BinLogStreamReader(connection_settings={"host": "127.0.0.1", "port": port, "user": USER,
                                                     "password": PASSWORD},
                                server_id=4242, blocking=False, log_file=log_file, log_pos=4,
                                resume_stream=True)
    rows: Rows = []
    try:
        for e in reader:
            if isinstance(e, RowsEvent):
                rows.append(canonical_rows(e))
    except Exception as e:  # what the user's loop would die of
        return rows, _failure(e)
    finally:
        reader.close()
    return rows, None


def file_rows(paths: list[Path]) -> tuple[list[dict[str, Any]], Rows, str | None]:
    """The adapter over each file in turn: its events, their rows, and the exception that ended
    it (as a crash, the adapter returns no events for the file it died in)."""
    events: list[dict[str, Any]] = []
    for path in paths:
        try:
            events += PyMysqlReplicationFileParser().parse(str(path))
        except Exception as e:
            return events, _rows(events), _failure(e)
    return events, _rows(events), None


def _rows(events: list[dict[str, Any]]) -> Rows:
    return [e["body"]["rows"] for e in events if "table_id" in e["body"] and "rows" in e["body"]]


def oracle_events(path: Path) -> list[dict[str, Any]]:
    return [e.to_json() for e in decode_file(path)]


def oracle_stream(paths: list[Path]) -> list[dict[str, Any]]:
    return [e for p in paths for e in oracle_events(p)]


def run(start_server, tmp_path: Path, settings: dict[str, str]):
    """Binlog 1: d.u and d.y; binlog 2: d.l. Returns the files and what the stream delivered."""
    server = start_server(LOCAL_PROFILES["mysql-9.7"], settings)
    server.execute(SQL)
    files = server.binlog_files()[:2]
    paths = server.copy_binlogs(tmp_path, files)
    return paths, stream_rows(server.port, files[0])


def test_minimal_metadata_unsigned_values_come_back_signed(start_server, tmp_path):
    paths, (over_the_wire, stream_failure) = run(start_server, tmp_path, {"binlog_row_metadata": "MINIMAL"})
    events, from_file, file_failure = file_rows(paths)
    assert (from_file, file_failure) == (over_the_wire, stream_failure), \
        "the file adapter must report what BinLogStreamReader delivers"
    # 255, 4294967295, 2**64-1 as -1; the ENUM 'b' (index 2) as NULL; YEAR 0000 as 1900
    assert [row["values"] for row in over_the_wire[0]] == [
        [1, -1, -1, -1, "été", {"type": "datetime", "value": "2024-02-29 12:34:56.789"}, None]]
    assert over_the_wire[-1] == [{"values": [1, 1900]}]
    # no charset without FULL metadata: latin1 'é' (e9) is decoded as UTF-8 and the stream dies
    assert stream_failure and stream_failure.startswith("UnicodeDecodeError")
    diffs = compare_events(oracle_stream(paths[:1]), events, PyMysqlReplicationFileParser.capabilities)
    assert {(d.where, d.path.split()[1], d.expected, d.actual) for d in diffs} == {
        ("d.u column 1", "TINY", 255, -1), ("d.u column 2", "LONG", 4294967295, -1),
        ("d.u column 3", "LONGLONG", 18446744073709551615, -1), ("d.u column 6", "STRING", 2, None),
        ("d.y column 1", "YEAR", 0, 1900), ("d.u column 1", "TINY", 254, -2)}


def test_full_metadata_values_are_right_but_year_zero(start_server, tmp_path):
    """Where the library is right, the harness passes it: FULL metadata, same statements."""
    paths, (over_the_wire, stream_failure) = run(start_server, tmp_path, {"binlog_row_metadata": "FULL"})
    events, from_file, file_failure = file_rows(paths)
    assert (from_file, file_failure) == (over_the_wire, stream_failure) and stream_failure is None
    assert over_the_wire[0][0]["names"] == ["id", "ti", "i", "bi", "s", "dt", "e"]
    diffs = compare_events(oracle_stream(paths), events, PyMysqlReplicationFileParser.capabilities)
    assert [str(d).split(" body.rows[0].")[1] for d in diffs] == ["values[1] YEAR (d.y column 1 `y`): expected 0, got 1900"]


def test_compressed_transaction_rows_are_lost(start_server, tmp_path):
    paths, (over_the_wire, stream_failure) = run(start_server, tmp_path, {"binlog_transaction_compression": "ON"})
    events, from_file, file_failure = file_rows(paths)
    assert (from_file, file_failure) == (over_the_wire, stream_failure) == ([], None)  # no row arrives
    expected = oracle_stream(paths)
    nested = [n for e in expected if e["type"] == "TRANSACTION_PAYLOAD_EVENT" for n in e["body"]["events"]]
    assert sum("ROWS" in n["type"] for n in nested) == 6
    diffs = compare_events(expected, events, PyMysqlReplicationFileParser.capabilities)
    missing_rows = [d for d in diffs if "ROWS_EVENT" in d.path]
    assert len(missing_rows) == 6 and all(str(d).endswith(": missing") for d in missing_rows)
