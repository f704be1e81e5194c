"""`python -m spark_checks run|bench|package`.

run: exit 0 when done (and, with --baseline, no new failures); 1 when the baseline diff shows new
failures; 2 on bad usage."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from harness import selection
from harness.corpus import CorpusError
from harness.isolation import DEFAULT_MEMORY_MB

from . import job, regression, report, session
from .environment import PackingFailed
from .inputs import DEFAULT_INLINE_MAX

EXIT_OK, EXIT_REGRESSED, EXIT_USAGE = 0, 1, 2
PROJECT_HELD = "binlog-conformance (oracle, harness, generators, spark_checks)"


def _add_inputs(p: argparse.ArgumentParser, corpus_required: bool) -> None:
    p.add_argument("--corpus", action="append", default=[], required=corpus_required, metavar="DIR",
                   help="corpus root: a directory (annotated cases or bare binlogs), a file, or a "
                        "hdfs:// / s3a:// path of bare binlogs (repeatable)")
    selection.add_flags(p, extra_help={selection.STREAM_COMMAND: ": each executor serves it every input "
                                                                 "from its own primary on 127.0.0.1"})
    p.add_argument("--mutants", type=int, default=0, metavar="N", help="mutants per case (default 0)")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="mutation seed (default 0)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per file and parser (default 60)")
    p.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB,
                   help=f"data memory limit per parser process (default {DEFAULT_MEMORY_MB})")


def _settings(args: argparse.Namespace, out: str) -> job.Settings:
    limits = job.Settings([], [], out, timeout=args.timeout, memory_mb=args.memory_mb).limits()
    specs = selection.from_args(args, limits)
    if not specs:
        raise ValueError("name a parser: --parser NAME, --parser-cmd CMD, --parser-persistent CMD "
                         "or --parser-stream CMD")
    return job.Settings(args.corpus, specs, out, args.mutants, args.seed,
                        getattr(args, "partitions", 0), args.timeout, args.memory_mb,
                        int(getattr(args, "inline_max_mb", DEFAULT_INLINE_MAX / 2**20) * 2**20))


def _baseline_problem(baseline: str | None, out: str) -> str | None:
    if baseline is None:
        return None
    if baseline.rstrip("/") == out.rstrip("/"):
        return "--baseline and --out are the same directory (the run would overwrite its baseline)"
    if "://" not in baseline and not (Path(baseline) / job.RESULTS).is_dir():
        return f"--baseline {baseline}: no {job.RESULTS}/ there (not the --out of an earlier run)"
    return None


def run(args: argparse.Namespace) -> int:
    problem = _baseline_problem(args.baseline, args.out)
    if problem:
        print(f"error: {problem}", file=sys.stderr)
        return EXIT_USAGE
    try:
        s = _settings(args, args.out)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    try:
        spark = session.get(args.master, quiet=args.quiet, parsers=args.parser)
    except PackingFailed as e:
        print(f"error: the executors' Python environment: {e}", file=sys.stderr)
        return EXIT_USAGE
    try:
        info = job.run(spark, s)
    except (CorpusError, ValueError) as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    current = job.read(spark, s.out)
    print(report.render(report.matrix(current)))
    print(f"{info.inputs} inputs ({info.cases} cases, {info.mutants} mutants) x {len(s.parsers)} parsers = "
          f"{info.rows} results in {info.seconds:.1f}s on {info.master}; Parquet in {s.out}/{job.RESULTS}")
    for parser, counts in sorted(info.counts.items()):
        print(f"  {parser}: " + ", ".join(f"{n} {o}" for o, n in sorted(counts.items())))
    if not args.baseline:
        return EXIT_OK
    reg = regression.compare(current, job.read(spark, args.baseline), args.baseline, s.out)
    print(reg.render())
    return EXIT_REGRESSED if reg.new_failures else EXIT_OK


def bench(args: argparse.Namespace) -> int:
    from . import bench as b
    return b.main(args)


def package(args: argparse.Namespace) -> int:
    from . import environment
    from .packaging import build_zip
    print(build_zip(Path(args.out)))
    try:
        archive = environment.build(args.parser or None, Path(args.env_out), force=args.force)
    except PackingFailed as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    held = environment.contents_of(archive)
    print(f"{archive} ({held.bytes / 2**20:.1f} MiB: {PROJECT_HELD} and "
          f"{', '.join(f'{n} {v}' for n, v in held.installed.items() if n != environment.PROJECT_NAME)}; "
          f"bin/python -> {held.python})")
    return EXIT_OK


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m spark_checks", description="Conformance runs on Spark")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run parsers over corpora (and mutants) on Spark, write Parquet")
    _add_inputs(r, corpus_required=True)
    r.add_argument("--out", required=True, metavar="DIR", help="output directory (results/ Parquet, run.json)")
    r.add_argument("--baseline", metavar="DIR", help="an earlier run's --out: report and gate regressions")
    r.add_argument("--master", metavar="URL", help="Spark master (default: spark-submit's, else local[*])")
    r.add_argument("--partitions", type=int, default=0, help="input partitions (default 4 per core)")
    r.add_argument("--inline-max-mb", type=float, default=DEFAULT_INLINE_MAX / 2**20,
                   help="larger files are read by path on the executors (default 64)")
    r.add_argument("--quiet", action="store_true", help="no Spark progress bar")
    r.set_defaults(run=run)
    b = sub.add_parser("bench", help="inputs per second: local Spark (1 and 2 cores) vs the single-process harness")
    _add_inputs(b, corpus_required=False)
    b.add_argument("--out", default="build/bench/spark.json", metavar="FILE", help="the figures, as JSON")
    b.set_defaults(run=bench)
    k = sub.add_parser("package", help="the Python environment archive for spark-submit --archives "
                                        "(and the code's zip for --py-files)")
    k.add_argument("--out", default="build/spark_checks.zip", help="the zip of oracle/ harness/ spark_checks/")
    k.add_argument("--env-out", default="build/spark_env.tar.gz", metavar="FILE",
                   help="the venv-pack archive: this project, its dependencies and the named parsers' libraries")
    k.add_argument("--parser", action="append", default=[], metavar="NAME",
                   help="a built-in parser whose PyPI library the archive holds (repeatable; "
                        "default: every built-in Python parser's)")
    k.add_argument("--force", action="store_true", help="rebuild the archive even when its inputs are unchanged")
    k.set_defaults(run=package)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)
