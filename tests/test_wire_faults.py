"""The catalogue of wire faults (harness/wire_faults, docs/wire-faults.md): first what the primary
puts on the wire under each fault, read back on the client side with the packet codec (a fault
that stopped sending its empty packet or its skipped sequence id fails here); then the real
clients under every fault, with the verdicts measured for them pinned (a change in a client or
in the harness shows up here)."""
from __future__ import annotations

import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from generators.profiles import get as get_profile
from harness.isolation import Limits
from harness.plugins import launch
from harness.primary.server import BackgroundPrimary
from harness.primary.state import ServeOptions
from harness.runner import Target
from harness.corpus import Case
from harness.expectations import expectation_for
from harness.stream_serving import stream_end
from harness.wire_faults.binlogs import CORPUS, MARIADB_BINLOG, SMALL_BINLOG, across, binlog_for, served_files
from harness.wire_faults.catalogue import BY_NAME, CATALOGUE, Kind
from harness.wire_faults.inject import MISSING_FILE, ROWS_TYPES, WireInjector
from harness.wire_faults.run import RawCopier, StreamParser, run_fault
from harness.wire_faults.serving import with_wire_fault
from harness.wire_faults.verdict import Verdict
from oracle.event_types import EventType as T
from oracle.framing import walk
from oracle.wire.packets import MAX_PACKET, ErrPacket
from tests.peers_fixtures import installed  # noqa: F401 (a fixture)
from tests.server_fixtures import require_image

pymysql = pytest.importorskip("pymysql")

COM_BINLOG_DUMP = 0x12


