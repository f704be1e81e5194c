"""mysql_common / mysql_async ALONE against a real MySQL 9.7 (and 8.0): the adapter's two modes are the
library's own readers (mysql_async's Conn::get_binlog_stream connected straight to the server,
no harness primary; mysql_common's BinlogFile over the binlog that server wrote), so what they
report is what the library gives its users. Each defect of docs/findings.md (mysql_common) shows
here beside a control where the library is right; the reproducers' SQL is
corpus/findings/mysql-common-file/*/repro.sql."""
from __future__ import annotations

import contextlib
import json
import re
import socket
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from harness.runtimes.base import BuildError
from harness.runtimes.rust import RUNTIME

from .external import ROOT as EXTERNAL
from .library_alone.binlogs import closed_copy
from .library_alone.rust import mbcr_probe, probe_stream
from .server_fixtures import missing, start_server

pytestmark = pytest.mark.server
__all__ = ["mbcr_probe", "start_server"]

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "harness" / "parsers" / "mysql-common"
FINDINGS = ROOT / "corpus" / "findings" / "mysql-common-file"
XID_FILE = EXTERNAL / "blackbeam__rust_mysql_common" / "test-data__binlogs__ver_5_1-wl2325_r.001"
USER, PASSWORD = "repl", "repl-pw"
GRANTS = f"""
CREATE USER '{USER}'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}';
GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '{USER}'@'127.0.0.1';
"""
# the Incident reproducer last: it ends binlog.000001 (the server rotates after an incident)
ORDER = ("year-zero", "mediumint-sign", "time-fsp-negative", "incident-rejected")


def adapter() -> Path:
    """The built adapter (building it from the lock when the cache has none)."""
    if RUNTIME.missing_tool():
        missing(RUNTIME.missing_tool() or "")
    try:
        return RUNTIME.build(FOLDER, lambda line: None) / "adapter"
    except BuildError as e:
        pytest.fail(f"mysql-common adapter does not build: {e}")


def ask(transport: str, request: dict[str, Any]) -> dict[str, Any]:
    """One request to a fresh adapter process; its reply."""
    proc = subprocess.run([str(adapter()), transport], input=json.dumps({"type": "parse", "id": 1, **request}) + "\n",
                          capture_output=True, text=True, timeout=120)
    lines = proc.stdout.splitlines()
    assert len(lines) == 2, f"hello + one reply expected, got {proc.stdout!r} (stderr {proc.stderr[-500:]!r})"
    return json.loads(lines[1])


def rows_by_table(events: list[dict[str, Any]]) -> dict[str, list[list[Any]]]:
    """`schema.table` -> the row images' values of every rows event, in order."""
    tables: dict[int, str] = {}
    found: dict[str, list[list[Any]]] = {}
    for e in events:
        body = e.get("body") or {}
        if e["type_code"] == 19:
            tables[body["table_id"]] = f"{body['schema']}.{body['table']}"
        elif "rows" in body:
            found.setdefault(tables[body["table_id"]], []).extend(r["values"] for r in body["rows"])
    return found


def read_both(server, dest: Path) -> dict[str, dict[str, Any]]:
    """The server's first binlog read by the stream (straight from the server, non-blocking:
    end_position 0, so the server ends the dump at the end of its binlogs) and by BinlogFile
    (its copy)."""
    first = server.binlog_files()[0]
    path = closed_copy(server, first, dest)  # the first binlog complete, ending with its Rotate
    stream = {"host": "127.0.0.1", "port": server.port, "user": USER, "password": PASSWORD, "file": first,
              "start_position": 4, "end_file": first, "end_position": 0}
    return {"stream": ask("stream", {"path": str(path), "stream": stream}),
            "file": ask("file", {"path": str(path)}), "path": {"path": str(path)}}


def on_server(profile_name: str, settings: dict[str, str], reproducers: tuple[str, ...], dest: Path):
    from generators.server import running_server
    from .server_fixtures import require_image
    profile = LOCAL_PROFILES[profile_name]
    require_image(profile)
    with running_server(profile, settings) as server:
        server.execute(GRANTS)
        for name in reproducers:
            try:
                server.execute((FINDINGS / name / "repro.sql").read_text())
            except Exception as e:  # the incident reproducer's INSERT fails with 1705, as meant
                assert name == "incident-rejected", e
        return read_both(server, dest)


