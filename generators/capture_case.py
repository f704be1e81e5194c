"""Capture what the real server sends for dumps of a freshly written case, and write capture.json.

The requests mirror what real clients send (docs/replication-clients.md): announce the checksum,
then dump from position 4 of the case's first file. Variants: non-blocking (ends with EOF),
blocking with a short heartbeat period (ends when we hang up after two heartbeats), what
mysqlbinlog / mariadb-binlog --read-from-remote-server send (checksum NONE), no checksum
announced, a file that does not exist and a position inside an event (the real errors), a
MariaDB replica without GTID capability (MariaDB rewrites events for it), and the GTID
forms (MySQL COM_BINLOG_DUMP_GTID with the case's first GTID as the executed set; MariaDB
@slave_connect_state set to its first GTID).
"""
from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from . import packets as P
from . import repl_user
from .capture import CAPTURE_FILE, FORMAT_VERSION, DumpRequest, capture_dump
from .server import Server

HEARTBEAT_PERIOD_NS = 100_000_000          # 0.1 s: two heartbeats cost a fifth of a second
_MYSQL_GTID = re.compile(r"GTID_NEXT= '([0-9a-f-]{36}(?::[a-z0-9_]+)?:\d+)'")
_MARIADB_GTID = re.compile(r"GTID (\d+-\d+-\d+)")

# What the real clients announce before dumping (recorded: docs/replication-clients.md).
_CHECKSUM = {
    "mysql": ("SET @source_binlog_checksum = @@global.binlog_checksum, "
              "@master_binlog_checksum = @@global.binlog_checksum",),
    "mariadb": ("SET @master_binlog_checksum = @@global.binlog_checksum",
                "SET @mariadb_slave_capability = 4"),
}


# What the servers' own dump tools send (docs/replication-clients.md): the checksum announced as
# NONE; mariadb-binlog also asks for Annotate_rows (flag 2), which MariaDB otherwise leaves out.
_TOOL = {
    "mysql": ("SET @master_binlog_checksum = 'NONE', @source_binlog_checksum = 'NONE'",),
    "mariadb": ("SET @master_binlog_checksum='NONE'", "SET @mariadb_slave_capability=4"),
}
_TOOL_FLAGS = {"mysql": P.BINLOG_DUMP_NON_BLOCK,
               "mariadb": P.BINLOG_DUMP_NON_BLOCK | P.MARIADB_SEND_ANNOTATE_ROWS}


def first_gtid(server_events: list[dict[str, Any]], flavor: str) -> str | None:
    pattern = _MYSQL_GTID if flavor == "mysql" else _MARIADB_GTID
    for ev in server_events:
        if ev["type"] == "Gtid" and (m := pattern.search(str(ev["info"]))):
            return m[1]
    return None


def requests_for(flavor: str, first_file: str, server_events: list[dict[str, Any]]) -> list[DumpRequest]:
    base = _CHECKSUM[flavor]
    heartbeat = (f"SET @master_heartbeat_period = {HEARTBEAT_PERIOD_NS}",)
    out = [DumpRequest("nonblock", first_file, setup=base),
           DumpRequest("heartbeat", first_file, flags=0, setup=base + heartbeat,
                       stop_after_heartbeats=2),
           DumpRequest("as_binlog_tool", first_file, flags=_TOOL_FLAGS[flavor], server_id=0,
                       setup=_TOOL[flavor], deprecate_eof=flavor == "mysql"),
           # the real errors for a dump that cannot start
           DumpRequest("checksum_not_announced", first_file),
           DumpRequest("missing_file", "binlog.999999", setup=base),
           DumpRequest("position_inside_an_event", first_file, position=5, setup=base)]
    if flavor == "mysql":   # what MySQL 9.7 replicas ask for (flags 2): Heartbeat_log_event_v2
        out.append(DumpRequest("heartbeat_v2", first_file, flags=P.MYSQL_USE_HEARTBEAT_EVENT_V2,
                               setup=base + heartbeat, stop_after_heartbeats=2))
    if flavor == "mariadb":  # a replica older than GTIDs: MariaDB rewrites GTID events for it
        out.append(DumpRequest("old_replica", first_file, setup=(
            "SET @master_binlog_checksum = @@global.binlog_checksum",
            "SET @mariadb_slave_capability = 0")))
    gtid = first_gtid(server_events, flavor)
    if gtid and flavor == "mysql" and gtid.count(":") == 1:   # tagged GTIDs: a newer set format
        out.append(DumpRequest("gtid", "", flags=P.BINLOG_THROUGH_GTID | P.BINLOG_DUMP_NON_BLOCK,
                               setup=base, gtid=True, gtid_set=gtid))
    elif gtid and flavor == "mariadb":
        out.append(DumpRequest("gtid", "", setup=base + (
            f"SET @slave_connect_state = '{gtid}'", "SET @slave_gtid_strict_mode = 1",
            "SET @slave_gtid_ignore_duplicates = 0")))
    return out


