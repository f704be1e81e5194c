"""The differential batch (harness/fuzz/native/differential.py): what a native engine kept, its
CRC-repaired twin, and each through a real file parser beside the oracle."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from harness.fuzz.native.differential import collect, with_fresh_checksums
from harness.fuzz.outcome import oracle_parse
from harness.fuzz.seeds import SEEDS_MANIFEST, grown_inputs, write_corpus

REPO = Path(__file__).resolve().parents[1]
SEED = REPO / "corpus" / "mysql-8.0" / "ddl_dml_basic--row" / "binlog.000001"


def flipped_crc(data: bytes) -> bytes:
    bad = bytearray(data)
    bad[-1] ^= 0xFF  # the last event's CRC32
    return bytes(bad)


def test_fresh_checksums_repair_every_crc_and_nothing_else():
    data = SEED.read_bytes()
    bad = flipped_crc(data)
    assert oracle_parse(bad).error_kind == "ChecksumMismatch"
    assert with_fresh_checksums(bad) == data
    fde_crc = bytearray(data)
    fde_crc[4 + 122 - 1] ^= 1  # the Format_description's own CRC32 (its event is 122 bytes)
    assert with_fresh_checksums(bytes(fde_crc)) == data
    assert with_fresh_checksums(b"not a binlog") == b"not a binlog"


def test_grown_inputs_are_the_corpus_without_its_seeds(tmp_path):
    corpus = tmp_path / "entry" / "corpus"
    write_corpus(corpus, [b"seed-one", b"seed-two"], 1 << 16)
    assert (corpus.parent / SEEDS_MANIFEST).is_file()
    assert grown_inputs(corpus) == []
    (corpus / "kept-by-the-engine").write_bytes(b"new input")
    assert grown_inputs(corpus, [b"seed-one", b"elsewhere"]) == [b"new input", b"elsewhere"]


def test_a_kept_input_and_its_twin_run_through_a_real_parser(tmp_path):
    """python-mysql-replication's file reader does not check CRC32s: the kept input with a broken
    one is a differential finding (it accepts what the oracle rejects); its twin, the CRC repaired,
    decodes alike on both sides and is no finding."""
    data = SEED.read_bytes()
    work = tmp_path / "runs" / "python-mysql-replication-file" / "file"
    write_corpus(work / "corpus", [data], 1 << 16)
    (work / "corpus" / "kept").write_bytes(flipped_crc(data))
    inputs = collect(tmp_path / "runs")
    assert [i.fresh_checksums for i in inputs] == [False, True]
    assert inputs[1].data == data and inputs[1].kept == inputs[0].sha1

    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "harness.fuzz.native", "differential", "--runs", str(tmp_path / "runs"),
                           "--parser", "python-mysql-replication-file", "--out", str(out)],
                          capture_output=True, text=True, cwd=REPO, timeout=300)
    assert proc.returncode == 1, proc.stderr[-3000:]  # 1: a finding
    result = json.loads((out / "summary.json").read_text())
    assert result["inputs"] == 2 and result["twins_with_fresh_checksums"] == 1
    (row,) = result["parsers"]
    assert row["compared"] == 2 and row["inputs_with_finding"] == 1
    (finding,) = row["signatures"]
    assert finding["signature"] == "differential:accepts-rejected:ChecksumMismatch"
    assert finding["first_input"] == inputs[0].sha1 and not finding["checksums_recomputed"]
    assert result["per_run"] == {"python-mysql-replication-file/file": {"inputs": 1, "with_finding": 1}}
    assert "python-mysql-replication-file" in proc.stdout


def test_the_bench_makes_the_mutate_engines_inputs_again(tmp_path):
    """bench.py measures byte mutation's coverage on its inputs made again from the run's seed:
    each reproducer the mutate engine kept (its note names the input's index) is that input."""
    from harness.fuzz.native import bench
    seeds = [REPO / "corpus" / "mysql-8.0", REPO / "corpus" / "mariadb-11.8"]
    out = tmp_path / "mutate"
    proc = subprocess.run([sys.executable, "-m", "harness", "fuzz", "--engine", "mutate", "--parser", "python-mysql-replication-file",
                           "--count", "400", "--seed", str(bench.MUTATE_SEED), "--out", str(out),
                           "--seeds", *map(str, seeds)], capture_output=True, text=True, cwd=REPO, timeout=600)
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    kept = {json.loads(p.read_text())["index"]: p.with_suffix(".bin").read_bytes()
            for p in (out / "findings").glob("*.json")}
    assert kept, "the run kept no reproducer to compare with"
    assert bench.mutants(400, seeds, tmp_path / "again") == 400
    for index, data in kept.items():
        assert (tmp_path / "again" / f"mutant-{index:08d}").read_bytes() == data, index
