"""Each wire-fault finding of a library (harness/expected/wire-faults/), shown with the library
ALONE, its own script of tests/library_alone/ (no adapter, no harness run), against
`python -m harness serve --wire-fault F`, beside a control: the same library and binlog served
without the fault, read whole. A test fails if the library is fixed upstream (the defect check)
or stops reading at all (the control)."""
from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from harness.runtimes.jvm import RUNTIME
from oracle.decoder import decode_file
from tests.library_alone import pymysqlreplication as pmr
from tests.library_alone.serving import BINLOG, PASSWORD, USER, injected, serving
from tests.parser_builds import built_folder
from tests.peers_fixtures import installed, node_env, package_dir  # noqa: F401 (a fixture)
from tests.library_alone.canal import canal  # noqa: F401 (a fixture: CanalAlone compiled)
from tests.library_alone.canal import rows as canal_rows
from tests.library_alone.canal import run as canal_run
from tests.library_alone.node import GO_JS, GO_NODE, VLASKY, rows
from tests.library_alone.rust import mbcr_probe, probe_stream  # noqa: F401 (a fixture)

SCRIPTS = Path(__file__).parent / "library_alone"
END = max(e.next_position for e in decode_file(BINLOG))

ROWS = sum(len(e.body.get("rows", [])) for e in decode_file(BINLOG) if isinstance(e.body, dict))


def _pmr_within(port: int, seconds: float, **connection: Any) -> pmr.Reading | None:
    """The library's reading, or None if it has not ended within `seconds` (its thread ends when
    the primary goes away)."""
    box: list[pmr.Reading] = []
    t = threading.Thread(target=lambda: box.append(pmr.read(port, USER, PASSWORD, BINLOG.name, connection=connection)),
                         daemon=True)
    t.start()
    t.join(seconds)
    return box[0] if box else None


def test_pmr_waits_for_ever_on_a_primary_silent_inside_a_packet(tmp_path: Path) -> None:
    """wf-pmr-no-read-timeout: BinLogStreamReader as its README builds it has no read timeout, so a
    primary that goes silent inside a packet is waited on (past 15 s here). Controls: the stream
    without the stall is read whole; given pymysql's read_timeout, the library notices the stall,
    reconnects on its own (the fault primary serves the second dump healthy) and reads every row
    once."""
    with serving(tmp_path, "stall-mid-packet") as port:
        assert _pmr_within(port, 15) is None, "python-mysql-replication now gives up on a silent primary"
    assert injected(tmp_path, "stall-mid-packet")
    with serving(tmp_path) as port:
        control = _pmr_within(port, 60)
    assert control is not None and control.failure is None and len(control.rows) == ROWS > 0, control
    with serving(tmp_path, "stall-mid-packet") as port:
        configured = _pmr_within(port, 60, read_timeout=5)
    assert configured is not None and configured.failure is None and configured.rows == control.rows, configured


# ---- the Node libraries ---------------------------------------------------------------------
def _node_alone(library: str, port: int) -> list[dict[str, Any]]:
    """The library's own script (tests/library_alone/) from the start of the binlog to its end:
    its JSON lines, then {"stderr": ..., "status": ...}."""
    if library in (GO_JS, GO_NODE):
        script, arg = "go_mysql.js", {"package_dir": str(package_dir(library)), "quiet_ms": 3000, "config": {
            "hostname": "127.0.0.1", "port": port, "username": USER, "password": PASSWORD,
            "tableRegexes": [".*\\..*"], "binlogPosition": {"name": BINLOG.name, "position": 4}}}
    else:
        script, arg = "zongji.js", {"package_dir": str(package_dir(library)), "quiet_ms": 5000, "end_position": END,
                                    "start": {"filename": BINLOG.name, "position": 4},
                                    "connection": {"host": "127.0.0.1", "port": port, "user": USER, "password": PASSWORD}}
    proc = subprocess.run(["node", str(SCRIPTS / script), json.dumps(arg)], capture_output=True, text=True,
                          timeout=90, env={**node_env(), "DEBUG": "mysql_binlog"})
    lines = [json.loads(ln) for ln in proc.stdout.splitlines() if ln.strip()]
    return [ln for ln in lines if ln != {"ready": True}] + [{"stderr": proc.stderr, "status": proc.returncode}]


def _errors(lines: list[dict[str, Any]]) -> list[str]:
    return [ln["error"] for ln in lines if ln.get("error")]


