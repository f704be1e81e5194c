"""spark_checks on embedded local Spark (local[2]): the job's Parquet output agrees with the
single-process harness on the same inputs (cases and their mutants), and a baseline diff reports
a deliberately broken subprocess parser as new failures.

Inputs: the committed corpus when it has cases, else small real binlogs from
../shared/external-binlogs, linked (not copied) into a temporary corpus root."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from harness.isolation import Limits
from harness.mutations import CATALOGUE
from spark_checks import cli, job, regression
from spark_checks.expand import MUTANT_MARK, mutants
from harness.selection import resolve
from spark_checks.reference import single_process
from tests.external import ROOT as EXTERNAL
from tests.spark_cluster import LOOPBACK_HEX

PROJECT = Path(__file__).resolve().parents[1]
CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
MUTANTS, SEED = 2, 11
MAX_EXTERNAL = 10  # inputs: 10 binlogs x (1 + 2 mutants), so the module runs in minutes on 2 cores
LABEL = "cmd-oracle"

# A one-shot parser (docs/plugin-contract.md) that is the oracle, or the oracle with one bug:
# every Query event reports a server_id one too high.
CMD_PARSER = """
import json, sys
sys.path.insert(0, {root!r})
from oracle import BinlogError, decode_file
BROKEN = {broken!r}
if sys.argv[1] == "--hello":
    print(json.dumps({{"type": "hello", "protocol": 1, "name": {label!r}, "version": "1"}}))
    sys.exit(0)
try:
    for event in decode_file(sys.argv[1]):
        j = event.to_json()
        if BROKEN and j.get("type") == "QUERY_EVENT":
            j["server_id"] += 1
        print(json.dumps(j))
except BinlogError as e:
    print(f"error: {{e.kind}} at offset {{e.offset}}: {{e.message}}", file=sys.stderr)
    sys.exit(1)
