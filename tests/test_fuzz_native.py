"""The native engine (issue 31) of each runtime, a few seconds each on the committed seeds
(corpus/ only), through the real command line: it must execute, report coverage at start and end,
and find no crash in a committed seed that corpus/findings/<parser>/ does not record; every
recorded native case replays outside the engine with its signature. Cost in CI: the fuzz targets'
builds (once per machine; see docs/speed-fuzz.md) plus ~15 s of fuzzing per parser."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from harness.fuzz.native import TARGETS, runtime_of
from harness.fuzz.native.record import recorded_signatures
from harness.fuzz.native.session import NativeSettings
from harness.fuzz.seeds import load_seeds
from harness.runtimes.base import BuildError

from .server_fixtures import missing

REPO = Path(__file__).resolve().parents[1]
FINDINGS = REPO / "corpus" / "findings"
SMOKE_SECONDS = 12


def built(parser: str) -> Path:
    target = TARGETS[parser]
    try:
        return runtime_of(target).build(target, lambda line: None)
    except BuildError as e:
        missing(f"{target.folder} does not build here: {e}")
        raise


def committed_seeds() -> set[bytes]:
    return {s.data for s in load_seeds([REPO / "corpus"]) if "/findings/" not in s.name}


@pytest.mark.parametrize("parser", sorted(TARGETS))
def test_a_smoke_run_executes_and_finds_no_unrecorded_crash_in_the_seeds(parser, tmp_path):
    built(parser)
    out, summary = tmp_path / "run", tmp_path / "native.json"
    proc = subprocess.run([sys.executable, "-m", "harness", "fuzz", "--engine", "native", "--parser", parser,
                           "--seconds", str(SMOKE_SECONDS), "--seeds", str(REPO / "corpus"), "--out", str(out),
                           "--json", str(summary)], cwd=REPO, capture_output=True, text=True, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    s = json.loads(summary.read_text())
    assert s["engine"] == "native" and s["parser"] == parser
    assert s["executions"] > 0, proc.stderr[-3000:]
    assert s["coverage_end"] is not None and s["coverage_end"] > 0
    seeds = committed_seeds()
    known = recorded_signatures(FINDINGS, parser)
    in_seeds = [f for f in s["findings"] if Path(f["reproducer"]).read_bytes() in seeds]
    unrecorded = [f["signature"] for f in in_seeds if f["signature"] not in known]
    assert not unrecorded, f"committed seeds crash {parser} in ways corpus/findings/{parser}/ does not record: {unrecorded}"


def native_cases() -> list[Path]:
    return sorted(p.parent for p in FINDINGS.glob("*/*/case.json")
                  if str(json.loads(p.read_text()).get("finding", {}).get("engine", "")).startswith("native"))


@pytest.mark.parametrize("case", native_cases(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_recorded_native_finding_replays_with_its_signature(case):
    finding = json.loads((case / "case.json").read_text())["finding"]
    target = TARGETS[finding["parser"]]
    rt = runtime_of(target)
    settings = NativeSettings(0, case, timeout=3.0 if finding["kind"] == "hang" else 5.0)
    got = rt.replay(built(finding["parser"]), target, finding["entry_point"], (case / "binlog").read_bytes(), settings)
    assert got is not None and got["signature"] == finding["signature"], got


def test_every_runtime_has_a_native_target():
    assert {t.runtime for t in TARGETS.values()} >= {"go", "jvm", "rust", "python"}


def test_a_go_corpus_file_decodes_to_its_bytes():
    from harness.fuzz.native.go import decode_corpus_file
    text = 'go test fuzz v1\n[]byte("\\xfebin\\x00\\n\\t\\"\\\\é\\u00e9A")\n'
    assert decode_corpus_file(text) == b"\xfebin\x00\n\t\"\\" + "é".encode() + "é".encode() + b"A"


def test_a_parser_without_a_native_target_is_a_usage_error(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "harness", "fuzz", "--engine", "native", "--parser", "oracle",
                           "--seconds", "1", "--out", str(tmp_path)], cwd=REPO, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 2 and "no native fuzz target" in proc.stderr


def test_findings_are_one_per_signature_the_smallest_reproducer(tmp_path):
    from harness.fuzz.native.session import gather, write_finding
    found = tmp_path / "File" / "findings"
    found.mkdir(parents=True)
    write_finding(found, b"x" * 30, {"kind": "crash", "signature": "crash:a@f.go:1", "detail": "big"})
    write_finding(found, b"y" * 3, {"kind": "crash", "signature": "crash:a@f.go:1", "detail": "small"})
    write_finding(found, b"z", {"kind": "expectation", "signature": "expectation:op", "detail": "not native"})
    got = gather(tmp_path, ["File"])
    assert [(f.signature, f.reproducer.read_bytes()) for f in got] == [("crash:a@f.go:1", b"yyy")]


def test_a_libfuzzer_round_stopped_by_a_crash_counts_the_executions_of_its_final_stats():
    """A round that crashes before any status line (a seed, or a crash soon after INITED) still ran
    units: libFuzzer's final stats, printed on every stop, count them."""
    from harness.fuzz.native.libfuzzer import LibFuzzerOutput
    out = LibFuzzerOutput()
    assert out.progress("#409\tINITED cov: 1475 ft: 3000 corp: 300/1Mb exec/s: 0 rss: 80Mb") is not None
    final = out.progress("stat::number_of_executed_units: 468")
    assert final is not None and final.executions == 468 and final.coverage is None
    assert out.progress("stat::peak_rss_mb:              116") is None


def test_a_libfuzzer_fork_line_counts_executions_and_coverage_and_its_first_job_starts_the_coverage():
    """-fork=1 (the Rust targets) prints one line per finished job, its counts summed over jobs."""
    from harness.fuzz.native.libfuzzer import LibFuzzerOutput
    out = LibFuzzerOutput()
    first = out.progress("#14: cov: 1492 ft: 4689 corp: 122 exec/s: 0 oom/timeout/crash: 0/0/0 time: 2s job: 1 dft_time: 0")
    later = out.progress("#19622: cov: 2132 ft: 7777 corp: 462 exec/s: 0 oom/timeout/crash: 0/0/303 time: 57s job: 304 dft_time: 0")
    assert first is not None and (first.executions, first.coverage, first.initial) == (14, 1492, True)
    assert later is not None and (later.executions, later.coverage, later.initial) == (19622, 2132, False)
    assert out.progress("INFO: -fork=1: 122 seed inputs, starting to fuzz in /tmp/x") is None
