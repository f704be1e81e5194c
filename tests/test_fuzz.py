"""Issue 7, the engines: the short deterministic fuzz pass CI runs (the oracle over mutated external
binlogs: typed errors only, no hang, no broken promise), determinism, and that each kind of
finding is caught and saved with a reproducer that replays."""
from __future__ import annotations

import importlib.util
import json
import os
import signal
from pathlib import Path

import pytest

from harness.fuzz import findings as F
from harness.fuzz.mutate_engine import Settings, run
from harness.fuzz.outcome import Outcome, oracle_parse
from harness.fuzz.seeds import load_seeds, windows
from harness.mutations import CATALOGUE, mutate
from oracle.framing import MAGIC
from tests.external import ROOT, manifest

REPO = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not manifest(), reason="../shared/external-binlogs is not there")


@pytest.fixture(scope="module")
def seeds():
    return load_seeds([ROOT], max_bytes=4096)


def test_short_deterministic_pass_finds_nothing(seeds, tmp_path):
    """The CI fuzz gate: every operator ~25 times over the external binlogs, fixed seed."""
    summary = run(seeds, Settings(seed=0, count=25 * len(CATALOGUE), workers=2, out_dir=tmp_path))
    assert summary["inputs"] > 20 * len(CATALOGUE)
    found = summary["findings"]
    assert sum(found["by_kind"].values()) == 0, json.dumps(found["signatures"][:5], indent=1)[:3000]
    # every operator ran, and the MUST_REJECT ones were seen rejecting
    assert set(summary["per_operator"]) == set(CATALOGUE)
    assert summary["per_operator"]["crc_flip_bit"].get("rejected:ChecksumMismatch")
    assert json.loads((tmp_path / "summary.json").read_text())["inputs"] == summary["inputs"]


def test_same_seed_same_run(seeds):
    a = run(seeds, Settings(seed=3, count=150, batch=40))
    b = run(seeds, Settings(seed=3, count=150, batch=75, workers=2))
    assert a["per_operator"] == b["per_operator"]
    c = run(seeds, Settings(seed=4, count=150))
    assert c["per_operator"] != a["per_operator"]


# -- parsers with bugs planted, to show each kind of finding is caught ------------------------------

def crashes_on_timestamp(data: bytes) -> Outcome:
    out = oracle_parse(data)
    if any(e["timestamp"] in (0xFFFFFFFF, 0x80000000, 0x7FFFFFFF) for e in out.events):
        raise IndexError("planted")
    return out


def loops_on_flag(data: bytes) -> Outcome:
    out = oracle_parse(data)
    if any("UNDEFINED_0x0400" in e["flags"]["names"] for e in out.events):
        while True:
            pass
    return out


def allocates_on_flag(data: bytes) -> Outcome:
    out = oracle_parse(data)
    if any("UNDEFINED_0x0800" in e["flags"]["names"] for e in out.events):
        return Outcome([{"x": bytearray(8 * 2**30)}])
    return out


def dies_on_flag(data: bytes) -> Outcome:
    out = oracle_parse(data)
    if any("UNDEFINED_0x1000" in e["flags"]["names"] for e in out.events):
        os.kill(os.getpid(), signal.SIGSEGV)
    return out


def ignores_checksums(data: bytes) -> Outcome:
    from oracle import BinlogError, decode_bytes
    out = Outcome()
    try:
        out.events = [e.to_json() for e in decode_bytes(data, verify_checksums=False)]
    except BinlogError as e:
        out.error_kind, out.error_offset = e.kind, e.offset
    return out


