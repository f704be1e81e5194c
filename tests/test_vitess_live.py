"""Vitess's go/mysql (v0.24.4) alone against a real MySQL 8.0 (findings V1 and V2 of
docs/findings/vitess.md), MySQL 9.7 and 8.0 with GTIDs (V3) and a real MariaDB 11.8 (V8, V9), shown by a small Go program that calls the library directly
(harness/parsers/vitess/probe: the dump as go/vt/binlog.BinlogConnection sends it, no harness
primary, no adapter), each beside a control where the library is right."""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from generators.server import Server, running_server

from .library_alone.binlogs import in_a_fresh_binlog
from .go_builds import probe as built_probe
from .server_fixtures import require_image

pytestmark = pytest.mark.server

USER, PASSWORD = "vt", "vt-secret-pw"
GRANTS = (f"CREATE USER '{USER}'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}';"
          f"GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '{USER}'@'127.0.0.1';")


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The probe, built from the parser folder's own go.mod/go.sum."""
    return built_probe("vitess", tmp_path_factory.mktemp("probe"))


@pytest.fixture(scope="module")
def mysql() -> Iterator[Server]:
    profile = LOCAL_PROFILES["mysql-8.0"]
    require_image(profile)
    with running_server(profile, {"binlog_format": "ROW"}) as server:
        server.execute(GRANTS)
        yield server


@pytest.fixture(scope="module")
def mariadb() -> Iterator[Server]:
    profile = LOCAL_PROFILES["mariadb-11.8"]
    require_image(profile)
    with running_server(profile, {"binlog_format": "ROW", "log_bin_compress": "ON",
                                  "log_bin_compress_min_len": "10"}) as server:
        server.execute(GRANTS)
        yield server


def dump(probe: Path, server: Server, first: str, *flavor: str) -> list[dict[str, Any]]:
    proc = subprocess.run([str(probe), "127.0.0.1", str(server.port), USER, PASSWORD, first, "4", *flavor],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.split("\n") if line]