@pytest.fixture(scope="module", params=("mysql-9.7", "mysql-8.0"))
def replies(request, tmp_path_factory) -> dict[str, dict[str, Any]]:
    """The four MySQL reproducers on one MySQL 9.7, then on one 8.0 (the entries of the 8.0.31
    cases: the same defects), GTIDs on, as CDC sources run."""
    settings = {"max_binlog_stmt_cache_size": "4096", "gtid_mode": "ON", "enforce_gtid_consistency": "ON"}
    return on_server(request.param, settings, ORDER, tmp_path_factory.mktemp("mc"))


TRANSPORTS = ("stream", "file")


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_year_zero_is_1900(replies, transport):
    rows = rows_by_table(replies[transport]["events"])["mc.y"]
    assert rows == [[1, 1900], [2, 2024]]  # defect: 0 -> 1900; control: 2024


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_signed_mediumint_is_not_sign_extended(replies, transport):
    rows = rows_by_table(replies[transport]["events"])["mc.m"]
    assert rows == [[1, 16777215, -1], [2, 8388608, -8388608]]  # defect in MEDIUMINT; control: INT


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_negative_time_with_one_or_two_fraction_digits_is_wrong(replies, transport):
    [[_, t1, t2, t3]] = rows_by_table(replies[transport]["events"])["mc.t"]
    assert t1["value"] != "-12:34:56.1" and t2["value"] != "-12:34:56.12"  # defect
    assert t1["value"] == "612:29:07.1"  # what the library gives, for the record
    assert t3 == {"type": "time", "value": "-12:34:56.100"}  # control: TIME(3)


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_incident_event_is_rejected(replies, transport):
    reply = replies[transport]
    assert reply["type"] == "error", reply["type"]
    assert "IncidentEvent" in reply["message"] and "bytes remaining" in reply["message"]
    # control: everything before the Incident decoded, the reproducers' rows among it
    assert set(rows_by_table(reply["events"])) >= {"mc.y", "mc.m", "mc.t"}


def test_xid_with_declared_post_header_is_rejected():
    """MySQL's test-suite binlog from a 5.2 tree declares a 6-byte Xid post-header; the library
    ignores the Format_description's post-header lengths and rejects the event."""
    if not XID_FILE.is_file():
        missing(f"{XID_FILE} not present (shared/external-binlogs)")
    reply = ask("file", {"path": str(XID_FILE)})
    assert reply["type"] == "error" and reply["offset"] == 428
    assert "XidEvent" in reply["message"] and "bytes remaining" in reply["message"]
    assert [e["type_code"] for e in reply["events"]] == [15, 2, 2, 2]  # control: the events before


def test_mariadb_annotate_rows_never_reach_the_stream(tmp_path):
    """mysql_async's BinlogStreamRequest has no way to set BINLOG_SEND_ANNOTATE_ROWS_EVENT, so a
    MariaDB server leaves Annotate_rows out of the dump; the file has them."""
    replies = on_server("mariadb-10.11", {"binlog_format": "ROW"}, ("annotate-rows-not-requested",), tmp_path)
    ANNOTATE_ROWS, GTID = 160, 162
    file_types = [e["type_code"] for e in replies["file"]["events"]]
    stream_types = [e["type_code"] for e in replies["stream"]["events"]]
    assert ANNOTATE_ROWS in file_types  # control: the binlog holds it
    assert ANNOTATE_ROWS not in stream_types  # defect
    assert GTID in stream_types  # control: @mariadb_slave_capability=4 gives the GTID events
    assert stream_types[:len(file_types) - 1] == [t for t in file_types if t != ANNOTATE_ROWS]