# One fault of the two each finding covers (seq-id-repeat takes the same path in each library;
# both are pinned by `python -m harness faults`): the suite's time is CI's.
@pytest.mark.parametrize("library, fault", [(GO_JS, "seq-id-skip"), (GO_NODE, "seq-id-skip"), (VLASKY, "seq-id-skip")])
def test_node_library_does_not_check_packet_order(library: str, fault: str, installed: None, tmp_path: Path) -> None:
    """wf-go-wrappers-packet-order-unchecked (go-mysql-js, @solashi/go-mysql-binlog-node) and
    wf-mysql2-packet-order-unchecked (@vlasky/zongji): a packet whose sequence id skips or repeats
    one is taken as if in order; every row comes, no error. Control: the stream as served, the
    same rows. The right behaviour is the error MySQL's own client gives ("Packets out of order")."""
    pacing = 3.0 if library in (GO_JS, GO_NODE) else 0.0  # canal looks each table up (rows-narrower-than-schema-panic)
    with serving(tmp_path, schema_pacing=pacing) as port:
        control = _node_alone(library, port)
    with serving(tmp_path, fault, schema_pacing=pacing) as port:
        faulty = _node_alone(library, port)
    assert rows(control) and not _errors(control), control
    assert injected(tmp_path, fault), "the fault never reached the library"
    assert rows(faulty) == rows(control) and not _errors(faulty), faulty


