"""A loopback TCP proxy in front of a real server that logs every command a client sends.

Its one job is to find out which statements real replication clients send before and while they
dump (docs/replication-clients.md), so that `harness serve` answers what they really ask. It
forwards bytes unchanged in both directions with one exception: it clears CLIENT_SSL in the
server's greeting, so clients that prefer TLS fall back to plain TCP and their commands stay
readable (a client that insists on TLS fails to connect, which the log then shows). Compressed
sessions are forwarded but not decoded.
"""
from __future__ import annotations

import contextlib
import itertools
import socket
import struct
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from . import packets as P

_BUF = 1 << 16


@dataclass
class CommandRecord:
    command: str
    args: dict[str, Any]
    response: str = ""
    packets: int = 0           # packets the server sent in answer (an event stream: all of them)
    order: int = 0             # position among all the proxy's commands (connections interleave)
    columns: list[str] = field(default_factory=list)   # a result set's column names
    expect_columns: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"order": self.order, "command": self.command, **self.args, "response": self.response,
                **({"columns": self.columns} if self.columns else {}),
                **({"response_packets": self.packets} if self.packets > 1 else {})}

    def see_answer(self, payload: bytes) -> None:
        """Count the answer's packets; keep the first one's summary and a result set's names."""
        self.packets += 1
        if self.packets == 1:
            self.response = P.describe_response(payload)
            if self.command in ("COM_QUERY", "COM_STMT_EXECUTE") and \
                    self.response.startswith("result set"):
                self.expect_columns = P.lenenc_int(payload, 0)[0]
            if self.command == "COM_STMT_PREPARE" and payload[:1] == b"\x00" and len(payload) >= 9:
                stmt_id, _columns, params = struct.unpack_from("<IHH", payload, 1)
                self.args.update(statement_id=stmt_id, params=params)
        elif len(self.columns) < self.expect_columns:
            self.columns.append(_column_name(payload))


@dataclass
class ConnectionLog:
    id: int
    server_version: str = ""
    user: str = ""
    client_flags: int = 0
    note: str = ""            # why part of the session could not be decoded (TLS, compression)
    commands: list[CommandRecord] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "server_version": self.server_version,
                               "user": self.user, "client_flags": f"{self.client_flags:#010x}"}
        if self.note:
            out["note"] = self.note
        out["commands"] = [c.to_json() for c in self.commands]
        return out


# -- decoding what the client sends ---------------------------------------------------------

def _cstring(buf: bytes, pos: int) -> tuple[str, int]:
    end = buf.index(b"\0", pos)
    return buf[pos:end].decode(errors="replace"), end + 1


def _query_text(payload: bytes, flags: int) -> dict[str, Any]:
    """COM_QUERY's text; with CLIENT_QUERY_ATTRIBUTES the text follows a parameter block."""
    body = payload[1:]
    if flags & P.CLIENT_QUERY_ATTRIBUTES:
        count, pos = P.lenenc_int(body, 0)
        _, pos = P.lenenc_int(body, pos)   # parameter set count, always 1
        if count:
            return {"query_attributes": count, "raw_hex": body.hex()}
        body = body[pos:]
    return {"query": body.decode(errors="replace")}


def _binlog_dump(payload: bytes, _flags: int) -> dict[str, Any]:
    pos, flags, server_id = struct.unpack_from("<IHI", payload, 1)
    return {"file": payload[11:].decode(errors="replace"), "position": pos, "flags": flags,
            "server_id": server_id}


def _gtid_set(data: bytes) -> str:
    """MySQL's binary GTID set (untagged form) as text; hex for anything else."""
    try:
        (n_sids,) = struct.unpack_from("<Q", data, 0)
        pos, parts = 8, []
        for _ in range(n_sids):
            sid = data[pos:pos + 16].hex()
            (n,) = struct.unpack_from("<Q", data, pos + 16)
            pos += 24
            ivs = []
            for _ in range(n):
                a, b = struct.unpack_from("<qq", data, pos)
                pos += 16
                ivs.append(f"{a}" if b == a + 1 else f"{a}-{b - 1}")
            uuid = f"{sid[:8]}-{sid[8:12]}-{sid[12:16]}-{sid[16:20]}-{sid[20:]}"
            parts.append(":".join([uuid, *ivs]))
        if pos != len(data):
            raise ValueError("trailing bytes")
        return ",".join(parts)
    except (struct.error, ValueError):
        return "hex:" + data.hex()


def _binlog_dump_gtid(payload: bytes, _flags: int) -> dict[str, Any]:
    flags, server_id, name_len = struct.unpack_from("<HII", payload, 1)
    name = payload[11:11 + name_len].decode(errors="replace")
    (pos,) = struct.unpack_from("<Q", payload, 11 + name_len)
    out: dict[str, Any] = {"file": name, "position": pos, "flags": flags, "server_id": server_id}
    rest = 19 + name_len
    if len(payload) >= rest + 4:   # replicas send the set whatever the flags say
        (size,) = struct.unpack_from("<I", payload, rest)
        out["gtid_set"] = _gtid_set(payload[rest + 4:rest + 4 + size])
    return out


