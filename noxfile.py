"""Sessions: tests (the CI gate), quick (the fast tier), outside_ci (the tests moved out of CI), conformance
(the main job), bench, generate, fuzz, spark."""
from __future__ import annotations

import nox

nox.options.sessions = ["tests"]
nox.options.reuse_existing_virtualenvs = True

EXTERNAL = "../shared/external-binlogs"


def _option(args: list[str], name: str) -> str | None:
    """The value of `name VALUE` or `name=VALUE` in args, None when absent."""
    for i, a in enumerate(args):
        if a == name and i + 1 < len(args):
            return args[i + 1]
        if a.startswith(name + "="):
            return a.split("=", 1)[1]
    return None


# pytest-xdist workers for `tests`: most of the suite's time is spent waiting (server start-up,
# real clients, JVMs), so more workers than cores pays; tests sharing a server, a build or a port
# range stay on one worker (--dist loadgroup, groups in tests/tiers.py). `-n N` in posargs wins.
TEST_WORKERS = "4"


def _workers(args: list[str], default: str) -> list[str]:
    return [] if any(a == "-n" or a.startswith(("-n=", "--numprocesses")) or (a.startswith("-n") and a[2:].isdigit())
                     for a in args) else ["-n", default, "--dist", "loadgroup"]


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite. With CI=true, tests that need a server fail instead of skipping."""
    _pytest(session, CI_MARKERS)


# The tests CI runs: all but those tests/tiers.py OUTSIDE_CI moves to `nox -s outside_ci`, each
# with its reason (tests/tiers.py IN_CI_EXPR; tests/test_collected_ids.py checks the two agree).
CI_MARKERS = "not outside_ci"


def _pytest(session: nox.Session, markers: str) -> None:
    """The suite's environment, then pytest on the tests `-m markers` selects (an `-m` in posargs
    wins). --durations: the slowest tests in every CI log, for docs/speed.md (issue 30); with
    SUITE_PROFILE=FILE in the environment, tests/suite_profile.py writes each test's seconds there."""
    # servers: real MySQL/MariaDB; spark: tests/test_spark.py; parsers: python-mysql-replication
    # (a built-in harness plugin); fuzz: atheris (tests/test_fuzz.py runs a short session)
    session.install("-e", ".[test,servers,spark,parsers,fuzz]")
    args = list(session.posargs)
    chosen = [] if any(a.startswith("-m") for a in args) else ["-m", markers]
    session.run("pytest", "-ra", "--durations=30", *chosen, *_workers(args, TEST_WORKERS), *args)


@nox.session
def outside_ci(session: nox.Session) -> None:
    """The tests moved out of CI's time limit (tests/tiers.py OUTSIDE_CI says which and why: today
    the native fuzz targets' smoke runs and replays, which build every instrumented target). Run it
    after a change to what they cover, and after a lock they build from changes."""
    _pytest(session, "outside_ci")


@nox.session
def quick(session: nox.Session) -> None:
    """The fast tier (under 5 minutes, no server, no build): every module's unit tests, the tests
    marked `quick` (tests/tiers.py). Run it on every edit; `tests` before a push."""
    # servers: docker-py and PyMySQL are imported by some quick tests' modules; no server starts
    session.install("-e", ".[test,parsers,servers]")
    args = list(session.posargs)
    session.run("pytest", "-ra", "-m", "quick", *_workers(args, "auto"), *args)


JOBS = "4"  # parsers side by side: stream parsers wait on the wire, so more jobs than cores pays


@nox.session
def conformance(session: nox.Session) -> None:
    """Every built-in parser (harness/parsers/registry.py) over corpus/ and the external binlogs,
    each in a process of its own, side by side, gated on harness/expected/<parser>.txt; reports
    in build/conformance/<parser>/ and one combined in build/conformance/. Posargs go to
    `python -m harness conformance` (--resume, --fix, --jobs N, --require-all ...)."""
    from pathlib import Path

    session.install("-e", ".[parsers,servers]")  # servers: docker-py, for mysqlbinlog 9.7
    # The reference tools and the runtimes' toolchains (a no-op when present). Where set-up is
    # impossible (not root, no apt) it says why; the parsers it would provide are then reported
    # unavailable, with the command, and the others still run (--require-all makes that a failure).
    session.run("python", "-m", "harness", "setup", success_codes=[0, 1, 2])
    # Every runtime parser built from its committed lock into the cache (a no-op when current);
    # one that fails is reported unavailable with this command.
    session.run("python", "-m", "harness", "peers", "install", success_codes=[0, 1])
    corpora = [a for c in ("corpus", EXTERNAL) if Path(c).is_dir() for a in ("--corpus", c)]
    jobs = [] if _option(list(session.posargs), "--jobs") else ["--jobs", JOBS]
    session.run("python", "-m", "harness", "conformance", "--builtin", *corpora, *jobs,
                "--expected-failures", "harness/expected/", "--out", "build/conformance", *session.posargs)