def test_serve_refuses_a_size_fault_over_several_binlogs(tmp_path: Path) -> None:
    """A fault of size adds one big event to one binlog: given three, `harness serve` says so and
    exits 2 before listening."""
    rotation = BINLOG.parent.parent / "rotation--row"  # binlog.000001 to binlog.000003
    proc = subprocess.run([sys.executable, "-m", "harness", "serve", "--port", "0", "--wire-fault", "event-17mb",
                           str(rotation)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "give one binlog file, not 3" in proc.stderr, proc.stderr


@pytest.mark.parametrize("fault", ["seq-id-skip"])
def test_canal_does_not_check_packet_order(fault: str, canal: list[str], tmp_path: Path) -> None:
    """wf-canal-packet-order-unchecked: Canal's MysqlConnection.dump (tests/library_alone/CanalAlone.java,
    as MysqlEventParser builds the connection) takes a packet whose sequence id skips or repeats
    one as if in order: the control's rows, no error."""
    with serving(tmp_path) as port:
        control = canal_run(canal, "stream", "127.0.0.1", str(port), USER, PASSWORD, BINLOG.name, str(END))
    with serving(tmp_path, fault) as port:
        faulty = canal_run(canal, "stream", "127.0.0.1", str(port), USER, PASSWORD, BINLOG.name, str(END))
    assert canal_rows(control) and control[-1] == {"end": "ok"}, control[-3:]
    assert injected(tmp_path, fault), "the fault never reached the library"
    assert canal_rows(faulty) == canal_rows(control) and faulty[-1] == {"end": "ok"}, faulty[-3:]


@pytest.mark.parametrize("fault", ["seq-id-skip"])
def test_the_rust_connector_does_not_check_packet_order(fault: str, mbcr_probe: Path, tmp_path: Path) -> None:
    """wf-mbcr-packet-order-unchecked: mysql-binlog-connector-rust's BinlogClient (its probe, as
    ape-dts builds the client) takes a packet whose sequence id skips one as if in order: the
    control's events, each as the crate gives it, and no error."""
    with serving(tmp_path) as port:
        control = probe_stream(mbcr_probe, f"mysql://{USER}:{PASSWORD}@127.0.0.1:{port}", BINLOG.name)
    with serving(tmp_path, fault) as port:
        faulty = probe_stream(mbcr_probe, f"mysql://{USER}:{PASSWORD}@127.0.0.1:{port}", BINLOG.name)
    assert [ln for ln in control if "WriteRows" in str(ln.get("data"))] and control[-1] == {"end": "complete"}, control[-3:]
    assert injected(tmp_path, fault), "the fault never reached the library"
    assert faulty == control


# ---- mysql-binlog-connector-java --------------------------------------------------------------
MBCJ_LINES = ("mysql-binlog-connector-java", "mysql-binlog-connector-java-zendesk")
LIBRARY_DEFAULT, OFF = -1, 0  # MbcjAlone's KEEPALIVE_MS: the library's keep-alive as it comes, or none


def _mbcj_alone(line: str, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """`java -cp <MbcjAlone>:<the line's jars> MbcjAlone`."""
    built = built_folder(RUNTIME, line)
    classes = tmp_path_factory.mktemp("mbcj-alone")
    jars = str(built / "lib" / "*")
    subprocess.run(["javac", "-cp", jars, "-d", str(classes), str(SCRIPTS / "MbcjAlone.java")],
                   check=True, capture_output=True, timeout=300)
    return ["java", "-cp", f"{classes}:{jars}", "MbcjAlone"]


@pytest.fixture(scope="module", params=MBCJ_LINES)
def mbcj(request, tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """Each line of the library (they share the packet layer's code)."""
    return _mbcj_alone(request.param, tmp_path_factory)


@pytest.fixture(scope="module")
def mbcj_debezium_line(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The line Debezium and Flink CDC ship (0.41.0): the stall's test, the slowest, runs on it only."""
    return _mbcj_alone(MBCJ_LINES[0], tmp_path_factory)


def _mbcj(argv: list[str], port: int, keep_alive_ms: int = LIBRARY_DEFAULT, seconds: int = 40,
          heartbeat_ms: int = 0) -> list[dict[str, Any]]:
    proc = subprocess.run(argv + ["127.0.0.1", str(port), USER, PASSWORD, BINLOG.name, str(END), str(keep_alive_ms),
                                  str(seconds), str(heartbeat_ms)], capture_output=True, text=True, timeout=seconds + 60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(ln) for ln in proc.stdout.splitlines() if ln.strip()]


def _mbcj_rows(lines: list[dict[str, Any]]) -> list[tuple[str, int, int]]:
    return [(ln["type"], ln["next"], ln["rows"]) for ln in lines if ln.get("rows")]


def _mbcj_failures(lines: list[dict[str, Any]]) -> list[str]:
    return [ln["error"] for ln in lines if ln.get("lifecycle", "").endswith("failure")]


@pytest.mark.parametrize("fault", ["seq-id-skip"])
def test_mbcj_does_not_check_packet_order(fault: str, mbcj: list[str], tmp_path: Path) -> None:
    """wf-mbcj-packet-order-unchecked: BinaryLogClient, as its README starts it, takes a packet
    whose sequence id skips or repeats one as if in order: the control's rows events, no failure
    reported to its LifecycleListener."""
    with serving(tmp_path) as port:
        control = _mbcj(mbcj, port)
    with serving(tmp_path, fault) as port:
        faulty = _mbcj(mbcj, port)
    assert _mbcj_rows(control) and control[-2:][0] == {"end": "reached"} and not _mbcj_failures(control), control
    assert injected(tmp_path, fault), "the fault never reached the library"
    assert _mbcj_rows(faulty) == _mbcj_rows(control) and not _mbcj_failures(faulty), faulty


def test_mbcj_notices_a_silent_primary_only_when_asked_for_heartbeats(mbcj_debezium_line: list[str], tmp_path: Path) -> None:
    """wf-mbcj-stall-keepalive: a primary silent inside a packet. BinaryLogClient waits on it with
    keep-alive off (as our adapters set it), and as much with keep-alive on but no heartbeat
    interval (the library's defaults): the keep-alive then pings, and a ping to a hung primary is
    written without error (the fault primary leaves it unanswered, as a hung server would). Only
    with setHeartbeatInterval does the keep-alive judge the time since the last event: it reports
    the failure, reconnects where it was and delivers every rows event of the control, once."""
    with serving(tmp_path) as port:
        control = _mbcj(mbcj_debezium_line, port)
    with serving(tmp_path, "stall-mid-packet") as port:
        off = _mbcj(mbcj_debezium_line, port, OFF, seconds=15)
    assert injected(tmp_path, "stall-mid-packet")
    with serving(tmp_path, "stall-mid-packet") as port:
        pinging = _mbcj(mbcj_debezium_line, port, 3000, seconds=15)
    assert any("unanswered" in line for line in injected(tmp_path, "stall-mid-packet")), "no ping was sent"
    with serving(tmp_path, "stall-mid-packet") as port:
        heartbeats = _mbcj(mbcj_debezium_line, port, 3000, heartbeat_ms=1000)
    assert _mbcj_rows(control), control
    assert {"end": "timeout"} in off and not _mbcj_rows(off), off
    assert {"end": "timeout"} in pinging and not _mbcj_rows(pinging), pinging
    assert {"end": "reached"} in heartbeats and _mbcj_rows(heartbeats) == _mbcj_rows(control), heartbeats
