"""Canal 1.1.7 alone against real servers: tests/library_alone/CanalAlone.java uses Canal's own
interfaces (FileLogFetcher + LogDecoder + LogContext over the file a real server wrote, as
LocalBinLogConnection does; MysqlConnection.dump with a SinkFunction straight against a real
MariaDB), with no adapter and no harness primary, compiled against the jars the canal folder
builds. Each defect recorded in harness/expected/canal*.txt shows here beside a control the
library gets right; the expected values are the oracle's decode of the same file.
Reproducers: corpus/findings/canal/; docs/findings.md (Canal, C1-C9)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from oracle.decoder import decode_file

from .library_alone.canal import canal, rows, run
from .server_fixtures import replication_user_sql, start_server

pytestmark = pytest.mark.server
__all__ = ["canal", "start_server"]

HERE = Path(__file__).resolve().parent
FINDINGS = HERE.parent / "corpus" / "findings" / "canal"
CORPUS = HERE.parent / "corpus"
USER, PASSWORD = "repl", "repl-pw"


def oracle_rows(events: list[dict[str, Any]]) -> list[list[Any]]:
    out = []
    for e in events:
        for r in e["body"].get("rows", []):
            out += [r[k]["values"] for k in ("before_image", "after_image") if k in r] or [r["values"]]
    return out


def written(start_server, tmp_path: Path, profile: str, settings: dict[str, str],
            name: str) -> tuple[Any, str, Path]:
    """Run the reproducer on a fresh server: (the server, its first binlog's name, a copy)."""
    server = start_server(LOCAL_PROFILES[profile], settings)
    sql = (FINDINGS / name / "repro.sql").read_text()
    server.execute(replication_user_sql(USER, PASSWORD) + sql)
    file = server.binlog_files()[0]
    server.flush_logs()
    return server, file, server.copy_binlogs(tmp_path, [file])[0]


def test_mariadb_collation_ids(start_server, tmp_path, canal):
    """C1: on MariaDB 11.8 the first Query event's collation id 2304 ends the dump (and the
    file) with IllegalArgumentException; the same statements on MariaDB 10.11 arrive whole."""
    server, file, path = written(start_server, tmp_path, "mariadb-11.8", {"binlog_format": "ROW"},
                                 "mariadb-collation-ids")
    dumped = run(canal, "stream", "127.0.0.1", str(server.port), USER, PASSWORD, file,
                 str(server.binlog_sizes()[file]))
    assert dumped[-1] == {"error": "IllegalArgumentException: Invalid charset id: 2304"}
    assert rows(dumped) == []
    assert run(canal, "file", str(path))[-1] == dumped[-1]
    control, file, _ = written(start_server, tmp_path / "control", "mariadb-10.11", {"binlog_format": "ROW"},
                               "mariadb-collation-ids")
    dumped = run(canal, "stream", "127.0.0.1", str(control.port), USER, PASSWORD, file,
                 str(control.binlog_sizes()[file]))
    assert dumped[-1] == {"end": "ok"} and rows(dumped) == [["1", "a"]]


def test_json_text(start_server, tmp_path, canal):
    """C2: JsonConversion's text differs from MySQL's for a double (Java's 1.0E300), an opaque
    DATE (printed as a DATETIME), an opaque binary string (its base64:type15: form lost) and an
    opaque DECIMAL's scale; the control document is MySQL's text exactly."""
    _, _, path = written(start_server, tmp_path, "mysql-9.7", {}, "json-text")
    ours = [r[1] for r in rows(run(canal, "file", str(path)))]
    theirs = [r[1]["value"] for r in oracle_rows([e.to_json() for e in decode_file(path)])]
    assert theirs[:4] == ['[1e300]', '{"d": "2024-02-29"}', '{"b": "base64:type15:AP8="}', '{"e": 9.00}']
    assert ours[4] == theirs[4] == '{"a": [1, 2.5, "x", null, true]}'
    assert ours[0] == "[1.0E300]"
    assert ours[1] == '{"d": "2024-02-29 00:00:00.000000"}'
    assert "base64:type15:" not in ours[2]
    assert ours[3] != theirs[3]


def test_partial_json_two_columns(start_server, tmp_path, canal):
    """C3: a PARTIAL_UPDATE_ROWS_EVENT updating two JSON columns of a row ends the decode with
    'invalid operation code' (JsonDiffConversion reads the first diff to the end of the rows
    buffer); the partial update of one column before it decodes."""
    _, _, path = written(start_server, tmp_path, "mysql-9.7",
                         {"binlog_row_image": "MINIMAL", "binlog_row_value_options": "PARTIAL_JSON"},
                         "partial-json-two-columns")
    oracle = [e.to_json() for e in decode_file(path)]
    assert [e["type_code"] for e in oracle].count(39) == 2
    lines = run(canal, "file", str(path))
    assert lines[-1] == {"error": "IllegalArgumentException: reading operation type (invalid operation code)"}
    partial = [line for line in lines if line.get("type") == 39]
    assert len(partial) == 1 and partial[0]["rows"] == [["1"], ["[8, 2, 3]"]]


def test_vector_metadata(start_server, tmp_path, canal):
    """C4: the Table_map of a table with a VECTOR column: its metadata byte is not read, so the
    optional metadata after it is misread and the decode ends with 'unknow type : N'; the row of
    the table before it decodes."""
    _, _, path = written(start_server, tmp_path, "mysql-9.7", {}, "vector-metadata")
    lines = run(canal, "file", str(path))
    assert lines[-1]["error"].startswith("IllegalArgumentException: unknow type : ")
    assert rows(lines) == [["1"]]


def test_mariadb_compressed_rows(start_server, tmp_path, canal):
    """C5: with log_bin_compress=ON the small compressed row arrives as type 23 (the binlog has
    166), and the row whose body uncompresses to 128..255 bytes ends the dump with a negative
    expected length (the one-byte length read signed)."""
    server, file, path = written(start_server, tmp_path, "mariadb-10.11",
                                 {"binlog_format": "ROW", "log_bin_compress": "ON", "log_bin_compress_min_len": "10"},
                                 "mariadb-compressed-rows")
    oracle = [e.to_json() for e in decode_file(path)]
    assert [e["type_code"] for e in oracle].count(166) == 2
    dumped = run(canal, "stream", "127.0.0.1", str(server.port), USER, PASSWORD, file,
                 str(server.binlog_sizes()[file]))
    assert dumped[-1]["error"].startswith("IllegalArgumentException: uncompress lenght not match, expected : -")
    written_rows = [line for line in dumped if "rows" in line]
    assert [line["type"] for line in written_rows] == [23] and written_rows[0]["rows"] == [["1", "a" * 20]]
    assert 166 not in [line.get("type") for line in dumped]


def test_truncated_file_accepted(canal, tmp_path):
    """C6: a binlog cut 10 bytes into its fourth event ends like a whole file: the three events
    before it, then the loop's normal end. The control: the whole file gives them and the rest."""
    whole = CORPUS / "mysql-9.7" / "ddl_dml_basic--statement" / "binlog.000001"
    full = run(canal, "file", str(whole))
    assert full[-1] == {"end": "ok"} and len(full) > 5
    cut_at = 4 + sum(e.event_size for e in list(decode_file(whole))[:3]) + 10
    truncated = tmp_path / "binlog.000001"
    truncated.write_bytes(whole.read_bytes()[:cut_at])
    lines = run(canal, "file", str(truncated))
    assert lines[-1] == {"end": "ok"} and lines[:-1] == full[:3]


def test_text_by_connection_charset(start_server, tmp_path, canal):
    """C7: a latin1 VARCHAR holding 'é' (e9) is decoded with the connection charset (UTF-8) into
    U+FFFD; the utf8mb4 column beside it and ASCII in latin1 (the control row) are right."""
    _, _, path = written(start_server, tmp_path, "mysql-9.7", {"binlog_row_metadata": "FULL"},
                         "text-connection-charset")
    ours = rows(run(canal, "file", str(path)))
    theirs = oracle_rows([e.to_json() for e in decode_file(path)])
    assert theirs[0][1] == {"type": "bytes", "value": "64e9"} and theirs[0][2] == "dé"
    assert ours[0] == ["1", "d\ufffd", "dé"]
    assert ours[1] == ["2", "de", "de"]


def test_local_payload_resent(start_server, tmp_path, canal):
    """C9: LocalBinLogConnection.dump sinks a compressed transaction's Transaction_payload once
    per inner event and never the inner events: the rows of (1, 'a'), (2, 'b') are lost; the
    uncompressed transaction after it (the control) arrives with its row."""
    _, file, path = written(start_server, tmp_path, "mysql-9.7", {"binlog_transaction_compression": "ON"},
                            "local-payload-resent")
    payloads = [e.to_json() for e in decode_file(path) if e.type_code == 40]
    assert len(payloads) == 1
    inner = len(payloads[0]["body"]["events"])
    lines = run(canal, "local", str(path.parent), path.name)
    assert lines[-1] == {"end": "ok"}
    sunk = [line for line in lines if line.get("type") == 40]
    assert inner > 1 and len(sunk) == inner and len({json.dumps(s) for s in sunk}) == 1
    assert rows(lines) == [["3", "c"]]


def test_a_mariadb_gtid_dump_dies_at_an_empty_gtid_list(start_server, tmp_path, canal):
    """Stream mode gtid on MariaDB: Canal alone, dump(MariaGTIDSet), against a real MariaDB 10.11.
    From the server's first transaction (an empty GTID position) the dump starts in the first
    binlog, whose Gtid_list is empty, and dies there of ArrayIndexOutOfBoundsException (MariaGtid,
    from MariaGTIDSet.update in LogDecoder.decode) right after the Format_description; the
    control, the GTID position after a FLUSH BINARY LOGS, starts in the next binlog (its
    Gtid_list holds a GTID) and streams the last transaction."""
    server = start_server(LOCAL_PROFILES["mariadb-10.11"], {"binlog_format": "ROW"})
    server.execute(replication_user_sql(USER, PASSWORD) + "CREATE DATABASE g; CREATE TABLE g.t (id INT PRIMARY KEY);"
                   "INSERT INTO g.t VALUES (1);")
    server.flush_logs()
    position = server.scalar("SELECT @@GLOBAL.gtid_binlog_pos") or ""
    server.execute("INSERT INTO g.t VALUES (2);")
    end = str(server.binlog_sizes()[server.binlog_files()[-1]])
    empty = run(canal, "gtid", "127.0.0.1", str(server.port), USER, PASSWORD, "", end)
    assert [e.get("class") for e in empty[:-1]] == ["RotateLogEvent", "FormatDescriptionLogEvent"], empty
    assert empty[-1].get("error", "").startswith("ArrayIndexOutOfBoundsException"), empty[-3:]
    control = run(canal, "gtid", "127.0.0.1", str(server.port), USER, PASSWORD, position, end)
    assert control[-1] == {"end": "ok"}, control[-3:]
    assert "MariaGtidListLogEvent" in [e.get("class") for e in control] and rows(control) == [["2"]], control