@nox.session
def spark(session: nox.Session) -> None:
    """The conformance job on embedded local Spark (local[*]) over corpus/ and the external
    binlogs, 10 mutants per case; Parquet in build/spark/. Posargs go to `python -m spark_checks
    run` (e.g. --baseline DIR, --master URL, --parser NAME)."""
    from pathlib import Path

    session.install("-e", ".[spark,parsers]")
    corpora = [a for c in ("corpus", EXTERNAL) if Path(c).is_dir() and any(Path(c).iterdir())
               for a in ("--corpus", c)]
    named = any(_option(list(session.posargs), o) is not None
                for o in ("--parser", "--parser-cmd", "--parser-persistent", "--parser-stream"))
    parsers = [] if named else ["--parser", "oracle"]
    session.run("python", "-m", "spark_checks", "run", *corpora, *parsers, "--mutants", "10",
                "--out", "build/spark", *session.posargs)


@nox.session
def generate(session: nox.Session) -> None:
    """Rebuild corpus/ from real servers: build the local images (a no-op when current), run the
    scenarios, rewrite corpus/COVERAGE.md. Posargs go to `python -m generators generate`
    (e.g. --server mysql-9.7 --scenario json)."""
    session.install("-e", ".[servers]")
    session.run("python", "-m", "generators", "images", "build")
    session.run("python", "-m", "generators", "generate", *session.posargs)


@nox.session
def bench(session: nox.Session) -> None:
    """Throughput beside the real mysqlbinlog on a >= 100 MiB real-server binlog (made once and
    cached), as a table and out/bench.json; the Spark job's scaling benchmark follows."""
    session.install("-e", ".[servers,spark]")
    session.run("python", "-m", "harness.bench", *session.posargs)
    # the replication primary: mysqlbinlog --read-from-remote-server --raw from a real MySQL 9.7
    # source and from `harness serve`, alternately, same file (docs/primary.md)
    session.run("python", "-m", "harness.primary.bench")
    # the per-check bookkeeping (issue 29): file testees' conformance with this harness and the
    # one before harness/checks.py, same corpus, same run
    session.run("python", "-m", "harness.bench_checks")
    # cases and mutants per second: local Spark (1 and 2 cores) beside the single-process harness
    session.run("python", "-m", "spark_checks", "bench", "--corpus", EXTERNAL,
                "--out", "out/bench-spark.json")
    # each native fuzz engine beside byte mutation of the same parser: executions/s and the
    # coverage each adds in 5 minutes, in the library's own coverage (docs/speed-fuzz.md)
    session.install("-e", ".[fuzz,parsers]")
    session.run("python", "-m", "harness.fuzz.native.bench", "--seconds", "300")


@nox.session
def fuzz(session: nox.Session) -> None:
    """Coverage-guided atheris session against any parser plugin (issue 7): structure-aware
    mutator from harness/mutations, seeds from corpus/ and the external binlogs, the type-code and
    status-variable dictionary; reproducers and summary.json in build/fuzz/<parser>/. Posargs go to
    `python -m harness fuzz` (e.g. --parser mysqlbinlog --seconds 600 --differential). A stream
    parser (--parser python-mysql-replication, --parser zongji-vlasky, --parser-stream "CMD") is
    served every input by the harness's primary; --engine mutate in posargs runs the catalogue walk
    instead (the last --engine wins)."""
    session.install("-e", ".[fuzz,parsers,servers]")
    args = list(session.posargs)
    if _option(args, "--parser") is None and _option(args, "--parser-stream") is None:
        args += ["--parser", "oracle"]
    if _option(args, "--out") is None:
        label = _option(args, "--parser") or "parser-stream"
        args += ["--out", f"build/fuzz/{label}"]
    session.run("python", "-m", "harness", "fuzz", "--engine", "atheris", *args)


@nox.session
def fuzz_native(session: nox.Session) -> None:
    """Every native engine in turn (issue 31): go test -fuzz on go-mysql, Jazzer on
    mysql-binlog-connector-java, libFuzzer on mysql_common, atheris on python-mysql-replication,
    each steered by the library's own coverage; a table of executions, coverage and findings,
    summaries in build/fuzz-native/<parser>/; then the inputs they kept, through every file parser
    beside the oracle (the differential batch, build/fuzz-native/differential/). Posargs go to `python -m harness.fuzz.native all`
    (e.g. --seconds 600, --record corpus/findings)."""
    session.install("-e", ".[fuzz,parsers]")
    session.run("python", "-m", "harness.fuzz.native", "all", *session.posargs)


@nox.session
def wire_faults(session: nox.Session) -> None:
    """Every built-in stream testee and mysqlbinlog --read-from-remote-server --raw under the whole
    catalogue of wire faults (docs/wire-faults.md), four clients side by side: a fault x client
    table, out/wire-faults.json, each verdict gated against its pin in harness/expected/wire-faults/
    (python-mysql-replication claims to resume after a cut); then tests/test_wire_faults.py.
    Posargs go to `python -m harness faults` (`--fix` rewrites the pins)."""
    session.install("-e", ".[test,servers,parsers]")
    session.run("python", "-m", "harness", "peers", "install")
    session.run("python", "-m", "harness", "faults", "--builtin", "--resumes", "python-mysql-replication",
                "--jobs", "4", "--expected", "harness/expected/wire-faults", "--json", "out/wire-faults.json",
                *session.posargs)
    session.run("pytest", "-ra", "tests/test_wire_faults.py")