def _register_slave(payload: bytes, _flags: int) -> dict[str, Any]:
    (server_id,) = struct.unpack_from("<I", payload, 1)
    pos, strings = 5, []
    for _ in range(3):  # host, user, password: each with a 1-byte length
        n = payload[pos]
        strings.append(payload[pos + 1:pos + 1 + n].decode(errors="replace"))
        pos += 1 + n
    port, rank, master_id = struct.unpack_from("<HII", payload, pos)
    return {"server_id": server_id, "report_host": strings[0], "report_user": strings[1],
            "report_password_set": bool(strings[2]), "report_port": port, "rank": rank,
            "master_id": master_id}


def _stmt_execute(payload: bytes, flags: int, n_params: int) -> dict[str, Any]:
    """COM_STMT_EXECUTE: the statement id and, where the types are simple, the bound values
    (CDC clients bind schema and table names to their column lookups)."""
    stmt_id, cursor_flags = struct.unpack_from("<IB", payload, 1)
    out: dict[str, Any] = {"statement_id": stmt_id}
    pos = 10
    attributes = bool(flags & P.CLIENT_QUERY_ATTRIBUTES)
    if attributes and (n_params or cursor_flags & _PARAMETER_COUNT_AVAILABLE):
        n_params, pos = P.lenenc_int(payload, pos)
    if not n_params:
        return out
    pos += (n_params + 7) // 8                       # NULL bitmap
    if payload[pos] != 1:                            # types not re-sent: values not decodable
        return out
    pos += 1
    types = []
    for _ in range(n_params):
        types.append(payload[pos])
        pos += 2
        if attributes:
            n, pos = P.lenenc_int(payload, pos)
            pos += n
    values: list[Any] = []
    for t in types:
        if t in _STRING_TYPES:
            n, pos = P.lenenc_int(payload, pos)
            values.append(payload[pos:pos + n].decode(errors="replace"))
            pos += n
        elif t in _INT_SIZES:
            size = _INT_SIZES[t]
            values.append(int.from_bytes(payload[pos:pos + size], "little"))
            pos += size
        else:
            values.append(f"(type {t})")
            break
    out["values"] = values
    return out


_PARAMETER_COUNT_AVAILABLE = 0x08
_STRING_TYPES = {0x0F, 0xF5, 0xFC, 0xFD, 0xFE}       # VARCHAR, JSON, BLOB, VAR_STRING, STRING
_INT_SIZES = {0x01: 1, 0x02: 2, 0x03: 4, 0x08: 8}   # TINY, SHORT, LONG, LONGLONG

_ARG_DECODERS: dict[int, Callable[[bytes, int], dict[str, Any]]] = {
    P.COM_QUERY: _query_text,
    P.COM_BINLOG_DUMP: _binlog_dump,
    P.COM_BINLOG_DUMP_GTID: _binlog_dump_gtid,
    P.COM_REGISTER_SLAVE: _register_slave,
    0x02: lambda p, _f: {"schema": p[1:].decode(errors="replace")},   # COM_INIT_DB
    0x16: lambda p, _f: {"statement": p[1:].decode(errors="replace")},  # COM_STMT_PREPARE
}


def decode_command(payload: bytes, client_flags: int) -> CommandRecord:
    code = payload[0]
    name = P.COMMANDS.get(code, f"COM_UNKNOWN_{code:#04x}")
    decoder = _ARG_DECODERS.get(code)
    try:
        args = decoder(payload, client_flags) if decoder else {}
    except (struct.error, ValueError, IndexError) as exc:
        args = {"undecoded": f"{exc}", "raw_hex": payload[1:200].hex()}
    return CommandRecord(name, args)


def _column_name(payload: bytes) -> str:
    """The name in a ColumnDefinition41 packet: the fifth length-encoded string."""
    pos = 0
    try:
        for _ in range(4):                       # catalog, schema, table, org_table
            n, pos = P.lenenc_int(payload, pos)
            pos += n
        n, pos = P.lenenc_int(payload, pos)
        return payload[pos:pos + n].decode(errors="replace")
    except (ValueError, IndexError):
        return "?"


def _strip_ssl(greeting: bytes) -> tuple[bytes, str, int]:
    """The greeting with CLIENT_SSL cleared, the server version it names, and the server's
    capability flags (low and high halves)."""
    version, pos = _cstring(greeting, 1)
    caps_at = pos + 4 + 8 + 1          # connection id, auth data part 1, filler
    (low,) = struct.unpack_from("<H", greeting, caps_at)
    high = struct.unpack_from("<H", greeting, caps_at + 5)[0] if len(greeting) >= caps_at + 7 else 0
    patched = greeting[:caps_at] + struct.pack("<H", low & ~P.CLIENT_SSL) + greeting[caps_at + 2:]
    return patched, version, low | high << 16


# -- the proxy ------------------------------------------------------------------------------