@pytest.mark.parametrize("parse, operators, kind", [
    (crashes_on_timestamp, ("header_timestamp",), F.CRASH),
    (loops_on_flag, ("header_flags_undefined",), F.HANG),
    (allocates_on_flag, ("header_flags_undefined",), F.MEMORY),
    (dies_on_flag, ("header_flags_undefined",), F.CRASH),
    (ignores_checksums, ("crc_flip_bit", "crc_stale_after_body_change"), F.BAD_CRC),
], ids=["exception", "hang", "memory", "child-dies", "bad-crc"])
def test_findings_are_caught_and_replay(seeds, tmp_path, parse, operators, kind):
    small = [s for s in seeds if len(s.data) < 3000][:15]
    summary = run(small, Settings(seed=1, count=30, operators=operators, timeout=0.5, memory_mb=1024,
                                  batch=10, out_dir=tmp_path), parse=parse)
    assert summary["findings"]["by_kind"][kind] > 0, summary["findings"]
    notes = sorted((tmp_path / "findings").glob(f"{kind}-*.json"))
    assert notes
    note = json.loads(notes[0].read_text())
    data = notes[0].with_suffix(".bin").read_bytes()
    assert note["operator"] in operators and note["description"] and note["seed"]
    seed = next(s for s in small if s.name == note["seed"])
    assert mutate(note["operator"], seed.data, note["rng_seed"]).data == data


def test_expectation_breaks_are_findings(seeds, tmp_path):
    """A parser that rejects every file with an unusual timestamp breaks MUST_ACCEPT_WITH_CHANGE."""
    def picky(data: bytes) -> Outcome:
        out = oracle_parse(data)
        if any(e["timestamp"] in (0, 1, 0xFFFFFFFF, 0x7FFFFFFF, 0x80000000) for e in out.events):
            return Outcome(out.events[:1], "BadHeader", 0)
        return out
    summary = run(seeds[:20], Settings(seed=2, count=40, operators=("header_timestamp",), out_dir=tmp_path),
                  parse=picky)
    assert summary["findings"]["by_kind"][F.EXPECTATION] > 0


def test_windows_of_a_large_binlog_are_valid_binlogs():
    big = max((b for b in manifest() if b.path.stat().st_size < 2_000_000), key=lambda b: b.path.stat().st_size)
    ws = windows(big.name, big.path.read_bytes(), max_bytes=8192, count=3)
    assert len(ws) == 3 and all(len(w.data) <= 8192 + 4096 and w.data.startswith(MAGIC) for w in ws)
    for w in ws:
        assert oracle_parse(w.data).accepted, w.name


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris is not installed")
def test_atheris_session_runs_and_summarises(seeds, tmp_path):
    from harness.fuzz.atheris_engine import AtherisSettings, run_session
    summary = run_session(seeds[:20], AtherisSettings(runs=300, max_time=120, out_dir=tmp_path))
    assert summary["returncode"] == 0, (tmp_path / "libfuzzer.log").read_text()[-3000:]
    assert summary["executions"] >= 300
    assert summary["coverage_final"]["cov"] > 100  # the oracle is instrumented
    assert summary["mutations_by_operator"]
    assert summary["findings_total"] == 0, summary["findings"]


@pytest.mark.skipif(importlib.util.find_spec("atheris") is None, reason="atheris is not installed")
def test_atheris_on_python_mysql_replication_runs_inputs(tmp_path, capsys):
    """Instrumenting pymysqlreplication must not import its own test suite (which needs pytest,
    absent from the fuzz session): once that killed the child before any input, and the session
    said "findings: none". A session that runs no input is now an error (exit 2)."""
    from harness.fuzz.cli import main
    out = tmp_path / "pmr"
    code = main(["--engine", "atheris", "--parser", "python-mysql-replication-file", "--count", "200",
                 "--seeds", str(REPO / "corpus" / "mysql-9.7" / "integers--row"), "--out", str(out)])
    summary = json.loads((out / "summary.json").read_text())
    assert summary["started"] and summary["executions"] >= 200, (out / "libfuzzer.log").read_text()[-2000:]
    assert code in (0, 1)  # python-mysql-replication may well crash on mutants: findings, not errors
    broken = main(["--engine", "atheris", "--count", "10", "--instrument", "no_such_package_xyz",
                   "--out", str(tmp_path / "broken")])
    assert broken == 2 and "died before running an input" in capsys.readouterr().err


# -- the hypothesis engine, the differential mode and the command line ----------------------------

def test_hypothesis_engine_bounded_ci_run(tmp_path):
    """The CI run of the hypothesis engine: fixed seed, 100 generated binlogs, the oracle decodes
    each to the values it was built from."""
    from harness.fuzz.hypothesis_engine import HypothesisSettings, run as run_hypothesis
    summary = run_hypothesis(HypothesisSettings(seed=0, count=100, out_dir=tmp_path))
    assert summary["inputs"] >= 100
    from generators.strategies import PROFILES
    assert set(summary["per_profile"]) == set(PROFILES)
    assert sum(summary["findings"]["by_kind"].values()) == 0, summary["findings"]["signatures"][:3]


