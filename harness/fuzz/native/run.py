"""`python -m harness fuzz --engine native`: the parser's native target run for --seconds, its
findings gathered (one per signature), optionally recorded as corpus cases (--record), and a
summary in the issue's JSON shape (--json FILE)."""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

from . import TARGETS, runtime_of
from .session import NativeSettings, gather, summary

DEFAULT_SECONDS = 60
COUNT_BOUND_S = 900  # with --count and no --seconds: the bound on the rounds it takes to run them


def say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run(args: argparse.Namespace) -> dict[str, Any]:
    from harness.fuzz.seeds import default_seed_dirs, load_seeds
    from harness.fuzz.testee_target import ParserUnavailable
    target = TARGETS.get(args.parser or "")
    if target is None:
        raise ParserUnavailable(f"no native fuzz target for {args.parser or 'the oracle'}; "
                                f"native targets: {', '.join(sorted(TARGETS))}")
    rt = runtime_of(target)
    out = args.out or Path(f"/tmp/binlog-native-{target.parser}")
    seconds = args.seconds if args.seconds is not None else COUNT_BOUND_S if args.count is not None else DEFAULT_SECONDS
    s = NativeSettings(seconds=seconds, out=out, memory_mb=args.memory_mb, runs=args.count,
                       timeout=args.timeout if args.timeout is not None else 5.0, seed=args.seed)
    # The recorded findings are left out of the seeds: each would stop the engine (or fill the
    # findings) with what is known already, before any fuzzing.
    seeds = [seed.data for seed in load_seeds(args.seeds if args.seeds is not None else default_seed_dirs(),
                                             args.max_seed_bytes, args.windows)
             if f"{os.sep}findings{os.sep}" not in seed.name]
    say(f"native {rt.engine}: {target.parser}, entry points {', '.join(target.entry_points)}, "
        f"{len(seeds)} seeds, {seconds:g}s")
    started = time.monotonic()
    runs = rt.run(target, seeds, s, say)
    found = gather(out, target.entry_points)
    result = summary(target, rt, runs, found, time.monotonic() - started, out)
    if getattr(args, "record", None):
        result["recorded"] = _record(rt, target, found, s, args)
    (out / "summary.json").write_text(json.dumps(result, indent=2) + "\n")
    if args.json not in (None, "-"):
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    by_kind = Counter(f.kind for f in found)
    cov = f", {rt.coverage_unit} {result['coverage_start']} -> {result['coverage_end']}"
    return {**result, "inputs": result["executions"], "inputs_per_s": result["executions_per_s"],
            "by_kind": dict(by_kind), "line_extra": cov}


def _record(rt, target, found, s: NativeSettings, args: argparse.Namespace) -> list[str]:
    from .record import record, recorded_signatures
    findings_dir = Path(args.record)
    known = recorded_signatures(findings_dir, target.parser)
    built = rt.build(target, say)
    written = []
    for f in found:
        if f.signature in known:
            say(f"  {f.signature}: recorded already ({known[f.signature]})")
            continue
        case = record(rt, built, target, f, s, findings_dir,
                      f"python -m harness fuzz --engine native --parser {target.parser} --seconds {s.seconds:g}")
        say(f"  {f.signature}: {'recorded in ' + str(case) if case else 'does not replay outside the engine'}")
        if case:
            written.append(str(case))
    return written
