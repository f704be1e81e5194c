"""Issue 24: the job on a real standalone cluster whose worker has nothing of ours installed.

A master and one 1-core worker are started from the installed pyspark on 127.0.0.1
(tests/spark_cluster.py); the worker's python3 is a bare virtual environment, so an executor
finds neither zstandard nor mysql-replication unless the job ships them. The job runs twice on
it, as docs/spark.md's cluster section says: `python -m spark_checks run --master spark://...`
(which builds and ships the environment archive itself) and the documented spark-submit line
(`python -m spark_checks package`, then `--archives build/spark_env.tar.gz#environment` with
PYSPARK_PYTHON=./environment/bin/python), each with the oracle and python-mysql-replication-file
(a third-party Python parser) over a few external binlogs and their mutants. Both runs' Parquet
must hold the rows and outcomes of the same job on local[2]. Both daemons are stopped whatever
happens; everything listens on the loopback."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spark_checks import cli, environment, job
from spark_checks.expand import MUTANT_MARK
from tests.external import ROOT as EXTERNAL, manifest
from tests.spark_cluster import LOOPBACK_HEX, spark_home, standalone
from tests.test_spark import _spark_or_skip

PROJECT = Path(__file__).resolve().parents[1]
PARSERS = ("oracle", "python-mysql-replication-file")
MUTANTS, SEED = 2, 24
# Small real binlogs (0.4-0.5 KB): a MySQL 8.0.32 transaction compressed with zstd (the library the
# worker's Python lacks), MySQL 8.0.40 rows with minimal metadata, MariaDB 11.8 GTIDs.
INPUTS = ("transaction_compression.000001", "minimal_row_metadata.000001",
          "domain_id_0__mariadb-repl-bin.000001")
FIELDS = ("kind", "parent", "operator", "rng_seed", "outcome", "n_diffs", "server_version")
# The executors' default Python cannot import these; the archive brings them.
THEIRS = ("zstandard", "orjson", "pymysqlreplication", "oracle", "harness")

# A control application without the archive: what an executor's own python3 can import.
DEFAULT_PYTHON_PROBE = """
import json, sys
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master(sys.argv[1]).config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1").config("spark.task.maxFailures", "1").getOrCreate())

def probe(_):
    import importlib.util, sys
    return [sys.executable] + [m for m in {theirs!r} if importlib.util.find_spec(m) is None]

print(json.dumps(spark.sparkContext.parallelize([0], 1).map(probe).collect()[0]))
spark.stop()
"""


def _inputs(root: Path) -> Path:
    """The INPUTS binlogs of the manifest, linked into a corpus root."""
    chosen = [b for b in manifest() if b.file.endswith(INPUTS) and b.path.is_file()]
    if len(chosen) != len(INPUTS):
        pytest.skip(f"the external binlogs {INPUTS} are not all in {EXTERNAL}")
    root.mkdir()
    for b in chosen:
        (root / b.file.replace("/", "__")).symlink_to(b.path)
    return root


def _driver_env() -> dict[str, str]:
    """The driver's own environment, without anything that would point executors at this machine's
    Python or source tree."""
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK_", "PYTHONPATH", "SPARK_"))}


def _run_args(corpus: Path, out: Path) -> list[str]:
    return ["run", "--corpus", str(corpus), *(a for p in PARSERS for a in ("--parser", p)),
            "--mutants", str(MUTANTS), "--seed", str(SEED), "--out", str(out), "--quiet"]


def _check(proc: subprocess.CompletedProcess) -> None:
    assert proc.returncode == 0, f"{proc.args}\n{proc.stdout[-3000:]}\n{proc.stderr[-6000:]}"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The job on local[2] (in this process) and twice on the cluster; the outputs' paths."""
    _spark_or_skip()
    tmp = tmp_path_factory.mktemp("spark-cluster")
    corpus = _inputs(tmp / "corpus")
    bare = tmp / "bare-python"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(bare)], check=True)
    outs = {name: tmp / name for name in ("local", "run-master", "spark-submit")}
    assert cli.main([*_run_args(corpus, outs["local"]), "--master", "local[2]"]) == 0
    archive = PROJECT / "build" / "spark_env.tar.gz"
    _check(subprocess.run([sys.executable, "-m", "spark_checks", "package", "--env-out", str(archive),
                           *(a for p in PARSERS for a in ("--parser", p))],
                          cwd=PROJECT, env=_driver_env(), capture_output=True, text=True, timeout=900))
    found: dict = {"bare": bare, "archive": archive}
    with standalone(tmp / "cluster", bare / "bin") as cluster:
        probe = tmp / "probe.py"
        probe.write_text(DEFAULT_PYTHON_PROBE.format(theirs=THEIRS))
        control = subprocess.run([sys.executable, str(probe), cluster.master_url], cwd=tmp, env=_driver_env(),
                                 capture_output=True, text=True, timeout=600)
        _check(control)
        found["default_python"] = json.loads(control.stdout.strip().splitlines()[-1])
        run_master = subprocess.run([sys.executable, "-m", "spark_checks", *_run_args(corpus, outs["run-master"]),
                                     "--master", cluster.master_url],
                                    cwd=PROJECT, env=_driver_env(), capture_output=True, text=True, timeout=900)
        _check(run_master)
        found["run_master_stderr"] = run_master.stderr
        submit_env = {**_driver_env(), "SPARK_LOCAL_IP": "127.0.0.1", "PYSPARK_DRIVER_PYTHON": sys.executable,
                      "PYSPARK_PYTHON": environment.EXECUTOR_PYTHON}
        _check(subprocess.run([str(spark_home() / "bin" / "spark-submit"), "--master", cluster.master_url,
                               "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.driver.bindAddress=127.0.0.1",
                               "--archives", f"{archive}#environment", "spark_checks/submit.py",
                               *_run_args(corpus, outs["spark-submit"])],
                              cwd=PROJECT, env=submit_env, capture_output=True, text=True, timeout=900))
        found["listening"] = cluster.listening()
        found["executor_dirs"] = sorted(cluster.work_dir.glob("app-*/*"))
    return {**found, "outs": outs, "corpus": corpus}


