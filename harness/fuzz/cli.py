"""Command line for the fuzz engines: `python -m harness.fuzz {mutate,atheris} ...` (and, once
wired into the harness CLI, `python -m harness fuzz ...`: call add_commands on its subparsers)."""
from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

from .seeds import DEFAULT_MAX_BYTES, DEFAULT_WINDOWS, default_seed_dirs, load_seeds


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seeds", nargs="*", type=Path, default=None,
                   help="directories of seed binlogs (default: corpus/ and ../shared/external-binlogs)")
    p.add_argument("--max-seed-bytes", type=int, default=DEFAULT_MAX_BYTES,
                   help="cut larger seeds into windows of at most this many bytes")
    p.add_argument("--windows", type=int, default=DEFAULT_WINDOWS, help="windows per large seed")
    p.add_argument("--out", type=Path, default=None, help="directory for summary.json and reproducers")
    p.add_argument("--timeout", type=float, default=5.0, help="seconds per input before it counts as a hang")
    p.add_argument("--memory-mb", type=int, default=2048, help="address-space limit of the parsing process")
    p.add_argument("--target", default="harness.fuzz.outcome:oracle_parse",
                   help="module:function, a callable parse(data: bytes) -> Outcome (default: the oracle)")
    p.add_argument("--parser", default=None, metavar="NAME",
                   help="an in-process harness parser plugin instead of --target (see python -m harness list)")


def add_commands(sub: argparse._SubParsersAction) -> None:
    m = sub.add_parser("mutate", help="deterministic pass of the mutation catalogue over the seeds")
    _common(m)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--count", type=int, default=10000, help="mutated inputs to run")
    m.add_argument("--operators", nargs="*", default=None, help="operator names (default: all)")
    m.add_argument("--workers", type=int, default=1)
    m.add_argument("--progress-every", type=int, default=10000)
    m.add_argument("--list", action="store_true", help="list the operators and exit")
    m.set_defaults(run=_mutate)
    a = sub.add_parser("atheris", help="coverage-guided session (libFuzzer via atheris)")
    _common(a)
    a.add_argument("--runs", type=int, default=0, help="inputs to run (0: until --max-time)")
    a.add_argument("--max-time", type=int, default=60, help="seconds")
    a.add_argument("--instrument", nargs="*", default=["oracle"], help="packages to instrument for coverage")
    a.set_defaults(run=_atheris)


def _seeds(args: argparse.Namespace):
    return load_seeds(args.seeds if args.seeds is not None else default_seed_dirs(),
                      args.max_seed_bytes, args.windows)


def _mutate(args: argparse.Namespace) -> int:
    from harness.mutations import CATALOGUE

    from .mutate_engine import Settings, run
    if args.list:
        for info in CATALOGUE.values():
            print(f"{info.area:9} {info.name:34} {(info.fn.__doc__ or '').strip().splitlines()[0] if info.fn.__doc__ else ''}")
        return 0
    settings = Settings(seed=args.seed, count=args.count, operators=tuple(args.operators or ()),
                        timeout=args.timeout, memory_mb=args.memory_mb, workers=args.workers,
                        out_dir=args.out, progress_every=args.progress_every)
    if args.parser:
        from .outcome import plugin_parse
        parse = plugin_parse(args.parser)
    else:
        module, _, name = args.target.partition(":")
        parse = getattr(importlib.import_module(module), name)
    summary = run(_seeds(args), settings, parse=parse,
                  progress=lambda line: print(line, file=sys.stderr, flush=True))
    _print_summary(summary)
    bad = {k: v for k, v in summary["findings"]["by_kind"].items() if v}
    return 1 if bad else 0


def _atheris(args: argparse.Namespace) -> int:
    from .atheris_engine import AtherisSettings, run_session
    settings = AtherisSettings(target=args.target, parser=args.parser, instrument=tuple(args.instrument), runs=args.runs,
                               max_time=args.max_time, timeout=args.timeout, memory_mb=args.memory_mb,
                               out_dir=args.out or Path("/tmp/binlog-atheris"))
    summary = run_session(_seeds(args), settings)
    _print_summary(summary)
    return 1 if summary.get("findings_total") else 0


def _print_summary(summary: dict) -> None:
    brief = {k: v for k, v in summary.items() if k not in ("per_operator",)}
    print(json.dumps(brief, indent=2, default=str))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.fuzz", description=__doc__)
    add_commands(p.add_subparsers(dest="engine", required=True))
    args = p.parse_args(argv)
    return args.run(args)
