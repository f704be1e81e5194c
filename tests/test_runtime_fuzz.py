"""`harness fuzz` and `harness faults` over a runtime parser of each runtime (jvm, go, rust, node),
through the real command line, each adapter started once per run by harness/plugins/launch.py.

A crash, a hang or a panic of the parser is a finding with its reproducer, signed by where the
parser failed (its own stack trace: crash_site.py), never a harness failure; a hung adapter is
killed so that the next input gets its own reply. One short session per runtime (~1-2 min in all
once the adapters are built; a runtime that cannot build here skips, which fails under CI=true)."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from harness.fuzz.crash_site import stderr_site
from harness.parsers.registry import BY_NAME
from harness.runtimes import folder_of, runtime_of
from harness.runtimes.base import BuildError

from .server_fixtures import missing

REPO = Path(__file__).resolve().parents[1]
FINDINGS = REPO / "corpus" / "findings" / "mysql-binlog-connector-java"
# runtime -> (the parser fuzzed, the stream parser put under wire faults)
BY_RUNTIME = {
    "jvm": ("mysql-binlog-connector-java-file", "mysql-binlog-connector-java"),
    "go": ("go-mysql-file", "go-mysql"),
    "rust": ("mysql-common-file", "mysql-async"),
    "node": ("zongji-vlasky", "zongji-vlasky"),  # Node parsers are stream clients only
}
# Seed 0's first 40 mutants hold crashes of the jvm, go and rust parsers (fde_checksum_alg,
# query_db_len_past_end, header_event_size); zongji-vlasky accepts bad CRCs among its 20.
COUNT = {"jvm": 40, "go": 40, "rust": 40, "node": 20}


def built(name: str) -> None:
    """Build the parser's folder into the cache (a no-op when built), or skip saying why."""
    entry = BY_NAME[name]
    runtime, folder = runtime_of(entry), folder_of(entry)
    tool = runtime.missing_tool()
    if tool:
        missing(tool)
    try:
        runtime.build(folder, lambda line: None)
    except BuildError as e:
        missing(f"{folder.name} does not build here: {e}")


def harness(*argv: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "harness", *argv], cwd=REPO, capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("runtime", sorted(BY_RUNTIME))
def test_a_short_fuzz_session_records_its_findings(runtime, tmp_path):
    parser = BY_RUNTIME[runtime][0]
    built(parser)
    out = tmp_path / "fuzz"
    proc = harness("fuzz", "--parser", parser, "--engine", "mutate", "--count", str(COUNT[runtime]), "--seed", "0",
                   "--timeout", "20", "--seeds", str(REPO / "corpus"), "--out", str(out))
    assert proc.returncode == 1, proc.stderr[-3000:]  # 1: the session completed, with findings
    summary = json.loads((out / "summary.json").read_text())
    assert summary["inputs"] == COUNT[runtime] and sum(summary["findings"]["by_kind"].values()) > 0
    notes = [json.loads(p.read_text()) for p in (out / "findings").glob("*.json")]
    assert {n["signature"] for n in notes} == {s["signature"] for s in summary["findings"]["signatures"]}
    assert all(p.with_suffix(".bin").stat().st_size > 0 for p in (out / "findings").glob("*.json"))  # reproducers
    crashes = [n for n in notes if n["kind"] == "crash"]
    if runtime != "node":
        assert crashes, summary["findings"]
    sites = [stderr_site(n.get("testee_stderr") or "") for n in crashes]
    if runtime != "node":
        assert any(sites), crashes  # the parser's own crash site, read from its stderr
    for note, site in zip(crashes, sites):  # signed where the parser failed, with its own stderr kept
        # A crash whose stderr names no site (seen once for node on a loaded fresh clone: the
        # adapter gone without a trace) keeps the harness's signature; any other is the parser's.
        if site:
            assert "TesteeCrash@" not in note["signature"] and site in note["signature"], note["signature"]


