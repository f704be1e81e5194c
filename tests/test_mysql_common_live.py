"""mysql_common / mysql_async ALONE against a real MySQL 9.7 (and 8.0): the adapter's two modes are the
library's own readers (mysql_async's Conn::get_binlog_stream connected straight to the server,
no harness primary; mysql_common's BinlogFile over the binlog that server wrote), so what they
report is what the library gives its users. Each defect of docs/findings.md (mysql_common) shows
here beside a control where the library is right; the reproducers' SQL is
corpus/findings/mysql-common-file/*/repro.sql."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from harness.runtimes.base import BuildError
from harness.runtimes.rust import RUNTIME

from .external import ROOT as EXTERNAL
from .library_alone.binlogs import closed_copy
from .server_fixtures import missing, start_server

pytestmark = pytest.mark.server
__all__ = ["start_server"]

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


def _truncated(tmp_path: Path, cut: int) -> Path:
    source = ROOT / "corpus" / "mysql-9.7" / "integers--row" / "binlog.000001"
    path = tmp_path / f"cut-{cut}"
    path.write_bytes(source.read_bytes()[:cut])
    return path


def test_truncated_files_end_silently_or_panic(tmp_path):
    """BinlogFile alone (no server): a file cut inside an event header ends as if complete; cut
    inside an event body, `Event::read` panics (`read_exact(..).unwrap()`), which the adapter
    reports as one stderr line and exit status 101, the harness's crash."""
    events = ask("file", {"path": str(_truncated(tmp_path, 10**9))})["events"]  # control: whole file
    ends = [e["position"] + e["event_size"] for e in events]
    header_cut = ask("file", {"path": str(_truncated(tmp_path, ends[3] + 10))})
    assert header_cut["type"] == "events" and len(header_cut["events"]) == 4  # defect: no error
    proc = subprocess.run([str(adapter()), "file"], capture_output=True, text=True, timeout=60,
                          input=json.dumps({"type": "parse", "id": 1, "path": str(_truncated(tmp_path, ends[3] + 30))}) + "\n")
    assert proc.returncode == 101 and len(proc.stdout.splitlines()) == 1  # hello, then the panic
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
