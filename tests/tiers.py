"""The suite's tiers (issue 30): which tests need a server, a build or a real tool, and so which
form the fast tier, `nox -s quick` (`pytest -m quick`): every module's unit tests, no server, no
build, in under 5 minutes.

Markers are applied at collection (tests/conftest.py), from two sources:
- the fixtures a test uses (a real server: start_server, or the session's sample binlogs written
  by real servers), so a new test that asks for a server is never quick;
- FILES below: a test file whose every test starts a server, builds or launches a runtime parser,
  runs Spark or a real tool, with the reason. Add a new file here when its tests wait on any of
  those; tests/test_tiers.py checks the names exist.
A test not marked `server` or `build` is marked `quick`.
"""
from __future__ import annotations

import pytest

SERVER_FIXTURES = frozenset({"start_server", "sample_binlog", "sample_dirs"})

# file -> (marker, why). "server": real MySQL/MariaDB containers; "build": a runtime parser built
# or launched (Node, Go, JVM, Rust), Spark, a wheel build, or a real tool over whole corpora.
FILES: dict[str, tuple[str, str]] = {
    "test_adapter_crash_reports.py": ("build", "each runtime's built file adapter on crash reproducers"),
    "test_binlog_connector_java_live.py": ("server", "mysql-binlog-connector-java against real servers"),
    "test_canal_live.py": ("server", "Canal against a real server"),
    "test_capture.py": ("server", "captures what real servers send"),
    "test_cdc_example.py": ("build", "peers install, harness serve and the Debezium JVM"),
    "test_corpus_vs_tool.py": ("server", "mysqlbinlog 9.7 from the server image over the corpus"),
    "test_debezium_control.py": ("server", "Debezium against 9 real servers"),
    "test_debezium_live.py": ("server", "Debezium alone against a real 9.7"),
    "test_events_classic_vs_mariadb_binlog.py": ("server", "real mariadb-binlog over real-server samples"),
    "test_findings_node_alone.py": ("server", "Node libraries alone against real servers"),
    "test_findings_pymysqlreplication_alone.py": ("server", "python-mysql-replication against real servers"),
    "test_fuzz.py": ("build", "an atheris session in a child process"),
    "test_fuzz_stream.py": ("build", "stream fuzzing through Node parsers"),
    "test_generate_servers.py": ("server", "generates cases on real servers"),
    "test_go_mysql_adapter.py": ("build", "the Go adapter over the corpus"),
    "test_go_mysql_live.py": ("server", "go-mysql probe against real servers"),
    "test_harness_stream_runner.py": ("build", "Node stream parsers"),
    "test_harness_unavailable.py": ("build", "conformance runs of parsers in child processes"),
    "test_installed_suite.py": ("build", "builds the sdist and wheel and installs them"),
    "test_jsonb.py": ("server", "JSON columns written by real servers"),
    "test_jvm_runtime.py": ("build", "the JVM runtime testees"),
    "test_mysql_common_live.py": ("server", "the Rust probe (cargo build) against real servers"),
    "test_node_peers.py": ("server", "Node parsers built and run against real servers"),
    "test_open_replicator_live.py": ("server", "open-replicator against a real server"),
    "test_primary_big_rows.py": ("server", "real servers beside harness serve"),
    "test_primary_catalog.py": ("server", "real servers beside harness serve"),
    "test_primary_clients.py": ("server", "real clients of harness serve"),
    "test_primary_every_case.py": ("server", "every case through harness serve and mysqlbinlog"),
    "test_primary_gtid_pos.py": ("server", "real replicas of harness serve"),
    "test_primary_lookups.py": ("build", "Node clients of harness serve"),
    "test_primary_mariadb_gtid_errors.py": ("server", "a real MariaDB beside harness serve"),
    "test_primary_replicas.py": ("server", "real replicas of harness serve"),
    "test_primary_vs_capture.py": ("build", "harness serve answers compared with captures, per case"),
    "test_pymysqlreplication_live.py": ("server", "python-mysql-replication against real servers"),
    "test_rows_live.py": ("server", "rows written by real servers"),
    "test_runtime_fuzz.py": ("build", "fuzzing one parser of each runtime"),
    "test_runtime_node.py": ("build", "the Node runtime testees"),
    "test_rust_runtime.py": ("build", "the Rust runtime testees (cargo)"),
    "test_server_registry.py": ("server", "every registered server version"),
    "test_servers.py": ("server", "starts every local server image"),
    "test_signedness_year.py": ("server", "real servers write the values"),
    "test_fuzz_native.py": ("build", "builds each runtime's native fuzz target (one worker: two building one target raced)"),
    "test_spark.py": ("build", "embedded Spark (a JVM)"),
    "test_spark_bench.py": ("build", "Spark benchmark run"),
    "test_spark_cluster.py": ("build", "a standalone Spark cluster"),
    "test_spark_stream.py": ("build", "Spark structured streaming"),
    "test_verify_cli.py": ("server", "real mysqlbinlog over server-written binlogs"),
    "test_wire_faults.py": ("server", "wire faults under real clients"),
    "test_wire_fault_findings_alone.py": ("build", "libraries alone (Node builds, CanalAlone on the JVM) against harness serve --wire-fault"),
}