@pytest.mark.parametrize("transport", TRANSPORTS)
def test_mariadb_own_and_compressed_events_are_unknown(transport, tmp_path):
    """Findings mysqlcommon-9 and -10: on a real MariaDB 10.11 with log_bin_compress on, neither
    BinlogFile nor mysql_async's stream names MariaDB's own events (Gtid_list 163,
    Binlog_checkpoint 161, Gtid 162) nor its compressed Query (165) and rows (166) events
    (`UnknownEventType`: "type" null), and the compressed insert's row is lost. Control: the
    Format_description, the plain Query (BEGIN, under the compression threshold), the Table_map and
    the Xid of the same binlog are named."""
    settings = {"binlog_format": "ROW", "log_bin_compress": "ON", "log_bin_compress_min_len": "10"}
    replies = on_server("mariadb-10.11", settings, ("mariadb-events-unknown",), tmp_path)
    events = replies[transport]["events"]
    named = {e["type_code"]: e.get("type") for e in events}
    assert {named[c] for c in (15, 2, 19, 16)} == {"FORMAT_DESCRIPTION_EVENT", "QUERY_EVENT", "TABLE_MAP_EVENT",
                                                   "XID_EVENT"}  # control
    assert all(named[c] is None for c in (163, 161, 162, 165, 166)), named  # the defects
    assert not any((e.get("body") or {}).get("rows") for e in events if e["type_code"] == 166)  # rows lost


def _truncated(tmp_path: Path, cut: int) -> Path:
    source = ROOT / "corpus" / "mysql-9.7" / "integers--row" / "binlog.000001"
    path = tmp_path / f"cut-{cut}"
    path.write_bytes(source.read_bytes()[:cut])
    return path


def test_truncated_files_end_silently_or_panic(tmp_path):
    """BinlogFile alone (no server): a file cut inside an event header ends as if complete; cut
    inside an event body, `Event::read` panics (`read_exact(..).unwrap()`), which the adapter
    reports as one stderr line, a `crashed` reply with the 4 events before it, and exit status
    101, the harness's crash."""
    events = ask("file", {"path": str(_truncated(tmp_path, 10**9))})["events"]  # control: whole file
    ends = [e["position"] + e["event_size"] for e in events]
    header_cut = ask("file", {"path": str(_truncated(tmp_path, ends[3] + 10))})
    assert header_cut["type"] == "events" and len(header_cut["events"]) == 4  # defect: no error
    proc = subprocess.run([str(adapter()), "file"], capture_output=True, text=True, timeout=60,
                          input=json.dumps({"type": "parse", "id": 1, "path": str(_truncated(tmp_path, ends[3] + 30))}) + "\n")
    lines = proc.stdout.splitlines()
    assert proc.returncode == 101 and len(lines) == 2  # hello, then the panic's `crashed` reply
    crashed = json.loads(lines[1])
    assert crashed["type"] == "crashed" and [e["position"] for e in crashed["events"]] == [e["position"] for e in events[:4]]
    assert "src/binlog/events/mod.rs" in proc.stderr and "UnexpectedEof" in proc.stderr


def test_mysql_binlog_connector_rust_aborts_on_tagged_previous_gtids(tmp_path):
    """mysql-binlog-connector-rust 0.3.3's BinlogParser alone over a live MySQL 9.7's binlogs
    after a transaction with a GTID tag (MySQL 8.4+): the next binlog's Previous_gtids is in the
    tagged format, whose 8-byte n_sids carries the format in its top byte; the parser takes it
    as a count and reserves that many entries, the allocation fails and the process aborts (not
    a panic: nothing can catch it). Control: the binlog before, untagged, reads whole."""
    from generators.server import running_server
    from .server_fixtures import require_image
    profile = LOCAL_PROFILES["mysql-9.7"]
    require_image(profile)
    folder = ROOT / "harness" / "parsers" / "mysql-binlog-connector-rust"
    binary = RUNTIME.build(folder, lambda line: None) / "adapter"
    with running_server(profile, {"gtid_mode": "ON", "enforce_gtid_consistency": "ON"}) as server:
        server.execute("SET gtid_next = 'AUTOMATIC:cdc'; CREATE DATABASE tagged; SET gtid_next = 'AUTOMATIC';")
        server.flush_logs()
        server.execute("CREATE DATABASE after_tag;")
        server.flush_logs()
        first, second = server.copy_binlogs(tmp_path, server.binlog_files()[:2])

    def run(path: Path) -> subprocess.CompletedProcess:
        return subprocess.run([str(binary), "file"], capture_output=True, text=True, timeout=60,
                              input=json.dumps({"type": "parse", "id": 1, "path": str(path)}) + "\n")
    control = run(first)
    assert control.returncode == 0 and json.loads(control.stdout.splitlines()[1])["type"] == "events"
    proc = run(second)
    assert proc.returncode == -6, (proc.returncode, proc.stderr[-300:])  # SIGABRT
    assert "memory allocation of" in proc.stderr and "PreviousGtidsEvent::parse" in proc.stderr