def _rows(out: Path) -> dict[tuple[str, str], tuple]:
    from spark_checks import session
    spark = session.get("local[2]", quiet=True)
    return {(r["case"], r["parser"]): tuple(r[f] for f in FIELDS) + (tuple(sorted(r["event_types"])),)
            for r in job.read(spark, str(out)).collect()}


def test_the_workers_own_python_lacks_our_dependencies(runs):
    """Without the archive an executor runs the worker's python3, the bare environment, which
    imports none of what the job needs: the situation issue 24 reported."""
    executable, *missing = runs["default_python"]
    assert Path(executable).parent == runs["bare"] / "bin", executable
    assert sorted(missing) == sorted(THEIRS)


@pytest.mark.parametrize("way", ["run-master", "spark-submit"])
def test_cluster_results_equal_the_local_run(runs, way):
    local, cluster = _rows(runs["outs"]["local"]), _rows(runs["outs"][way])
    mutants = [case for case, parser in local if MUTANT_MARK in case and parser == "oracle"]
    assert len(local) == len(INPUTS) * (1 + MUTANTS) * len(PARSERS) and mutants
    assert {parser for _, parser in local} == set(PARSERS)
    assert cluster == local


def test_each_executor_ran_from_the_shipped_environment(runs):
    """Three applications ran on the worker (the control and the two runs); each run's executor
    unpacked the archive as ./environment, whose bin/python is the venv-pack link."""
    dirs = runs["executor_dirs"]
    unpacked = [d for d in dirs if (d / "environment" / "bin" / "python").exists()]
    assert len(dirs) == 3 and len(unpacked) == 2, dirs
    assert all((d / "environment" / "pyvenv.cfg").is_file() for d in unpacked)
    held = environment.contents_of(runs["archive"])
    assert {"binlog-conformance", "zstandard", "mysql-replication"} <= set(held.installed)
    # `run --master` shipped the archive `package` had built for the same parsers, not a new one.
    assert f"spark environment: {runs['archive']} is current" in runs["run_master_stderr"]


def test_the_archive_holds_the_libraries_of_the_named_parsers():
    assert environment.parser_libraries(["oracle"]) == []
    assert environment.parser_libraries(["oracle", "python-mysql-replication-file"]) == ["mysql-replication"]
    assert environment.parser_libraries(["python-mysql-replication", "mypkg.mod:Parser"]) == ["mysql-replication"]
    assert "mysql-replication" in environment.parser_libraries()  # package's default: every built-in's


def test_the_cluster_listens_on_the_loopback_only(runs):
    """The master and the worker listen on 127.0.0.1 only; every executor was told to call the
    driver at 127.0.0.1 and to bind 127.0.0.1 itself (its launch command, in its stderr)."""
    listening = runs["listening"]
    assert len({pid for pid, _ in listening}) >= 2, listening  # the master and the worker at least
    assert all(address in LOOPBACK_HEX for _, address in listening), listening
    for d in runs["executor_dirs"]:
        launched = (d / "stderr").read_text(errors="replace")
        assert '"--driver-url" "spark://CoarseGrainedScheduler@127.0.0.1:' in launched, launched[:3000]
        assert '"--hostname" "127.0.0.1"' in launched, launched[:3000]
