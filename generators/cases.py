"""Run one scenario on a live server, statement by statement, and record what each one wrote.

The whole scenario runs in ONE client session (BEGIN/COMMIT, user variables, temporary tables,
SET SESSION and gtid_next must carry from one statement to the next). Between statements the
session prints a marker and the binlog status (file, position), so the binlog range each
statement wrote is known exactly; SHOW BINLOG EVENTS then says which events lie in that range.
"""
from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import docker_env
from .matrix import session_globals
from .server import Server
from .sqlscript import Scenario, expand
from .table_schema import snapshot_sql

Version = tuple[int, ...]
_MARK = "@@MARK "
_STATUS_ROW = re.compile(r"^(\S+\.\d+)\t(\d+)(\t|$)")
_ERROR_LINE = re.compile(r"at line (\d+)")
# A statement that must fail says so in a comment, e.g. `/* expect-error 1062 */` (the code).
_EXPECT_ERROR = re.compile(r"/\*\s*expect-error\s+(\d+)\s*\*/")
_INFO_CHARS = 160      # SHOW BINLOG EVENTS' Info is kept only as a readable hint
_SQL_INLINE_MAX = 4096  # longer expanded statements stay in their @@PLACEHOLDER@@ form
_DROPS = re.compile(r"^\s*DROP\s+(TABLE|DATABASE|SCHEMA)\b", re.IGNORECASE)


class ScenarioError(RuntimeError):
    """A scenario statement failed on the server; says which one and why."""


def parse_version(text: str) -> Version:
    """'9.7.4-2' -> (9, 7, 4); '10.11.14-MariaDB-0+deb12u2-log' -> (10, 11, 14)."""
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", text)
    if not m:
        raise ValueError(f"unrecognised server version {text!r}")
    return tuple(int(x) for x in m.groups())


def status_sql(flavor: str, version: Version) -> str:
    """MySQL 8.2 renamed SHOW MASTER STATUS (and 8.4 removed the old name)."""
    return "SHOW BINARY LOG STATUS" if flavor == "mysql" and version >= (8, 2) else "SHOW MASTER STATUS"


def reset_sql(flavor: str, version: Version) -> str:
    return "RESET BINARY LOGS AND GTIDS" if flavor == "mysql" and version >= (8, 2) else "RESET MASTER"


@dataclass(frozen=True)
class Position:
    file: str
    position: int

    def to_json(self) -> dict[str, object]:
        return {"file": self.file, "position": self.position}


@dataclass
class StatementRecord:
    index: int
    sql: str                 # as written in the scenario (placeholders kept)
    expanded: str            # as sent to the server
    start: Position
    end: Position
    events: list[dict[str, object]] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"index": self.index, "sql": self.sql}
        if self.expanded != self.sql and len(self.expanded) <= _SQL_INLINE_MAX:
            out["expanded_sql"] = self.expanded
        out.update(start=self.start.to_json(), end=self.end.to_json(), events=self.events)
        return out


@dataclass
class RunResult:
    """What one scenario run left: per-statement ranges, the server's event list, the files."""

    statements: list[StatementRecord]
    files: list[str]
    server_events: dict[str, list[dict[str, object]]]
    epilogue: str
    seconds: float
    client_output: str = ""   # the scenario session's stdout (markers, status, schema snapshots)


def _script(statements: list[str], status: str,
            snapshot: Callable[[int], str] | None = None) -> tuple[str, list[int | None]]:
    """One client script: marker + status before each statement and after the last, and for
    every script line the statement index it belongs to (None for our own lines). A delimiter
    that no statement contains lets procedure bodies keep their semicolons. `snapshot(i)`, when
    given, is a query run right before each DROP TABLE/DATABASE, so the schema of the tables it
    drops is still known (generators/table_schema.py)."""
    delim = "$$"
    lines, owner = [f"DELIMITER {delim}"], [None]
    for i, stmt in enumerate([*statements, None]):
        lines += [f"SELECT '{_MARK}{i}' AS mark{delim}", f"{status}{delim}"]
        owner += [None, None]
        if stmt is not None and snapshot is not None and _DROPS.match(stmt):
            lines.append(f"{snapshot(i)}{delim}")
            owner.append(None)
        if stmt is not None:
            if delim in stmt:
                raise ScenarioError(f"statement {i} contains the delimiter {delim!r}")
            text = f"{stmt}{delim}".splitlines()
            lines += text
            owner += [i] * len(text)
    return "\n".join(lines) + "\n", owner


def _run_script(server: Server, script: str, owner: list[int | None], expanded: list[str],
                name: str) -> str:
    """Run the script with --force; every error must be one its statement expects."""
    proc = docker_env.docker_cli("exec", "-i", server.container_id,
                                 *server._client("--batch", "--force"),
                                 input=script.encode(), check=False, timeout=1800)
    errors = proc.stderr.decode(errors="replace")
    expected_seen = 0
    for line in errors.splitlines():
        m = _ERROR_LINE.search(line)
        if not line.startswith("ERROR") or not m:
            continue
        idx = owner[int(m[1]) - 1] if 0 < int(m[1]) <= len(owner) else None
        code = line.split()[1]
        wanted = _EXPECT_ERROR.search(expanded[idx]) if idx is not None else None
        if not wanted or wanted[1] != code:
            stmt = expanded[idx][:300] if idx is not None else "(a status query)"
            raise ScenarioError(f"{name} on {server.profile.name}: statement {idx} failed: "
                                f"{line}\n  {stmt}")
        expected_seen += 1
    if proc.returncode != 0 and not expected_seen:
        raise ScenarioError(f"{name} on {server.profile.name}: client exited {proc.returncode}: "
                            f"{errors.strip()[-2000:]}")
    return proc.stdout.decode(errors="replace")


