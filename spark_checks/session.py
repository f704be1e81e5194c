"""The SparkSession a run uses: embedded local Spark by default, or the cluster `--master` (or
spark-submit) names. The executors need oracle/, harness/, spark_checks/ and their dependencies:
on a local master they run this interpreter with this source tree; on a cluster master named
here the job ships its own Python environment (spark_checks/environment.py) and the executors
run its bin/python. Under spark-submit its --archives / --py-files apply."""
from __future__ import annotations

import os
import sys
from pathlib import Path
from urllib.parse import urlparse

from . import environment
from .packaging import build_zip

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_MASTER = "local[*]"
LOOPBACK = "127.0.0.1"


def is_local(master: str) -> bool:
    return master.startswith("local")


def on_loopback(master: str) -> bool:
    """A local master, or a cluster master on this machine's loopback (spark://127.0.0.1:7077)."""
    host = urlparse(master).hostname if "://" in master else None
    return is_local(master) or host in ("localhost", "::1") or bool(host and host.startswith("127."))


def loopback_conf() -> dict[str, str]:
    """Where the driver listens and what it tells executors to call it: the loopback, not the
    address Spark finds for the hostname (here eth0's, with a warning at every start)."""
    return {"spark.driver.bindAddress": LOOPBACK, "spark.driver.host": LOOPBACK}


def _loopback_environment() -> None:
    """SPARK_LOCAL_IP is read by the JVM when it starts (the executor, block manager and
    shuffle addresses, and the hostname check that warns): set before the gateway is launched."""
    os.environ["SPARK_LOCAL_IP"] = LOOPBACK


def _local_environment() -> None:
    """Python workers inherit the driver's environment on a local master: same interpreter, and
    the source tree importable (the harness worker subprocess needs it too)."""
    if os.environ.get("PYSPARK_PYTHON") == environment.EXECUTOR_PYTHON:  # a cluster session's, earlier
        del os.environ["PYSPARK_PYTHON"]
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    os.environ.setdefault("PYSPARK_DRIVER_PYTHON", sys.executable)
    paths = os.environ.get("PYTHONPATH", "").split(os.pathsep)
    if str(PROJECT_ROOT) not in paths:
        os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), *paths]))


def _shipped_environment(parsers: list[str] | None) -> dict[str, str]:
    """Build (or reuse) the environment archive and point the executors' Python into it:
    PYSPARK_PYTHON is read when the SparkContext starts and travels with every Python function."""
    archive = environment.build(parsers)
    os.environ["PYSPARK_PYTHON"] = environment.EXECUTOR_PYTHON
    return environment.spark_conf(archive)


def under_spark_submit() -> bool:
    """spark-submit starts the JVM first and tells the Python driver its gateway port."""
    return "PYSPARK_GATEWAY_PORT" in os.environ


def get(master: str | None = None, app: str = "binlog-conformance", quiet: bool = False,
        conf: dict[str, str] | None = None, parsers: list[str] | None = None):
    """The active session (spark-submit made one) or a new one on `master`, with `conf` set over
    the defaults here. Progress bars on. A cluster master named here gets the environment
    archive holding the project and the libraries of `parsers` (see environment.build)."""
    from pyspark.sql import SparkSession
    active = SparkSession.getActiveSession()
    if active is not None and master is None:
        return active
    builder = SparkSession.builder
    if master or not under_spark_submit():  # else spark-submit's --master (and conf) apply
        chosen = master or os.environ.get("SPARK_MASTER") or DEFAULT_MASTER
        if is_local(chosen):
            _local_environment()
        else:
            conf = {**_shipped_environment(parsers), **(conf or {})}
        if on_loopback(chosen):
            _loopback_environment()
            for key, value in loopback_conf().items():
                builder = builder.config(key, value)
        builder = builder.master(chosen)
        if is_local(chosen):
            builder = builder.config("spark.ui.enabled", "false")  # no web UI port for a local run
    builder = (builder.appName(app)
               .config("spark.ui.showConsoleProgress", "false" if quiet else "true")
               .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
               .config("spark.sql.shuffle.partitions", "8")
               .config("spark.python.worker.reuse", "true"))
    for key, value in (conf or {}).items():
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("WARN")
    sc = spark.sparkContext
    shipped = sc.getConf().get("spark.submit.pyFiles", "") or sc.getConf().get("spark.archives", "")
    if not is_local(sc.master) and not shipped:
        sc.addPyFile(str(build_zip()))  # spark-submit without --archives or --py-files: ship the code
    return spark
