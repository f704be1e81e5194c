"""go-mysql (v1.16.0) alone against a real MySQL 9.7 and MariaDB 10.11: every defect behind
harness/expected/go-mysql*.txt, shown by a small Go program that calls the library directly
(harness/parsers/go-mysql/probe, no harness primary, no adapter), each beside a control where the
library is right. The SQL of each is its reproducer, corpus/findings/go-mysql/<name>/repro.sql;
docs/findings.md ("go-mysql") has the bug reports."""
from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from generators.server import Server, running_server
from oracle.decoder import decode_file

from .library_alone.binlogs import closed_copy, in_a_fresh_binlog
from .go_builds import probe as built_probe
from .server_fixtures import require_image

pytestmark = pytest.mark.server

FINDINGS = Path(__file__).resolve().parent.parent / "corpus" / "findings" / "go-mysql"
USER, PASSWORD = "gm", "gm-secret-pw"
GRANTS = (f"CREATE USER '{USER}'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}';"
          f"GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '{USER}'@'127.0.0.1';")
TRANSACTION_PAYLOAD, QUERY = 40, 2


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The probe, built from the parser folder's own go.mod/go.sum."""
    return built_probe("go-mysql", tmp_path_factory.mktemp("probe"))


@pytest.fixture(scope="module", params=("mysql-9.7", "mysql-8.0"))  # 8.0: its 8.0.31 entries
def mysql(request: pytest.FixtureRequest) -> Iterator[Server]:
    profile = LOCAL_PROFILES[request.param]
    require_image(profile)
    with running_server(profile, {"binlog_format": "ROW"}) as server:
        server.execute(GRANTS)
        yield server


def run_probe(probe: Path, *args: str, check_exit: bool = True) -> tuple[list[dict[str, Any]], int, str]:
    proc = subprocess.run([str(probe), *args], capture_output=True, text=True, timeout=120)
    if check_exit:
        assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [json.loads(line) for line in proc.stdout.split("\n") if line.startswith("{")]
    return lines, proc.returncode, proc.stderr


def write(server: Server, name: str) -> str:
    """Run a reproducer's SQL in a fresh binlog (the module shares one server); the binlog's name."""
    server.execute("DROP DATABASE IF EXISTS gm")
    return in_a_fresh_binlog(server, (FINDINGS / name / "repro.sql").read_text())


def stream(probe: Path, server: Server, first: str, *extra: str) -> list[dict[str, Any]]:
    """What BinlogSyncer + GetEvent delivers from the real server, up to its read timeout."""
    lines, _, _ = run_probe(probe, "stream", "127.0.0.1", str(server.port), USER, PASSWORD, first, "4",
                            server.profile.flavor, *extra)
    return lines




def oracle_events(path: Path) -> list[dict[str, Any]]:
    return [e.to_json() for e in decode_file(path)]


def payloads(events: list[dict[str, Any]], key: str) -> list[dict[str, Any]]:
    return [e for e in events if e.get(key) == TRANSACTION_PAYLOAD]


def test_payload_sizes_of_251_or_more_are_misread(probe: Path, mysql: Server, tmp_path: Path) -> None:
    """transaction_payload_event.go decodeFields reads the packed integers of the payload header
    as fixed-length little-endian: any size >= 251 (0xfc/0xfd/0xfe prefix) comes out wrong."""
    first = write(mysql, "payload-size-misread")
    got = payloads(stream(probe, mysql, first), "type")
    truth = payloads(oracle_events(closed_copy(mysql, first, tmp_path)), "type_code")
    assert len(got) == len(truth) >= 2  # the two INSERTs (DDL is never compressed)
    sizes = [(t["body"]["payload_size"], t["body"]["uncompressed_size"]) for t in truth]
    small = [i for i, (p, u) in enumerate(sizes) if p < 251 and u < 251]
    large = [i for i, (p, u) in enumerate(sizes) if p >= 251 and u >= 251]
    assert small and large, sizes
    for i in small:  # control: below 251 the library reads both sizes right
        assert (got[i]["size"], got[i]["uncompressed_size"]) == sizes[i]
        assert got[i]["payload_len"] == sizes[i][0]
    for i in large:  # the defect: the payload it holds has the right length, the field does not
        assert got[i]["payload_len"] == sizes[i][0]
        assert got[i]["size"] != sizes[i][0] and got[i]["uncompressed_size"] != sizes[i][1]


