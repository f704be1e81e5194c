"""`python -m harness conformance ...`: run parsers over corpora, gate on expected failures,
write reports. Exit 0 only when every outcome is as expected; 1 otherwise; 2 on bad usage;
130 when interrupted (the results so far are kept: rerun with --resume)."""
from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path

from . import expected_failures as xf
from . import results as results_store
from .corpus import Case, CorpusError, discover
from .isolation import Limits
from .outcomes import CaseResult
from .plugins import launch
from .plugins.registry import known
from .progress import Progress
from .reports import html, json_report, junit
from .runner import Target, run

DEFAULT_RESULTS = Path(".conformance/results.jsonl")
EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130


def _targets(args: argparse.Namespace, limits: Limits) -> list[Target]:
    targets = [Target(name, launch.python_plugin(name, limits)) for name in args.parser]
    for cmd in args.parser_cmd:
        t = launch.oneshot_command(cmd, limits)
        targets.append(Target(t.hello().name, t))
    for cmd in args.parser_stream:
        t = launch.stream_command(cmd, limits)
        targets.append(Target(t.hello().name, t))
    for cmd in args.parser_persistent:
        t = launch.persistent_command(cmd, limits)
        hello = t.hello()
        targets.append(Target(hello.name if hello else cmd.split()[0], t))
    labels = [t.label for t in targets]
    if len(set(labels)) != len(labels):
        raise SystemExit(f"error: two parsers share a name: {labels}")
    return targets


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