"""


def _spark_or_skip():
    try:
        import pyspark  # noqa: F401
    except ImportError:
        if CI:
            pytest.fail("pyspark is not installed (pip install -e .[spark])")
        pytest.skip("pyspark is not installed")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        if CI:
            pytest.fail("no Java for Spark")
        pytest.skip("no Java for Spark")


def _committed_cases() -> list[Path]:
    """Case directories of the committed corpus (not cases still being generated)."""
    try:
        listed = subprocess.run(["git", "ls-files", "corpus"], cwd=PROJECT, capture_output=True,
                                text=True, timeout=60).stdout.split()
    except (OSError, subprocess.TimeoutExpired):
        return []
    return [PROJECT / Path(f).parent for f in listed if f.endswith("/case.json")]


def _small_inputs(root: Path) -> Path:
    """A corpus root of symlinks: up to 6 committed cases written by servers (not the fuzzers'
    minimised reproducers of corpus/findings, which hold too few events to break), else 10
    external binlogs under 12 KB."""
    root.mkdir()
    committed = sorted((d for d in _committed_cases() if d.is_dir() and "findings" not in d.parts),
                       key=lambda d: sum(f.stat().st_size for f in d.iterdir()))[:6]
    if committed:
        for d in committed:
            (root / f"{d.parent.name}__{d.name}").symlink_to(d, target_is_directory=True)
        return root
    files = sorted((p for p in EXTERNAL.rglob("*") if p.is_file() and p.suffix not in (".md", ".tsv")
                    and p.stat().st_size <= 12 * 1024), key=lambda p: (p.stat().st_size, p.name))
    if not files:
        pytest.skip("no corpus cases and no external binlogs")
    for p in files[::max(1, len(files) // MAX_EXTERNAL)][:MAX_EXTERNAL]:  # small to large
        (root / f"{p.parent.name}__{p.name}").symlink_to(p)
    return root


def _cmd(path: Path, broken: bool) -> str:
    path.write_text(CMD_PARSER.format(root=str(PROJECT), broken=broken, label=LABEL))
    return f"{sys.executable} {path}"


@pytest.fixture(scope="module")
def spark():
    _spark_or_skip()
    from spark_checks import session
    s = session.get("local[2]", quiet=True)
    yield s


@pytest.fixture(scope="module")
def baseline(spark, tmp_path_factory):
    """A run with mutants: the oracle plugin and the correct one-shot parser."""
    tmp = tmp_path_factory.mktemp("spark")
    corpus = _small_inputs(tmp / "corpus")
    good = _cmd(tmp / "good.py", broken=False)
    out = tmp / "baseline"
    argv = ["run", "--corpus", str(corpus), "--parser", "oracle", "--parser-cmd", good,
            "--mutants", str(MUTANTS), "--seed", str(SEED), "--out", str(out), "--master", "local[2]", "--quiet"]
    assert cli.main(argv) == 0
    return {"tmp": tmp, "corpus": corpus, "good": good, "out": out}


def _rows(spark, out: Path) -> dict[tuple[str, str], dict]:
    return {(r["case"], r["parser"]): r.asDict() for r in job.read(spark, str(out)).collect()}


def test_mutant_expansion_is_deterministic_and_uses_the_catalogue():
    path = next(p for p in sorted(EXTERNAL.rglob("*bug27213339*")) if p.is_file())
    data = path.read_bytes()
    first = list(mutants("x/case", data, 12, 5))
    again = list(mutants("x/case", data, 12, 5))
    other = list(mutants("x/case", data, 12, 6))
    assert first == again
    assert [m.data for m in first] != [m.data for m in other]
    assert len(first) == 12 and all(m.operator in CATALOGUE and m.data != data for m in first)
    assert [m.id for m in first] == [f"x/case{MUTANT_MARK}{k}" for k in range(12)]
    assert len({m.operator for m in first}) > 3


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=400), st.integers(0, 2**31))
def test_expansion_of_any_bytes_is_deterministic_and_never_raises(tail, seed):
    """Broken seeds (a corpus may hold them) give some or no mutants, never an exception."""
    data = b"\xfebin" + tail
    first = list(mutants("x/random", data, 3, seed))
    assert first == list(mutants("x/random", data, 3, seed))
    assert all(m.data != data for m in first)


def test_no_mutants_of_a_file_that_is_not_a_binlog():
    assert list(mutants("x/junk", b"not a binlog at all", 5, 0)) == []
    assert list(mutants("x/empty", b"", 5, 0)) == []


def test_parquet_is_partitioned_by_parser_and_outcome(baseline):
    results = baseline["out"] / job.RESULTS
    parsers = {p.name for p in results.iterdir() if p.is_dir()}
    assert parsers == {"parser=oracle", f"parser={LABEL}"}
    assert (results / "parser=oracle" / "outcome=pass").is_dir()
    run_info = json.loads((baseline["out"] / job.RUN_FILE).read_text())
    assert run_info["mutants"] > 0 and run_info["cases"] > 0


def test_spark_outcomes_equal_the_single_process_harness(spark, baseline):
    got = _rows(spark, baseline["out"])
    specs = resolve(["oracle"], [baseline["good"]], [], Limits())
    ref = single_process([str(baseline["corpus"])], specs, MUTANTS, SEED, Limits(), baseline["tmp"] / "ref")
    want = {(r.case, r.parser): r for r in ref.results}
    assert ref.mutants > 0
    assert set(got) == set(want)
    for key, r in want.items():
        row = got[key]
        assert (row["outcome"], row["n_diffs"], row["server_version"]) == \
               (r.outcome.value, r.n_diffs, r.server_version), key
        assert sorted(row["event_types"]) == sorted(r.event_types), key
    # Mutants were built on the executors exactly as the driver builds them.
    for case, _ in want:
        if MUTANT_MARK in case:
            assert got[(case, "oracle")]["kind"] == "mutant"
            assert got[(case, "oracle")]["operator"] in CATALOGUE


def test_a_second_run_of_the_same_inputs_has_no_regressions(spark, baseline):
    """A fresh run (same inputs, parsers and seed, its own output) against the baseline: the
    results could differ (mutants built anew on the executors, parsers run again), and do not."""
    out = baseline["tmp"] / "second-run"
    argv = ["run", "--corpus", str(baseline["corpus"]), "--parser", "oracle", "--parser-cmd", baseline["good"],
            "--mutants", str(MUTANTS), "--seed", str(SEED), "--out", str(out), "--baseline", str(baseline["out"]),
            "--master", "local[2]", "--quiet"]
    assert cli.main(argv) == 0
    reg = regression.compare(job.read(spark, str(out)), job.read(spark, str(baseline["out"])), "baseline")
    assert reg.counts == {} and reg.new_failures == 0, reg.counts
    assert _rows(spark, out).keys() == _rows(spark, baseline["out"]).keys()


def test_baseline_diff_reports_an_injected_regression(spark, baseline, capsys):
    broken = _cmd(baseline["tmp"] / "broken.py", broken=True)
    out = baseline["tmp"] / "broken-run"
    argv = ["run", "--corpus", str(baseline["corpus"]), "--parser-cmd", broken, "--mutants", str(MUTANTS),
            "--seed", str(SEED), "--out", str(out), "--baseline", str(baseline["out"]),
            "--master", "local[2]", "--quiet"]
    assert cli.main(argv) == 1
    printed = capsys.readouterr().out
    report = json.loads((out / "regression.json").read_text())
    before, after = _rows(spark, baseline["out"]), _rows(spark, out)
    # Exactly the inputs that passed with a Query event in them now fail, as mismatches on server_id.
    expected = sorted(case for (case, parser), r in before.items() if parser == LABEL
                      and r["outcome"] == "pass" and "QUERY_EVENT" in r["event_types"])
    assert expected, "the inputs have no Query event to break"
    new = report["examples"]["new_failure"]
    assert report["counts"]["new_failure"] == len(expected)
    assert sorted(e["case"] for e in new) == expected[:regression.SHOW]
    assert all(e["parser"] == LABEL and e["after"] == "mismatch" and "server_id" in e["message"] for e in new)
    assert all(after[(c, LABEL)]["outcome"] == "mismatch" for c in expected)
    assert report["counts"]["removed"] == sum(1 for (_, p) in before if p == "oracle")
    assert "NEW_FAILURE" in printed and "new failure" in printed


def test_a_root_listed_by_spark_gives_the_harness_case_ids(spark, baseline):
    """Remote roots (hdfs://, s3a://) are listed by Spark, not the driver: same ids for bare
    binlogs, metadata files left out. Checked here on a file:// URI through the same code."""
    from spark_checks import inputs
    root = baseline["tmp"] / "listed"
    root.mkdir()
    for p in sorted(p for p in EXTERNAL.rglob("*") if p.is_file() and p.suffix not in (".md", ".tsv"))[:3]:
        (root / p.name).symlink_to(p)
    (root / "notes.md").write_text("not a binlog")
    listed = {r["id"] for r in inputs._remote_cases(spark, f"file://{root}").collect()}
    assert listed == {c["id"] for c in inputs.local_cases(str(root))}
    assert len(listed) == 3


def _annotated_case(root: Path) -> None:
    """One annotated case whose expected.jsonl is the oracle's decode with one field altered."""
    from oracle import decode_file
    source = next(p for p in sorted(EXTERNAL.rglob("*bug27213339*")) if p.is_file())
    case = root / "altered"
    case.mkdir(parents=True)
    (case / "binlog.000001").symlink_to(source)
    events = [e.to_json() for e in decode_file(source)]
    events[1]["server_id"] += 1
    (case / "binlog.000001.expected.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    (case / "case.json").write_text(json.dumps({"server_version": "5.7.99-annotated"}))


def test_cli_checks_an_annotated_case_against_its_expected_decode(spark, tmp_path):
    """`python -m spark_checks run` as a command, over an annotated case: its expected.jsonl
    travels with it (binaryFile) and is what the parser is compared with, so an expectation
    altered by hand turns the oracle's pass into a mismatch; exit 0 without a baseline."""
    _annotated_case(tmp_path / "annotated")
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "spark_checks", "run", "--corpus", str(tmp_path / "annotated"),
                           "--parser", "oracle", "--out", str(out), "--master", "local[1]", "--quiet"],
                          cwd=PROJECT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "== oracle:" in proc.stdout and "0 mutants" in proc.stdout
    assert "F 1/1" in proc.stdout  # the matrix shows the failure in the MySQL 5.7 column
    (row,) = _rows(spark, out).values()
    assert row["case"] == "annotated/altered"
    assert (row["outcome"], row["n_diffs"], row["server_version"]) == ("mismatch", 1, "5.7.99-annotated")
    assert "server_id" in row["diff_summary"]


def test_a_missing_or_self_baseline_is_a_usage_error(tmp_path):
    run = ["run", "--corpus", str(tmp_path), "--parser", "oracle", "--out", str(tmp_path / "out")]
    assert cli.main([*run, "--baseline", str(tmp_path / "nothing")]) == cli.EXIT_USAGE
    assert cli.main([*run, "--baseline", str(tmp_path / "out")]) == cli.EXIT_USAGE


# A local session as the job makes it, in its own process (a fresh JVM: the address is chosen at
# its start), reporting the driver's address and the TCP sockets the JVM listens on.
LOOPBACK_PROBE = """
import json, sys
sys.path.insert(0, {root!r})
from spark_checks import session
from tests.spark_cluster import listening_addresses
spark = session.get("local[1]", quiet=True)
sc = spark.sparkContext
assert sc.parallelize(range(10), 2).map(lambda x: x * 2).sum() == 90  # executors and workers up
pid = sc._jvm.java.lang.ProcessHandle.current().pid()
listening = listening_addresses(pid)
conf = sc.getConf()
print(json.dumps({{"host": conf.get("spark.driver.host"), "bind": conf.get("spark.driver.bindAddress"),
                  "listening": listening}}))
spark.stop()
"""


def test_a_local_run_stays_on_loopback(tmp_path):
    """Issue 14: a local run binds the driver to 127.0.0.1, so Spark no longer warns that the
    hostname resolves to a loopback address and falls back to eth0's, and every socket the JVM
    listens on is a loopback one. SPARK_LOCAL_IP is not inherited: spark_checks sets it."""
    _spark_or_skip()
    probe = tmp_path / "probe.py"
    probe.write_text(LOOPBACK_PROBE.format(root=str(PROJECT)))
    env = {k: v for k, v in os.environ.items() if k != "SPARK_LOCAL_IP"}
    proc = subprocess.run([sys.executable, str(probe)], cwd=PROJECT, capture_output=True, text=True,
                          timeout=600, env=env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "resolves to a loopback address" not in proc.stderr, proc.stderr[-3000:]
    assert "SPARK_LOCAL_IP" not in proc.stderr, proc.stderr[-3000:]
    found = json.loads(proc.stdout.strip().splitlines()[-1])
    assert (found["host"], found["bind"]) == ("127.0.0.1", "127.0.0.1")
    assert found["listening"], "the driver JVM listens on no TCP socket?"
    assert all(a in LOOPBACK_HEX for a in found["listening"]), found["listening"]
