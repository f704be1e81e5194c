"""Captures (capture.json) for committed cases, without writing their binlogs again.

A fresh server of the case's image, started with the case's server options, is stopped and its
binlogs are replaced by the case's files and an index naming them (the server's own files after
RESET: the case's names overwrite them). On MariaDB the GTID binlog state the server saves at
shutdown (binlog.state, read back at start) is set first to what the case's files end with, as
the server that wrote them had it. Started again, the server opens one new file after the case's
and serves the case's files as its own; the capture client then records the same requests as
for a freshly written case (generators/capture_case.py).

A capture is kept only if the server sent every event of the case's files with the file's
bytes (`file_covered`): the non-blocking dump carries, file by file, runs of file events that
cover each file from position 4 to its end, with no gap other than the Annotate_rows events
MariaDB leaves out without dump flag 2. None of the case files may be flagged in use
(LOG_EVENT_BINLOG_IN_USE_F in the Format_description): the server would recover it at start.
"""
from __future__ import annotations

import io
import json
import re
import struct
import tarfile
import time
from pathlib import Path
from typing import Any

from . import docker_env, repl_user
from .capture_case import capture_case
from .cases import parse_version, reset_sql
from .server import Server, _wait_ready

_IN_USE = 0x1
_MARIADB_GTID = re.compile(r"GTID (\d+)-(\d+)-(\d+)")
_ANNOTATE_ROWS = 160
# MariaDB 11.4+ writes a GTID index (<binlog>.idx) beside each binlog; the case has none, and one
# left by the server's own file of the same name would send GTID lookups astray.
# With the index the server starts a GTID dump at the GTID's own position (its artificial Rotate
# says so); without it, at 4. The case has no index, so that request is not captured there.
NOT_IN_PLACE = frozenset({"gtid"})
_HAS_GTID_INDEX = ("SELECT COUNT(*) FROM information_schema.GLOBAL_VARIABLES "
                   "WHERE VARIABLE_NAME = 'BINLOG_GTID_INDEX'")


class InPlaceError(RuntimeError):
    """The case's files cannot be served in place (say why)."""


def in_use_files(case_dir: Path, files: list[str]) -> list[str]:
    return [f for f in files
            if struct.unpack_from("<H", (case_dir / f).read_bytes(), 4 + 17)[0] & _IN_USE]


def mariadb_state(case: dict[str, Any]) -> str:
    """gtid_binlog_state at the end of the case: the last seq_no per (domain, server_id), each
    domain's last GTID written last (as MariaDB lists it)."""
    last: dict[tuple[int, int], int] = {}
    for f in case["binlogs"]:
        for ev in f["server_events"]:
            for m in _MARIADB_GTID.finditer(str(ev["info"])):
                key = (int(m[1]), int(m[2]))
                last.pop(key, None)
                last[key] = int(m[3])
    return ",".join(f"{d}-{s}-{n}" for (d, s), n in last.items())


def _tar(case_dir: Path, files: list[str], uid: int, gid: int) -> bytes:
    buf = io.BytesIO()
    index = "".join(f"./{f}\n" for f in files).encode()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in [*((f, (case_dir / f).read_bytes()) for f in files), ("binlog.index", index)]:
            info = tarfile.TarInfo(name)
            info.size, info.uid, info.gid, info.mode, info.mtime = len(data), uid, gid, 0o660, int(time.time())
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def serve_case_files(server: Server, case_dir: Path, case: dict[str, Any]) -> frozenset[str]:
    """Make `server` serve the case's binlog files as its own (see the module docstring).
    Returns the requests that cannot be captured so (NOT_IN_PLACE)."""
    files = case["files"]
    if bad := in_use_files(case_dir, files):
        raise InPlaceError(f"{', '.join(bad)} flagged in use: the server would recover it")
    flavor, version = server.profile.flavor, parse_version(server.version())
    repl_user.ensure(server)
    has_index = flavor == "mariadb" and server.scalar(_HAS_GTID_INDEX) == "1"
    if has_index:  # else RESET leaves an index of the server's own file
        server.execute("SET GLOBAL binlog_gtid_index = OFF")
    server.execute(reset_sql(flavor, version))
    if flavor == "mariadb":
        server.execute(f"SET GLOBAL gtid_binlog_state = '{mariadb_state(case)}'")
    ids = docker_env.docker_cli("exec", server.container_id, "id", "-u", "mysql").stdout.split()
    gids = docker_env.docker_cli("exec", server.container_id, "id", "-g", "mysql").stdout.split()
    binlog_dir = server.binlog_dir()
    container = docker_env.client().containers.get(server.container_id)
    container.stop(timeout=120)
    container.put_archive(binlog_dir, _tar(case_dir, files, int(ids[0]), int(gids[0])))
    container.start()
    _wait_ready(server, time.monotonic() + 180)
    listing = docker_env.docker_cli("exec", server.container_id, "ls", binlog_dir).stdout.decode()
    if stale := [f"{f}.idx" for f in files if f"{f}.idx" in listing.split()]:
        raise InPlaceError(f"a GTID index the case's files do not match is left: {stale}")
    sizes = server.binlog_sizes()
    served = [f for f in files if sizes.get(f) == (case_dir / f).stat().st_size]
    if served != files:
        raise InPlaceError(f"the restarted server lists {sizes}, not the case's files {files}")
    return NOT_IN_PLACE if has_index else frozenset()


def file_covered(capture: dict[str, Any], case_dir: Path, flavor: str) -> list[str]:
    """Where the non-blocking dump did not send the case's files whole (empty: it did)."""
    files = {f: (case_dir / f).read_bytes() for f in capture["files"]}
    nonblock = next(c for c in capture["captures"] if c["request"]["name"] == "nonblock")
    runs: dict[str, list[tuple[int, int]]] = {f: [] for f in files}
    for m in nonblock["messages"]:
        if "events" in m and m["file"] in runs:
            runs[m["file"]].append((m["offset"], m["end"]))
    problems = []
    for name, data in files.items():
        pos = 4
        for start, end in runs[name]:
            while pos < start:  # a gap: only events MariaDB leaves out may lie in it
                if data[pos + 4] != _ANNOTATE_ROWS or flavor != "mariadb":
                    problems.append(f"{name}: event at {pos} (type {data[pos + 4]}) not sent as in the file")
                    break
                pos += struct.unpack_from("<I", data, pos + 9)[0]
            pos = max(pos, end)
        if pos != len(data):
            problems.append(f"{name}: sent up to {pos} of {len(data)} bytes")
    return problems


def capture_in_place(server: Server, case_dir: Path, case: dict[str, Any]) -> dict[str, Any]:
    """Serve the case's files from `server`, capture, check; returns case.json's `capture`.
    Raises InPlaceError (capture.json removed) when the capture does not carry the files whole."""
    skip = serve_case_files(server, case_dir, case)
    files = case["files"]
    entry = capture_case(server, case_dir, files, case["binlogs"][0]["server_events"], skip)
    doc = json.loads((case_dir / entry["path"]).read_text(encoding="utf-8"))
    if problems := file_covered(doc, case_dir, server.profile.flavor):
        (case_dir / entry["path"]).unlink()
        raise InPlaceError("; ".join(problems[:3]))
    return entry