def _expected_path(arg: str | None, label: str, n_targets: int) -> Path | None:
    if arg is None:
        return None
    p = Path(arg)
    if p.is_dir() or arg.endswith("/"):
        return p / f"{label}.txt"
    if n_targets > 1:
        raise SystemExit("error: with several parsers, --expected-failures must be a directory of <parser>.txt")
    return p


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
    if not (args.parser or args.parser_cmd or args.parser_stream or args.parser_persistent):
        print("error: name a parser: --parser NAME, --parser-cmd CMD, --parser-stream CMD or "
              "--parser-persistent CMD",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        cases = _cases(args.corpus or ["corpus"])
    except CorpusError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    limits = Limits(args.timeout, args.memory_mb)
    targets = _targets(args, limits)
    unavailable = _unavailable_reasons(targets)
    expected_paths = {t.label: _expected_path(args.expected_failures, t.label, len(targets)) for t in targets}
    try:
        entries = {label: xf.load(p) for label, p in expected_paths.items()}
    except xf.ExpectedFileError as e:
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE

    writer = results_store.ResultsWriter(Path(args.results), resume=args.resume)
    wanted = {(c.id, t.label) for c in cases for t in targets}
    previous = [r for r in writer.previous if (r.case, r.parser) in wanted]
    progress = Progress(len(wanted) - len(previous), quiet=args.quiet)

    def record(r: CaseResult) -> None:
        writer.append(r)
        progress.update(r)

    signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        new = run(cases, targets, done={(r.case, r.parser) for r in previous}, on_result=record)
    except KeyboardInterrupt:
        writer.close()
        print(f"\ninterrupted: {progress.count} results kept in {args.results}; rerun with --resume",
              file=sys.stderr)
        return EXIT_INTERRUPTED
    writer.close()
    progress.finish(len(previous))
    all_results = sorted(previous + new, key=lambda r: (r.parser, r.case))
    return _finish(args, all_results, targets, entries, expected_paths, unavailable)


def _finish(args, all_results, targets, entries, expected_paths, unavailable) -> int:
    by_parser = {t.label: [r for r in all_results if r.parser == t.label] for t in targets}
    if args.fix:
        for label, rs in by_parser.items():
            if label in unavailable:
                continue  # nothing is known about it here: its file stays as it is
            path = expected_paths[label]
            if path is None:
                print("error: --fix needs --expected-failures", file=sys.stderr)
                return EXIT_USAGE
            n = xf.fix(path, rs, f"Expected conformance failures of {label}: <case id> <outcome> "
                                 f"[diffs=<digest of all its differences>] <message prefix>.\n"
                                 f"Regenerate with: python -m harness conformance --parser {label} ... --fix")
            print(f"{path}: {n} expected failures written", file=sys.stderr)
        entries = {label: xf.load(expected_paths[label]) for label in by_parser}
    gates = {label: xf.gate(rs, entries[label]) for label, rs in by_parser.items()}
    if args.json:
        json_report.write(Path(args.json), all_results, gates)
    if args.junit:
        junit.write(Path(args.junit), all_results, gates)
    if args.html:
        html.write(Path(args.html), all_results, gates)
    ok = len(unavailable) < len(targets)
    if not ok:
        print("error: no parser can run here", file=sys.stderr)
    for label, gate in gates.items():
        if label in unavailable:
            # Left out of the gate: its results say "unavailable", and the reason was printed
            # with the command that provides it. --require-all (CI) makes it a failure.
            ok = ok and not args.require_all
            print(f"{label}: {len(by_parser[label])} cases not run here (unavailable)"
                  + (": a failure under --require-all" if args.require_all else ""), file=sys.stderr)
            continue
        for r, why in gate.unexpected:
            print(f"UNEXPECTED {label} {r.case}: {why}", file=sys.stderr)
        for e in gate.stale:
            print(f"STALE {label} {e.case}: expected-failure entry for a case that was not run "
                  f"({expected_paths[label]}:{e.line})", file=sys.stderr)
        ok = ok and gate.ok
        print(f"{label}: {len(by_parser[label])} cases, {len(gate.expected)} expected failures, "
              f"{len(gate.unexpected)} unexpected, {len(gate.stale)} stale", file=sys.stderr)
    return EXIT_OK if ok else EXIT_UNEXPECTED


def setup_command(args: argparse.Namespace) -> int:
    from .setup import check, setup
    return check() if args.check else setup()


def list_plugins(args: argparse.Namespace) -> int:
    """Every plugin --parser can name, whether it can run here, and if not, why."""
    rows = []
    for name, target in sorted(known().items()):
        t = launch.python_plugin(name, Limits())
        try:
            reason = _unavailable(Target(name, t))
        finally:
            t.close()
        rows.append((name, "available" if reason is None else f"unavailable: {reason}", target))
    width = max(len(r[0]) for r in rows)
    for name, state, target in rows:
        print(f"{name:<{width}}  {state}  ({target})")
    return EXIT_OK


def describe(args: argparse.Namespace) -> int:
    """Print a plugin's hello (name, version, capabilities, availability)."""
    t = launch.python_plugin(args.name, Limits())
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


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m harness", description="Binlog parser conformance harness")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("conformance", help="run parsers over corpora and check every outcome")
    c.add_argument("--parser", action="append", default=[], metavar="NAME",
                   help="a Python plugin: built-in, entry point, or module:attribute (repeatable)")
    c.add_argument("--parser-cmd", action="append", default=[], metavar="CMD",
                   help="a one-shot command: `CMD FILE` prints canonical JSON lines (repeatable)")
    c.add_argument("--parser-stream", action="append", default=[], metavar="CMD",
                   help="a one-shot stream command: `CMD --host H --port P ... --end-position N` "
                        "reads the case from the harness's primary and prints canonical JSON lines "
                        "(repeatable; docs/plugin-contract.md)")
    c.add_argument("--parser-persistent", action="append", default=[], metavar="CMD",
                   help="a persistent command speaking the JSON-lines protocol (repeatable)")
    c.add_argument("--corpus", action="append", default=[], metavar="DIR",
                   help="case directories or bare binlogs (repeatable; default: corpus)")
    c.add_argument("--expected-failures", metavar="FILE|DIR",
                   help="expected failures: a file, or a directory holding <parser>.txt")
    c.add_argument("--results", default=str(DEFAULT_RESULTS), metavar="FILE",
                   help=f"results stream, JSON lines appended as cases finish (default {DEFAULT_RESULTS})")
    c.add_argument("--json", metavar="FILE", help="write the JSON report")
    c.add_argument("--junit", metavar="FILE", help="write JUnit XML")
    c.add_argument("--html", metavar="FILE", help="write the HTML matrix report")
    c.add_argument("--fix", action="store_true", help="rewrite the expected-failures file(s) from this run")
    c.add_argument("--resume", action="store_true", help="keep the results stream and run only what is missing")
    c.add_argument("--timeout", type=float, default=60.0, help="seconds per file (default 60)")
    c.add_argument("--memory-mb", type=int, default=4096, help="data memory limit per parser process")
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
    ls = sub.add_parser("list", help="list the parser plugins that --parser can name")
    ls.set_defaults(run=list_plugins)
    d = sub.add_parser("describe", help="print a plugin's hello: version, capabilities, availability")
    d.add_argument("name")
    d.set_defaults(run=describe)
    from .fuzz.cli import add_commands as add_fuzz_commands  # issue 7: mutate / hypothesis / atheris
    add_fuzz_commands(sub)
    from .primary.server import add_serve_command  # issue 12: the replication primary
    add_serve_command(sub)
    from .peers.cli import add_commands as add_peers_commands  # issue 13: Node parsers from npm
    add_peers_commands(sub)
    __import__("harness.wire_faults.cli").wire_faults.cli.add_commands(sub)  # issue 13 item 5: wire faults
    return p


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)