@pytest.fixture(scope="module")
def work_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the big binlogs are made, once for the module."""
    return tmp_path_factory.mktemp("wire-faults")


def _wire(binlog: Path, injector: WireInjector | None = None) -> bytes:
    """The raw bytes of a non-blocking COM_BINLOG_DUMP of binlog, to the connection's end, read by
    a pymysql connection (login, checksum announcement) past its own packet layer."""
    with BackgroundPrimary(ServeOptions([str(binlog)], port=0, quiet=True, wire_fault=injector)) as primary:
        conn = pymysql.connect(host=primary.host, port=primary.port, user="root", password="", read_timeout=60)
        try:
            conn.query("SET @source_binlog_checksum = 'CRC32'")
            conn._execute_command(COM_BINLOG_DUMP, struct.pack("<IHI", 4, 1, 7) + binlog.name.encode())
            out = bytearray()
            while chunk := conn._rfile.read(1 << 16):
                out += chunk
            return bytes(out)
        finally:
            conn._sock.close()


def _packets(wire: bytes) -> list[tuple[int, int, bytes]]:
    """(length, sequence id, payload) of each physical packet; a last, cut one as far as it came."""
    out, pos = [], 0
    while pos + 4 <= len(wire):
        n = int.from_bytes(wire[pos:pos + 3], "little")
        out.append((n, wire[pos + 3], wire[pos + 4:pos + 4 + n]))
        pos += 4 + n
    return out


def _event_types(packets: list[tuple[int, int, bytes]]) -> list[int]:
    return [p[5] for n, _, p in packets if n > 20 and p[:1] == b"\0"]


@pytest.mark.parametrize("fault, lengths", [
    ("split-below", [MAX_PACKET - 1]),
    ("split-exact", [MAX_PACKET, 0]),
    ("split-above", [MAX_PACKET, 1]),
    ("split-double", [MAX_PACKET, MAX_PACKET, 0]),
    ("event-17mb", [MAX_PACKET, 17 * 2**20 + 1 - MAX_PACKET]),
])
def test_big_events_are_split_at_0xffffff(fault: str, lengths: list[int], work_dir: Path) -> None:
    binlog = binlog_for(BY_NAME[fault].payload_size, work_dir)
    packets = _packets(_wire(binlog))
    sizes = [n for n, _, _ in packets]
    i = next(k for k, n in enumerate(sizes) if n >= MAX_PACKET - 1)
    assert sizes[i:i + len(lengths)] == lengths
    assert sizes[i + len(lengths)] < MAX_PACKET - 1  # the next event starts a new logical packet
    seqs = [s for _, s, _ in packets]
    assert seqs == [(seqs[0] + k) & 0xFF for k in range(len(seqs))]
    assert sum(1 for _ in walk(binlog.read_bytes())) == 49  # the oracle reads the whole file


def test_the_first_dump_gets_the_fault_and_a_reconnect_does_not() -> None:
    injector = WireInjector(BY_NAME["seq-id-skip"].action, SMALL_BINLOG.name)
    assert _wire(SMALL_BINLOG, injector) != _wire(SMALL_BINLOG, injector)  # the second dump is clean
    assert injector.dumps == 2
    clean = _wire(SMALL_BINLOG)
    assert _wire(SMALL_BINLOG, WireInjector(BY_NAME["heartbeats-between"].action, SMALL_BINLOG.name)) != clean
    injector = WireInjector(BY_NAME["heartbeats-between"].action, SMALL_BINLOG.name)
    injector.dumps = 1  # as if a first dump had been served: the next one is the healthy stream
    assert _wire(SMALL_BINLOG, injector) == clean


def _rows_index(packets: list[tuple[int, int, bytes]]) -> int:
    return next(i for i, (n, _, p) in enumerate(packets) if n > 20 and p[:1] == b"\0" and p[5] in ROWS_TYPES)


def test_sequence_id_faults_skip_or_repeat_one_id() -> None:
    for name, step in (("seq-id-skip", 2), ("seq-id-repeat", 0)):
        packets = _packets(_wire(SMALL_BINLOG, WireInjector(BY_NAME[name].action, SMALL_BINLOG.name)))
        i = _rows_index(packets)
        assert packets[i][1] == (packets[i - 1][1] + step) & 0xFF, name
        assert all(packets[k][1] == (packets[k - 1][1] + 1) & 0xFF for k in range(1, i)), name


def test_err_and_rotate_faults_end_with_err_1236() -> None:
    packets = _packets(_wire(SMALL_BINLOG, WireInjector(BY_NAME["err-mid-stream"].action, SMALL_BINLOG.name)))
    assert packets[-1][2][:1] == b"\xff" and ErrPacket.parse(packets[-1][2]).code == 1236
    assert not any(t in ROWS_TYPES for t in _event_types(packets))
    packets = _packets(_wire(SMALL_BINLOG, WireInjector(BY_NAME["rotate-missing"].action, SMALL_BINLOG.name)))
    rotate = packets[-2][2][1:]
    assert rotate[4] == T.ROTATE_EVENT and not rotate[17] & 0x20  # a real Rotate, not an artificial one
    assert rotate[19 + 8:-4] == MISSING_FILE.encode() and struct.unpack_from("<I", rotate, len(rotate) - 4)[0] == \
        zlib.crc32(rotate[:-4])
    assert "could not find next log" in ErrPacket.parse(packets[-1][2]).message


def test_a_second_replica_of_the_client_ends_its_dump_after_the_first_rows_event() -> None:
    """The second replica logs in with the primary's account, dumps with the client's server_id, and
    the client's dump ends with the ERR a real 9.7 server sends it, right after the first rows event."""
    injector = WireInjector(BY_NAME["second-replica"].action, SMALL_BINLOG.name, login=("root", ""))
    packets = _packets(_wire(SMALL_BINLOG, injector))
    err = ErrPacket.parse(packets[-1][2])
    assert err.code == 1236 and err.message.startswith("A replica with the same server_uuid/server_id as this "
                                                       "replica has connected to the source; the first event")
    assert packets[-2][2][5] in ROWS_TYPES and _rows_index(packets) == len(packets) - 2
    assert injector.dumps == 2 and "server_id 7" in injector.done[0]


def test_cuts_end_the_connection_inside_a_packet_and_inside_an_event(work_dir: Path) -> None:
    wire = _wire(SMALL_BINLOG, WireInjector(BY_NAME["cut-mid-packet"].action, SMALL_BINLOG.name))
    n, _, payload = _packets(wire)[-1]
    assert len(payload) == n // 2 and payload[5] in ROWS_TYPES  # half the packet, then the end
    fault = BY_NAME["cut-mid-event"]
    binlog = binlog_for(fault.payload_size, work_dir)
    n, _, payload = _packets(_wire(binlog, WireInjector(fault.action, binlog.name)))[-1]
    assert n == len(payload) == MAX_PACKET and payload[5] == T.QUERY_EVENT  # a whole packet, not the event