def test_format_description_checksum_fails_while_the_binlog_is_in_use(probe: Path, mysql: Server,
                                                                     tmp_path: Path) -> None:
    """parser.go verifies the Format_description's CRC32 over its bytes as stored; the server
    computed it before setting LOG_EVENT_BINLOG_IN_USE_F, so a binlog copied while the server
    writes it (the active one) is rejected with VerifyChecksum on."""
    first = write(mysql, "fde-checksum-in-use")
    active = mysql.copy_binlogs(tmp_path / "active", [first])[0]
    fde = oracle_events(active)[0]
    assert fde["flags"]["value"] & 1 and fde["checksum"]["verified"] is True  # flag set, CRC right
    lines, _, _ = run_probe(probe, "file", str(active), "verify")
    assert lines == [lines[-1]] and "failed checksum for FormatDescriptionEvent" in lines[-1]["error"]
    # controls: the same bytes without verification, and the closed copy with it, parse whole
    unverified, _, _ = run_probe(probe, "file", str(active))
    closed = closed_copy(mysql, first, tmp_path / "closed")
    verified, _, _ = run_probe(probe, "file", str(closed), "verify")
    for lines in (unverified, verified):
        assert "error" not in lines[-1] and len(lines) >= len(oracle_events(active))


def test_partial_json_update_delivers_only_the_first_diff(probe: Path, mysql: Server) -> None:
    """row_event.go decodeValue returns one *JsonDiff per column (decodeJSONPartialBinary reads
    one diff); MySQL writes one diff per changed path."""
    first = write(mysql, "partial-json-first-diff-only")
    updates = [e for e in stream(probe, mysql, first) if e.get("type") == 39]  # PARTIAL_UPDATE_ROWS
    assert len(updates) == 2
    one, two = (u["rows"][1] for u in updates)  # after images
    assert any("Replace path:$.a value:2" in c for c in one)  # control
    diff = next(c for c in two if c.startswith("json_diff"))
    assert "$.a" in diff and "$.b[0]" not in diff  # the second path's diff is gone


def test_json_double_is_rendered_in_fixed_notation(probe: Path, mysql: Server) -> None:
    """json_mysql_text.go formats a JSON double with strconv 'f': 1e300 as 301 digits, where
    MySQL prints 1e300 (RenderJSONAsMySQLText promises MySQL's text)."""
    first = write(mysql, "json-double-fixed-notation")
    rows = [e["rows"][0][1] for e in stream(probe, mysql, first) if e.get("type") == 30]
    assert mysql.scalar("SELECT j FROM gm.d WHERE id = 2") == "[1e300]"
    assert rows[0] == "[0.5]"  # control
    assert rows[1].startswith("[1000000000000000052504760255204420248704468581108159") and "e" not in rows[1]


def test_truncated_event_header_at_the_end_reads_as_end_of_file(probe: Path, mysql: Server,
                                                                tmp_path: Path) -> None:
    """parser.go parseSingleEvent: io.CopyN of the 19-byte header returning io.EOF (fewer bytes)
    is taken as the end of the file, so a binlog cut inside an event header is accepted."""
    first = write(mysql, "truncated-header-accepted")
    closed = closed_copy(mysql, first, tmp_path)
    whole, _, _ = run_probe(probe, "file", str(closed), "verify")
    data = closed.read_bytes()
    cut_header, cut_body = tmp_path / "cut-header", tmp_path / "cut-body"
    cut_header.write_bytes(data + data[4:14])  # 10 bytes of a next event's header
    cut_body.write_bytes(data + data[4:4 + 30])  # a header and 11 bytes of its body
    header_lines, _, _ = run_probe(probe, "file", str(cut_header), "verify")
    body_lines, _, _ = run_probe(probe, "file", str(cut_body), "verify")
    assert "error" in body_lines[-1] and "get event err" in body_lines[-1]["error"]  # control
    assert header_lines == whole and "error" not in header_lines[-1]  # the cut goes unnoticed


def test_corrupt_query_event_panics_the_file_parser(probe: Path, mysql: Server, tmp_path: Path) -> None:
    """event.go QueryEvent.Decode slices the body with the stored schema length unchecked; a bad
    length panics (slice bounds out of range) through ParseFile, which has no recover."""
    first = write(mysql, "query-event-panic")
    closed = closed_copy(mysql, first, tmp_path)
    events = oracle_events(closed)
    query = next(e for e in events if e["type_code"] == QUERY and e["body"]["db"])
    data = bytearray(closed.read_bytes())
    data[query["position"] + 19 + 8] = 0xFF  # db_len: 4 thread_id + 4 exec_time, then 1 byte
    bad = tmp_path / "bad-db-len"
    bad.write_bytes(bytes(data))
    ok, _, _ = run_probe(probe, "file", str(closed))  # control: the file as written
    assert "error" not in ok[-1]
    _, code, stderr = run_probe(probe, "file", str(bad), check_exit=False)
    assert code == 2 and "panic: runtime error: slice bounds out of range" in stderr
    assert "QueryEvent).Decode" in stderr


