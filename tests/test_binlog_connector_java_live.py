"""mysql-binlog-connector-java alone against real servers: the adapter's BinaryLogClient
(StreamTestee, configured as in docs/findings.md) connected straight to a real MySQL 9.7 or
MariaDB 11.8, no harness primary in between. Each defect recorded in
harness/expected/mysql-binlog-connector-java*.txt shows here beside a control row or event the
library gets right, and the values compared are the oracle's decode of the file that same server
wrote. Reproducers: corpus/findings/mysql-binlog-connector-java/. Both lines (Debezium 0.41.0,
Zendesk 0.30.1) are run: they share the defects."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from harness.runtimes.base import PARSERS_DIR, BuildError
from harness.runtimes.jvm import RUNTIME
from oracle.decoder import decode_file

from .library_alone.binlogs import closed_copy
from .server_fixtures import missing, replication_user_sql, start_server

pytestmark = pytest.mark.server
__all__ = ["start_server"]

USER, PASSWORD = "repl", "repl-pw"
FINDINGS = Path(__file__).resolve().parent.parent / "corpus" / "findings" / "mysql-binlog-connector-java"
CONTROL_MARK = "-- the control"
LINES = ("mysql-binlog-connector-java", "mysql-binlog-connector-java-zendesk")


@pytest.fixture(scope="module", params=LINES)
def adapter(request) -> list[str]:
    """The adapter's argv for one line, built into the cache (once per machine)."""
    tool = RUNTIME.missing_tool()
    if tool:
        missing(tool)
    try:
        built = RUNTIME.build(PARSERS_DIR / request.param, lambda line: None)
    except BuildError as e:
        missing(f"{request.param} does not build here: {e}")
    return RUNTIME.command(built)


def library_stream(argv: list[str], port: int, file: str, end: int, **mode: Any) -> dict[str, Any]:
    """One dump of `file` from the real server on `port`, through the library alone: the reply
    (`mode`: the stream mode's fields, docs/plugin-contract.md)."""
    request = {"type": "parse", "id": 1, "path": file, "stream": {
        "host": "127.0.0.1", "port": port, "user": USER, "password": PASSWORD, "file": file,
        "start_position": 4, "end_file": file, "end_position": end, **mode}}
    proc = subprocess.run(argv + ["stream"], input=json.dumps(request) + "\n", capture_output=True,
                          text=True, timeout=120)
    lines = proc.stdout.splitlines()
    assert proc.returncode == 0 and len(lines) == 2, proc.stderr[-2000:]
    return json.loads(lines[1])


def rows_of(events: list[dict[str, Any]]) -> list[list[Any]]:
    return [r["values"] for e in events if "rows" in e["body"] for r in e["body"]["rows"]]