def test_mysql_binlog_connector_rust_year_and_signedness(replies):
    """The same MySQL 9.7 (and 8.0) binlog (untagged GTIDs) through mysql-binlog-connector-rust's
    BinlogParser alone: YEAR 0 comes back as 1900, and the Table_map's `is_signed` is the
    SIGNEDNESS bit itself (1 = UNSIGNED), so signed columns are reported unsigned: MEDIUMINT and
    INT -1 read back as 16777215 and 4294967295; controls: YEAR 2024 and TIME(3)."""
    folder = ROOT / "harness" / "parsers" / "mysql-binlog-connector-rust"
    binary = RUNTIME.build(folder, lambda line: None) / "adapter"
    proc = subprocess.run([str(binary), "file"], capture_output=True, text=True, timeout=60,
                          input=json.dumps({"type": "parse", "id": 1, **replies["path"]}) + "\n")
    rows = rows_by_table(json.loads(proc.stdout.splitlines()[1])["events"])
    assert rows["mc.y"] == [[1, 1900], [2, 2024]]
    assert rows["mc.m"] == [[1, 16777215, 4294967295], [2, 8388608, 4286578688]]
    assert rows["mc.t"][0][3] == {"type": "time", "value": "-12:34:56.100"}


# -- mysql-binlog-connector-rust 0.3.3 alone: its BinlogClient (as ape-dts builds it) straight
# from a real server, through harness/parsers/mysql-binlog-connector-rust/src/bin/probe.rs, which
# prints the crate's own EventHeader/EventData (serde) and nothing of the harness. Reproducers:
# corpus/findings/mysql-binlog-connector-rust/<name>/repro.sql; docs/findings.md has the reports.

MBCR_FINDINGS = ROOT / "corpus" / "findings" / "mysql-binlog-connector-rust"


def mbcr_stream(probe: Path, server, reproducer: str, port: int | None = None) -> list[dict[str, Any]]:
    """Run a reproducer in a fresh binlog and read it with BinlogClient from its start until the
    server is quiet (through `port` when given); the crate's events as JSON, the last line
    {"end"} or {"error"}."""
    server.flush_logs()
    first = server.binlog_files()[-1]
    server.execute((MBCR_FINDINGS / reproducer / "repro.sql").read_text())
    return probe_stream(probe, f"mysql://{USER}:{PASSWORD}@127.0.0.1:{port or server.port}", first)