class _Session:
    """One client connection and its upstream; two pump threads."""

    def __init__(self, log: ConnectionLog, client: socket.socket, upstream: socket.socket,
                 counter: Iterator[int]) -> None:
        self.log, self.client, self.upstream, self.counter = log, client, upstream, counter
        self.lock = threading.Lock()
        self.awaiting: CommandRecord | None = None
        self.opaque = threading.Event()   # TLS or compression: forward without decoding
        self.server_flags = 0

    def run(self) -> None:
        threads = [threading.Thread(target=self._pump, args=(src, dst, handler), daemon=True)
                   for src, dst, handler in ((self.client, self.upstream, self._from_client),
                                             (self.upstream, self.client, self._from_server))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

    def _pump(self, src: socket.socket, dst: socket.socket,
              handler: Callable[[P.Packet, int], bytes]) -> None:
        stream = src.makefile("rb", buffering=_BUF)
        index = 0
        try:
            while not self.opaque.is_set():
                pkt = P.read_packet(stream)
                if pkt is None:
                    return
                payload = handler(pkt, index)
                dst.sendall(P.frame(payload, pkt.seq))
                index += 1
            while chunk := stream.read1(_BUF):
                dst.sendall(chunk)
        except (OSError, P.PacketStreamError):
            return
        finally:
            for s in (src, dst):
                with contextlib.suppress(OSError):
                    s.shutdown(socket.SHUT_RDWR)

    def _from_server(self, pkt: P.Packet, index: int) -> bytes:
        if index == 0:
            payload, self.log.server_version, self.server_flags = _strip_ssl(pkt.payload)
            return payload
        with self.lock:
            if self.awaiting is not None:
                self.awaiting.see_answer(pkt.payload)
        return pkt.payload

    def _from_client(self, pkt: P.Packet, index: int) -> bytes:
        if index == 0:
            self._handshake_response(pkt.payload)
        elif pkt.seq == 0 and not self.opaque.is_set():
            # what both sides agreed on: a client may offer flags the server lacks
            flags = self.log.client_flags & self.server_flags
            rec = decode_command(pkt.payload, flags)
            if rec.command == "COM_STMT_EXECUTE":
                rec.args = self._execute_args(pkt.payload, flags)
            rec.order = next(self.counter)
            with self.lock:
                self.log.commands.append(rec)
                self.awaiting = rec
        return pkt.payload

    def _execute_args(self, payload: bytes, flags: int) -> dict[str, Any]:
        (stmt_id,) = struct.unpack_from("<I", payload, 1)
        with self.lock:
            prepared = [c for c in self.log.commands if c.command == "COM_STMT_PREPARE"
                        and c.args.get("statement_id") == stmt_id]
        n_params = int(prepared[-1].args.get("params", 0)) if prepared else 0
        try:
            return _stmt_execute(payload, flags, n_params)
        except (struct.error, ValueError, IndexError) as exc:
            return {"statement_id": stmt_id, "undecoded": str(exc)}

    def _handshake_response(self, payload: bytes) -> None:
        (flags,) = struct.unpack_from("<I", payload, 0)
        self.log.client_flags = flags
        if flags & P.CLIENT_SSL:
            self.log.note = "client switched to TLS; nothing after the handshake is visible"
            self.opaque.set()
            return
        with contextlib.suppress(ValueError, IndexError):
            self.log.user, _ = _cstring(payload, 32)
        if flags & P.CLIENT_COMPRESS:
            self.log.note = "compressed protocol; commands not decoded"
            self.opaque.set()


class RecordingProxy:
    """`with RecordingProxy(server_port) as proxy:` point clients at proxy.port, then read
    proxy.connections."""

    def __init__(self, upstream_port: int, upstream_host: str = "127.0.0.1") -> None:
        if upstream_host not in ("127.0.0.1", "localhost", "::1"):
            raise ValueError("the recording proxy only talks to loopback")
        self.upstream = (upstream_host, upstream_port)
        self.connections: list[ConnectionLog] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = int(self._listener.getsockname()[1])
        self._accepting = threading.Thread(target=self._accept_loop, daemon=True)
        self._sessions: list[threading.Thread] = []
        self._counter = itertools.count(1)   # next() on a count is atomic under the GIL

    def __enter__(self) -> RecordingProxy:
        self._accepting.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._listener.close()

    def _accept_loop(self) -> None:
        while True:
            try:
                client, _ = self._listener.accept()
            except OSError:
                return
            try:
                upstream = socket.create_connection(self.upstream, timeout=10)
                upstream.settimeout(None)
            except OSError:
                client.close()
                continue
            log = ConnectionLog(len(self.connections) + 1)
            self.connections.append(log)
            t = threading.Thread(target=_Session(log, client, upstream, self._counter).run, daemon=True)
            t.start()
            self._sessions.append(t)

    def commands(self) -> Iterator[tuple[ConnectionLog, CommandRecord]]:
        for conn in list(self.connections):
            for rec in list(conn.commands):
                yield conn, rec

    def to_json(self) -> list[dict[str, Any]]:
        return [c.to_json() for c in self.connections]
