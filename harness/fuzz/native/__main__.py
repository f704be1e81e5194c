"""`python -m harness.fuzz.native all --seconds N [--out DIR]`: every native target in turn (what
`nox -s fuzz_native` runs), a table at the end, then the differential batch of what they kept; `build`: build every target's folder into the
cache (what CI does before the smoke test); `differential --runs DIR`: what those runs kept, through
every file parser and the oracle (differential.py)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import TARGETS, runtime_of


def _all(args: argparse.Namespace) -> int:
    from harness.fuzz.cli import main as fuzz_main
    rows, worst = [], 0
    for parser in args.parser or sorted(TARGETS):
        out = args.out / parser
        argv = ["--engine", "native", "--parser", parser, "--seconds", str(args.seconds), "--out", str(out),
                "--json", str(out / "native.json")]
        rc = fuzz_main(argv + (["--record", str(args.record)] if args.record else []))
        worst = max(worst, rc)
        s = json.loads((out / "native.json").read_text()) if (out / "native.json").is_file() else {}
        rows.append((parser, s.get("fuzzer", "?"), s.get("executions"), s.get("coverage_start"), s.get("coverage_end"),
                     len(s.get("findings", [])), len(s.get("recorded", []))))
    print(f"\n{'parser':34} {'engine':26} {'executions':>10} {'cov start':>9} {'cov end':>8} {'findings':>8} {'recorded':>8}")
    for r in rows:
        print(f"{r[0]:34} {r[1]:26} {r[2]!s:>10} {r[3]!s:>9} {r[4]!s:>8} {r[5]:>8} {r[6]:>8}")
    if args.differential:  # what the runs kept, through every file parser (a finding there is reported, not fatal)
        from .differential import main as differential_main
        differential_main(["--runs", str(args.out), "--out", str(args.out / "differential")]
                          + (["--record", str(args.record)] if args.record else []))
    return worst


def _build(args: argparse.Namespace) -> int:
    for parser in args.parser or sorted(TARGETS):
        target = TARGETS[parser]
        runtime_of(target).build(target, lambda line: print(f"  {parser}: {line}", file=sys.stderr, flush=True))
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.fuzz.native", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)
    a = sub.add_parser("all", help="run every native target in turn")
    a.add_argument("--seconds", type=float, default=60)
    a.add_argument("--out", type=Path, default=Path("build/fuzz-native"))
    a.add_argument("--record", type=Path, default=None, help="record new findings as cases under DIR")
    a.add_argument("--parser", action="append", choices=sorted(TARGETS))
    a.add_argument("--no-differential", dest="differential", action="store_false",
                   help="skip the differential batch of what the runs kept (differential.py)")
    a.set_defaults(run=_all)
    b = sub.add_parser("build", help="build every native target's folder into the cache")
    b.add_argument("--parser", action="append", choices=sorted(TARGETS))
    b.set_defaults(run=_build)
    d = sub.add_parser("differential", help="run what the native runs kept through every file parser (differential.py)",
                       add_help=False)
    d.set_defaults(run=None)
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["differential"]:
        from .differential import main as differential_main
        return differential_main(argv[1:])
    args = p.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