def current_position(probe: Path, server: Server) -> list[dict[str, Any]]:
    """What Conn.PrimaryPosition reads from the server (the probe's `current` mode)."""
    proc = subprocess.run([str(probe), "127.0.0.1", str(server.port), USER, PASSWORD, "current"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.split("\n") if line]


def test_next_log_file_is_four_bytes_short_after_strip_checksum(probe: Path, mysql: Server) -> None:
    """V1: the Rotate at the end of a closed binlog names the next file; NextLogFile on the
    event as StripChecksum returns it drops four bytes. Control: the same call on the event
    before StripChecksum (the CRC32 still there to cut) gives the server's name."""
    first = in_a_fresh_binlog(mysql, "CREATE DATABASE IF NOT EXISTS vt1")
    mysql.flush_logs()
    following = mysql.binlog_files()[-1]
    rotates = [line for line in dump(probe, mysql, first) if "rotate" in line]
    assert rotates, "the dump delivered no Rotate"
    closing = rotates[-1]
    assert closing["rotate_unstripped"] == following  # control
    assert closing["rotate"] == following[:-4]  # the defect


def test_json_time_outside_a_day_is_lost_or_wrapped(probe: Path, mysql: Server) -> None:
    """V2: a TIME inside a JSON document. Control: 12:34:56 is right; -12:34:56 comes back empty
    and a TIME of 64 hours or more modulo 64 hours (its hour's upper bits dropped) (the server's own reading, j->>'$.t', is the
    reference)."""
    sql = ("DROP DATABASE IF EXISTS vt2; CREATE DATABASE vt2; CREATE TABLE vt2.j (id INT PRIMARY KEY, j JSON);"
           "INSERT INTO vt2.j VALUES (1, JSON_OBJECT('t', CAST('12:34:56' AS TIME))),"
           " (2, JSON_OBJECT('t', CAST('-12:34:56' AS TIME))), (3, JSON_OBJECT('t', CAST('87:31:46' AS TIME)))")
    first = in_a_fresh_binlog(mysql, sql)
    lines = dump(probe, mysql, first)
    rows = {int(line["values"][0]): line["values"][1] for line in lines if line.get("table") == "j"}
    assert sorted(rows) == [1, 2, 3], lines
    stored = [r["t"] for r in mysql.query("SELECT id, j->>'$.t' AS t FROM vt2.j ORDER BY id")]
    assert stored[:2] == ["12:34:56.000000", "-12:34:56.000000"] and int(stored[2].split(":")[0]) >= 64, stored
    hours, rest = stored[2].split(":", 1)
    assert json.loads(rows[1]) == {"t": "12:34:56.000000"}, rows  # control
    assert json.loads(rows[2]) == {"t": ""}, rows
    assert json.loads(rows[3]) == {"t": f"{int(hours) % 64:02d}:{rest}"}, (rows, stored)


# MariaDB's compressed events (log_bin_compress): QUERY_COMPRESSED_EVENT and
# WRITE_ROWS_COMPRESSED_EVENT_V1, the codes a MariaDB 11.8 writes for row-format v1 inserts.
QUERY_COMPRESSED, WRITE_ROWS_COMPRESSED_V1 = 165, 166
V9_SQL = ("DROP DATABASE IF EXISTS {db}; CREATE DATABASE {db}; "
          "CREATE TABLE {db}.t (id INT PRIMARY KEY, s VARCHAR(100));"
          "INSERT INTO {db}.t VALUES (1, REPEAT('compressible ', 5)), (2, REPEAT('again ', 8))")


def test_mariadb_compressed_events_are_unnamed_and_their_rows_lost(probe: Path, mariadb: Server) -> None:
    """V9: with log_bin_compress on, MariaDB writes compressed Query and rows events; no Is...
    method of the library names them, so a reader built on it (vstreamer's parseEvent) gets no
    statement and no row. Control: the same statements with log_bin_compress off, on the same
    server and connection settings: both rows come back."""
    mariadb.execute("SET GLOBAL log_bin_compress = OFF")
    control = dump(probe, mariadb, in_a_fresh_binlog(mariadb, V9_SQL.format(db="v9plain")), "mariadb")
    mariadb.execute("SET GLOBAL log_bin_compress = ON")
    compressed = dump(probe, mariadb, in_a_fresh_binlog(mariadb, V9_SQL.format(db="v9comp")), "mariadb")
    control_rows = [line["values"] for line in control if line.get("table") == "t"]
    assert control_rows == [["1", "compressible " * 5], ["2", "again " * 8]], control  # control
    # (MariaDB's Gtid_list, 163, and Binlog_checkpoint, 161, are unnamed either way)
    assert not {QUERY_COMPRESSED, WRITE_ROWS_COMPRESSED_V1} & codes(control, "unnamed"), control
    unnamed = codes(compressed, "unnamed")
    assert {QUERY_COMPRESSED, WRITE_ROWS_COMPRESSED_V1} <= unnamed, compressed
    assert not [line for line in compressed if line.get("table") == "t"], compressed  # rows lost


ANONYMOUS_GTID, USER_VAR, QUERY, XID = 34, 14, 2, 16
BINLOG_CHECKPOINT, GTID_LIST, MARIADB_GTID = 161, 163, 162


def codes(lines: list[dict[str, Any]], key: str) -> set[int]:
    return {line[key] for line in lines if key in line}


def test_events_no_is_method_names_come_unnamed(probe: Path, mysql: Server, mariadb: Server) -> None:
    """V8: a MySQL 8.0 transaction logged without GTIDs starts with an Anonymous_gtid, and a
    statement-logged use of a user variable writes a User_var; MariaDB heads a binlog with
    Gtid_list and Binlog_checkpoint. No Is... method names any of them, so a go/mysql reader
    cannot tell them from garbage. Control: in the same dumps, the Query and Xid (MySQL) and
    MariaDB's GTID event are named."""
    sql = ("DROP DATABASE IF EXISTS v8; CREATE DATABASE v8; CREATE TABLE v8.t (id INT PRIMARY KEY);"
           "SET SESSION binlog_format = 'STATEMENT'; SET @v = 5; INSERT INTO v8.t VALUES (@v)")
    lines = dump(probe, mysql, in_a_fresh_binlog(mysql, sql))
    assert {QUERY, XID} <= codes(lines, "named"), lines  # control
    assert {ANONYMOUS_GTID, USER_VAR} <= codes(lines, "unnamed"), lines
    maria = dump(probe, mariadb, in_a_fresh_binlog(mariadb, "CREATE DATABASE IF NOT EXISTS v8m"), "mariadb")
    assert {QUERY, MARIADB_GTID} <= codes(maria, "named"), maria  # control
    assert {BINLOG_CHECKPOINT, GTID_LIST} <= codes(maria, "unnamed"), maria


GTID_TAGGED = 42
TAGGED_SQL = ("DROP DATABASE IF EXISTS v3; CREATE DATABASE v3; CREATE TABLE v3.t (id INT PRIMARY KEY);"
              "SET gtid_next = 'AUTOMATIC:conformance'; INSERT INTO v3.t VALUES (1);"
              "SET gtid_next = 'AUTOMATIC'; INSERT INTO v3.t VALUES (2)")


def test_previous_gtids_and_tagged_gtids(probe: Path) -> None:
    """V3 on a real 9.7: once the executed set holds a tagged GTID, the server writes the next
    binlog's Previous_gtids in the tagged format (8.3+), which PreviousGTIDs cannot read; and a
    tagged transaction's GTID_TAGGED_LOG_EVENT (42) answers no Is... method (IsGTID is false).
    Control, the same server: the binlog before any tagged GTID has its Previous_gtids read, and
    the untagged transactions' GTID events are named.
    V12, the same server: Conn.PrimaryPosition (how vstreamer finds where to start, and the same
    ParseMysql56GTIDSet every GTID position goes through) fails on an executed set that holds a
    tagged GTID; control: it reads the set before the tagged transaction."""
    profile = LOCAL_PROFILES["mysql-9.7"]
    require_image(profile)
    with running_server(profile, {"binlog_format": "ROW", "gtid_mode": "ON", "enforce_gtid_consistency": "ON"}) as server:
        server.execute(GRANTS)
        server.execute("CREATE DATABASE IF NOT EXISTS v3_before")  # an untagged GTID executed
        [untagged_position] = current_position(probe, server)
        before = dump(probe, server, in_a_fresh_binlog(server, TAGGED_SQL))
        [tagged_position] = current_position(probe, server)
        after = dump(probe, server, in_a_fresh_binlog(server, "CREATE DATABASE IF NOT EXISTS v3_after"))
    assert ":1-" in untagged_position.get("position", ""), untagged_position  # V12 control
    assert "conformance" in tagged_position.get("position_error", ""), tagged_position  # V12
    def previous(lines: list[dict[str, Any]]) -> dict[str, Any]:
        [read] = [line for line in lines if "previous_gtids" in line or "previous_gtids_error" in line]
        return read
    assert ":1-" in previous(before).get("previous_gtids", ""), before  # control: an untagged set
    assert 33 in codes(before, "named"), before  # control: GTID_LOG_EVENT
    assert GTID_TAGGED in codes(before, "unnamed"), before  # the defect: IsGTID is false
    assert "previous_gtids_error" in previous(after), after  # the defect: the tagged format
