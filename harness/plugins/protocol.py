"""The JSON-lines messages of the subprocess contract (docs/plugin-contract.md), and the Reply
every way of running a parser ends in. One place, so the worker and the clients cannot drift."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .base import Capabilities

PROTOCOL_VERSION = 1

# How a testee gets a case's binlog: a path to the file, or a primary serving it (issue 13).
FILE, STREAM = "file", "stream"

# Reply statuses a testee can send, and those the harness infers from how the process behaved.
EVENTS, ERROR, SKIPPED = "events", "error", "skipped"
# A persistent testee that caught its library's unexpected exception (a crash) says so, with the
# events decoded before it, and then exits as a crashed process would (docs/plugin-contract.md).
CRASHED = "crashed"
CRASH, TIMEOUT, UNAVAILABLE = "crash", "timeout", "unavailable"

# How a stream testee starts and what it is sent (docs/plugin-contract.md, "Stream modes"):
# POSITION: at the file and position of the request (the default, and what every stream testee
# does); GTID: from the GTID set of the request (MySQL auto-position, MariaDB slave_connect_state);
# CURRENT: where the primary's status query says the binlog is (SHOW MASTER STATUS / SHOW BINARY LOG
# STATUS / SHOW BINLOG STATUS, as its version answers); HEARTBEATS: at the position, asking for
# heartbeats, and reporting each one it receives as an event.
POSITION, GTID, CURRENT, HEARTBEATS = "position", "gtid", "current", "heartbeats"
MODES = (POSITION, GTID, CURRENT, HEARTBEATS)


@dataclass(frozen=True)
class Hello:
    name: str
    version: str
    capabilities: Capabilities
    unavailable: str | None = None
    transport: str = FILE  # FILE: parses a path; STREAM: connects to a primary (StreamSource)
    # the stream modes the testee supports (MODES), and for the others why not (the library's
    # documentation): a mode not listed is not_applicable for it, with that cause
    modes: tuple[str, ...] = (POSITION,)
    modes_unsupported: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"type": "hello", "protocol": PROTOCOL_VERSION, "name": self.name,
                "version": self.version, "capabilities": self.capabilities.to_json(),
                "unavailable": self.unavailable, "transport": self.transport,
                "modes": list(self.modes), "modes_unsupported": dict(self.modes_unsupported)}

    def why_not(self, mode: str) -> str | None:
        """None when the testee runs in `mode`, else the cause it gave (or a generic one)."""
        if mode in self.modes:
            return None
        return self.modes_unsupported.get(mode) or f"{self.name} does not declare the stream mode {mode!r}"

    @classmethod
    def from_json(cls, msg: dict[str, Any]) -> "Hello":
        if msg.get("type") != "hello":
            raise ValueError(f"expected a hello message, got {str(msg)[:200]}")
        transport = msg.get("transport", FILE)
        if transport not in (FILE, STREAM):
            raise ValueError(f"hello transport must be {FILE!r} or {STREAM!r}, got {transport!r}")
        modes = msg.get("modes") or [POSITION]
        unknown = [m for m in modes if m not in MODES] if isinstance(modes, list) else modes
        if unknown:
            raise ValueError(f"hello modes must be a list of {', '.join(MODES)}, got {modes!r}")
        causes = msg.get("modes_unsupported") or {}
        if not isinstance(causes, dict):
            raise ValueError(f"hello modes_unsupported must be an object, got {causes!r}")
        return cls(str(msg.get("name", "unnamed")), str(msg.get("version", "unknown")),
                   Capabilities.from_json(msg.get("capabilities")), msg.get("unavailable") or None,
                   transport, tuple(modes), {str(k): str(v) for k, v in causes.items()})


@dataclass(frozen=True)
class ErrorInfo:
    kind: str
    offset: int | None
    message: str

    def __str__(self) -> str:
        where = f" at offset {self.offset}" if self.offset is not None else ""
        return f"{self.kind}{where}: {self.message}"

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "offset": self.offset, "message": self.message}


@dataclass(frozen=True)
class Reply:
    """What running a parser on one file gave: events (possibly before a clean error), or a
    skip/crash/timeout/unavailable with a human-readable detail."""

    status: str
    events: list[dict[str, Any]] = field(default_factory=list)
    error: ErrorInfo | None = None
    detail: str = ""
    log: str = ""  # stderr tail of a crashed process, kept for the report


def crash_detail(what: str, exit_description: str, stderr_tail: str) -> tuple[str, str]:
    """(message, log) for a dead process. The message leads with the last stderr line (the
    exception or assertion), because that is what identifies a crash across runs."""
    lines = [ln for ln in stderr_tail.splitlines() if ln.strip()]
    last = f": {lines[-1].strip()}" if lines else ""
    return f"{what} ({exit_description}){last}", stderr_tail


@dataclass(frozen=True)
class StreamSource:
    """What a stream testee needs to read one case from a primary (`harness serve`) and to know
    when to stop: a client that only knows blocking mode stops once it has reported the event
    that ends at `end_position` in `end_file` (the primary then keeps the connection idle)."""

    host: str
    port: int
    user: str
    password: str
    file: str                  # the binlog file name to request (COM_BINLOG_DUMP)
    start_position: int = 4
    end_file: str = ""         # "" = the same as `file`
    end_position: int = 0      # next_position of the last event served; 0 = unknown
    mode: str = POSITION       # MODES: how to start (and, HEARTBEATS, to ask for heartbeats)
    # GTID: the set to start from: MySQL's executed set before the first transaction (the
    # file's Previous_gtids, tags as the server writes them), MariaDB's GTID position
    # (BINLOG_GTID_POS of the start, "" = from the first binlog)
    gtid_set: str = ""
    heartbeat_period: float = 0.0  # HEARTBEATS: the period, in seconds, the testee asks for

    def to_json(self) -> dict[str, Any]:
        return {"host": self.host, "port": self.port, "user": self.user, "password": self.password,
                "file": self.file, "start_position": self.start_position,
                "end_file": self.end_file or self.file, "end_position": self.end_position,
                "mode": self.mode, "gtid_set": self.gtid_set, "heartbeat_period": self.heartbeat_period}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> "StreamSource":
        return cls(str(d["host"]), int(d["port"]), str(d["user"]), str(d["password"]), str(d["file"]),
                   int(d.get("start_position", 4)), str(d.get("end_file") or d["file"]),
                   int(d.get("end_position", 0)), str(d.get("mode") or POSITION), str(d.get("gtid_set") or ""),
                   float(d.get("heartbeat_period") or 0.0))

    def flags(self) -> list[str]:
        """The same fields as one-shot command-line flags (`--parser-stream CMD`); the mode's
        fields only outside position mode, so a command that predates modes gets what it knew."""
        fields = self.to_json()
        if self.mode == POSITION:
            for k in ("mode", "gtid_set", "heartbeat_period"):
                del fields[k]
        return [a for k, v in fields.items() for a in (f"--{k.replace('_', '-')}", str(v))]


def parse_request(request_id: int, path: str, stream: StreamSource | None = None) -> str:
    """A parse request; a stream testee also gets `stream` (its `path` is still the served file,
    for the record)."""
    msg: dict[str, Any] = {"type": "parse", "id": request_id, "path": path}
    if stream is not None:
        msg["stream"] = stream.to_json()
    return dumps(msg)


def reply_from_message(msg: dict[str, Any], request_id: int) -> Reply:
    """Decode a testee's reply; a malformed one is a crash (the testee broke the contract)."""
    if msg.get("id") != request_id:
        return Reply(CRASH, detail=f"reply id {msg.get('id')!r} does not match request {request_id}")
    kind = msg.get("type")
    events = msg.get("events") or []
    if not isinstance(events, list) or not all(isinstance(e, dict) for e in events):
        return Reply(CRASH, detail="reply 'events' is not a list of objects")
    if kind == EVENTS:
        return Reply(EVENTS, events)
    if kind == ERROR:
        offset = msg.get("offset")
        return Reply(ERROR, events, ErrorInfo(str(msg.get("kind", "Error")),
                                              offset if isinstance(offset, int) else None,
                                              str(msg.get("message", ""))))
    if kind == SKIPPED:
        return Reply(SKIPPED, detail=str(msg.get("reason", "")))
    if kind == CRASHED:
        return Reply(CRASH, events, detail=f"crashed: {msg.get('message', '')}")
    return Reply(CRASH, detail=f"unknown reply type {kind!r}")


def dumps(msg: dict[str, Any]) -> str:
    return json.dumps(msg, ensure_ascii=False, separators=(",", ":"))