@pytest.mark.parametrize("runtime", sorted(BY_RUNTIME))
def test_a_wire_fault_run_judges_the_stream_parser(runtime, tmp_path):
    parser = BY_RUNTIME[runtime][1]
    built(parser)
    out = tmp_path / "faults.json"
    proc = harness("faults", "--parser", parser, "--fault", "err-mid-stream", "--fault", "flipped-checksum",
                   "--timeout", "30", "--json", str(out))
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = {r["fault"]: r for r in json.loads(out.read_text())}
    assert set(results) == {"healthy", "err-mid-stream", "flipped-checksum"}
    assert all(r["client"] == parser and r["verdict"] != "unavailable" for r in results.values())
    assert results["healthy"]["verdict"] == "same", results["healthy"]
    assert results["err-mid-stream"]["acceptable"] and results["err-mid-stream"]["injected"]


class Interrupted(Exception):
    pass


def _interrupt(signum, frame):
    raise Interrupted()


def test_a_hung_adapter_is_killed_so_the_next_input_gets_its_own_reply():
    """The engines' per-input timer interrupts the wait for a hung JVM; left running, the JVM
    answered the next input with this one's late reply (a hang counted three times in a row)."""
    from harness.fuzz.targets import plugin_parse
    from harness.fuzz.testee_target import TesteeHang
    built("mysql-binlog-connector-java-file")
    hang = (FINDINGS / "fuzz-rows-zero-width-hang" / "binlog").read_bytes()
    control = (REPO / "corpus" / "mysql-5.7" / "xa--row" / "binlog.000001").read_bytes()  # the unmutated seed
    parse = plugin_parse("mysql-binlog-connector-java-file", timeout=60)
    want = len(parse(control).events)
    old = signal.signal(signal.SIGALRM, _interrupt)
    try:
        signal.setitimer(signal.ITIMER_REAL, 3)
        with pytest.raises(Interrupted):
            parse(hang)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    got = parse(control)
    assert got.accepted and len(got.events) == want
    with pytest.raises(TesteeHang):  # the adapter's own deadline: a hang too, not a crash
        plugin_parse("mysql-binlog-connector-java-file", timeout=3)(hang)


JAVA = """java.lang.ArrayIndexOutOfBoundsException: Index 255 out of bounds for length 2
\tat com.github.shyiko.mysql.binlog.event.deserialization.ChecksumType.byOrdinal(ChecksumType.java:42)
\tat conformance.Main.main(Main.java:14)"""
GO = """panic: runtime error: slice bounds out of range [:212] with capacity 61

goroutine 1 [running]:
github.com/go-mysql-org/go-mysql/replication.(*QueryEvent).Decode(0x4b?, {0x36ed085ce513?, 0x38?})
\tgithub.com/go-mysql-org/go-mysql@v1.16.0/replication/event.go:425 +0x23a
main.main()
\tbinlog-conformance/parsers/go-mysql/main.go:38 +0x3fb"""
GO_NIL = """panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x4c1c2e]

goroutine 1 [running]:
panic({0x52a0e0?, 0x6f2b70?})
\t/usr/local/go/src/runtime/panic.go:770 +0x132
github.com/go-mysql-org/go-mysql/replication.(*RowsEvent).decodeValue(...)
\tgithub.com/go-mysql-org/go-mysql@v1.16.0/replication/row_event.go:1301 +0x2e"""
GO_OOM = """runtime: out of memory: cannot allocate 100663296-byte block (763101184 in use)
fatal error: out of memory

goroutine 1 gp=0x1bd4e92b01e0 m=2 mp=0x1bd4e92fa808 [running]:
runtime.throw({0x89582a?, 0x2efd?})
	runtime/panic.go:1229 +0x48 fp=0x1bd4e971f650 sp=0x1bd4e971f620 pc=0x483548
runtime.growslice(0x1bd50baac000, 0x321d56?, 0x321d55?, 0x1?, 0x801c80)
	runtime/slice.go:273 +0x507 fp=0x1bd4e971f798 sp=0x1bd4e971f728 pc=0x485827
github.com/go-mysql-org/go-mysql/replication.(*RowsEvent).decodeImage(0x1bd4e9351420, {0x1bd4e92d724d, 0x7, 0x13})
	github.com/go-mysql-org/go-mysql@v1.16.0/replication/row_event.go:1247 +0x7e9 fp=0x1bd4e971f898 sp=0x1bd4e971f798"""