def dump(start_server, tmp_path: Path, argv: list[str], profile: str, settings: dict[str, str],
         sql: str, which: int = 0) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Run `sql` on a fresh server, then read its binlog number `which` with the library over
    the wire and with the oracle from the file: (the library's reply, the oracle's events)."""
    server = start_server(LOCAL_PROFILES[profile], settings)
    defect, control = sql.split(CONTROL_MARK)
    server.execute(replication_user_sql(USER, PASSWORD) + defect)
    server.execute(CONTROL_MARK + control)  # in a new session
    file = server.binlog_files()[which]
    path = closed_copy(server, file, tmp_path)
    end = server.binlog_sizes()[file]
    return library_stream(argv, server.port, file, end), [e.to_json() for e in decode_file(path)]


def reproducer(name: str) -> str:
    return (FINDINGS / name / "repro.sql").read_text()


@pytest.mark.parametrize("profile", ("mysql-9.7", "mysql-8.0"))  # 8.0: its 8.0.31 entries
def test_year_zero_and_negative_time(start_server, tmp_path, adapter, profile):
    """YEAR 0000 comes back as 1900 and a negative TIME(n) as a large positive one; YEAR 2024
    and TIME '12:34:56.5' (the control row) are right."""
    reply, oracle = dump(start_server, tmp_path, adapter, profile, {},
                         reproducer("year-zero-negative-time"))
    assert reply["type"] == "events"
    ours, theirs = rows_of(reply["events"]), rows_of(oracle)
    assert len(ours) == len(theirs) == 2
    control_ours, control_theirs = ours[1], theirs[1]
    assert control_ours == control_theirs == [2, 2024, {"type": "time", "value": "12:34:56.5"}]
    defect_ours, defect_theirs = ours[0], theirs[0]
    assert defect_theirs == [1, 0, {"type": "time", "value": "-00:00:01.5"}]
    assert defect_ours[0] == 1 and defect_ours[1] == 1900
    assert defect_ours[2]["value"] == "1024:04:04.0"  # the sign bit and two's complement read as hours


@pytest.mark.parametrize("profile", ("mysql-9.7", "mysql-8.0"))  # 8.0: its 8.0.31 entries
def test_json_temporal_and_opaque_text(start_server, tmp_path, adapter, profile):
    """JsonBinary.parseAsString: a negative TIME inside JSON is garbled, a zero fraction is
    dropped, an opaque binary value loses MySQL's "base64:type15:" prefix; the control document
    (the same keys, plain values) is MySQL's text once spaced."""
    reply, oracle = dump(start_server, tmp_path, adapter, profile, {},
                         reproducer("json-temporal-opaque"))
    assert reply["type"] == "events"
    ours = [v[1]["value"] for v in rows_of(reply["events"])]
    theirs = [v[1]["value"] for v in rows_of(oracle)]
    assert theirs == ['{"t": "-12:34:56.789000"}', '{"t": "25:00:00.000000"}', '{"b": "base64:type15:AP8="}',
                      '{"b": "x", "t": "12:34:56"}']
    assert ours[3] == theirs[3]
    assert ours[0] != theirs[0] and "-" in ours[0][8:]  # minus signs inside the digits
    assert ours[1] == '{"t": "25:00:00"}'
    assert ours[2] == '{"b": "AP8="}'


def test_mariadb_compressed_events_lose_type_and_rows(start_server, tmp_path, adapter):
    """With log_bin_compress=ON MariaDB writes QUERY_COMPRESSED_EVENT and *_ROWS_COMPRESSED_EVENT_V1:
    the library reports them as UNKNOWN (type code 0) with no body, so their rows are lost
    without an error. A row event under log_bin_compress_min_len, written plain, arrives whole."""
    reply, oracle = dump(start_server, tmp_path, adapter, "mariadb-11.8", {"binlog_format": "ROW"},
                         reproducer("mariadb-compressed-events"))
    assert reply["type"] == "events"
    compressed = [e["position"] for e in oracle if e["type"] == "WRITE_ROWS_COMPRESSED_EVENT_V1"]
    assert len(compressed) == 1, "the server wrote no compressed rows event"
    ours = {e["position"]: e for e in reply["events"]}
    assert all(ours[p]["type_code"] == 0 and ours[p]["body"] == {} for p in compressed)
    # the control half: uncompressed writes of the same rows are decoded
    assert rows_of(reply["events"]) == rows_of([e for e in oracle if e["type"] == "WRITE_ROWS_EVENT_V1"])
    assert rows_of(reply["events"]) == [[2, "control"]]


def test_partial_update_rows_arrive_without_data(start_server, tmp_path, adapter):
    """mbcj-12: PARTIAL_UPDATE_ROWS_EVENT (39) has no deserializer in either line: the event
    arrives with null EventData (the adapter reports "type" null, no rows), so each update's row
    is lost without an error (with PARTIAL_JSON the server logs every update of the table so).
    Control: the insert before them, a WRITE_ROWS_EVENT, arrives with its row."""
    settings = {"binlog_row_image": "MINIMAL", "binlog_row_value_options": "PARTIAL_JSON"}
    reply, oracle = dump(start_server, tmp_path, adapter, "mysql-9.7", settings, reproducer("partial-update-rows-null"))
    assert reply["type"] == "events"
    partial = [e["position"] for e in oracle if e["type"] == "PARTIAL_UPDATE_ROWS_EVENT"]
    [written] = [e["position"] for e in oracle if e["type"] == "WRITE_ROWS_EVENT"]
    ours = {e["position"]: e for e in reply["events"]}
    assert len(partial) == 2
    for p in partial:
        assert ours[p]["type"] is None and not ours[p]["body"].get("rows"), ours[p]  # the defect
    assert ours[written]["type"] == "WRITE_ROWS_EVENT" and len(ours[written]["body"]["rows"]) == 1  # control


