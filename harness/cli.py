"""`python -m harness conformance ...`: run parsers over corpora, gate on expected failures,
write reports. Exit 0 only when every outcome is as expected; 1 otherwise; 2 on bad usage;
130 when interrupted (the results so far are kept: rerun with --resume)."""
from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path
from typing import Callable

from . import expected_failures as xf
from . import gating, jobs, packaged, selection, stream_modes
from . import results as results_store
from .corpus import Case, CorpusError, discover
from .isolation import DEFAULT_MEMORY_MB, Limits
from .outcomes import CaseResult
from .parsers.registry import PARSERS
from .plugins import launch
from .plugins.protocol import MODES
from .progress import Progress
from .runner import Target, run

DEFAULT_RESULTS = Path(".conformance/results.jsonl")
EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def _targets(args: argparse.Namespace, limits: Limits) -> list[Target]:
    try:
        return [spec.target(limits) for spec in selection.from_args(args, limits)]
    except ValueError as e:
        raise SystemExit(f"error: {e}")


def _unavailable(target: Target) -> str | None:
    """Why a parser cannot run here (its own words, ending with the command that provides it),
    or None when it can."""
    hello = target.testee.hello()
    if hello is None:
        failure = target.testee.start_failure()
        return f"did not start: {failure.detail if failure else 'no hello'}"
    return hello.unavailable


def _unavailable_reasons(targets: list[Target]) -> dict[str, str]:
    """The reason for each parser that cannot run here, printed up front (never hidden). Its
    cases are still recorded, as unavailable, so reports show the gap."""
    reasons = {t.label: r for t in targets if (r := _unavailable(t)) is not None}
    for label, reason in reasons.items():
        print(f"unavailable: {label}: {reason}", file=sys.stderr)
    return reasons


def _cases(corpora: list[str]) -> list[Case]:
    cases: list[Case] = []
    for c in corpora:
        cases.extend(discover(Path(c)))
    ids = [c.id for c in cases]
    if len(set(ids)) != len(ids):
        raise CorpusError("two cases share an id (two corpora with the same directory name?)")
    return cases


def _raise_interrupt(signum, frame):  # SIGTERM ends a run like Ctrl-C: results so far are kept
    raise KeyboardInterrupt