RUST = "panic at /cargo/registry/src/mysql_common-0.38.2/src/binlog/events/mod.rs:128: called `Result::unwrap()`"
RUST_STD = "thread 'main' panicked at src/event/row_event.rs:29:14:\nindex out of bounds"
RUST_OOM = """memory allocation of 4294967276 bytes failed
stack backtrace:
   0: std::alloc::rust_oom
   3: alloc::raw_vec::handle_error
   5: mysql_common::binlog::events::Event::read
   6: <mysql_common::binlog::BinlogFile<T> as core::iter::traits::iterator::Iterator>::next"""
NODE = """TypeError: Cannot read properties of undefined (reading 'length')
    at parseRow (/cache/node_modules/@vlasky/zongji/lib/rows_event.js:151:22)
    at Array.forEach (<anonymous>)"""
GO_RECOVERED = """panic: runtime error: slice bounds out of range [:25355] with capacity 205 [recovered]
goroutine 1 [running]:
main.parseGuarded.func1()
	/cache/go/go-mysql-1/panics.go:57 +0x1d
panic({0x5, 0x6})
	/usr/lib/go/src/runtime/panic.go:785 +0x132
github.com/go-mysql-org/go-mysql/replication.(*QueryEvent).Decode(...)
	github.com/go-mysql-org/go-mysql@v1.16.0/replication/event.go:410 +0x5"""
PYTHON = """Traceback (most recent call last):
  File "/work/harness/worker.py", line 30, in _reply
    events = plugin.parse(path)
  File "/site-packages/pymysql/protocol.py", line 72, in read
    raise AssertionError(error)
AssertionError: Result length not requested length:
Expected=75.  Actual=24."""


@pytest.mark.parametrize("log, site", [
    (JAVA, "ArrayIndexOutOfBoundsException@ChecksumType.java:42"),
    (GO, "slice-bounds-out-of-range@event.go:425"),
    (GO_NIL, "invalid-memory-address-or-nil-pointer-dereference@row_event.go:1301"),
    (GO_OOM, "out-of-memory@row_event.go:1247"),
    (RUST, "panic@mod.rs:128"),
    (RUST_STD, "panic@row_event.rs:29"),
    (RUST_OOM, "memory-allocation@mysql_common::binlog::events::Event::read"),
    (NODE, "TypeError@rows_event.js:151"),
    (GO_RECOVERED, "slice-bounds-out-of-range@event.go:410"),  # not the adapter's recover in panics.go
    (PYTHON, "AssertionError@protocol.py:72"),  # the worker's crashed plugin: the innermost frame
    ("Killed", None),
], ids=["java", "go", "go-nil", "go-oom", "rust", "rust-std", "rust-oom", "node", "go-recovered", "python",
        "unknown"])
def test_the_crash_site_is_read_from_the_testees_stderr(log, site):
    assert stderr_site(log) == site


def test_an_atheris_session_over_a_runtime_parser_has_coverage(tmp_path):
    """The parser's decoding is out of atheris's sight: the oracle's decode of each input gives
    the coverage. Without it libFuzzer kept one empty unit and the run was reported as dead."""
    built("mysql-binlog-connector-java-file")
    out = tmp_path / "atheris"
    proc = harness("fuzz", "--engine", "atheris", "--parser", "mysql-binlog-connector-java-file", "--count", "150",
                   "--seed", "1", "--timeout", "20", "--seeds", str(REPO / "corpus"), "--out", str(out), "--json")
    assert proc.returncode in (0, 1), proc.stderr[-3000:]  # 2: no input ran
    summary = json.loads((out / "summary.json").read_text())
    assert summary["started"] and summary["executions"] >= 150
    assert summary["coverage_initial"]["cov"] > 100, summary["coverage_initial"]
