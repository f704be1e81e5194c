"""Command line of the fuzz engines (issue 7):

    python -m harness fuzz --parser NAME --engine {mutate,hypothesis,atheris,native}
                           [--seconds N | --count N] [--seed S] [--out DIR] [--differential]
                           [--json [FILE]] [--record [DIR]]

`mutate` walks the operator catalogue over the seed binlogs deterministically, `hypothesis` runs
the binlog strategies (generators/strategies), `atheris` a coverage-guided libFuzzer session,
`native` a coverage-guided session inside the parser's own runtime, steered by the library's
coverage (go test -fuzz, Jazzer, libFuzzer, atheris; harness/fuzz/native/).
Every run ends with one summary line (inputs run, per second, findings by kind) and exits 0 when
there is no finding, 1 when there is (2 on bad usage, or when no input could run). --differential also decodes every input
with the oracle and counts any disagreement with it as a finding. The older forms
`python -m harness fuzz mutate ...` / `python -m harness.fuzz atheris ...` still work: a leading
engine name is the same as --engine. A stream parser (a plugin whose transport is "stream", or
`--parser-stream CMD`) is served every input by the harness's primary (stream_target.py), with
any engine; the summary says `"transport": "stream"`.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable

from harness import selection

from .seeds import DEFAULT_MAX_BYTES, DEFAULT_WINDOWS, default_seed_dirs, load_seeds

ENGINES = ("mutate", "hypothesis", "atheris", "native")
DEFAULT_COUNT = {"mutate": 10000, "hypothesis": 200, "atheris": 0, "native": 0}
DEFAULT_SECONDS = 60  # atheris, when neither --seconds nor --count is given
EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2
FUZZ_KINDS = (selection.PLUGIN, selection.STREAM_COMMAND)  # one parser each


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("engine_alias", nargs="?", choices=ENGINES, metavar="ENGINE",
                   help="the same as --engine (the older subcommand form)")
    p.add_argument("--engine", choices=ENGINES, default=None, help="default: mutate")
    selection.add_flags(p, FUZZ_KINDS, repeat=False, extra_help={
        selection.PLUGIN: "; default: the oracle in-process. A stream parser is served every input by "
                          "the harness's primary (harness/fuzz/stream_target.py); a runtime parser's "
                          "adapter starts once per parsing process",
        selection.STREAM_COMMAND: ", served every input by the primary"})
    bound = p.add_mutually_exclusive_group()
    bound.add_argument("--seconds", type=float, default=None, help="run for this long")
    bound.add_argument("--count", type=int, default=None,
                       help=f"inputs to run (defaults: {', '.join(f'{k} {v}' for k, v in DEFAULT_COUNT.items())}; "
                            "atheris 0 = until --seconds)")
    p.add_argument("--seed", type=int, default=0, help="run seed: the same seed gives the same inputs")
    p.add_argument("--out", type=Path, default=None, help="directory for summary.json and reproducers")
    p.add_argument("--differential", action="store_true",
                   help="compare the parser with the oracle on every input (outcome and canonical events)")
    p.add_argument("--seeds", nargs="*", type=Path, default=None,
                   help="directories of seed binlogs (default: corpus/ and ../shared/external-binlogs)")
    p.add_argument("--max-seed-bytes", type=int, default=DEFAULT_MAX_BYTES,
                   help="cut larger seeds into windows of at most this many bytes")
    p.add_argument("--windows", type=int, default=DEFAULT_WINDOWS, help="windows per large seed")
    p.add_argument("--timeout", type=float, default=None,
                   help="seconds per input before it counts as a hang (default 5; 60 for an external tool)")
    p.add_argument("--memory-mb", type=int, default=2048, help="address-space limit of the parsing process")
    p.add_argument("--target", default="harness.fuzz.outcome:oracle_parse",
                   help="module:function, a callable parse(data: bytes) -> Outcome, when no --parser")
    p.add_argument("--operators", nargs="*", default=None, help="mutate/atheris: operator names (default: all)")
    p.add_argument("--workers", type=int, default=1, help="mutate: parsing processes")
    p.add_argument("--progress-every", type=int, default=10000, help="mutate: progress line every N inputs")
    p.add_argument("--instrument", nargs="*", default=None,
                   help="atheris: packages to instrument for coverage (default: oracle, plus the plugin's)")
    p.add_argument("--list", action="store_true", help="list the mutation operators and exit")
    p.add_argument("--json", nargs="?", const="-", default=None, metavar="FILE",
                   help="also the whole summary as JSON: printed, or written to FILE")
    p.add_argument("--record", nargs="?", const=str(Path(__file__).resolve().parents[2] / "corpus" / "findings"),
                   default=None, metavar="DIR",
                   help="native: replay, minimise and record each new finding as a case under DIR/<parser>/ "
                        "(default corpus/findings)")
    p.set_defaults(run=run)


def add_commands(sub: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register `fuzz` on a subparsers object (the harness CLI's)."""
    fz = sub.add_parser("fuzz", help="fuzz a parser: mutate / hypothesis / atheris engines",
                        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(fz)
    return fz


def _engine(args: argparse.Namespace) -> str:
    if args.engine and args.engine_alias and args.engine != args.engine_alias:
        raise SystemExit(f"error: engine given twice ({args.engine_alias}, --engine {args.engine})")
    return args.engine or args.engine_alias or "mutate"


def run(args: argparse.Namespace) -> int:
    if args.list:
        return _list_operators()
    engine = _engine(args)
    if args.parser_stream:
        if args.parser:
            print("error: --parser and --parser-stream name one parser each: give one", file=sys.stderr)
            return EXIT_USAGE
        from .testee_target import COMMAND_PREFIX
        args.parser = COMMAND_PREFIX + args.parser_stream  # a spec targets._plugin_parse knows
    if args.differential and not args.parser:
        print("error: --differential compares a --parser with the oracle: name one", file=sys.stderr)
        return EXIT_USAGE
    from .testee_target import ParserUnavailable
    started = time.monotonic()
    try:
        summary = ENGINE_RUNNERS[engine](args)
    except ParserUnavailable as e:  # not built, a tool missing: said with the command that provides it
        print(f"error: {e}", file=sys.stderr)
        return EXIT_USAGE
    summary.setdefault("elapsed_s", round(time.monotonic() - started, 1))
    from .testee_target import transport_of
    summary.setdefault("transport", transport_of(args.parser))
    _note_transport(args.out, summary["transport"])
    if args.json and engine != "native":  # native writes the shape itself
        text = json.dumps({k: v for k, v in summary.items() if k != "per_operator"}, indent=2, default=str)
        print(text) if args.json == "-" else Path(args.json).write_text(text + "\n")
    print(summary_line(engine, args.parser or "oracle", summary))
    if summary.get("error"):  # no input ran: not a clean result
        print(f"error: {summary['error']}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_FINDINGS if sum(_by_kind(summary).values()) else EXIT_OK


def _by_kind(summary: dict[str, Any]) -> dict[str, int]:
    """Findings by kind: the engines' summaries keep them under findings, the native one beside
    its list of findings (the issue's JSON shape)."""
    return summary["by_kind"] if "by_kind" in summary else summary["findings"]["by_kind"]


def summary_line(engine: str, parser: str, summary: dict[str, Any]) -> str:
    by_kind = {k: v for k, v in _by_kind(summary).items() if v}
    found = ", ".join(f"{k} {v}" for k, v in by_kind.items()) if by_kind else "none"
    rate = summary.get("inputs_per_s")
    extra = summary.get("line_extra", "")
    out = f" -> {summary['out']}" if summary.get("out") else ""
    via = f" ({summary['transport']})" if summary.get("transport", "file") != "file" else ""
    return (f"fuzz {engine} {parser}{via}: {summary['inputs']} inputs in {summary['elapsed_s']} s "
            f"({rate if rate is not None else '?'}/s){extra}; findings: {found}{out}")


def _note_transport(out: Path | None, transport: str) -> None:
    """The run's summary.json says how the parser got its inputs, as its findings' notes do."""
    path = out / "summary.json" if out else None
    if path is not None and path.is_file():
        summary = json.loads(path.read_text())
        summary["transport"] = transport
        path.write_text(json.dumps(summary, indent=2, default=str) + "\n")


def _list_operators() -> int:
    from harness.mutations import CATALOGUE
    for info in CATALOGUE.values():
        doc = (info.fn.__doc__ or "").strip().splitlines()
        requires = f" [requires {info.requires.__name__}]" if info.requires else ""
        print(f"{info.area:9} {info.name:34} {doc[0] if doc else ''}{requires}")
    return EXIT_OK


def _timeout(args: argparse.Namespace) -> float:
    if args.timeout is not None:
        return args.timeout
    return 5.0 if args.parser in (None, "oracle") else 60.0


def _plugin(args: argparse.Namespace) -> str | None:
    """The parser plugin to load, None for the in-process target. The oracle's plugin is the
    decoder the target calls, behind a temporary file per input: without --differential the
    engines call the decoder directly (and the mutate engine decodes each mutant only where it
    differs from its seed, harness/fuzz/resume.py)."""
    return None if args.parser == "oracle" and not args.differential else args.parser


def _parse(args: argparse.Namespace) -> Callable:
    from .outcome import oracle_parse
    from .targets import differential_parse, plugin_parse
    plugin = _plugin(args)
    if plugin:
        return (differential_parse if args.differential else plugin_parse)(plugin, _timeout(args))
    if args.parser == "oracle":
        return oracle_parse
    module, _, name = args.target.partition(":")
    return getattr(importlib.import_module(module), name)


def _seeds(args: argparse.Namespace):
    seeds = load_seeds(args.seeds if args.seeds is not None else default_seed_dirs(),
                       args.max_seed_bytes, args.windows)
    from .stream_frames import streamable_seeds
    from .stream_target import STREAM
    from .testee_target import transport_of
    if transport_of(args.parser) == STREAM:
        seeds = streamable_seeds(seeds, lambda line: print(line, file=sys.stderr, flush=True))
    return seeds


def _mutate(args: argparse.Namespace) -> dict[str, Any]:
    from .mutate_engine import Settings, run as run_mutate
    in_process = args.parser in (None, "oracle")
    count = args.count if args.count is not None else (
        10**12 if args.seconds is not None else DEFAULT_COUNT["mutate"])
    settings = Settings(seed=args.seed, count=count, operators=tuple(args.operators or ()),
                        timeout=_timeout(args), memory_mb=args.memory_mb, workers=args.workers,
                        batch=200 if in_process else 10, out_dir=args.out,
                        progress_every=args.progress_every, seconds=args.seconds)
    summary = run_mutate(_seeds(args), settings, parse=_parse(args),
                         progress=lambda line: print(line, file=sys.stderr, flush=True))
    summary["out"] = str(args.out) if args.out else None
    return summary


def _hypothesis(args: argparse.Namespace) -> dict[str, Any]:
    from .hypothesis_engine import HypothesisSettings, run as run_hypothesis
    count = args.count if args.count is not None else (None if args.seconds else DEFAULT_COUNT["hypothesis"])
    settings = HypothesisSettings(seed=args.seed, count=count, seconds=args.seconds, timeout=_timeout(args),
                                  out_dir=args.out, parser=args.parser)
    summary = run_hypothesis(settings, progress=lambda line: print(line, file=sys.stderr, flush=True))
    summary["out"] = str(args.out) if args.out else None
    return summary


def _atheris(args: argparse.Namespace) -> dict[str, Any]:
    from .atheris_engine import AtherisSettings, run_session
    out = args.out or Path(f"/tmp/binlog-atheris-{args.parser or 'oracle'}")
    runs = args.count if args.count is not None else DEFAULT_COUNT["atheris"]
    seconds = int(args.seconds) if args.seconds is not None else (0 if runs else DEFAULT_SECONDS)
    instrument = tuple(args.instrument) if args.instrument is not None else _instrumented(args.parser)
    target = "harness.fuzz.outcome:oracle_parse" if args.parser == "oracle" else args.target
    settings = AtherisSettings(target=target, parser=_plugin(args), instrument=instrument, runs=runs,
                               max_time=seconds, timeout=_timeout(args), memory_mb=max(args.memory_mb, 4096),
                               out_dir=out, seed=args.seed, differential=args.differential,
                               operators=tuple(args.operators or ()), oracle_coverage=_own_process(args.parser))
    s = run_session(_seeds(args), settings)
    if not s["started"]:
        tail = Path(s["log"]).read_text(errors="replace")[-2000:]
        s["error"] = f"the atheris session died before running an input; {s['log']} ends:\n{tail}"
    cov = s.get("coverage_final") or {}
    initial = s.get("coverage_initial") or {}
    gained = cov.get("cov", 0) - initial.get("cov", 0) if cov and initial else None
    return {**s, "inputs": s.get("executions") or 0, "inputs_per_s": s.get("executions_per_s"),
            "out": str(out),
            "line_extra": f", coverage {cov.get('cov', '?')} edges ({'+' if gained is not None else ''}"
                          f"{gained if gained is not None else '?'} new), {s.get('new_units') or 0} new units"}


def _own_process(parser: str | None) -> bool:
    """The parser runs in a process of its own (a runtime parser, a stream command): no Python
    coverage of its decoding exists, so the atheris session takes the oracle's."""
    from .testee_target import COMMAND_PREFIX, is_runtime_parser
    return bool(parser) and (is_runtime_parser(parser) or parser.startswith(COMMAND_PREFIX))


# The package a Python library of the registry decodes in (its PyPI name -> its import name).
DECODING_PACKAGE = {"mysql-replication": "pymysqlreplication"}


def _instrumented(parser: str | None) -> tuple[str, ...]:
    """Coverage comes from the Python code that decodes: the oracle always (a differential run
    and the oracle plugin use it), and the plugin's own library when it is Python."""
    from harness.parsers.registry import BY_NAME
    entry = BY_NAME.get(parser or "")
    own = DECODING_PACKAGE.get(entry.library) if entry is not None and entry.in_process else None
    return ("oracle", *((own,) if own else ()))


def _native(args: argparse.Namespace) -> dict[str, Any]:
    from .native.run import run as run_native
    return run_native(args)


ENGINE_RUNNERS: dict[str, Callable[[argparse.Namespace], dict[str, Any]]] = {
    "mutate": _mutate, "hypothesis": _hypothesis, "atheris": _atheris, "native": _native}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.fuzz", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_arguments(p)
    args = p.parse_args(argv)
    return args.run(args)