def crashes_on_update_rows(data: bytes) -> Outcome:
    out = oracle_parse(data)
    if any(e["type"] == "UPDATE_ROWS_EVENT" for e in out.events):
        raise KeyError("planted")
    return out


def test_hypothesis_findings_shrink_to_a_minimal_reproducer(tmp_path):
    from harness.fuzz.hypothesis_engine import HypothesisSettings, run as run_hypothesis
    summary = run_hypothesis(HypothesisSettings(seed=1, count=100, out_dir=tmp_path), parse=crashes_on_update_rows)
    assert summary["findings"]["by_kind"][F.CRASH] >= 1
    [path] = {p for p in summary["findings"]["reproducers"] if "crash" in p}
    events = oracle_parse(open(path, "rb").read()).events
    types = [e["type"] for e in events]
    assert "UPDATE_ROWS_EVENT" in types
    # shrunk: one row transaction (FDE, Previous_gtids, [GTID], BEGIN, Table_map, Update_rows, Xid)
    assert len(types) <= 7, types
    note = json.loads(open(path[:-4] + ".json").read())
    assert note["kind"] == F.CRASH and note["built_events"]


def test_disagreement_judges_outcome_class_and_values():
    from harness.fuzz.outcome import disagreement
    from harness.plugins.base import FULL, HEADER_ONLY
    seed = next(s for s in load_seeds([ROOT], max_bytes=4096) if oracle_parse(s.data).accepted)
    ref = oracle_parse(seed.data)
    assert disagreement(ref, Outcome(list(ref.events)), FULL) == (None, None)
    changed = [dict(e) for e in ref.events]
    changed[-1]["server_id"] += 1
    why, key = disagreement(ref, Outcome(changed), FULL)
    assert why.startswith("mismatch") and key == f"mismatch:{changed[-1]['type']}:server_id"
    why, key = disagreement(ref, Outcome(ref.events[:1], "ToolError", 10), FULL)
    assert key == "rejects-accepted:ToolError"
    bad = Outcome(ref.events[:1], "ChecksumMismatch", 4)
    assert disagreement(bad, Outcome(list(ref.events)), FULL)[1] == "accepts-rejected:ChecksumMismatch"
    # a header-only parser is not blamed for body values it does not report
    body_changed = [dict(e) for e in ref.events]
    body_changed[0] = {**body_changed[0], "body": {}}
    assert disagreement(ref, Outcome(body_changed), HEADER_ONLY) == (None, None)


def _fuzz_cli(*args: str):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "harness", "fuzz", *args], capture_output=True, text=True,
                          timeout=600, cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_cli_ends_with_one_summary_line(tmp_path):
    proc = _fuzz_cli("--engine", "hypothesis", "--count", "10", "--seed", "0", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr[-2000:]
    [line] = proc.stdout.strip().splitlines()
    assert line.startswith("fuzz hypothesis oracle: ") and "findings: none" in line
    proc = _fuzz_cli("--engine", "mutate", "--seconds", "3", "--seeds", str(ROOT), "--max-seed-bytes", "4096")
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip().splitlines()[-1].startswith("fuzz mutate oracle: ")
    # the older subcommand form is an alias; usage errors exit 2
    assert _fuzz_cli("mutate", "--list").returncode == 0
    assert _fuzz_cli("--engine", "mutate", "--differential").returncode == 2


def test_cli_exits_1_on_findings(tmp_path):
    proc = _fuzz_cli("--engine", "mutate", "--count", "40", "--seed", "1", "--seeds", str(ROOT),
                     "--max-seed-bytes", "4096", "--operators", "header_timestamp",
                     "--target", "tests.test_fuzz:crashes_on_timestamp", "--out", str(tmp_path))
    assert proc.returncode == 1, proc.stdout + proc.stderr[-2000:]
    assert "findings: crash" in proc.stdout.strip().splitlines()[-1]
