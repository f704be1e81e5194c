"""The capture client (generators/capture.py) and the recording proxy (generators/recording_proxy.py)
against real servers, plus their byte-level pieces on hand-made packet streams."""
from __future__ import annotations

import io
import json
import struct
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from generators import capture as C
from generators import packets as P
from generators import profiles
from generators import repl_user
from generators.capture_case import capture_case, requests_for
from generators.casefile import CORPUS_DIR
from generators.cases import parse_version
from generators.record_clients import FIRST_FILE, prepare_primary, record_one, CLIENTS
from generators.recording_proxy import _gtid_set, decode_command
from generators.server import Server, running_server
from generators.table_schema import snapshot_columns
from tests.server_fixtures import require_image

CAPTURE_SCHEMA = json.loads((CORPUS_DIR / "capture.schema.json").read_text())
SERVERS = ("mysql-9.7", "mariadb-10.11", "mysql-5.6", "mysql-5.7", "mysql-8.0")


# -- without a server: the record format and the packet pieces ------------------------------

def _packet(payload: bytes, seq: int) -> bytes:
    return struct.pack("<I", len(payload))[:3] + bytes([seq]) + payload


def test_messages_reassemble_a_16mb_split_and_keep_each_header() -> None:
    big = b"\x00" + bytes(P.MAX_PAYLOAD - 1)      # exactly 0xFFFFFF bytes: an empty packet follows
    stream = io.BytesIO(_packet(big, 1) + _packet(b"", 2) + _packet(b"\xfe\x00\x00\x02\x00", 3))
    got = list(C._messages(stream))
    assert [[(p.length, p.seq) for p in parts] for parts, _ in got] == [
        [(P.MAX_PAYLOAD, 1), (0, 2)], [(5, 3)]]
    assert got[0][1] == big


def test_a_stream_cut_inside_a_packet_names_the_offset() -> None:
    stream = io.BytesIO(_packet(b"\x00" + bytes(30), 1)[:20])
    with pytest.raises(P.PacketStreamError, match="at stream byte 0: packet declares 31 payload bytes; the stream ended after 16"):
        list(C._messages(stream))


def test_rebuild_stream_from_file_runs_and_hex() -> None:
    ev1 = struct.pack("<IBIIIH", 1, 2, 1, 23, 27, 0) + b"abcd"
    ev2 = struct.pack("<IBIIIH", 1, 2, 1, 21, 48, 0) + b"ef"
    files = {"f.000001": b"\xfebin" + ev1 + ev2}
    cur = C._Cursor(files, current="f.000001")
    messages: list[dict] = []
    for ev in (ev1, ev2):
        C.append_message(messages, C.classify(b"\x00" + ev, cur))
    C.append_message(messages, C.classify(b"\xfe\x00\x00\x02\x00", cur))
    assert messages[0] == {"file": "f.000001", "offset": 4, "end": 48, "events": 2}
    capture = {"packets": [[24, 1], [22, 2], [5, 3]], "messages": messages}
    expected = _packet(b"\x00" + ev1, 1) + _packet(b"\x00" + ev2, 2) + _packet(b"\xfe\x00\x00\x02\x00", 3)
    assert C.rebuild_stream(capture, files) == expected


def test_dump_request_payload_decodes_back_in_the_proxy() -> None:
    req = C.DumpRequest("gtid", "", flags=P.BINLOG_THROUGH_GTID, gtid=True, server_id=7,
                        gtid_set="3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7")
    rec = decode_command(req.payload(), 0)
    assert rec.command == "COM_BINLOG_DUMP_GTID"
    assert rec.args == {"file": "", "position": 4, "flags": 4, "server_id": 7,
                        "gtid_set": "3e11fa47-71ca-11e1-9e33-c80aa9429562:1-5:7"}
    assert _gtid_set(b"\x01") .startswith("hex:")
    plain = decode_command(C.DumpRequest("x", "binlog.000003", position=1234).payload(), 0)
    assert plain.args == {"file": "binlog.000003", "position": 1234, "flags": 1, "server_id": 4242}


def test_schema_snapshots_keep_the_last_one_per_table() -> None:
    """The scenario session's output: batch mode escapes backslashes; a later snapshot of a
    table replaces an earlier one whole (an ALTER in between)."""
    out = "\n".join([
        "cols",
        '@@COLS 2 {"schema": "d", "table": "t", "name": "a", "type": "int", "data_type": "int", '
        '"nullable": "NO", "key": "PRI", "charset": null, "collation": null, "default": null, '
        '"extra": ""}',
        "@@MARK 3",
        '@@COLS 5 {"schema": "d", "table": "t", "name": "b", "type": "varchar(3)", "data_type": '
        '"varchar", "nullable": "YES", "key": "", "charset": "utf8mb4", "collation": "utf8mb4_bin", '
        r'"default": "x\\\\ty", "extra": ""}'])
    cols = snapshot_columns(out)
    assert list(cols) == [("d", "t")]
    assert [c["name"] for c in cols[("d", "t")]] == ["b"]
    assert cols[("d", "t")][0]["default"] == "x\\ty"  # one backslash, as stored
    assert cols[("d", "t")][0]["nullable"] is True