GTIDS = {"gtid_mode": "ON", "enforce_gtid_consistency": "ON"}


def test_tagged_previous_gtids(start_server, tmp_path, adapter):
    """A MySQL 8.3+ binlog whose Previous_gtids is in the tagged format (after any tagged GTID):
    the Zendesk line rejects the event at 127 and reads nothing of the file; the Debezium line
    (the control) reads it to the end."""
    reply, oracle = dump(start_server, tmp_path, adapter, "mysql-9.7", GTIDS,
                         reproducer("zendesk-tagged-previous-gtids"), which=1)
    assert oracle[1]["type"] == "PREVIOUS_GTIDS_LOG_EVENT" and oracle[1]["body"]["format"] == "tagged"
    if any("zendesk" in a for a in adapter):
        assert reply["type"] == "error" and reply["kind"] == "EventDataDeserializationException"
        assert [e["position"] for e in reply["events"]] == [4]
    else:
        assert reply["type"] == "events"
        assert rows_of(reply["events"]) == rows_of(oracle) == [[2]]


def test_vector_column_table_map(start_server, tmp_path, adapter):
    """A Table_map with a VECTOR column: the Zendesk line's TableMapEventDataDeserializer meets a
    type code it has no ColumnType for and dies with a NullPointerException (the stream client
    reports it as an event deserialization failure); the Debezium line reads the whole binlog."""
    reply, oracle = dump(start_server, tmp_path, adapter, "mysql-9.7", {},
                         reproducer("zendesk-vector-table-map"))
    table_maps = [e["position"] for e in oracle if e["type"] == "TABLE_MAP_EVENT"]
    assert len(table_maps) == 2
    if any("zendesk" in a for a in adapter):
        assert reply["type"] == "error" and reply["kind"] == "NullPointerException"
        assert reply["events"][-1]["next_position"] == table_maps[0]
    else:
        assert reply["type"] == "events"
        assert rows_of(reply["events"])[1] == rows_of(oracle)[1] == [2]


def test_tagged_gtid_event_type(start_server, tmp_path, adapter):
    """The same reproducer's first binlog: its tagged Gtid event (42) is EventType.UNKNOWN (0)
    for the Zendesk line; the Debezium line knows GTID_TAGGED. The untagged Gtid events (33)
    are right in both."""
    reply, oracle = dump(start_server, tmp_path, adapter, "mysql-9.7", GTIDS,
                         reproducer("zendesk-tagged-previous-gtids"), which=0)
    assert reply["type"] == "events"
    codes = {e["position"]: e["type_code"] for e in reply["events"]}
    tagged = [e["position"] for e in oracle if e["type_code"] == 42]
    untagged = [e["position"] for e in oracle if e["type_code"] == 33]
    assert len(tagged) == 1 and untagged
    assert all(codes[p] == 33 for p in untagged)
    assert codes[tagged[0]] == (0 if any("zendesk" in a for a in adapter) else 42)


def test_an_empty_gtid_set_ends_in_a_null_pointer(start_server, tmp_path, adapter):
    """Stream mode gtid from a server's first transaction: `setGtidSet("")` (the executed set of
    a replica that has nothing yet), straight against a real MySQL 9.7 with GTIDs: both lines
    die of a NullPointerException (`this.gtidSet` is null) before any event; the control, the
    same client with the server's executed set before the last transaction, streams that one."""
    server = start_server(LOCAL_PROFILES["mysql-9.7"], GTIDS)
    server.execute(replication_user_sql(USER, PASSWORD) + "CREATE DATABASE g; CREATE TABLE g.t (id INT PRIMARY KEY);"
                   "INSERT INTO g.t VALUES (1);")
    executed = (server.scalar("SELECT @@GLOBAL.gtid_executed") or "").replace("\n", "")
    server.execute("INSERT INTO g.t VALUES (2);")
    file = server.binlog_files()[0]
    end = server.binlog_sizes()[file]
    empty = library_stream(adapter, server.port, file, end, mode="gtid", gtid_set="")
    assert empty["type"] == "error" and empty["kind"] == "NullPointerException", empty
    assert "gtidSet" in empty["message"] and empty["events"] == []
    control = library_stream(adapter, server.port, file, end, mode="gtid", gtid_set=executed)
    assert control["type"] == "events", control
    assert rows_of(control["events"]) == [[2]]
