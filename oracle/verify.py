"""`python -m oracle verify FILE`: the oracle against the real tool, event by event.

Runs the reference tool for the file's flavor with -vvv and TZ=UTC: MySQL 9.7's `mysqlbinlog`
(from the local docker image) for MySQL binlogs, `mariadb-binlog` for MariaDB ones (the host's,
else the one in the local MariaDB 11.8 image); any other command with --mysqlbinlog. It parses
the tool's text (oracle/mysqlbinlog_text.py), decodes FILE with the oracle, and lists every field
where the two disagree. Header fields are always compared; body fields once the oracle's decoder
for that event emits them (BODY_FIELDS).

A tool that stops early while the oracle reads on has not agreed on the rest: the report says
"not compared past offset N" and the exit status is 1, never 0.
Exit 0: every event compared, no disagreement; 1: disagreements or events not compared; 2: the
tool could not be run.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass, field
from typing import Any, Callable

from .decoder import decode_file
from .errors import BinlogError
from .event_types import HeaderFlag, type_name
from .model import Event, checksum_of
from .mysqlbinlog_text import TextDump, TextEvent, decode_output, parse
from .text_table import render
from .tool_image import MYSQL_IMAGE, docker_run_argv, find_docker
from .values import plain

TOOL_TIMEOUT = 600


class ToolUnavailable(RuntimeError):
    """The reference tool cannot be run here; the message says why."""


@dataclass(frozen=True)
class ToolRun:
    command: str
    stdout: str
    stderr: str
    returncode: int


MARIADB_TOOL_IMAGE = "binlog-mariadb:11.8"  # when the host has no mariadb-binlog


def file_flavor(path: str | os.PathLike[str]) -> str:
    """"mariadb" when the file's Format_description names a MariaDB server, else "mysql"."""
    try:
        for event in decode_file(path):
            version = event.body.get("server_version") if isinstance(event.body, dict) else None
            if isinstance(version, str):
                return "mariadb" if "mariadb" in version.lower() else "mysql"
    except BinlogError:
        pass
    return "mysql"


def run_tool(path: str | os.PathLike[str], command: str | None = None) -> ToolRun:
    """Run the reference tool with -vvv on path, in UTC so printed times are the stored ones.
    command None: the tool for the file's flavor (mysqlbinlog 9.7 or mariadb-binlog)."""
    if command is None:
        if file_flavor(path) == "mariadb":
            return _run_mariadb(path)
        return _run_default(path)
    argv = [*shlex.split(command), "-vvv", str(path)]
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=TOOL_TIMEOUT, check=False,
                              env={**os.environ, "TZ": "UTC"})
    except FileNotFoundError as e:
        raise ToolUnavailable(f"{argv[0]}: not found") from e
    return ToolRun(command, decode_output(proc.stdout), decode_output(proc.stderr), proc.returncode)