def conformance(args: argparse.Namespace) -> int:
    if args.builtin:
        args.parser = [*args.parser, *(p.name for p in PARSERS if p.name not in args.parser)]
    if not selection.chosen(args):
        print("error: name a parser: --builtin, --parser NAME, --parser-cmd CMD, --parser-stream CMD or "
              "--parser-persistent CMD",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        cases = _cases(args.corpus or [str(packaged.corpus_dir())])
    except CorpusError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    limits = Limits(args.timeout, args.memory_mb)
    try:
        args.modes = stream_modes.parse_modes(args.modes) if isinstance(args.modes, str) else tuple(args.modes)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    if args.jobs:
        try:
            return jobs.run(args, selection.from_args(args, limits), cases)
        except ValueError as e:
            print(f"error: {e}", file=sys.stderr)
            return EXIT_USAGE
    targets = _targets(args, limits)
    unavailable = _unavailable_reasons(targets)
    expected_paths = {t.label: gating.expected_path(args.expected_failures, t.label, len(targets)) for t in targets}
    try:
        entries = {label: xf.load(p) for label, p in expected_paths.items()}
    except xf.ExpectedFileError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE

    writer = results_store.ResultsWriter(Path(args.results), resume=args.resume)
    wanted = {(c.id, t.label) for c in cases for t in targets}
    previous = [r for r in writer.previous if (r.case, r.parser) in wanted
                and (r.mode is None or r.mode in args.modes)]
    progress = Progress(len(wanted) - len(previous), quiet=args.quiet)

    def record(r: CaseResult) -> None:
        writer.append(r)
        progress.update(r)

    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        new = run(cases, targets, done={(r.key, r.parser) for r in previous}, on_result=record,
                  modes=args.modes, mode_cases=args.mode_cases)
    except KeyboardInterrupt:
        writer.close()
        print(f"\ninterrupted: {progress.count} results kept in {args.results}; rerun with --resume",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    writer.close()
    progress.finish(len(previous))
    all_results = sorted(previous + new, key=lambda r: (r.parser, r.case))
    return gating.finish(args, all_results, [t.label for t in targets], entries, expected_paths, unavailable)


def setup_command(args: argparse.Namespace) -> int:
    from .setup import check, setup
    return check() if args.check else setup()


def describe(args: argparse.Namespace) -> int:
    """Print a plugin's hello (name, version, capabilities, availability)."""
    t = launch.named(args.name, Limits())
    try:
        hello = t.hello()
        if hello is None:
            failure = t.start_failure()
            print(f"error: {failure.detail if failure else 'did not start'}", file=sys.stderr)
            return EXIT_UNEXPECTED
        print(json.dumps(hello.to_json(), indent=1))
    finally:
        t.close()
    return EXIT_OK


def build_parser(prog: str = "python -m harness",
                 more_commands: Callable[[argparse._SubParsersAction], None] | None = None
                 ) -> argparse.ArgumentParser:
    """The harness's commands; `more_commands` adds others to the same level (the
    binlog-conformance command adds the oracle's: harness/console.py)."""
    p = argparse.ArgumentParser(prog=prog, description="Binlog parser conformance harness")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("conformance", aliases=["run"], help="run parsers over corpora and check every outcome")
    selection.add_flags(c)
    c.add_argument("--builtin", action="store_true",
                   help="every parser of the registry (python -m harness list), besides any named")
    c.add_argument("--jobs", type=int, default=0, metavar="N",
                   help="run each parser in a process of its own, N side by side (stream parsers wait "
                        "on the wire: N above the core count pays); per-parser results and reports "
                        "in --out/<parser>/, one combined report in --out")
    c.add_argument("--max-jobs", type=int, default=8, metavar="M",
                   help="with --jobs: up to M side by side while the CPUs are idle (the running "
                        "parsers only wait); M <= N: never more than N (default 8)")
    c.add_argument("--out", default="build/conformance", metavar="DIR",
                   help="with --jobs: where the per-parser and combined reports go (default build/conformance)")
    c.add_argument("--corpus", action="append", default=[], metavar="DIR",
                   help="case directories or bare binlogs (repeatable; default: the checkout's "
                        "corpus/, or the corpus the installed package carries)")
    c.add_argument("--expected-failures", metavar="FILE|DIR",
                   help="expected failures: a file, or a directory holding <parser>.txt")
    c.add_argument("--results", default=str(DEFAULT_RESULTS), metavar="FILE",
                   help=f"results stream, JSON lines appended as cases finish (default {DEFAULT_RESULTS})")
    c.add_argument("--json", metavar="FILE", help="write the JSON report")
    c.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    c.add_argument("--html", metavar="FILE", help="write the HTML matrix report")
    c.add_argument("--wire-faults", metavar="FILE",
                   help="`python -m harness faults --json` results to show in the HTML report's "
                        "summary (its wire-faults columns)")
    c.add_argument("--modes", default=",".join(MODES), metavar="M,M",
                   help=f"the stream modes stream parsers run in (default all: {','.join(MODES)}; "
                        "a mode a parser does not support is not_applicable, with its cause)")
    c.add_argument("--mode-cases", choices=(stream_modes.SAMPLE_CASES, stream_modes.ALL_CASES),
                   default=stream_modes.SAMPLE_CASES,
                   help="the cases modes other than position run on: the sample of every server "
                        f"version ({', '.join(sorted(stream_modes.SAMPLE))}; default) or all")
    c.add_argument("--fix", action="store_true", help="rewrite the expected-failures file(s) from this run")
    c.add_argument("--resume", action="store_true", help="keep the results stream and run only what is missing")
    c.add_argument("--timeout", type=float, default=60.0, help="seconds per file (default 60)")
    c.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB,
                   help=f"data memory limit per parser process (default {DEFAULT_MEMORY_MB})")
    c.add_argument("--quiet", action="store_true", help="no progress on stderr")
    c.add_argument("--require-all", action="store_true",
                   help="a parser that cannot run here fails the run (CI); without it, an "
                        "unavailable parser is reported with the command that provides it and "
                        "the others run")
    c.set_defaults(run=conformance)
    st = sub.add_parser("setup", help="install what the built-in reference parsers need: Debian's "
                                      "Docker engine and mariadb-client, and the local server "
                                      "images (the steps .ci/run takes)")
    st.add_argument("--check", action="store_true", help="only say what is missing")
    st.set_defaults(run=setup_command)
    d = sub.add_parser("describe", help="print a plugin's hello: version, capabilities, availability")
    d.add_argument("name")
    d.set_defaults(run=describe)
    from .fuzz.cli import add_commands as add_fuzz_commands  # issue 7: mutate / hypothesis / atheris
    add_fuzz_commands(sub)
    from .primary.server import add_serve_command  # issue 12: the replication primary
    add_serve_command(sub)
    from .parsers.cli import add_commands as add_parser_commands  # peers install|status, list
    add_parser_commands(sub)
    __import__("harness.wire_faults.cli").wire_faults.cli.add_commands(sub)  # issue 13 item 5: wire faults
    from .headline import add_commands as add_headline_commands  # issue 21 item 7: headline, report
    add_headline_commands(sub)
    from .cdc_control.cli import add_commands as add_cdc_commands  # issue 22: stream, cdc-control
    add_cdc_commands(sub)
    from .findings_doc import add_commands as add_findings_commands  # issue 29 item 5: docs/findings counts
    add_findings_commands(sub)
    if more_commands is not None:
        more_commands(sub)
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)