def of_kind(lines: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [line["data"][kind] for line in lines if isinstance(line.get("data"), dict) and kind in line["data"]]


def live(profile_name: str, settings: dict[str, str]):
    from generators.server import running_server
    from .server_fixtures import require_image
    profile = LOCAL_PROFILES[profile_name]
    require_image(profile)
    return running_server(profile, settings)


# the crate's README tests on MySQL 5.6, 5.7 and 8.0; binlog_row_metadata came in 8.0.1
MBCR_MYSQL = {"mysql-9.7": {"binlog_row_metadata": "FULL"}, "mysql-8.0": {"binlog_row_metadata": "FULL"},
              "mysql-5.7": {}}


@pytest.fixture(scope="module", params=sorted(MBCR_MYSQL))
def mbcr_mysql(request):
    with live(request.param, {"binlog_format": "ROW", **MBCR_MYSQL[request.param]}) as server:
        server.execute(GRANTS)
        yield server


@pytest.fixture(scope="module")
def mbcr_mariadb():
    with live("mariadb-10.11", {"binlog_format": "ROW"}) as server:
        server.execute(GRANTS)
        yield server


def test_mbcr_partial_row_image_is_misread(mbcr_probe, mbcr_mysql):
    """Finding 4: RowEvent::parse reads a NULL bitmap of one bit per table column, not per
    column present: a MINIMAL before image of a 9-column table reads one byte too many."""
    lines = mbcr_stream(mbcr_probe, mbcr_mysql, "partial-row-image")
    [full] = of_kind(lines, "UpdateRows")  # control: the full-image UPDATE
    assert [v["Long"] for v in full["rows"][0][1]["column_values"]] == [1, 1, 2, 3, 4, 5, 6, 7, 80]
    assert lines[-1] == {"error": "io error: failed to fill whole buffer"}  # the MINIMAL UPDATE ends the stream
    mbcr_mysql.execute("DROP DATABASE bc")


def test_mbcr_json_opaque_scalars_lose_mysql_spelling(mbcr_probe, mbcr_mysql):
    """Finding 6: JsonBinary::parse_as_string prints a JSON TIME without its fraction and opaque
    bytes as bare base64; MySQL (its own CAST(j AS CHAR), the control) keeps both."""
    lines = mbcr_stream(mbcr_probe, mbcr_mysql, "json-opaque-spelling")
    mysql_text = [r["CAST(j AS CHAR)"] for r in mbcr_mysql.query("SELECT id, CAST(j AS CHAR) FROM bc.j ORDER BY id")]
    # type15 (VARCHAR) on 8.0+, type16 (BIT) on 5.7: x'55' is typed differently
    assert mysql_text[:2] == ['{"a": 1}', '"25:00:00.000000"'] and re.fullmatch(r'"base64:type1[56]:VQ=="', mysql_text[2])
    [rows] = [line["json"] for line in lines if "json" in line]
    assert rows == ['{"a":1}', '"25:00:00"', '"VQ=="']  # control: the object; defect: the two scalars
    mbcr_mysql.execute("DROP DATABASE bc")


def test_mbcr_query_text_not_utf8_ends_the_stream(mbcr_probe, mbcr_mysql):
    """Finding 8: QueryEvent::parse reads the statement with `read_to_string`, so a statement
    in latin1 (SET NAMES latin1) is an error that ends the stream; the utf8mb4 one (control) reads."""
    lines = mbcr_stream(mbcr_probe, mbcr_mysql, "query-not-utf8")
    assert any("COMMENT 'café'" in q["query"] for q in of_kind(lines, "Query"))  # control
    assert lines[-1] == {"error": "io error: stream did not contain valid UTF-8"}
    mbcr_mysql.execute("DROP DATABASE bc")


def test_mbcr_vector_table_map_is_rejected(mbcr_probe):
    """Finding 7: with binlog_row_metadata=FULL, MySQL 9's Table_map of a VECTOR column carries
    optional metadata the crate does not know (VECTOR_DIMENSIONALITY); TableMetadata::parse
    rejects the event. Control: a table without VECTOR in the same binlog."""
    with live("mysql-9.7", {"binlog_format": "ROW", "binlog_row_metadata": "FULL"}) as server:
        server.execute(GRANTS)
        lines = mbcr_stream(mbcr_probe, server, "vector-metadata-rejected")
    [control] = of_kind(lines, "WriteRows")
    assert control["rows"][0]["column_values"] == [{"Long": 1}, {"Float": 1.5}]
    assert lines[-1] == {"error": "unexpected binlog data: Table metadata type 0 is not supported"}


def test_mbcr_old_datetime_is_garbage(mbcr_probe, mbcr_mariadb):
    """Finding 5: ColumnValue::parse_datetime multiplies the stored YYYYMMDDhhmmss by 1000 before
    splitting it. MariaDB creates the old DATETIME (type 12) under mysql56_temporal_format=OFF;
    control: the same value in a DATETIME2 column."""
    lines = mbcr_stream(mbcr_probe, mbcr_mariadb, "old-datetime-garbage")
    old, new = (rows["rows"][0]["column_values"][1] for rows in of_kind(lines, "WriteRows"))
    assert old == {"DateTime": "2006021-42-20 43:60:00"}  # defect: '2006-02-14 22:04:36'
    assert new == {"DateTime": "2006-02-14 22:04:36.000000"}  # control


def test_mbcr_mariadb_sends_stand_ins(mbcr_probe, mbcr_mariadb, tmp_path):
    """Finding 9 (limit): BinlogClient::connect opens its own connection and dumps at once, with
    no way to set @mariadb_slave_capability, so a real MariaDB takes it for a pre-GTID replica and
    sends Query stand-ins ("# Dummy event replacing event type ...") for its GTID, Gtid_list and
    Annotate_rows events. Control: the crate's BinlogParser over the file has those events."""
    GTID, GTID_LIST, ANNOTATE_ROWS, QUERY = 162, 163, 160, 2
    lines = mbcr_stream(mbcr_probe, mbcr_mariadb, "mariadb-stand-ins")
    streamed = [line["header"]["event_type"] for line in lines if "header" in line]
    dummies = [q["query"] for q in of_kind(lines, "Query") if q["query"].startswith("# Dumm")]
    assert not {GTID, GTID_LIST, ANNOTATE_ROWS} & set(streamed) and dummies  # the stand-ins
    mbcr_mariadb.flush_logs()
    [copy] = mbcr_mariadb.copy_binlogs(tmp_path, [mbcr_mariadb.binlog_files()[-2]])
    proc = subprocess.run([str(mbcr_probe), "file", str(copy)], capture_output=True, text=True, timeout=60)
    in_file = [json.loads(line)["header"]["event_type"] for line in proc.stdout.splitlines()[:-1]]
    assert {GTID, GTID_LIST, ANNOTATE_ROWS} <= set(in_file)  # control: the binlog holds them
    assert QUERY in streamed


def _data_by_type(lines: list[dict[str, Any]]) -> list[tuple[int, Any]]:
    return [(line["header"]["event_type"], line["data"]) for line in lines if "header" in line]


def test_mbcr_tagged_gtid_event_is_not_supported(mbcr_probe):
    """Finding 14: MySQL 8.4+ writes a tagged transaction's Gtid as GTID_TAGGED_LOG_EVENT (42);
    the crate returns it as `NotSupported`, no GTID. Control: the untagged transactions around
    it in the same binlog come as `Gtid` with their GTID."""
    settings = {"binlog_format": "ROW", "gtid_mode": "ON", "enforce_gtid_consistency": "ON"}
    with live("mysql-9.7", settings) as server:
        server.execute(GRANTS)
        events = _data_by_type(mbcr_stream(mbcr_probe, server, "tagged-gtid-unknown"))
    assert (42, "NotSupported") in events  # the defect
    assert any(code == 33 and isinstance(data, dict) and "Gtid" in data for code, data in events)  # control


def test_mbcr_partial_update_rows_are_not_supported(mbcr_probe):
    """Finding 12: with binlog_row_value_options=PARTIAL_JSON a JSON_SET update is logged as
    PARTIAL_UPDATE_ROWS_EVENT (39); the crate returns it as `NotSupported`, its rows lost.
    Control: the insert before it, a WRITE_ROWS_EVENT, comes with its row."""
    settings = {"binlog_format": "ROW", "binlog_row_image": "MINIMAL", "binlog_row_value_options": "PARTIAL_JSON"}
    with live("mysql-9.7", settings) as server:
        server.execute(GRANTS)
        lines = mbcr_stream(mbcr_probe, server, "partial-update-rows-unread")
    assert (39, "NotSupported") in _data_by_type(lines)  # the defect
    [written] = of_kind(lines, "WriteRows")
    assert written["rows"][0]["column_values"][0] == {"Long": 1}  # control


def _until_dumping(server, proc: subprocess.Popen, seconds: float = 60) -> None:
    """Until the server has a binlog dump thread for the probe, or the probe has ended (it
    failed to connect: its output says why)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        if any(str(r.get("Command", "")).startswith("Binlog Dump") for r in server.query("SHOW PROCESSLIST")):
            return
        time.sleep(0.2)


@pytest.mark.parametrize("profile", ("mysql-9.7", "mysql-8.0"))
def test_mbcr_latest_start_asks_show_master_status(mbcr_probe, profile):
    """Finding mbcr-17: StartPosition::Latest (and a GTID start from an empty set) finds the
    server's position with `show master status` (command_util.rs fetch_binlog_info), which
    MySQL 8.4 removed: on a real 9.7 the connection fails with the server's syntax error before
    any event. Control: the same call on 8.0 starts, and reads the transaction written after it.
    A server of its own (the module's shared one, after the other reproducers, left this client
    waiting for an answer: not explained)."""
    with live(profile, {"binlog_format": "ROW"}) as server:
        server.execute(GRANTS)
        url = f"mysql://{USER}:{PASSWORD}@127.0.0.1:{server.port}"
        proc = subprocess.Popen([str(mbcr_probe), "latest", url], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        _until_dumping(server, proc)  # the client is at the end: a transaction now is what it must read
        server.execute("CREATE DATABASE IF NOT EXISTS mbcr_latest")
        out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err[-1000:]
    last = json.loads(out.splitlines()[-1])
    if profile == "mysql-9.7":
        assert "near 'master status'" in last.get("error", ""), last  # the defect: 9.7's parser error
        assert len(out.splitlines()) == 1
    else:
        assert "end" in last, last  # control
        queries = [q["query"] for q in of_kind([json.loads(x) for x in out.splitlines()], "Query")]
        assert any("mbcr_latest" in q for q in queries), out[-2000:]


def test_mbcr_tagged_gtid_set_is_refused(mbcr_probe):
    """Finding mbcr-18: a GTID start from a set that holds a tagged GTID (MySQL 8.4+) is refused
    by the crate's own GTID parser ("invalid gtid") before the dump. Control: the same server's
    set before the tagged transaction streams the transactions after it."""
    settings = {"binlog_format": "ROW", "gtid_mode": "ON", "enforce_gtid_consistency": "ON"}
    with live("mysql-9.7", settings) as server:
        server.execute(GRANTS + "CREATE DATABASE IF NOT EXISTS mbcr_t18;")
        untagged = server.query("SELECT @@global.gtid_executed AS g")[0]["g"].replace("\n", "")
        server.execute("SET gtid_next = 'AUTOMATIC:conformance'; CREATE DATABASE IF NOT EXISTS mbcr_t18b;"
                       "SET gtid_next = 'AUTOMATIC'; CREATE DATABASE IF NOT EXISTS mbcr_t18c;")
        tagged = server.query("SELECT @@global.gtid_executed AS g")[0]["g"].replace("\n", "")
        url = f"mysql://{USER}:{PASSWORD}@127.0.0.1:{server.port}"
        runs = {name: subprocess.run([str(mbcr_probe), "gtid", url, gtids], capture_output=True, text=True,
                                     timeout=120) for name, gtids in (("control", untagged), ("tagged", tagged))}
    assert ":conformance:" in tagged, tagged
    lines = {name: [json.loads(x) for x in run.stdout.splitlines()] for name, run in runs.items()}
    assert "invalid gtid" in lines["tagged"][-1].get("error", ""), lines["tagged"]  # the defect
    queries = [q["query"] for q in of_kind(lines["control"], "Query")]
    assert any("mbcr_t18c" in q for q in queries), lines["control"]  # control


class ClosingProxy:
    """A TCP proxy on 127.0.0.1 in front of a real server that closes both sides once `limit`
    bytes have come from the server (None: never), as a server restart or a proxy's idle cut
    does; the bytes themselves pass untouched."""

    def __init__(self, server_port: int, limit: int | None):
        self.server_port, self.limit = server_port, limit
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        client, _ = self.listener.accept()
        server = socket.create_connection(("127.0.0.1", self.server_port))
        threading.Thread(target=self._pump, args=(client, server, None), daemon=True).start()
        self._pump(server, client, self.limit)

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket, limit: int | None) -> None:
        sent = 0
        with contextlib.suppress(OSError):
            while chunk := source.recv(65536):
                if limit is not None and sent + len(chunk) > limit:
                    sink.sendall(chunk[:limit - sent])
                    break
                sink.sendall(chunk)
                sent += len(chunk)
        for s in (source, sink):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()


def test_mbcr_connection_closed_mid_packet_is_polled_until_the_timeout(mbcr_probe):
    """Finding 10: PacketChannel::read_exact takes a read of 0 bytes (the peer closed the
    connection) for "no data yet", sleeps 10 ms and reads again, timeout_secs * 100 times, so a
    connection closed inside a packet fails only after the read timeout (60 s as ape-dts
    configures it; the probe's 3 s here) as "Too many zero-length reads", never as a closed
    connection. Control: the same proxy, not closing, passes the whole 1 MB row."""
    with live("mysql-9.7", {"binlog_format": "ROW"}) as server:
        server.execute(GRANTS)
        control = mbcr_stream(mbcr_probe, server, "closed-mid-packet", ClosingProxy(server.port, None).port)
        cut = mbcr_stream(mbcr_probe, server, "closed-mid-packet", ClosingProxy(server.port, 300_000).port)
    [row] = of_kind(control, "WriteRows")
    assert len(row["rows"][0]["column_values"][1]["Blob"]) == 1_000_000 and control[-1] == {"end": "complete"}
    assert re.fullmatch(r"unexpected binlog data: Too many zero-length reads\. Expected data length: \d+, "
                        r"read so far: \d+", cut[-1]["error"]), cut[-1]