_DUMPER = """
import struct, sys, pymysql
conn = pymysql.connect(host=sys.argv[1], port=int(sys.argv[2]), user="root", password="", ssl_disabled=True)
conn.query("SET @source_binlog_checksum = 'CRC32'")
conn._execute_command(0x12, struct.pack("<IHI", 4, 1, 7) + sys.argv[3].encode())
n = 0
while chunk := conn._rfile.read(1 << 16):
    n += len(chunk)
print(n)
"""


def test_the_slow_reader_is_stopped_dropped_at_the_write_timeout_then_continued(work_dir: Path) -> None:
    """The process at the other end is found, stopped while the 17 MiB event is written, the
    connection closed after the write timeout, and the process continued: it reads what its
    buffers held, then the end (fewer bytes than the dump)."""
    fault = BY_NAME["slow-reader"]
    binlog = binlog_for(fault.payload_size, work_dir)
    injector = WireInjector(fault.action, binlog.name)
    with BackgroundPrimary(ServeOptions([str(binlog)], port=0, quiet=True, wire_fault=injector)) as primary:
        started = time.monotonic()
        out = subprocess.run([sys.executable, "-c", _DUMPER, primary.host, str(primary.port), binlog.name],
                             capture_output=True, text=True, timeout=60)
        took = time.monotonic() - started
    assert out.returncode == 0, out.stderr
    assert injector.done and "net_write_timeout" in injector.done[0] and "(pid " in injector.done[0], injector.done
    assert int(out.stdout) < binlog.stat().st_size
    assert took >= fault.action.count  # it waited the write timeout out, stopped


def test_heartbeats_checksums_and_trickle_on_the_wire() -> None:
    clean = _packets(_wire(SMALL_BINLOG))
    events = _event_types(clean)
    beats = _event_types(_packets(_wire(SMALL_BINLOG, WireInjector(BY_NAME["heartbeats-between"].action,
                                                                   SMALL_BINLOG.name))))
    assert [t for t in beats if t != 27] == events
    # one after each event from the Format_description on: none after the artificial Rotate, which
    # comes before it (a server sends a Heartbeat only while it waits for the next event)
    assert events[:2] == [T.ROTATE_EVENT, T.FORMAT_DESCRIPTION_EVENT]
    assert beats[:3] == [*events[:2], T.HEARTBEAT_LOG_EVENT] and beats.count(T.HEARTBEAT_LOG_EVENT) == len(events) - 1
    storm = _event_types(_packets(_wire(SMALL_BINLOG, WireInjector(BY_NAME["heartbeat-storm"].action,
                                                                   SMALL_BINLOG.name))))
    assert storm.count(T.HEARTBEAT_LOG_EVENT) == 5000
    flipped = _packets(_wire(SMALL_BINLOG, WireInjector(BY_NAME["flipped-checksum"].action, SMALL_BINLOG.name)))
    bad = [p[1:] for n, _, p in flipped if n > 20 and p[:1] == b"\0"
           and struct.unpack_from("<I", p, n - 4)[0] != zlib.crc32(p[1:-4])]
    assert len(bad) == 1 and bad[0][4] in ROWS_TYPES
    injector = WireInjector(BY_NAME["trickle"].action, SMALL_BINLOG.name)
    assert _wire(SMALL_BINLOG, injector) == _wire(SMALL_BINLOG)  # slow, but the same bytes
    assert injector.done and "7-byte writes" in injector.done[0]


def test_every_fault_has_an_expectation_and_a_distinct_name() -> None:
    assert len(BY_NAME) == len(CATALOGUE) >= 17
    assert {f.kind for f in CATALOGUE} == {Kind.LEGAL, Kind.ERROR}
    assert all(f.action is not None or f.payload_size is not None or f.crosses for f in CATALOGUE if f.name != "healthy")


