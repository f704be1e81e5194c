"""Build annotated cases from real servers: one server start per (server, configuration), every
selected scenario run on it in turn (binlogs reset between scenarios), each written to
<out>/<server>/<scenario>--<config>/. Progress goes to stderr.
"""
from __future__ import annotations

import shutil
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import casefile, matrix
from .cases import parse_version, run_scenario
from .profiles import ServerProfile
from .server_registry import ENTRIES
from .server import running_server
from .sqlscript import Scenario, catalogue

DEFAULT_SERVERS = tuple(e.profile_name for e in ENTRIES if e.in_corpus)
DEFAULT_CAPTURE_OUT = "/tmp/binlog-captures"


def log(msg: str) -> None:
    print(f"[generate {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def planned_version(profile: ServerProfile) -> matrix.Version:
    """Before a server is up we know only major.minor; assume the newest patch of it."""
    return (*(int(x) for x in profile.version.split(".")), 999)


@dataclass(frozen=True)
class Run:
    """One server start: a configuration and the scenarios that run under it, shutdown last."""

    profile: ServerProfile
    config: matrix.Config
    scenarios: tuple[Scenario, ...]


def plan(profile: ServerProfile, scenarios: Sequence[Scenario], *, all_configs: bool = False,
         committed: bool = True, configs: Sequence[str] = ()) -> list[Run]:
    version = planned_version(profile)
    runs = []
    for name in matrix.DEFAULT_ORDER:
        if configs and name not in configs:
            continue
        chosen = [s for s in scenarios if name in {c.name for c in matrix.select(
            s, profile.flavor, version, all_configs=all_configs or bool(configs), committed=committed)}]
        ends = [s for s in chosen if s.end != "flush"]
        if len(ends) > 1:  # each stops the server: only one per start
            chosen = [s for s in chosen if s.end == "flush"] + ends[:1]
        chosen.sort(key=lambda s: s.end != "flush")
        if chosen:
            runs.append(Run(profile, matrix.CONFIGS[name], tuple(chosen)))
    return runs


def case_name(scenario: Scenario, config: matrix.Config) -> str:
    return f"{scenario.name}--{config.name}"


def _case_json(run: Run, scenario: Scenario, version_text: str, options: dict[str, str],
               result: Any, files: list[dict[str, Any]]) -> dict[str, Any]:
    p, version = run.profile, parse_version(version_text)
    return {
        "schema_version": casefile.SCHEMA_VERSION,
        "name": case_name(scenario, run.config),
        "server": {"profile": p.name, "image": p.image, "local_image": p.local,
                   "flavor": p.flavor, "version": version_text},
        "config": {"name": run.config.name, "description": run.config.description,
                   "settings": run.config.applicable(p.flavor, version), "server_options": options},
        "scenario": {"name": scenario.name, "source": f"generators/scenarios/{scenario.name}.sql",
                     "declared_events": list(scenario.events),
                     "declared_columns": list(scenario.columns),
                     "required_settings": scenario.settings, "end": scenario.end},
        "statements": [s.to_json() for s in result.statements],
        "files": [f["name"] for f in files],  # the plain list harness/corpus.py reads
        "binlogs": files,
    }


def record_live_state(server: Any, dest: Path, case: dict[str, Any], result: Any,
                      capture: bool) -> None:
    """What only the live server can still tell once the case's files are written: the schema
    of the tables its Table_maps name, and (capture=True) what it sends for dumps of the case.
    A scenario that ends with a shutdown has no server left, so it gets neither."""
    from .capture_case import capture_case
    from .table_schema import record_tables
    if result.epilogue != "flush":
        return
    case["tables"] = record_tables(server, dest, [f["expected"]["path"] for f in case["binlogs"]],
                                   result.client_output)
    if capture:
        case["capture"] = capture_case(server, dest, result.files, result.server_events[result.files[0]])


def execute_run(run: Run, out: Path, failures: list[str], capture: bool = True) -> list[Path]:
    """Start the server for `run`, write every case; returns the case dirs written. A failing
    scenario is logged and appended to `failures`; the others still run."""
    p = run.profile
    options = matrix.server_options(run.config, p.flavor, planned_version(p))
    log(f"{p.name} [{run.config.name}]: starting ({len(run.scenarios)} scenarios)")
    written = []
    with running_server(p, options) as server:
        version_text = server.version()
        version = parse_version(version_text)
        for scenario in sorted(run.scenarios, key=lambda s: s.end != "flush"):  # shutdown last
            if not scenario.supports(p.flavor, version):
                log(f"  skip {scenario.name}: needs a newer {p.flavor} than {version_text}")
                continue
            dest = out / p.name / case_name(scenario, run.config)
            if dest.exists():
                shutil.rmtree(dest)
            try:
                result = run_scenario(server, scenario, version, dest, matrix.SECURE_FILE_DIR)
                files = [casefile.file_entry(dest / f, casefile.write_tool_text(p, dest / f),
                                             result.server_events[f]) for f in result.files]
                case = _case_json(run, scenario, version_text, options, result, files)
                record_live_state(server, dest, case, result, capture)
            except Exception as exc:  # noqa: BLE001 - one broken scenario must not stop the run
                failures.append(f"{p.name} {case_name(scenario, run.config)}: {type(exc).__name__}: {exc}")
                log(f"  FAILED {failures[-1]}")
                shutil.rmtree(dest, ignore_errors=True)
                continue
            casefile.add_summaries(case, dest)
            casefile.write_case_json(dest, case)
            size = sum(f["size"] for f in case["binlogs"])
            log(f"  {dest.relative_to(out)}: {len(files)} file(s), {size} bytes, "
                f"{len(case['event_types'])} event types, {result.seconds}s")
            written.append(dest)
    return written


def generate(servers: Sequence[str], scenario_names: Sequence[str], out: Path, *,
             configs: Sequence[str] = (), all_configs: bool = False,
             include_uncommitted: bool = False, capture: bool = True) -> list[Path]:
    from .profiles import get
    scenarios = catalogue()
    if scenario_names:
        unknown = set(scenario_names) - {s.name for s in scenarios}
        if unknown:
            raise SystemExit(f"unknown scenario(s): {', '.join(sorted(unknown))}")
        scenarios = [s for s in scenarios if s.name in scenario_names]
    written: list[Path] = []
    failures: list[str] = []
    for name in servers:
        for run in plan(get(name), scenarios, all_configs=all_configs, configs=configs,
                        committed=not include_uncommitted):
            written += execute_run(run, out, failures, capture)
    log(f"{len(written)} case(s) written under {out}")
    if failures:
        raise SystemExit("some scenarios failed:\n" + "\n".join(failures))
    return written


def add_commands(sub: Any) -> None:
    """Register generate / refresh-expected / coverage on the `python -m generators` parser."""
    p = sub.add_parser("generate", help="run scenarios on real servers and write annotated cases")
    p.add_argument("--server", action="append", default=[], metavar="PROFILE",
                   help=f"repeatable; default: {' '.join(DEFAULT_SERVERS)}")
    p.add_argument("--scenario", action="append", default=[], metavar="NAME", help="repeatable")
    p.add_argument("--config", action="append", default=[], metavar="NAME",
                   help=f"repeatable; one of {' '.join(matrix.CONFIGS)}")
    p.add_argument("--all-configs", action="store_true", help="every fitting configuration")
    p.add_argument("--include-uncommitted", action="store_true",
                   help=f"also {' '.join(sorted(matrix.NOT_COMMITTED))} (too big for git)")
    p.add_argument("--out", default=str(casefile.CORPUS_DIR))
    p.add_argument("--no-capture", dest="capture", action="store_false",
                   help="skip the dump captures (capture.json)")
    p.set_defaults(func=_cmd_generate)
    p = sub.add_parser("capture", help="write fresh cases with their dump captures (capture.json) "
                                       "for a few scenarios, outside the corpus by default")
    p.add_argument("--server", action="append", required=True, metavar="PROFILE")
    p.add_argument("--scenario", action="append", required=True, metavar="NAME")
    p.add_argument("--config", action="append", default=[], metavar="NAME")
    p.add_argument("--out", default=DEFAULT_CAPTURE_OUT,
                   help=f"default {DEFAULT_CAPTURE_OUT}; corpus/ to write into the corpus")
    p.set_defaults(func=_cmd_capture)
    p = sub.add_parser("refresh-expected", help="rewrite expected.jsonl from the current oracle")
    p.add_argument("--out", default=str(casefile.CORPUS_DIR))
    p.set_defaults(func=_cmd_refresh)
    p = sub.add_parser("coverage", help="rewrite corpus/COVERAGE.md from the cases")
    p.add_argument("--out", default=str(casefile.CORPUS_DIR))
    p.set_defaults(func=_cmd_coverage)


def _cmd_generate(args: Any) -> int:
    from . import coverage
    out = Path(args.out)
    generate(args.server or DEFAULT_SERVERS, args.scenario, out, configs=args.config,
             all_configs=args.all_configs, include_uncommitted=args.include_uncommitted,
             capture=args.capture)
    log(f"coverage: {coverage.write(out)}")
    return 0


def _cmd_capture(args: Any) -> int:
    out = Path(args.out)
    for case_dir in generate(args.server, args.scenario, out, configs=args.config,
                             include_uncommitted=True, capture=True):
        print(case_dir)
    return 0


def _cmd_refresh(args: Any) -> int:
    dirs = casefile.iter_case_dirs(Path(args.out))
    changed = [d for d in dirs if casefile.refresh(d)]
    for d in changed:
        log(f"changed: {d}")
    log(f"{len(changed)} of {len(dirs)} case(s) changed")
    return _cmd_coverage(args)


def _cmd_coverage(args: Any) -> int:
    from . import coverage
    print(coverage.write(Path(args.out)))
    return 0
