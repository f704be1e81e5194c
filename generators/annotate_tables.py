"""`python -m generators annotate-tables`: add case.json `tables` to committed cases without
touching their binlogs.

Cases written before `tables` existed (or closed by a shutdown, which leaves no server to ask)
are replayed: the statements and settings case.json recorded run again, in one session, on a
fresh server of the case's image started with the case's own server options (one server per
(image, options), reused: user schemas and LOAD DATA files are removed and the binlogs reset
between cases). The replay must write the same event types per statement as the original; the
schema is then read with the generators' own record_tables (dropped tables from the snapshot
taken before each DROP), and must agree with the case's Table_maps (generators/table_check.py).
A case failing either check keeps no `tables`, and the reason is printed. With --capture the
same server then serves the case's own files for the dump captures (capture_in_place.py).
"""
from __future__ import annotations

import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import casefile, docker_env, matrix, table_check
from .capture_in_place import InPlaceError, capture_in_place
from .cases import parse_version, run_scenario
from .profiles import get as get_profile
from .server import Server, running_server
from .sqlscript import Scenario
from .table_schema import record_tables, table_maps

_SYSTEM_SCHEMAS = frozenset({"mysql", "sys", "information_schema", "performance_schema"})


def log(msg: str) -> None:
    print(f"[annotate-tables {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


@dataclass
class Outcome:
    case_dir: Path
    status: str          # "annotated", "skipped" or "failed"
    detail: str = ""


def replay_scenario(case: dict[str, Any]) -> Scenario:
    """The scenario as case.json recorded it (not as the .sql file reads today), closed by a
    FLUSH whatever its end: a replay needs the server afterwards."""
    sc = case["scenario"]
    return Scenario(sc["name"], (case["server"]["flavor"],), {}, tuple(sc["declared_events"]),
                    tuple(sc["declared_columns"]), dict(sc["required_settings"]),
                    tuple(s["sql"] for s in case["statements"]), "flush")


def fresh_state(server: Server) -> None:
    """Drop what earlier replays left: user schemas and the LOAD DATA / OUTFILE files."""
    schemas = [r["Database"] or "" for r in server.query("SHOW DATABASES")]
    drops = "".join(f"DROP DATABASE `{s.replace('`', '``')}`;" for s in schemas
                    if s not in _SYSTEM_SCHEMAS)
    if drops:
        server.execute(drops)
    docker_env.docker_cli("exec", server.container_id, "sh", "-c",
                          f"rm -f {matrix.SECURE_FILE_DIR}/*")


# MariaDB writes Binlog_checkpoint from a background thread once the previous file's
# transactions are durable, so which statement's range it falls in is a matter of timing.
_ASYNCHRONOUS = frozenset({"Binlog_checkpoint"})


def _event_kinds(statements: list[dict[str, Any]]) -> list[list[tuple[str, str]]]:
    return [[(str(e["file"]), str(e["type"])) for e in s["events"] if e["type"] not in _ASYNCHRONOUS]
            for s in statements]


def _same_release(running: str, written: str) -> bool:
    """major.minor agree (the image is rebuilt from Debian's current packages, so its patch
    release can move on; the schema a DDL statement makes does not change within a release)."""
    return parse_version(running)[:2] == parse_version(written)[:2]


def replay_tables(server: Server, case_dir: Path, case: dict[str, Any]) -> list[dict[str, Any]]:
    """Replay the case and read its tables; raises NotReplayable when the replay is not the
    case's run or the schema disagrees with the case's Table_maps."""
    fresh_state(server)
    with tempfile.TemporaryDirectory(prefix="annotate-tables-") as tmp:
        result = run_scenario(server, replay_scenario(case), parse_version(server.version()),
                              Path(tmp) / "replay", matrix.SECURE_FILE_DIR)
    replayed = _event_kinds([r.to_json() for r in result.statements])
    original = _event_kinds(case["statements"])
    differing = [i for i, (a, b) in enumerate(zip(replayed, original)) if a != b]
    if differing:
        i = differing[0]
        raise NotReplayable(f"the replay wrote other events: statement {i} "
                            f"{original[i]} -> {replayed[i]}")
    expected = [f["expected"]["path"] for f in case["binlogs"]]
    tables = record_tables(server, case_dir, expected, result.client_output)
    problems = table_check.problems(tables, table_maps(case_dir / f for f in expected))
    if problems:
        raise NotReplayable("schema disagrees with the Table_maps: " + "; ".join(problems[:3]))
    return tables


class NotReplayable(RuntimeError):
    """The case's `tables` cannot be recorded by a replay (says why)."""


def annotate_one(server: Server, case_dir: Path, redo: bool, capture: bool) -> Outcome:
    case = casefile.read_case(case_dir)
    running, written = server.version(), case["server"]["version"]
    if not _same_release(running, written):
        return Outcome(case_dir, "skipped", f"the image runs {running}, the case was written by {written}")
    done: dict[str, Any] = {}
    notes = [] if running == written else [f"(server {running})"]
    if redo or "tables" not in case:
        try:
            done["tables"] = replay_tables(server, case_dir, case)
            notes.append(f"tables: {len(done['tables'])}")
        except NotReplayable as exc:
            notes.append(f"tables: not replayable: {exc}")
    if capture and (redo or "capture" not in case):
        try:
            done["capture"] = capture_in_place(server, case_dir, case)
            notes.append(f"capture: {len(done['capture']['requests'])} requests")
        except InPlaceError as exc:
            notes.append(f"capture: refused: {exc}")
    if done:
        write_entries(case_dir, case, done)
    return Outcome(case_dir, "annotated" if done else "skipped", " ".join(notes))


def write_entries(case_dir: Path, case: dict[str, Any], entries: dict[str, Any]) -> None:
    """case.json with `tables` and `capture` right after `binlogs`, where `generate` puts them."""
    merged = {**{k: case[k] for k in _AFTER_BINLOGS if k in case}, **entries}
    out: dict[str, Any] = {}
    for key, value in case.items():
        if key not in _AFTER_BINLOGS:
            out[key] = value
        if key == "binlogs":
            out.update((k, merged[k]) for k in _AFTER_BINLOGS if k in merged)
    casefile.write_case_json(case_dir, out)


_AFTER_BINLOGS = ("tables", "capture")


def _server_key(case: dict[str, Any]) -> tuple[str, tuple[tuple[str, str], ...]]:
    return case["server"]["profile"], tuple(sorted(case["config"]["server_options"].items()))


def annotate(case_dirs: Sequence[Path], redo: bool = False, capture: bool = False) -> list[Outcome]:
    """Annotate every selected case lacking `tables` (or, with capture, `capture`; all with redo)."""
    groups: dict[tuple[str, tuple[tuple[str, str], ...]], list[Path]] = defaultdict(list)
    for d in case_dirs:
        case = casefile.read_case(d)
        if redo or "tables" not in case or (capture and "capture" not in case):
            groups[_server_key(case)].append(d)
    total, done, outcomes = sum(len(g) for g in groups.values()), 0, []
    log(f"{total} case(s) to replay on {len(groups)} server start(s)")
    for (profile, options), dirs in sorted(groups.items()):
        log(f"{profile} {dict(options)}: starting for {len(dirs)} case(s)")
        with running_server(get_profile(profile), dict(options)) as server:
            for d in dirs:
                t0 = time.monotonic()
                try:
                    outcome = annotate_one(server, d, redo, capture)
                except Exception as exc:  # noqa: BLE001 - one broken replay must not stop the rest
                    outcome = Outcome(d, "failed", f"{type(exc).__name__}: {str(exc)[:300]}")
                done += 1
                outcomes.append(outcome)
                log(f"  [{done}/{total}] {profile}/{d.name}: {outcome.status} {outcome.detail} "
                    f"({time.monotonic() - t0:.1f}s)")
    return outcomes


def _selected(args: Any) -> list[Path]:
    if args.case:
        return [Path(c).resolve() for c in args.case]
    dirs = casefile.iter_case_dirs(Path(args.out))
    return [d for d in dirs if not args.server or d.parent.name in args.server]


def _cmd(args: Any) -> int:
    outcomes = annotate(_selected(args), redo=args.redo, capture=args.capture)
    print(f"{'case':52} {'status':10} detail")
    for o in outcomes:
        print(f"{o.case_dir.parent.name + '/' + o.case_dir.name:52} {o.status:10} {o.detail}")
    counts = {s: sum(o.status == s for o in outcomes) for s in ("annotated", "skipped", "failed")}
    print(" ".join(f"{k}: {v}" for k, v in counts.items()))
    return 1 if counts["failed"] else 0


def add_command(sub: Any) -> None:
    p = sub.add_parser("annotate-tables", help="replay committed cases on fresh servers and add "
                                               "case.json `tables` (binlogs untouched)")
    p.add_argument("--case", action="append", default=[], metavar="DIR", help="repeatable")
    p.add_argument("--server", action="append", default=[], metavar="PROFILE",
                   help="only this server's cases (repeatable)")
    p.add_argument("--capture", action="store_true",
                   help="also capture.json, the case's files served in place (capture_in_place.py)")
    p.add_argument("--redo", action="store_true", help="also cases already annotated")
    p.add_argument("--out", default=str(casefile.CORPUS_DIR), help="the corpus root")
    p.set_defaults(func=_cmd)