def test_snapshot_lines_without_json_object_are_read_from_hex() -> None:
    """MySQL 5.6 has no JSON_OBJECT: its snapshot prints each field's HEX(), NULL as '-'."""
    from generators.table_schema import SNAPSHOT_HEX_PREFIX, snapshot_sql
    assert SNAPSHOT_HEX_PREFIX in snapshot_sql("mysql", (5, 6, 24))(4)
    assert "JSON_OBJECT" in snapshot_sql("mysql", (5, 7, 29))(4)
    fields = ["d", "t", "b", "varchar(3)", "varchar", "YES", "", "utf8mb4", "utf8mb4_bin", None, ""]
    line = "@@COLX 5 " + " ".join("-" if f is None else f.encode().hex().upper() for f in fields)
    cols = snapshot_columns("cols\n" + line)
    assert cols[("d", "t")] == [{"name": "b", "type": "varchar(3)", "data_type": "varchar",
                                 "nullable": True, "key": "", "charset": "utf8mb4",
                                 "collation": "utf8mb4_bin", "default": None, "extra": ""}]


def test_the_part_a_primary_must_match_ends_with_the_case_files() -> None:
    """On a committed capture: the real server went on into the file its FLUSH opened; what a
    primary serving the case's files must send byte for byte stops before that file."""
    case_dir = CORPUS_DIR / "mysql-9.7" / "replica_apply--row"
    doc = json.loads((case_dir / "capture.json").read_text())
    files = {n: (case_dir / n).read_bytes() for n in doc["files"]}
    nonblock = _by_name(doc)["nonblock"]
    exact, rest = C.split_at_foreign_file(nonblock, files)
    assert C.rebuild_stream(nonblock, files).startswith(exact)
    last = files[doc["files"][-1]]
    assert exact.endswith(last[-44:]), "ends with the last file's own Rotate"
    assert [m.get("type") or m.get("response") for m in rest] == [
        "ROTATE_EVENT", "FORMAT_DESCRIPTION_EVENT", "PREVIOUS_GTIDS_LOG_EVENT", "EOF"]



@pytest.mark.parametrize("server", ["mysql-9.7", "mariadb-10.11"])
def test_after_a_file_closed_by_a_shutdown_the_artificial_rotate_is_foreign(server: str) -> None:
    """A shutdown case's last file ends with a Stop event, not a Rotate: the real server (given
    the files in place, then restarted) went on with an artificial Rotate to the file it opened
    at start, which a primary serving only the case cannot name; it starts the foreign part."""
    case_dir = CORPUS_DIR / server / "shutdown--row"
    doc = json.loads((case_dir / "capture.json").read_text())
    files = {n: (case_dir / n).read_bytes() for n in doc["files"]}
    exact, rest = C.split_at_foreign_file(_by_name(doc)["nonblock"], files)
    last = doc["files"][-1]
    expected = (case_dir / f"{last}.expected.jsonl").read_text().splitlines()
    assert json.loads(expected[-1])["type"] == "STOP_EVENT"
    assert exact.endswith(files[last][-19:]), "ends with the last file's last event, its Stop"
    assert rest[0]["type"] == "ROTATE_EVENT" and rest[-1]["response"] == "EOF"


# -- against real servers ---------------------------------------------------------------------