def test_a_flush_logs_fault_serves_a_real_servers_rotated_files_of_the_clients_flavor(work_dir: Path) -> None:
    """Three files of one server, read in order; a client served MariaDB gets MariaDB's."""
    for name, mysql, mariadb in (("flush-logs-9.7", "mysql-9.7", "mariadb-11.8"),
                                 ("flush-logs-5.7", "mysql-5.7", "mariadb-10.5")):
        for source, profile in ((SMALL_BINLOG, mysql), (MARIADB_BINLOG, mariadb)):
            files = served_files(BY_NAME[name], work_dir, source)
            assert [f.name for f in files] == ["binlog.000001", "binlog.000002", "binlog.000003"]
            assert {f.parent.parent.name for f in files} == {profile}
            # each file but the last ends with the Rotate FLUSH BINARY LOGS wrote, naming the next
            for f, following in zip(files, files[1:]):
                last = list(walk(f.read_bytes(), verify_checksums=False))[-1]
                assert last.header.type_code == T.ROTATE_EVENT
                assert following.name.encode() in f.read_bytes()[last.offset:]


def test_serve_with_a_flush_logs_fault_serves_its_rotated_files_of_the_binlogs_flavor(work_dir: Path) -> None:
    """`harness serve --wire-fault flush-logs-5.7 B` serves the fault's own case, as the runs do."""
    for given, case in ((SMALL_BINLOG, "mysql-5.7/rotation--row"), (MARIADB_BINLOG, "mariadb-10.5/rotation--row")):
        opts = with_wire_fault(ServeOptions([str(given)], port=0), "flush-logs-5.7", work_dir)
        assert opts.paths == [str(CORPUS / case)] and opts.wire_fault is None


def test_the_expectation_across_files_is_their_events_in_order() -> None:
    files = served_files(BY_NAME["flush-logs-5.7"], Path("."))
    alone = [expectation_for(Case(f.name, f)) for f in files]
    joined = across(alone)
    assert joined.events == [e for x in alone for e in x.events]
    assert [e["position"] for e in joined.events].count(4) == 3  # each file's Format_description
    assert stream_end(joined) == files[-1].stat().st_size
    assert across(alone[:1]) is alone[0]


# -- real clients under every fault: the verdicts measured (docs/wire-faults.md) ----------------------
LEGAL_SAME = {f.name: Verdict.SAME for f in CATALOGUE if f.kind is Kind.LEGAL}
ERRORS_FAIL = {"seq-id-skip": Verdict.CLEAN_FAILURE, "seq-id-repeat": Verdict.CLEAN_FAILURE,
               "err-mid-stream": Verdict.CLEAN_FAILURE, "cut-mid-packet": Verdict.CLEAN_FAILURE,
               "cut-mid-event": Verdict.CLEAN_FAILURE, "stall-mid-packet": Verdict.CLEAN_FAILURE,
               "rotate-missing": Verdict.CLEAN_FAILURE, "slow-reader": Verdict.CLEAN_FAILURE,
               "second-replica": Verdict.CLEAN_FAILURE}
MEASURED: dict[str, dict[str, Verdict]] = {
    # resumes after a cut (pymysqlreplication reconnects at its last log_pos): nothing lost, nothing twice;
    # does not check CRC32; no read timeout: a silent primary holds it forever
    "python-mysql-replication": {**LEGAL_SAME, **ERRORS_FAIL, "cut-mid-packet": Verdict.SAME,
                                 "cut-mid-event": Verdict.SAME, "slow-reader": Verdict.SAME,
                                 "flipped-checksum": Verdict.UNNOTICED,
                                 "stall-mid-packet": Verdict.HANG,
                                 # 9.7's Previous_gtids (pmr-8), in the first file already
                                 "flush-logs-9.7": Verdict.CRASH},
    # copies an event with a wrong CRC32 as received, exit 0; waits on a silent primary past the limit
    "mysqlbinlog-raw": {**LEGAL_SAME, **ERRORS_FAIL, "flipped-checksum": Verdict.UNNOTICED,
                        "stall-mid-packet": Verdict.HANG, "second-replica": Verdict.SAME},  # never injected
    # the mysql driver ignores sequence ids; CRC32 not checked; the stall ends when the primary's idle
    # timeout (5 s in stream_serving) closes zongji's other, idle connection (4031)
    "zongji-vlasky": {**LEGAL_SAME, **ERRORS_FAIL, "seq-id-skip": Verdict.UNNOTICED,
                      "seq-id-repeat": Verdict.UNNOTICED, "flipped-checksum": Verdict.UNNOTICED},
}
LIMIT = 15  # seconds per fault before a client counts as hung (the 17 MiB events take about 1 s)