def capture_case(server: Server, case_dir: Path, files: list[str],
                 server_events: list[dict[str, Any]], skip: frozenset[str] = frozenset()) -> dict[str, Any]:
    """Run every request (but those named in `skip`) against `server` (which holds the case's
    binlogs), write <case_dir>/capture.json and return the case.json entry that points at it."""
    repl_user.ensure(server)
    data = {n: (case_dir / n).read_bytes() for n in files}
    captures = [capture_dump(server.port, repl_user.USER, repl_user.PASSWORD, req, data)
                for req in requests_for(server.profile.flavor, files[0], server_events)
                if req.name not in skip]
    doc = {"format": FORMAT_VERSION, "server": {"profile": server.profile.name,
                                                "version": server.version()},
           "user": {"name": repl_user.USER, "plugin": _plugin(server)},
           "files": files, "captures": [c.to_json() for c in captures]}
    path = case_dir / CAPTURE_FILE
    path.write_text(_compact_json(doc), encoding="utf-8")
    return {"path": CAPTURE_FILE, "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
            "requests": [c.request.name for c in captures]}


def _plugin(server: Server) -> str:
    return server.scalar(f"SELECT plugin FROM mysql.user WHERE user = '{repl_user.USER}' "
                         f"AND host = '127.0.0.1'") or ""


def _compact_json(doc: dict[str, Any]) -> str:
    """One message or packet pair per line: small diffs, readable, compact."""
    head = {k: v for k, v in doc.items() if k != "captures"}
    lines = ["{", *(f" {json.dumps(k)}: {json.dumps(v)}," for k, v in head.items()), ' "captures": [']
    for i, cap in enumerate(doc["captures"]):
        meta = {k: v for k, v in cap.items() if k not in ("packets", "messages")}
        lines.append("  {" + ", ".join(f"{json.dumps(k)}: {json.dumps(v)}" for k, v in meta.items())
                     + ",")
        lines.append('   "packets": ' + json.dumps(cap["packets"], separators=(",", ":")) + ",")
        lines.append('   "messages": [')
        lines += [f"    {json.dumps(m)}{',' if j < len(cap['messages']) - 1 else ''}"
                  for j, m in enumerate(cap["messages"])]
        lines.append("  ]}" + ("," if i < len(doc["captures"]) - 1 else ""))
    return "\n".join([*lines, " ]", "}"]) + "\n"


def write_stream(case_dir: Path, name: str, out: Path) -> int:
    """The bytes the server sent for capture `name` of the case (packet headers included)."""
    from .capture import rebuild_stream
    doc = json.loads((case_dir / CAPTURE_FILE).read_text(encoding="utf-8"))
    caps = {c["request"]["name"]: c for c in doc["captures"]}
    if name not in caps:
        raise SystemExit(f"{case_dir}: no capture {name!r}; it has {', '.join(caps)}")
    data = rebuild_stream(caps[name], {f: (case_dir / f).read_bytes() for f in doc["files"]})
    out.write_bytes(data)
    return len(data)


def add_command(sub: Any) -> None:
    p = sub.add_parser("capture-stream", help="write the raw bytes a case's capture records "
                                              "(what the server sent for one dump request)")
    p.add_argument("case_dir")
    p.add_argument("--request", default="nonblock", help="capture name (default nonblock)")
    p.add_argument("--out", required=True)
    p.set_defaults(func=lambda a: print(f"{write_stream(Path(a.case_dir), a.request, Path(a.out))} "
                                        f"bytes -> {a.out}") or 0)