# Tests run outside CI (`nox -s outside_ci`), not in `nox -s tests`: `.ci/run` must stay within its
# 60 minutes on a 2-core machine, and these cost the most there for what a run on an unchanged
# checkout can newly show. Key: a file name, or `file::test_function`; value: why, and when to run
# them. tests/collected_ids.py counts their ids as moved, with this reason, not as lost.
OUTSIDE_CI: dict[str, str] = {
    **dict.fromkeys(("test_fuzz_native.py::test_a_smoke_run_executes_and_finds_no_unrecorded_crash_in_the_seeds",
                     "test_fuzz_native.py::test_a_recorded_native_finding_replays_with_its_signature"),
                    "each needs a native fuzz target built with its engine's instrumentation (cargo-fuzz's sancov "
                    "crates 270-285 s each, go test -fuzz 136-190 s, Jazzer 57-128 s on a fresh 2-core machine: "
                    "the largest CPU cost of CI's tests phase, beside conformance's own builds of the same "
                    "libraries). Run after a change to harness/fuzz/native, a native target, or a lock it builds "
                    "from, and after recording native findings (docs/speed.md, 'Moved out of CI')"),
    "test_spark_cluster.py": "a Spark standalone cluster (master and worker JVMs) started for the job's runs by "
                             "--master and spark-submit, and the workers' packed environment built: 511 s of set-up "
                             "and 161 s of CPU in the 2026-12-07 rehearsal, with CI's tests phase CPU-bound. The job "
                             "itself runs in CI in local mode (tests/test_spark.py). Run after a change to "
                             "spark_checks' packing, submission or cluster code (docs/speed.md)",
}

MARKERS = {
    "server": "needs a real MySQL/MariaDB server in a container",
    "build": "builds or launches a runtime parser, Spark, a package build, or a real tool over whole corpora (tests/tiers.py)",
    "quick": "the fast tier: no server, no build (nox -s quick; tests/tiers.py)",
    "outside_ci": "run by nox -s outside_ci, not in CI's nox -s tests (tests/tiers.py OUTSIDE_CI says why)",
}

# The marker expression of CI's `nox -s tests` and of `nox -s outside_ci`.
IN_CI_EXPR, OUTSIDE_CI_EXPR = "not outside_ci", "outside_ci"


def outside_ci_reason(item: pytest.Item) -> str | None:
    """Why this test runs outside CI (OUTSIDE_CI), or None."""
    name = item.path.name
    function = getattr(item, "originalname", None) or item.name.split("[")[0]
    return OUTSIDE_CI.get(f"{name}::{function}") or OUTSIDE_CI.get(name)


def tier(item: pytest.Item) -> str:
    """'server', 'build' or 'quick' for one collected test."""
    if item.get_closest_marker("server") or SERVER_FIXTURES & set(getattr(item, "fixturenames", ())):
        return "server"
    marker, _why = FILES.get(item.path.name, ("quick", ""))
    return "build" if item.get_closest_marker("build") else marker


def xdist_group(item: pytest.Item, tier_: str) -> str | None:
    """The pytest-xdist group (`--dist loadgroup`) that keeps together what shares a server or a
    build: a sample binlog test goes with the other tests of that server profile (the session
    writes each profile's samples once per worker), any other server or build test with its file
    (its module-scoped servers, builds and port ranges stay on one worker). Quick tests spread."""
    if tier_ == "quick" or (tier_ == "build" and item.path.name not in FILES):
        return None  # a test marked build in a quick file shares nothing with its neighbours
    from generators.samples import SAMPLE_PROFILES  # noqa: PLC0415

    params = getattr(getattr(item, "callspec", None), "params", {})
    if "sample_dirs" in getattr(item, "fixturenames", ()):  # sample_binlog asks for it too
        profile = next((v for v in params.values() if isinstance(v, str) and v in SAMPLE_PROFILES), None)
        if profile:
            return f"samples:{profile}"
    return item.path.name


def mark(items: list[pytest.Item]) -> None:
    """Add each test's tier marker, `outside_ci` where OUTSIDE_CI names it, and, unless it has
    one, its xdist_group."""
    for item in items:
        t = tier(item)
        if not item.get_closest_marker(t):
            item.add_marker(getattr(pytest.mark, t))
        if outside_ci_reason(item) and not item.get_closest_marker("outside_ci"):
            item.add_marker(pytest.mark.outside_ci)
        group = xdist_group(item, t)
        if group and not item.get_closest_marker("xdist_group"):
            item.add_marker(pytest.mark.xdist_group(group))


def grouped_first(items: list[pytest.Item]) -> list[pytest.Item]:
    """The tests that share a server or a build (an xdist_group) before the others, each side in
    collection order. pytest-xdist's loadgroup hands out groups in collection order and cannot split
    one, so a long group that comes last (tests/test_spark_cluster.py sorts late) is the run's tail;
    the single quick tests that follow fill the workers' gaps instead."""
    return sorted(items, key=lambda item: item.get_closest_marker("xdist_group") is None)
