"""spark_checks over stream parsers (issue 13, item 5), on embedded local Spark (local[1]): the
built-in python-mysql-replication plugin and a one-shot `--parser-stream` command, each served
every case and mutant by a primary its executor starts on 127.0.0.1. The rows say transport
"stream", and agree with the single-process harness on the same inputs."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

from harness.isolation import Limits
from spark_checks import cli, job
from harness.selection import STREAM_COMMAND, resolve
from spark_checks.reference import single_process
from tests.test_spark import _spark_or_skip

pytest.importorskip("pymysqlreplication")

PROJECT = Path(__file__).resolve().parents[1]
ONESHOT = f"{sys.executable} {PROJECT / 'tests' / 'harness_scripts' / 'stream_oneshot.py'}"
# Real cases on which python-mysql-replication is right (tests/test_harness_stream_runner.py).
CASES = [PROJECT / "corpus" / "mysql-9.7" / "ddl_dml_basic--row",
         PROJECT / "corpus" / "mariadb-11.8" / "ddl_dml_basic--statement"]
MUTANTS, SEED = 2, 5


@pytest.fixture(scope="module")
def run(tmp_path_factory, monkeypatch_module):
    _spark_or_skip()
    if not all(c.is_dir() for c in CASES):
        pytest.skip("the corpus cases are not there")
    tmp = tmp_path_factory.mktemp("spark-stream")
    corpus = tmp / "corpus"
    corpus.mkdir()
    for c in CASES:
        (corpus / f"{c.parent.name}__{c.name}").symlink_to(c, target_is_directory=True)
    out = tmp / "out"
    argv = ["run", "--corpus", str(corpus), "--parser", "python-mysql-replication", "--parser-stream", ONESHOT,
            "--mutants", str(MUTANTS), "--seed", str(SEED), "--out", str(out), "--master", "local[1]", "--quiet"]
    assert cli.main(argv) == 0
    from spark_checks import session
    return {"tmp": tmp, "corpus": corpus, "out": out, "spark": session.get("local[1]", quiet=True)}


@pytest.fixture(scope="module")
def monkeypatch_module():
    """Executors' workers and the one-shot script import harness from this checkout."""
    mp = pytest.MonkeyPatch()
    import os
    mp.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(PROJECT), os.environ.get("PYTHONPATH")])))
    yield mp
    mp.undo()


def test_stream_parsers_run_on_spark_and_say_so(run):
    rows = [r.asDict() for r in job.read(run["spark"], str(run["out"])).collect()]
    labels = {r["parser"] for r in rows}
    assert labels == {"python-mysql-replication", "stream-oneshot"}
    assert {r["transport"] for r in rows} == {"stream"}
    per_parser = len(CASES) * (1 + MUTANTS)
    assert sorted(r["kind"] for r in rows if r["parser"] == "stream-oneshot") == \
        sorted(["case"] * len(CASES) + ["mutant"] * (per_parser - len(CASES)))
    # the unmutated real cases pass over the wire, for both ways of running the reader
    assert {(r["parser"], r["outcome"]) for r in rows if r["kind"] == "case"} == \
        {("python-mysql-replication", "pass"), ("stream-oneshot", "pass")}


def test_spark_stream_outcomes_equal_the_single_process_harness(run):
    got = {(r["case"], r["parser"]): r for r in job.read(run["spark"], str(run["out"])).collect()}
    specs = resolve(["python-mysql-replication"], [], [], Limits(), [ONESHOT])
    assert [s.kind for s in specs] == ["plugin", STREAM_COMMAND]
    ref = single_process([str(run["corpus"])], specs, MUTANTS, SEED, Limits(), run["tmp"] / "ref")
    want = {(r.case, r.parser): r for r in ref.results}
    assert set(got) == set(want) and ref.mutants > 0
    for key, r in want.items():
        assert (got[key]["outcome"], got[key]["n_diffs"], got[key]["transport"]) == \
               (r.outcome.value, r.n_diffs, r.transport), (key, got[key]["message"], r.message)