def _run_in_image(image: str, tool: str, path: str | os.PathLike[str], label: str) -> ToolRun:
    docker = find_docker()
    if docker is None:
        raise ToolUnavailable(f"{tool} runs in the local {image} image and no docker CLI was found "
                              "(python -m harness setup installs Docker and builds the images)")
    argv = docker_run_argv(docker, image, tool, [path], ["-vvv"])
    try:
        proc = subprocess.run(argv, capture_output=True, timeout=TOOL_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise ToolUnavailable(f"{tool} in {image} could not be run: {e}") from e
    err = decode_output(proc.stderr)
    if proc.returncode == 125 or "Unable to find image" in err or "Cannot connect to the Docker daemon" in err:
        raise ToolUnavailable(f"{tool} in {image} could not be run: {err.strip()}")
    return ToolRun(f"{label} ({image})", decode_output(proc.stdout), err, proc.returncode)


def _run_default(path: str | os.PathLike[str]) -> ToolRun:
    return _run_in_image(MYSQL_IMAGE, "mysqlbinlog", path, "mysqlbinlog 9.7")


def _run_mariadb(path: str | os.PathLike[str]) -> ToolRun:
    host_tool = shutil.which("mariadb-binlog")
    if host_tool is not None:
        return run_tool(path, host_tool)
    return _run_in_image(MARIADB_TOOL_IMAGE, "mariadb-binlog", path, "mariadb-binlog 11.8")


# -- comparison ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Disagreement:
    position: int | None
    type: str
    field: str
    oracle: Any
    tool: Any


@dataclass
class Report:
    file: str
    tool: str
    compared: int = 0  # events printed by the tool and matched to an oracle event
    disagreements: list[Disagreement] = field(default_factory=list)
    tool_error: str | None = None
    oracle_error: str | None = None
    not_compared_from: int | None = None  # the tool stopped here; the oracle's events from here on
    not_compared: int = 0                 # ... were compared with nothing

    @property
    def ok(self) -> bool:
        return not self.disagreements and not self.not_compared


def _header_type(o: Event, t: TextEvent) -> tuple[Any, Any] | None:
    if o.type_code in t.type_codes:
        return None
    printed = "|".join(type_name(c) for c in t.type_codes) or f"unrecognised: {t.label!r}"
    return o.type_name, printed


def _crc(o: Event, t: TextEvent) -> tuple[Any, Any] | None:
    """mysqlbinlog prints the stored CRC32 when the algorithm is CRC32 and nothing otherwise."""
    expected = o.checksum.stored if o.checksum.algorithm == "CRC32" else None
    return None if expected == t.checksum else (_hex(expected), _hex(t.checksum))


def _in_use(o: Event, t: TextEvent) -> tuple[Any, Any] | None:
    if 15 not in t.type_codes:
        return None
    expected = bool(o.flags & HeaderFlag.LOG_EVENT_BINLOG_IN_USE_F)
    return None if expected == bool(t.in_use) else (expected, bool(t.in_use))


def _same(get_o: Callable[[Event], Any], get_t: Callable[[TextEvent], Any]):
    def check(o: Event, t: TextEvent) -> tuple[Any, Any] | None:
        a, b = get_o(o), get_t(t)
        return None if a == b else (a, b)
    return check


def _hex(v: int | None) -> str | None:
    return None if v is None else f"0x{v:08x}"


# Header fields: the acceptance of issue 2, plus the timestamp and the in-use flag the text shows.
HEADER_CHECKS: dict[str, Callable[[Event, TextEvent], tuple[Any, Any] | None]] = {
    # binlog v1 headers have no next position; mysqlbinlog prints 0 for them
    "end_log_pos": _same(lambda o: o.next_position or 0, lambda t: t.next_position),
    "server_id": _same(lambda o: o.server_id, lambda t: t.server_id),
    "type": _header_type,
    "crc32": _crc,
    "timestamp": _same(lambda o: o.timestamp, lambda t: t.timestamp),
    "LOG_EVENT_BINLOG_IN_USE_F": _in_use,
}

# Body fields compared when both sides have them (the oracle's once its decoder emits them).
BODY_FIELDS = ("binlog_version", "server_version", "thread_id", "query_exec_time", "error_code",
               "db", "query", "ddl_xid", "xid", "pos", "new_log_ident", "table_id", "schema",
               "table", "rows_query", "gtid", "one_phase", "type_name", "last_committed", "sequence_number", "original_commit_timestamp",
               "immediate_commit_timestamp", "transaction_length", "gtid_set", "domain_id",
               "seq_no", "binlog_file_name", "seed1", "seed2", "val")


def compare_event(o: Event, t: TextEvent, skip: tuple[str, ...] = ()) -> list[Disagreement]:
    out = []
    for name, check in HEADER_CHECKS.items():
        if name in skip:
            continue
        diff = check(o, t)
        if diff is not None:
            out.append(Disagreement(o.position, o.type_name, name, *diff))
    body = plain(o.body)
    for key in BODY_FIELDS:
        if key in t.body and key in body and plain(t.body[key]) != body[key]:
            out.append(Disagreement(o.position, o.type_name, f"body.{key}", body[key], plain(t.body[key])))
    return out


def compare(dump: TextDump, events: list[Event], oracle_error: BinlogError | None,
            report: Report) -> Report:
    """Match the tool's top-level events to the oracle's by position and compare them. Events
    inside a Transaction_payload are matched in order to the payload's decoded `events`; their
    printed CRC32 is one mysqlbinlog computes, so it is not compared."""
    by_position = {e.position: e for e in events}
    printed = set()
    inner: list[Event] = []
    for t in dump.events:
        if t.nested:
            if inner:
                o = inner.pop(0)
                report.compared += 1
                report.disagreements.extend(compare_event(o, t, skip=("crc32",)))
            else:
                report.disagreements.append(Disagreement(t.position, t.label, "nested event", "absent", "printed"))
            continue
        _unprinted(inner, report)
        o = by_position.get(t.position) if t.position is not None else None
        if o is None:
            report.disagreements.append(Disagreement(
                t.position, "|".join(type_name(c) for c in t.type_codes) or t.label, "event",
                _missing(oracle_error), "printed"))
            continue
        printed.add(o.position)
        inner = _nested(o)
        report.compared += 1
        report.disagreements.extend(compare_event(o, t))
    _unprinted(inner, report)
    # A tool that stops early may also leave unprinted the events it was holding back (mysqlbinlog
    # prints Intvar/Rand/User_var with the statement they precede): expect only those before the
    # last event it printed.
    last = max((t.position for t in dump.events if t.position is not None), default=-1)
    for o in events:
        expected = not dump.stopped_early or o.position < last
        if o.position not in printed and expected:
            report.disagreements.append(Disagreement(o.position, o.type_name, "event", "decoded", "not printed"))
        elif o.position not in printed:
            report.not_compared += 1
            if report.not_compared_from is None:
                report.not_compared_from = o.position
    if oracle_error is not None and not dump.stopped_early:
        report.disagreements.append(Disagreement(
            oracle_error.offset, "-", "end of file", _missing(oracle_error), "read to the end"))
    return report


def _unprinted(inner: list[Event], report: Report) -> None:
    for o in inner:
        report.disagreements.append(Disagreement(o.position, o.type_name, "nested event", "decoded", "not printed"))
    inner.clear()


def _nested(o: Event) -> list[Event]:
    """The events the oracle decoded inside a Transaction_payload, back as Event objects."""
    nested = o.body.get("events") if o.type_code == 40 else None
    if not isinstance(nested, list):
        return []
    return [Event(e["position"], e["event_size"], e["next_position"], e["type_code"], e["server_id"],
                  e["timestamp"], e["flags"]["value"],
                  checksum_of(None, e["checksum"]["stored"], e["checksum"]["verified"]), e["body"])
            for e in nested]


def _missing(err: BinlogError | None) -> str:
    return "absent" if err is None else f"stopped: {err.kind} at {err.offset}"


def verify(path: str | os.PathLike[str], command: str | None = None) -> Report:
    run = run_tool(path, command)
    dump = parse(run.stdout, run.stderr)
    events: list[Event] = []
    error: BinlogError | None = None
    try:
        events.extend(decode_file(path))
    except BinlogError as e:
        error = e
    report = Report(str(path), run.command)
    if dump.error is not None:
        where = f" at offset {dump.error_offset}" if dump.error_offset is not None else ""
        report.tool_error = f"{dump.error}{where}"
    if error is not None:
        report.oracle_error = f"{error.kind} at offset {error.offset}: {error.message}"
    return compare(dump, events, error, report)


def format_report(r: Report) -> str:
    lines = [f"{r.file}: {r.tool}"]
    if r.tool_error:
        lines.append(f"  the tool stopped: {r.tool_error}")
    if r.oracle_error:
        lines.append(f"  the oracle stopped: {r.oracle_error}")
    if r.disagreements:
        lines.append(render(("position", "type", "field", "oracle", "tool"),
                            ((d.position, d.type, d.field, d.oracle, d.tool) for d in r.disagreements)))
    if r.not_compared:
        lines.append(f"not compared past offset {r.not_compared_from}: the tool stopped there, the "
                     f"oracle decoded {r.not_compared} more events")
    lines.append(f"{r.compared} events compared, {len(r.disagreements)} disagreements"
                 + (f", {r.not_compared} not compared" if r.not_compared else ""))
    return "\n".join(lines)


def main(file: str, command: str | None) -> int:
    try:
        report = verify(file, command)
    except ToolUnavailable as e:
        print(f"error: {e}")
        return 2
    except OSError as e:
        print(f"error: cannot read {file}: {e.strerror}")
        return 2
    print(format_report(report))
    return 0 if report.ok else 1
