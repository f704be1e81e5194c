"""The end of a conformance run: each parser's results gated on its expected failures
(harness/expected/<parser>.txt), the reports, and one summary line per parser. Shared by a run in
one process (cli.py) and the side-by-side run of several (jobs.py)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import expected_failures as xf
from .outcomes import CaseResult
from .reports import html, json_report, junit

EXIT_OK, EXIT_UNEXPECTED, EXIT_USAGE = 0, 1, 2


def expected_path(arg: str | None, label: str, n_targets: int) -> Path | None:
    if arg is None:
        return None
    p = Path(arg)
    if p.is_dir() or arg.endswith("/"):
        return p / f"{label}.txt"
    if n_targets > 1:
        raise SystemExit("error: with several parsers, --expected-failures must be a directory of <parser>.txt")
    return p


def load_wire_faults(path: str | None) -> list[dict] | None:
    """The verdicts of `python -m harness faults --json`, for the report's wire-faults columns."""
    if path is None:
        return None
    try:
        records = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise SystemExit(f"error: --wire-faults {path}: {e}") from e
    if not isinstance(records, list):
        raise SystemExit(f"error: --wire-faults {path}: not a list of fault results")
    return records


def finish(args: argparse.Namespace, all_results: list[CaseResult], labels: list[str],
           entries: dict[str, list], expected_paths: dict[str, Path | None], unavailable: dict[str, str]) -> int:
    """Gate each parser's results on its expected failures (rewritten first under --fix), write
    the reports the flags ask for, print one line per parser (and each unexpected or stale
    entry); the run's exit status."""
    by_parser = {label: [r for r in all_results if r.parser == label] for label in labels}
    if args.fix:
        for label, rs in by_parser.items():
            if label in unavailable:
                continue  # nothing is known about it here: its file stays as it is
            path = expected_paths[label]
            if path is None:
                print("error: --fix needs --expected-failures", file=sys.stderr)
                return EXIT_USAGE
            n = xf.fix(path, rs, f"Expected conformance failures of {label}: <case id> <outcome> "
                                 f"[diffs=<digest of all its differences>] <message prefix> cause=<finding id>."
                                 f"\nRegenerate with: "
                                 f"python -m harness conformance "
                                 f"--parser {label} ... --fix")
            print(f"{path}: {n} expected failures written", file=sys.stderr)
            uncaused = [e.case for e in xf.load(path) if not e.cause]
            if uncaused:
                print(f"{path}: {len(uncaused)} new entries need cause=<finding id> (harness/manifests.py), "
                      f"e.g. {uncaused[0]}", file=sys.stderr)
        entries = {label: xf.load(expected_paths[label]) for label in by_parser}
    gates = {label: xf.gate(rs, entries[label]) for label, rs in by_parser.items()}
    if args.json:
        json_report.write(Path(args.json), all_results, gates)
    if args.junit:
        junit.write(Path(args.junit), all_results, gates)
    if args.html:
        html.write(Path(args.html), all_results, gates, load_wire_faults(getattr(args, "wire_faults", None)))
    ok = len(unavailable) < len(labels)
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
            print(f"UNEXPECTED {label} {r.key}: {why}", file=sys.stderr)
        for e in gate.stale:
            print(f"STALE {label} {e.case}: expected-failure entry for a case that was not run "
                  f"({expected_paths[label]}:{e.line})", file=sys.stderr)
        passed = gate.passed_not_applicable
        if passed:  # a note, not a failure: the parser read cases its manifest says it refuses
            causes = sorted({r.cause for r in passed})
            print(f"NOTE {label}: passed {len(passed)} case(s) its manifest declares not applicable "
                  f"(cause {', '.join(causes)}), e.g. {passed[0].case}", file=sys.stderr)
        ok = ok and gate.ok
        na = f", {len(gate.not_applicable)} not applicable" if gate.not_applicable else ""
        print(f"{label}: {len(by_parser[label])} cases, {len(gate.expected)} expected failures, "
              f"{len(gate.unexpected)} unexpected, {len(gate.stale)} stale{na}", file=sys.stderr)
    return EXIT_OK if ok else EXIT_UNEXPECTED
