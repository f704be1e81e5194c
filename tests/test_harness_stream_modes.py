"""Stream modes (issue 32 item 4; harness/stream_modes.py): the request's mode, what a testee
declares, how results are keyed and gated per mode, the primary's part (the status position of
mode `current`, heartbeats between transactions), and python-mysql-replication run end to end in
each mode through the conformance runner."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from generators.capture import DumpRequest, capture_dump, rebuild_stream
from harness import expected_failures as xf
from harness import stream_modes
from harness.corpus import discover
from harness.expectations import expectation_for
from harness.outcomes import CaseResult, Outcome
from harness.plugins.base import FULL
from harness.plugins.protocol import GTID, POSITION, Hello, StreamSource
from harness.primary.gtid_pos import binlog_gtid_pos
from harness.primary.server import BackgroundPrimary
from harness.primary.state import ServeOptions
from oracle.wire.stream import decode_stream_bytes
from tests.harness_helpers import PROJECT, corpus_args, run_cli

CORPUS = PROJECT / "corpus"
MYSQL_97 = CORPUS / "mysql-9.7" / "ddl_dml_basic--row"
MYSQL_80 = CORPUS / "mysql-8.0" / "ddl_dml_basic--row"


def _case(path: Path):
    (case,) = [c for c in discover(CORPUS) if c.path.parent == path or c.path == path]
    return case


# -- the request and the hello ----------------------------------------------------------------

def test_modes_are_parsed_in_their_order_and_an_unknown_one_is_refused() -> None:
    assert stream_modes.parse_modes("heartbeats,position") == ("position", "heartbeats")
    with pytest.raises(ValueError, match="comma-separated list"):
        stream_modes.parse_modes("position,sideways")


def test_a_hello_declares_its_modes_and_why_not_the_others() -> None:
    hello = Hello("t", "1", FULL, transport="stream", modes=(POSITION, GTID),
                  modes_unsupported={"current": "no status query (docs)"})
    again = Hello.from_json(hello.to_json())
    assert again.modes == (POSITION, GTID) and again.why_not(GTID) is None
    assert again.why_not("current") == "no status query (docs)"
    assert "does not declare" in (again.why_not("heartbeats") or "")
    assert Hello.from_json({"type": "hello"}).modes == (POSITION,)  # an adapter from before modes
    with pytest.raises(ValueError):
        Hello.from_json({"type": "hello", "modes": ["sideways"]})


def test_a_one_shot_command_gets_mode_flags_only_outside_position_mode() -> None:
    position = StreamSource("127.0.0.1", 1, "u", "p", "binlog.000001")
    assert "--mode" not in position.flags()
    gtid = StreamSource("127.0.0.1", 1, "u", "p", "binlog.000001", 4, "binlog.000001", mode=GTID, gtid_set="u:1-3")
    assert gtid.flags()[-6:] == ["--mode", "gtid", "--gtid-set", "u:1-3", "--heartbeat-period", "0.0"]
    assert StreamSource.from_json(gtid.to_json()) == gtid


# -- results and expected failures per mode -----------------------------------------------------

def _result(case: str, mode: str | None, outcome: Outcome, message: str = "m") -> CaseResult:
    return CaseResult(case, "p", outcome, message, transport="stream" if mode else "file", mode=mode)


def test_an_entry_without_a_mode_is_a_position_entry_and_modes_are_keyed_with_at() -> None:
    entries = xf.parse("c1 mismatch m\nc1@gtid rejected r\nc2@heartbeats mismatch m\n")
    results = [_result("c1", "position", Outcome.MISMATCH), _result("c1", "gtid", Outcome.REJECTED, "r"),
               _result("c1", "current", Outcome.PASS), _result("c2", "heartbeats", Outcome.PASS),
               _result("c2", "current", Outcome.NOT_APPLICABLE, "stream mode not supported: x")]
    gate = xf.gate(results, entries)
    assert [e.case for _, e in gate.expected] == ["c1", "c1@gtid"]
    # the pass of a listed mode is unexpected; a not_applicable mode needs no entry
    assert [(r.key, why.split(" (")[0]) for r, why in gate.unexpected] == [("c2@heartbeats", "unexpected pass")]
    assert not gate.stale


def test_fix_writes_mode_entries_and_leaves_not_applicable_out(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    xf.fix(path, [_result("c1", "gtid", Outcome.MISMATCH, "1 difference"),
                  _result("c1", "current", Outcome.NOT_APPLICABLE)])
    assert [e.case for e in xf.load(path)] == ["c1@gtid"]


# -- heartbeats: where the primary sends them and how they are checked ----------------------------

def test_heartbeats_go_after_transactions_never_inside_one() -> None:
    case = _case(MYSQL_80)
    expectation = expectation_for(case)
    ends = stream_modes.transaction_ends(expectation)
    by_end = {e["position"] + e["event_size"]: e for e in expectation.events}
    assert 3 <= len(ends) <= stream_modes.MAX_HEARTBEATS
    for end in ends:
        kind = by_end[end]["type"]
        assert kind in ("XID_EVENT", "QUERY_EVENT"), kind
        if kind == "QUERY_EVENT":
            assert by_end[end]["body"]["query"].upper() not in ("BEGIN",)
    assert max(ends) < stream_modes_end(expectation)


def stream_modes_end(expectation) -> int:
    from harness.stream_serving import stream_end
    return stream_end(expectation)


def _beat(pos: int, v2: bool = False, file: str = "binlog.000001") -> dict:
    if v2:
        return {"type": "HEARTBEAT_LOG_EVENT_V2", "body": {"log_filename": file, "log_position": pos}}
    return {"type": "HEARTBEAT_LOG_EVENT", "next_position": pos, "body": {"log_ident": file}}


def test_each_heartbeat_is_checked_and_one_lost_or_misplaced_is_a_difference() -> None:
    expected = [("binlog.000001", 500), ("binlog.000001", 900)]
    assert stream_modes.check_heartbeats(expected, [_beat(500, True), _beat(900, True)], "9.7.0", 1000) == []
    lost = stream_modes.check_heartbeats(expected, [_beat(500)], "9.7.0", 1000)
    assert [(d.index, d.path) for d in lost] == [(1, "heartbeat")]
    moved = stream_modes.check_heartbeats(expected, [_beat(500), _beat(901)], "9.7.0", 1000)
    assert [(d.path, d.expected, d.actual) for d in moved] == [("heartbeat.log_pos", 900, 901)]
    v2_too_early = stream_modes.check_heartbeats(expected, [_beat(500, True), _beat(900)], "5.7.44-log", 1000)
    assert [d.path for d in v2_too_early] == ["heartbeat.type"]
    idle_at_the_end = stream_modes.check_heartbeats(expected, [_beat(500), _beat(900), _beat(1000)], "8.0.40", 1000)
    assert idle_at_the_end == []
    assert stream_modes.check_heartbeats(expected, [_beat(500), _beat(900), _beat(700)], "8.0.40", 1000)


def _served(path: Path, **options):
    return BackgroundPrimary(ServeOptions([str(path)], port=0, user="u", password="pw", quiet=True, **options))


def _dump(primary, flags: int, period_ns: int) -> list[dict]:
    files = {f.name: f.path.read_bytes() for f in primary.state.logs.files}
    setup = ("SET @master_binlog_checksum = @@global.binlog_checksum",
             f"SET @master_heartbeat_period = {period_ns}")
    capture = capture_dump(primary.port, "u", "pw", DumpRequest("hb", "binlog.000001", flags=flags, setup=setup), files)
    return list(decode_stream_bytes(rebuild_stream(capture.to_json(), files)))


@pytest.mark.parametrize("path,flags,kind", [(MYSQL_97, 0x1 | 0x2, "HEARTBEAT_LOG_EVENT_V2"),
                                             (MYSQL_97, 0x1, "HEARTBEAT_LOG_EVENT"),
                                             (CORPUS / "mysql-5.7" / "ddl_dml_basic--row", 0x1 | 0x2,
                                              "HEARTBEAT_LOG_EVENT")])
def test_the_primary_sends_a_heartbeat_after_each_transaction_to_a_client_that_asked(path, flags, kind) -> None:
    """v2 only to a MySQL 8.0.26+ client that sets the dump flag (as the real 9.7 heartbeats of
    tests/test_primary_vs_capture.py, request heartbeat_v2, byte for byte)."""
    expectation = expectation_for(_case(path))
    ends = stream_modes.transaction_ends(expectation)
    with _served(path, heartbeats_after=frozenset(("binlog.000001", p) for p in ends)) as primary:
        records = _dump(primary, flags, 10**9)
        silent = _dump(primary, flags, 0)
    beats = [r for r in records if str(r.get("type", "")).startswith("HEARTBEAT")]
    assert [b["type"] for b in beats] == [kind] * len(ends)
    named = [b["body"].get("log_position", b["next_position"]) for b in beats]
    assert named == ends
    for beat in beats:  # right after the event that ends there
        before = records[records.index(beat) - 1]
        assert before["next_position"] == named[beats.index(beat)]
    assert not [r for r in silent if str(r.get("type", "")).startswith("HEARTBEAT")]  # no period: none


# -- current: the status query reports the case's start ------------------------------------------

@pytest.mark.parametrize("path,statement,refused", [
    (MYSQL_80, "SHOW MASTER STATUS", "SHOW BINLOG STATUS"),
    (MYSQL_97, "SHOW BINARY LOG STATUS", "SHOW MASTER STATUS"),
    (CORPUS / "mariadb-10.11" / "ddl_dml_basic--row", "SHOW BINLOG STATUS", "SHOW BINARY LOG STATUS"),
])
def test_the_status_query_of_the_version_reports_the_case_start(path, statement, refused) -> None:
    import pymysql
    with _served(path, status_position=("binlog.000001", 4)) as primary:
        conn = pymysql.connect(host="127.0.0.1", port=primary.port, user="u", password="pw")
        try:
            with conn.cursor() as cur:
                cur.execute(statement)
                row = cur.fetchone()
                assert row[:2] == ("binlog.000001", 4)
                if "mariadb" not in path.parent.name:
                    assert row[4] == primary.state.logs.previous_gtid_text("binlog.000001")
                with pytest.raises(pymysql.err.ProgrammingError) as refusal:
                    cur.execute(refused)
                assert refusal.value.args[0] == 1064
        finally:
            conn.close()


@pytest.mark.parametrize("path,variable", [
    (CORPUS / "mysql-8.0" / "replica_apply--row", "gtid_executed"),
    (CORPUS / "mariadb-11.8" / "replica_apply--row", "gtid_binlog_pos"),
])
def test_the_gtid_variables_report_the_case_start_too(path, variable) -> None:
    """Vitess finds the current position from @@global.gtid_executed (MariaDB: gtid_binlog_pos),
    not SHOW ... STATUS: at a status position they name the start of its file, as a server that
    has just opened it does; without one, the whole served set."""
    import pymysql
    second = "binlog.000002"
    for status, want_start in ((None, False), ((second, 4), True)):
        with _served(path, status_position=status) as primary:
            logs = primary.state.logs
            at_start = (logs.previous_gtid_text(second) if variable == "gtid_executed" else
                        binlog_gtid_pos(next(f.path for f in logs.files if f.name == second), 4))
            whole = logs.gtid_executed() if variable == "gtid_executed" else logs.gtid_binlog_pos()
            assert at_start != whole  # the case tells the two apart
            conn = pymysql.connect(host="127.0.0.1", port=primary.port, user="u", password="pw")
            try:
                with conn.cursor() as cur:
                    cur.execute(f"SELECT @@global.{variable}")
                    assert cur.fetchone()[0] == (at_start if want_start else whole), status
            finally:
                conn.close()


def test_current_mode_compares_from_where_the_primary_started_the_dump() -> None:
    """In current mode a testee starts as it chooses (file and position, or the GTID variables);
    on MariaDB 11.4+ a GTID dump starts at the GTID index, past the Gtid_list: the comparison
    starts where the primary started. In gtid mode the start is the index's whatever the testee
    did (one that dumps by position is shown the extra events)."""
    case = _case(CORPUS / "mariadb-11.8" / "ddl_dml_basic--row")
    full = expectation_for(case)
    from harness.primary.mariadb import gtid_index_start
    index = gtid_index_start(case.path)[0]
    assert index > 4
    later = stream_modes.mode_expectation("current", case, full, (case.path.name, index))
    assert later.events and all(e["position"] >= index for e in later.events if isinstance(e.get("position"), int))
    assert len(later.events) < len(full.events)
    assert stream_modes.mode_expectation("current", case, full, (case.path.name, 4)).events == full.events
    assert stream_modes.mode_expectation("gtid", case, full, (case.path.name, 4)).events == later.events
    assert stream_modes.mode_expectation(POSITION, case, full, (case.path.name, index)).events == full.events


# -- end to end: python-mysql-replication in each mode --------------------------------------------

@pytest.fixture()
def _project_cwd(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(PROJECT)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])))


E2E = [CORPUS / "mysql-8.0" / "replica_apply--row" / "binlog.000002",  # a GTID set to start from (8.0.14+: the library's supported versions)
       CORPUS / "mariadb-10.11" / "ddl_dml_basic--row"]


def test_python_mysql_replication_passes_in_every_mode(_project_cwd: None, tmp_path: Path) -> None:
    pytest.importorskip("pymysqlreplication")
    rc, records = run_cli(tmp_path, "--parser", "python-mysql-replication", "--modes", "gtid,current,heartbeats",
                          "--mode-cases", "all", *corpus_args(E2E))
    got = {(Path(r["case"]).name, r["mode"]): r["outcome"] for r in records}
    assert got[("binlog.000002", "gtid")] == "pass" and got[("binlog.000002", "heartbeats")] == "pass"
    assert got[("binlog.000002", "current")] == "pass"
    assert got[("ddl_dml_basic--row", "gtid")] == "pass" and got[("ddl_dml_basic--row", "heartbeats")] == "pass"
    # current on MariaDB: the library's MariaDB dump cannot start at a position, so it is a
    # MySQL dump without Annotate_rows (finding 11a, a limit)
    assert got[("ddl_dml_basic--row", "current")] == "mismatch"
    assert {r["transport"] for r in records} == {"stream"} and len(records) == 6


def test_a_testee_that_loses_its_heartbeats_is_a_mismatch(_project_cwd: None, tmp_path: Path) -> None:
    pytest.importorskip("pymysqlreplication")
    rc, (r,) = run_cli(tmp_path, "--parser", "tests.harness_scripts.stream_plugins:DropHeartbeats",
                       "--modes", "heartbeats", "--mode-cases", "all", *corpus_args(E2E[:1]))
    assert r["outcome"] == "mismatch" and r["mode"] == "heartbeats"
    assert r["diffs"] and {d["path"] for d in r["diffs"]} == {"heartbeat"}, r["diffs"]


def test_an_undeclared_mode_is_not_applicable_with_the_testee_s_cause(_project_cwd: None, tmp_path: Path) -> None:
    pytest.importorskip("pymysqlreplication")
    rc, records = run_cli(tmp_path, "--parser", "tests.harness_scripts.stream_plugins:PositionOnly",
                          "--modes", "position,gtid,heartbeats", "--mode-cases", "all", *corpus_args(E2E[:1]))
    by_mode = {r["mode"]: r for r in records}
    assert by_mode["position"]["outcome"] == "pass"
    assert by_mode["gtid"]["outcome"] == "not_applicable"
    assert by_mode["gtid"]["message"] == "stream mode not supported: the library documents no GTID start (README, 'Starting')"
    assert by_mode["heartbeats"]["outcome"] == "not_applicable"
    assert rc == 0  # not_applicable needs no expected entry


def test_fix_of_a_run_narrowed_by_modes_keeps_the_other_modes_entries(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("c1 mismatch m\nc1@current rejected r\nc2@gtid mismatch old\n")
    xf.fix(path, [_result("c1", "gtid", Outcome.MISMATCH, "new"), _result("c2", "gtid", Outcome.PASS)])
    assert [(e.case, e.prefix) for e in xf.load(path)] == [("c1", "m"), ("c1@current", "r"), ("c1@gtid", "new")]
