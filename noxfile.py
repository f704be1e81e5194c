"""Sessions: tests (the CI gate), conformance (the main job), bench, generate, fuzz, spark."""
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


@nox.session
def tests(session: nox.Session) -> None:
    """The whole test suite. With CI=true, tests that need a server fail instead of skipping."""
    # servers: real MySQL/MariaDB; spark: tests/test_spark.py; parsers: python-mysql-replication
    # (a built-in harness plugin); fuzz: atheris (tests/test_fuzz.py runs a short session)
    session.install("-e", ".[test,servers,spark,parsers,fuzz]")
    session.run("pytest", "-ra", *session.posargs)


# File parsers, and python-mysql-replication both ways: its BinLogStreamReader against the
# harness's primary (stream) and its packet wrapper over the file.
BUILTIN_PARSERS = ("oracle", "mysqlbinlog", "mariadb-binlog", "python-mysql-replication",
                   "python-mysql-replication-file")
# Stream parsers from npm (harness/peers), run when Node is here (always in CI, where a missing
# Node makes them unavailable, which --require-all fails).
NODE_PEERS = ("zongji-vlasky", "zongji-powersync", "zongji", "go-mysql-js", "go-mysql-binlog-node")


@nox.session
def conformance(session: nox.Session) -> None:
    """The built-in parsers over corpus/ and the external binlogs, gated on
    harness/expected/<parser>.txt; reports in build/conformance/. Stream parsers read each case
    from the harness's primary. Add --resume, --fix, ... as posargs."""
    import os
    import shutil
    from pathlib import Path

    session.install("-e", ".[parsers,servers]")  # servers: docker-py, for mysqlbinlog 9.7
    # The reference tools: Docker engine, mariadb-client and the local images, by the script
    # .ci/run uses (a no-op when present). Where set-up is impossible (not root, no apt) it says
    # why; the parsers it would provide are then reported unavailable, with this command, and the
    # others still run (--require-all, which CI passes, makes that a failure).
    session.run("python", "-m", "harness", "setup", success_codes=[0, 1, 2])
    runs = {"builtin": list(BUILTIN_PARSERS)}
    if shutil.which("node") or os.environ.get("CI"):
        # npm ci from the committed lock into the cache (a no-op when current); if it fails, the
        # peers are reported unavailable with this command.
        session.run("python", "-m", "harness", "peers", "install", success_codes=[0, 1])
        runs.update({p: [p] for p in NODE_PEERS})
    corpora = [a for c in ("corpus", EXTERNAL) if Path(c).is_dir() for a in ("--corpus", c)]

    def command(name: str, parsers: list[str]) -> list[str]:
        out = "build/conformance" if name == "builtin" else f"build/conformance/{name}"
        return [os.path.join(session.bin, "python"), "-m", "harness", "conformance",
                *(a for p in parsers for a in ("--parser", p)), *corpora,
                "--expected-failures", "harness/expected/", "--results", f"{out}/results.jsonl",
                "--json", f"{out}/report.json", "--junit", f"{out}/junit.xml",
                "--html", f"{out}/report.html", *session.posargs]

    # A stream parser spends its time waiting on the wire (its primary, its idle timers), not on
    # a core: each Node peer runs in a process of its own beside the built-in run, so the
    # session lasts as long as its longest run. Each peer's output is printed when it ends.
    import subprocess

    from nox.command import CommandFailed

    logs = {name: Path(f"build/conformance/{name}.log") for name in runs if name != "builtin"}
    Path("build/conformance").mkdir(parents=True, exist_ok=True)
    peers = {name: subprocess.Popen(command(name, runs[name]), stdout=logs[name].open("w"),
                                    stderr=subprocess.STDOUT) for name in logs}
    failed = []
    try:
        session.run(*command("builtin", runs["builtin"]))
    except CommandFailed:
        failed.append("builtin")
    for name, proc in peers.items():
        if proc.wait() != 0:
            failed.append(name)
        lines = logs[name].read_text().strip().splitlines()
        for line in [ln for ln in lines if ln.startswith(("UNEXPECTED", "STALE", "unavailable", "error"))] + lines[-1:]:
            session.log(line)
    if failed:
        session.error(f"unexpected conformance results: {', '.join(failed)} (build/conformance/*.log)")


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
    # cases and mutants per second: local Spark (1 and 2 cores) beside the single-process harness
    session.run("python", "-m", "spark_checks", "bench", "--corpus", EXTERNAL,
                "--out", "out/bench-spark.json")


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
def wire_faults(session: nox.Session) -> None:
    """The catalogue of wire faults (docs/wire-faults.md) under python-mysql-replication (which
    resumes after a cut), mysqlbinlog --read-from-remote-server --raw and zongji-vlasky: a fault x
    client table, out/wire-faults.json, and the pinned verdicts checked by tests/test_wire_faults.py.
    Posargs go to `python -m harness faults`."""
    session.install("-e", ".[test,servers,parsers]")
    session.run("python", "-m", "harness", "peers", "install")
    session.run("python", "-m", "harness", "faults", "--parser", "python-mysql-replication",
                "--resumes", "python-mysql-replication", "--parser", "zongji-vlasky",
                "--raw-client", "mysqlbinlog", "--json", "out/wire-faults.json", *session.posargs)
    session.run("pytest", "-ra", "tests/test_wire_faults.py")