@pytest.fixture(scope="module", params=SERVERS)
def primary(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[tuple[Server, Path, list[dict]]]:
    """A real server with a closed binlog.000001 (seed transactions), copied to a tmp dir."""
    profile = profiles.get(request.param)
    require_image(profile)
    settings = {"max_allowed_packet": "64M", "binlog_format": "ROW"}  # the last test: a 17 MB row
    if profile.flavor == "mysql":
        settings |= {"gtid_mode": "ON", "enforce_gtid_consistency": "ON"}
    if profile.name == "mysql-5.6":   # gtid_mode ON needs log_slave_updates; a 17 MB BLOB in one
        # transaction needs a redo log ten times its size (5.6's default is 48 MB)
        settings |= {"log_slave_updates": "ON", "innodb_log_file_size": "192M"}
    with running_server(profile, settings) as server:
        prepare_primary(server)
        case_dir = tmp_path_factory.mktemp(profile.name)
        server.copy_binlogs(case_dir, [FIRST_FILE])
        events = [{"type": r["Event_type"], "info": r["Info"] or ""}
                  for r in server.show_binlog_events(FIRST_FILE)]
        yield server, case_dir, events


def _by_name(doc: dict) -> dict[str, dict]:
    return {c["request"]["name"]: c for c in doc["captures"]}


def test_capture_of_a_real_dump(primary: tuple[Server, Path, list[dict]]) -> None:
    server, case_dir, events = primary
    entry = capture_case(server, case_dir, [FIRST_FILE], events)
    doc = json.loads((case_dir / entry["path"]).read_text())
    jsonschema.validate(doc, CAPTURE_SCHEMA)
    caps = _by_name(doc)
    assert set(caps) == {"nonblock", "heartbeat", "as_binlog_tool", "gtid", "missing_file",
                         "position_inside_an_event", "checksum_not_announced"} | (
                             {"heartbeat_v2"} if server.profile.flavor == "mysql" else {"old_replica"})
    assert caps["checksum_not_announced"]["end"].startswith("ERR 1236 "), \
        "a CRC32 binlog needs the client to announce that it handles checksums"
    assert caps["missing_file"]["end"].startswith("ERR 1236 "), caps["missing_file"]["end"]
    data = (case_dir / FIRST_FILE).read_bytes()
    files = {FIRST_FILE: data}

    first = caps["nonblock"]["messages"][0]   # the artificial Rotate naming the file
    assert (first["type"], first["log_pos"], first["flags"]) == ("ROTATE_EVENT", 0, ["LOG_EVENT_ARTIFICIAL_F"])
    assert bytes.fromhex(first["event_hex"])[27:27 + len(FIRST_FILE)] == FIRST_FILE.encode()
    assert caps["nonblock"]["end"] == "EOF"
    assert caps["nonblock"]["messages"][-1]["packet_hex"].startswith("fe")

    # The dump tools' request gets every event of the file, in one run, from offset 4 to its end.
    runs = [m for m in caps["as_binlog_tool"]["messages"] if m.get("file") == FIRST_FILE]
    assert runs[0]["offset"] == 4 and runs[0]["end"] == len(data), runs

    assert caps["heartbeat"]["end"] == "capture hung up after 2 heartbeat(s)"
    # MariaDB's binlog background thread writes a Binlog_checkpoint when it gets to it: on a
    # loaded machine the dump sends it between the heartbeats (seen on 10.11)
    beats = [m.get("type") for m in caps["heartbeat"]["messages"] if m.get("type") != "BINLOG_CHECKPOINT_EVENT"]
    assert beats[-2:] == ["HEARTBEAT_LOG_EVENT"] * 2
    if "heartbeat_v2" in caps:   # MySQL before 8.0.26 ignores the dump flag asking for v2
        v2 = parse_version(server.version()) >= (8, 0, 26)
        assert [m.get("type") for m in caps["heartbeat_v2"]["messages"][-2:]] == \
            ["HEARTBEAT_LOG_EVENT_V2" if v2 else "HEARTBEAT_LOG_EVENT"] * 2

    # packet sequence ids run 1, 2, 3, ... (mod 256) and every capture rebuilds
    for cap in doc["captures"]:
        assert [s for _, s in cap["packets"]] == [(i + 1) % 256 for i in range(len(cap["packets"]))]
        assert len(C.rebuild_stream(cap, files)) == sum(4 + n for n, _ in cap["packets"])


def test_proxy_records_python_mysql_replication(primary: tuple[Server, Path, list[dict]]) -> None:
    server, _, _ = primary
    run = record_one(server, CLIENTS["python-mysql-replication"])
    assert run.outcome.startswith("ok"), run.outcome
    cmds = [c for conn in run.connections for c in conn["commands"]]
    queries = [c["query"] for c in cmds if c["command"] == "COM_QUERY"]
    assert "SET @master_binlog_checksum= @@global.binlog_checksum" in queries
    assert "SET @mariadb_slave_capability=4" in queries
    checksum = next(c for c in cmds if c.get("query") == "SHOW GLOBAL VARIABLES LIKE 'BINLOG_CHECKSUM'")
    assert checksum["columns"] == ["Variable_name", "Value"]
    dump = next(c for c in cmds if c["command"] == "COM_BINLOG_DUMP")
    assert (dump["file"], dump["position"], dump["flags"], dump["server_id"]) == (FIRST_FILE, 4, 1, 101)
    assert dump["response"] == "OK" and dump["response_packets"] > 3
    assert all(c["response"] in ("OK", "") or c["response"].startswith("result set")
               for c in cmds), cmds


def test_capture_keeps_the_split_of_an_event_over_16mb(primary: tuple[Server, Path, list[dict]]) -> None:
    """Runs last on its server: it writes a 17 MB row event into a new binlog."""
    server, case_dir, _ = primary
    server.execute("CREATE DATABASE IF NOT EXISTS big; CREATE TABLE big.huge (id INT PRIMARY KEY, "
                   "b LONGBLOB); INSERT INTO big.huge VALUES (1, REPEAT('h', 17 * 1024 * 1024));")
    server.flush_logs()
    name = server.binlog_files()[-2]
    server.copy_binlogs(case_dir, [name])
    data = (case_dir / name).read_bytes()
    request = requests_for(server.profile.flavor, name, [])[0]
    cap = C.capture_dump(server.port, repl_user.USER, repl_user.PASSWORD, request, {name: data})
    lengths = [n for n, _ in cap.packets]
    assert P.MAX_PAYLOAD in lengths, (max(lengths), cap.end, cap.messages[-1], len(data))
    first = lengths.index(P.MAX_PAYLOAD)       # the row event's first packet ...
    assert 0 < lengths[first + 1] < P.MAX_PAYLOAD  # ... and its rest, one more packet
    runs = [m for m in cap.messages if m.get("file") == name]
    assert (runs[0]["offset"], runs[-1]["end"]) == (4, len(data))
    assert cap.end == "EOF"