def test_getevent_returns_the_error_before_events_still_queued(probe: Path, mysql: Server) -> None:
    """binlogstreamer.go GetEvent selects between the event channel and the error channel; once
    the syncer queued an error (here its read timeout) behind events the caller has not read,
    each call picks one at random, and after the error every call fails: the queued events are
    lost to a GetEvent loop (gh-ost's, DM's). DumpEvents shows they were there."""
    first = write(mysql, "getevent-drops-queued-events")
    prompt = stream(probe, mysql, first)  # control: read as they come, all arrive, then the error
    lagged = stream(probe, mysql, first, "lag")
    total = len(prompt) - 1
    assert total >= 12 and prompt[-1]["left_in_queue"] == 0
    delivered, left = len(lagged) - 1, lagged[-1]["left_in_queue"]
    print(f"GetEvent after a lag: {delivered} of {total} events, then the error; {left} left queued")
    assert delivered + left == total and left > 0, (delivered, left)


def test_mariadb_gtids_arrive_as_gtid_events(probe: Path, tmp_path: Path) -> None:
    """The capability-0 rewriting (GTID as BEGIN, dummy Query events) that zongji meets does not
    touch go-mysql: BinlogSyncer sets @mariadb_slave_capability=4 (binlogsyncer.go)."""
    profile = LOCAL_PROFILES["mariadb-10.11"]
    require_image(profile)
    with running_server(profile, {"binlog_format": "ROW"}) as server:
        server.execute(GRANTS)
        first = write(server, "getevent-drops-queued-events")
        got = stream(probe, server, first)
        truth = [e for e in oracle_events(closed_copy(server, first, tmp_path)) if e["type_code"] == 162]
    gtids = [e for e in got if e.get("type") == 162]
    assert gtids and len(gtids) == len(truth)
    assert all(e["class"] == "*replication.MariadbGTIDEvent" for e in gtids)
    assert not any("Dummy event" in e.get("query", "") for e in got)


GTID_LIST = 163  # MariaDB's Gtid_list event: a 4-byte count (low 28 bits), then 16 bytes per GTID


def test_a_corrupt_gtid_list_count_is_allocated_before_it_is_checked(probe: Path, tmp_path: Path) -> None:
    """gomysql-count-allocated-up-front: event.go MariadbGTIDListEvent.Decode makes its slice for the
    count the event states before it reads a single entry. A count of 2**28 - 1 asks for 4 GiB;
    under a 1 GiB data limit (the harness's, harness/isolation.py) Go dies of `fatal error: ...
    out of memory`, which no recover() catches, so the file reader takes its caller down with it.
    Control: the file as MariaDB 10.11 wrote it reads whole."""
    from harness.isolation import Limits, limit_child
    profile = LOCAL_PROFILES["mariadb-10.11"]
    require_image(profile)
    with running_server(profile, {"binlog_format": "ROW"}) as server:
        first = in_a_fresh_binlog(server, "CREATE DATABASE gm; CREATE TABLE gm.t (a INT); INSERT INTO gm.t VALUES (1);")
        closed = closed_copy(server, first, tmp_path)
    gtid_list = next(e for e in oracle_events(closed) if e["type_code"] == GTID_LIST)
    data = bytearray(closed.read_bytes())
    count_at = gtid_list["position"] + 19
    data[count_at:count_at + 4] = ((1 << 28) - 1).to_bytes(4, "little")
    bad = tmp_path / "bad-gtid-list-count"
    bad.write_bytes(bytes(data))

    def read(path: Path) -> subprocess.CompletedProcess[str]:  # under the harness's own limits (1 GiB data)
        return subprocess.run([str(probe), "file", str(path)], capture_output=True, text=True, timeout=120,
                              preexec_fn=limit_child(Limits()))
    control = read(closed)
    events = [json.loads(line) for line in control.stdout.split("\n") if line.startswith("{")]
    assert control.returncode == 0 and events and "error" not in events[-1], control.stderr[-2000:]
    got = read(bad)
    assert got.returncode == 2 and re.search(r"fatal error: (runtime: )?out of memory", got.stderr), got.stderr[-2000:]
    assert "MariadbGTIDListEvent).Decode" in got.stderr