# mysqlbinlog dumps with server_id 0, which no replica matches (wf-mysqlbinlog-server-id-0)
NEVER_INJECTED = {"mysqlbinlog-raw": {"second-replica"}}


def _assert_measured(client, work_dir: Path) -> None:
    expected = MEASURED[client.label]
    got = {}
    try:
        for fault in CATALOGUE:
            r = run_fault(fault, client, work_dir)
            got[fault.name] = r.verdict
            assert r.verdict is not Verdict.INVENTED, r
            if fault.action is not None:
                assert bool(r.injected) != (fault.name in NEVER_INJECTED.get(client.label, set())), r
            if r.verdict is Verdict.SAME and fault.resumable:
                assert r.dumps == 2, r  # it did reconnect
    finally:
        client.close()
    assert got == expected


@pytest.mark.server
def test_python_mysql_replication_under_every_fault(work_dir: Path) -> None:
    name = "python-mysql-replication"
    _assert_measured(StreamParser(Target(name, launch.named(name, Limits(LIMIT))), resumes=True), work_dir)


@pytest.mark.server
def test_mysqlbinlog_raw_under_every_fault(work_dir: Path) -> None:
    require_image(get_profile("mysql-9.7"))
    _assert_measured(RawCopier(work_dir, LIMIT), work_dir)


@pytest.mark.server
def test_zongji_vlasky_under_every_fault(installed: None, work_dir: Path) -> None:
    name = "zongji-vlasky"
    _assert_measured(StreamParser(Target(name, launch.named(name, Limits(LIMIT)))), work_dir)


def test_verdicts_tell_invented_rows_from_a_clean_failure_a_loss_and_a_hang() -> None:
    """judge_reply and judge_copy on replies made from the oracle's own decode: a changed row
    value is invented, a prefix and an error a clean failure, a prefix and no error a loss."""
    import copy

    from harness.corpus import Case
    from harness.expectations import expectation_for
    from harness.plugins.base import FULL
    from harness.plugins.protocol import ERROR, EVENTS, TIMEOUT, ErrorInfo, Reply
    from harness.stream_serving import stream_expectation
    from harness.compare import FieldDiff
    from harness.wire_faults.verdict import _unplaced, baseline_diffs, judge_copy, judge_reply

    exp = stream_expectation(expectation_for(Case("x", SMALL_BINLOG)))
    cut, legal = BY_NAME["cut-mid-packet"], BY_NAME["trickle"]
    forged = copy.deepcopy(exp.events)
    next(e for e in forged if e.get("type") == "WRITE_ROWS_EVENT")["body"]["rows"][0]["values"][1] = "eve"
    err = ErrorInfo("ReplicationError", 947, "lost")

    def verdict(fault, reply, resumes=False):
        return judge_reply(fault, exp, reply, FULL, resumes).verdict

    assert verdict(legal, Reply(EVENTS, exp.events)) is Verdict.SAME
    beat = {"type": "HEARTBEAT_LOG_EVENT", "position": -28, "event_size": 28, "body": {}}
    beats = BY_NAME["heartbeats-between"]
    assert verdict(beats, Reply(EVENTS, [exp.events[0], beat, *exp.events[1:]])) is Verdict.SAME  # reported, not invented
    assert verdict(beats, Reply(EVENTS, [exp.events[0], beat, *forged[1:]])) is Verdict.INVENTED
    assert verdict(cut, Reply(EVENTS, forged)) is Verdict.INVENTED
    assert verdict(cut, Reply(ERROR, exp.events[:10], err)) is Verdict.CLEAN_FAILURE
    assert verdict(cut, Reply(ERROR, exp.events[:10], err), resumes=True) is Verdict.LOST
    assert verdict(cut, Reply(EVENTS, exp.events + exp.events[10:12]), resumes=True) is Verdict.LOST
    assert verdict(legal, Reply(ERROR, exp.events[:10], err)) is Verdict.REJECTED
    assert verdict(cut, Reply(EVENTS, exp.events[:10])) is Verdict.LOST
    assert verdict(cut, Reply(TIMEOUT, detail="no reply in 30 s")) is Verdict.HANG
    # the flipped CRC32 reported as received is the check left out, not a value of the client's own
    flipped = copy.deepcopy(exp.events)
    rows = next(e for e in flipped if e.get("type") == "WRITE_ROWS_EVENT")
    rows["checksum"] = {**rows["checksum"], "stored": rows["checksum"]["stored"] ^ 0xFFFFFFFF}  # as inject.py sends it
    assert verdict(BY_NAME["flipped-checksum"], Reply(EVENTS, flipped)) is Verdict.UNNOTICED
    assert verdict(legal, Reply(EVENTS, flipped)) is Verdict.INVENTED
    # a baseline difference is recognised where a size fault's extra event moved its event
    renamed = copy.deepcopy(exp.events)
    renamed[-1]["body"]["new_log_ident"] = "binlog.00"
    baseline = baseline_diffs(exp, Reply(EVENTS, renamed), FULL)
    moved = [dict(d.to_json(), index=d.index + 1, position=d.position + 100) for d in baseline]
    assert baseline and all(_unplaced(d) == _unplaced(FieldDiff(**m)) for d, m in zip(baseline, moved))
    assert judge_reply(legal, exp, Reply(EVENTS, renamed), FULL, False, baseline=baseline).verdict is Verdict.SAME
    served = SMALL_BINLOG.read_bytes()
    assert judge_copy(cut, served, served[:947], 1, "Lost connection", False).verdict is Verdict.CLEAN_FAILURE
    assert judge_copy(cut, served, served[:947], 0, "", False).verdict is Verdict.LOST
    assert judge_copy(cut, served, served[:900] + b"x" * 47, 1, "", False).verdict is Verdict.INVENTED
    assert judge_copy(cut, served, b"", 124, "", True).verdict is Verdict.HANG