def _parse_marks(out: str) -> dict[int, Position]:
    """Marker index -> the binlog status printed right after it."""
    marks: dict[int, Position] = {}
    current: int | None = None
    for line in out.splitlines():
        if line.startswith(_MARK):
            current = int(line[len(_MARK):].strip())
            continue
        m = _STATUS_ROW.match(line)
        if m and current is not None and current not in marks:
            marks[current] = Position(m[1], int(m[2]))
    return marks


def _server_events(server: Server, files: list[str]) -> dict[str, list[dict[str, object]]]:
    """SHOW BINLOG EVENTS per file, read from --batch text: Info may hold bytes (password
    hashes) that the client's XML output cannot carry; batch mode escapes tabs and newlines."""
    out: dict[str, list[dict[str, object]]] = {}
    for name in files:
        # split on "\n" only: str.splitlines would also split inside Info on \x1c, \x85, ...
        rows = server.execute(f"SHOW BINLOG EVENTS IN '{name}'").rstrip("\n").split("\n")[1:]
        out[name] = []
        for row in rows:
            _log, pos, etype, server_id, end, *info = row.split("\t", 5)
            out[name].append({"pos": int(pos), "end_log_pos": int(end), "type": etype,
                              "server_id": int(server_id), "info": "".join(info)[:_INFO_CHARS]})
    return out


def _attribute(records: list[StatementRecord], files: list[str],
               events: dict[str, list[dict[str, object]]]) -> None:
    """Give each statement the server events whose start lies in [start, end)."""
    order = {f: i for i, f in enumerate(files)}

    def key(p: Position) -> tuple[int, int]:
        return (order.get(p.file, len(files)), p.position)

    flat = [(f, e) for f in files for e in events[f]]
    for rec in records:
        lo, hi = key(rec.start), key(rec.end)
        rec.events = [{"file": f, "pos": e["pos"], "type": e["type"]} for f, e in flat
                      if lo <= (order[f], int(e["pos"])) < hi]  # type: ignore[call-overload]


def _stop_gracefully(server: Server, timeout: int = 120) -> None:
    """SIGTERM to the server (PID 1): a clean shutdown writes a Stop event to the last binlog."""
    container = docker_env.client().containers.get(server.container_id)
    container.stop(timeout=timeout)
    container.reload()
    if container.attrs["State"]["ExitCode"] != 0:
        raise ScenarioError(f"server did not shut down cleanly: {server.logs()[-2000:]}")


@contextlib.contextmanager
def _globals(server: Server, values: dict[str, str]) -> Iterator[None]:
    """Set global variables for the scenario's session (some, like max_binlog_stmt_cache_size,
    are read when a session starts) and restore them afterwards."""
    if not values:
        yield
        return
    saved = {k: server.scalar(f"SELECT @@GLOBAL.{k}") for k in values}
    server.execute("".join(f"SET GLOBAL {k} = {v};" for k, v in values.items()))
    try:
        yield
    finally:
        server.execute("".join(f"SET GLOBAL {k} = {v if (v or '').isdigit() else repr(v)};"
                               for k, v in saved.items()))


def run_scenario(server: Server, scenario: Scenario, version: Version, dest: Path,
                 secure_file_dir: str) -> RunResult:
    """Reset the binlogs, run `scenario`, close its last binlog (FLUSH, or a clean shutdown when
    the scenario ends with one) and copy every file it wrote into `dest`."""
    t0 = time.monotonic()
    flavor = server.profile.flavor
    server.execute(reset_sql(flavor, version))
    expanded = [expand(s, secure_file_dir) for s in scenario.statements]
    script, owner = _script(expanded, status_sql(flavor, version),
                            snapshot_sql(flavor, version))
    with _globals(server, session_globals(scenario)):
        out = _run_script(server, script, owner, expanded, scenario.name)
    marks = _parse_marks(out)
    if len(marks) != len(expanded) + 1:
        raise ScenarioError(f"{scenario.name}: expected {len(expanded) + 1} status marks, "
                            f"got {len(marks)}:\n{out[-2000:]}")
    records = [StatementRecord(i, sql, exp, marks[i], marks[i + 1])
               for i, (sql, exp) in enumerate(zip(scenario.statements, expanded))]
    binlog_dir = server.binlog_dir()
    if scenario.end == "shutdown":
        files = server.binlog_files()
        events = _server_events(server, files)
        _stop_gracefully(server)
    else:
        server.flush_logs()
        files = server.binlog_files()[:-1]  # the newest file was opened by our FLUSH
        events = _server_events(server, files)
    _attribute(records, files, events)
    dest.mkdir(parents=True, exist_ok=True)
    for name in files:
        server.copy_file(f"{binlog_dir}/{name}", dest / name)
    return RunResult(records, files, events, scenario.end, round(time.monotonic() - t0, 1), out)