def test_the_faults_command_prints_the_table_and_writes_json(tmp_path: Path) -> None:
    import json
    import subprocess
    import sys

    from tests.primary_fixtures import ROOT

    bad = subprocess.run([sys.executable, "-m", "harness", "faults", "--parser", "python-mysql-replication",
                          "--fault", "no-such-fault"], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "no fault named no-such-fault" in bad.stderr
    out = tmp_path / "r" / "faults.json"
    run = subprocess.run([sys.executable, "-m", "harness", "faults", "--parser", "python-mysql-replication",
                          "--fault", "heartbeat-storm", "--fault", "err-mid-stream", "--json", str(out), "--check"],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "[3/3] python-mysql-replication err-mid-stream: clean-failure" in run.stderr
    assert [ln.split() for ln in run.stdout.splitlines()[2:4]] == [["healthy", "same"], ["heartbeat-storm", "same"]]
    results = json.loads(out.read_text())
    assert [(r["fault"], r["verdict"], r["acceptable"]) for r in results] == [
        ("healthy", "same", True), ("heartbeat-storm", "same", True), ("err-mid-stream", "clean-failure", True)]
    assert results[1]["injected"] == ["5000 Heartbeats before WRITE_ROWS_EVENT"]


def test_a_clients_own_differences_on_the_healthy_stream_are_left_out_of_fault_verdicts() -> None:
    from harness.compare import compare_events
    from harness.corpus import Case
    from harness.expectations import expectation_for
    from harness.plugins.base import FULL
    from harness.plugins.protocol import ERROR, EVENTS, ErrorInfo, Reply
    from harness.stream_serving import stream_expectation
    from harness.wire_faults.verdict import judge_reply

    exp = stream_expectation(expectation_for(Case("x", SMALL_BINLOG)))
    partial = [e for e in exp.events if e.get("type") != "ROWS_QUERY_LOG_EVENT"]  # a client that drops a type
    base = compare_events(exp.events, partial, FULL)
    trickle, cut = BY_NAME["trickle"], BY_NAME["cut-mid-packet"]
    assert base and judge_reply(trickle, exp, Reply(EVENTS, partial), FULL, False).verdict is Verdict.LOST
    assert judge_reply(trickle, exp, Reply(EVENTS, partial), FULL, False, (), base).verdict is Verdict.SAME
    err = ErrorInfo("ReplicationError", 947, "lost")
    judged = judge_reply(cut, exp, Reply(ERROR, partial[:8], err), FULL, False, (), base)
    assert judged.verdict is Verdict.CLEAN_FAILURE and judged.detail.startswith("8 of ")
    gap = partial[:4] + partial[5:8]
    assert judge_reply(cut, exp, Reply(ERROR, gap, err), FULL, False, (), base).verdict is Verdict.LOST
