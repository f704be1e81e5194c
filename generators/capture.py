"""Capture client: what a real server sends for a binlog dump, recorded compactly as ground truth
for `harness serve` (corpus/capture.schema.json, docs/corpus.md "Captures").

PyMySQL logs in: it already does the handshake and every authentication path our servers use
(caching_sha2_password fast and full with the RSA key exchange, mysql_native_password, auth
switch), which is security-sensitive code better taken from a well-kept library than rewritten.
After login the dump is a single command whose answer must be read packet by packet with the
headers intact (PyMySQL's reader hides them and reassembles 16 MB splits), so from there the
capture writes the command and reads the socket itself with generators.packets.read_packet.

A capture keeps every packet header and the bytes of each message that is NOT in the case's
binlog files (artificial Rotate, the Format_description as sent if it differs from the file's,
heartbeats, events of files outside the case, EOF/ERR); an event that is in a file is kept as
(file, offset, length). rebuild_stream() turns a capture back into the exact bytes received.
"""
from __future__ import annotations

import struct
import time
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from oracle.event_types import EventType, flag_names, type_name

from . import packets as P

FORMAT_VERSION = 1
CAPTURE_FILE = "capture.json"
HEADER_LEN = 19
_ROTATE, _FDE = int(EventType.ROTATE_EVENT), int(EventType.FORMAT_DESCRIPTION_EVENT)
_HEARTBEATS = {int(EventType.HEARTBEAT_LOG_EVENT), int(EventType.HEARTBEAT_LOG_EVENT_V2)}


class CaptureError(RuntimeError):
    """The capture could not be taken (login failed, the server hung up during setup...)."""


@dataclass(frozen=True)
class DumpRequest:
    """One dump to capture: the statements sent first, then the dump command."""

    name: str                          # "nonblock", "heartbeat", "gtid", ...
    file: str
    position: int = 4
    flags: int = P.BINLOG_DUMP_NON_BLOCK
    server_id: int = 4242
    setup: tuple[str, ...] = ()
    gtid: bool = False                  # COM_BINLOG_DUMP_GTID (MySQL) instead of COM_BINLOG_DUMP
    gtid_set: str = ""                  # MySQL text form, "uuid:1-3,uuid2:5"
    stop_after_heartbeats: int = 0      # a blocking dump ends when the capture hangs up
    deprecate_eof: bool = False         # log in with CLIENT_DEPRECATE_EOF, as mysqlbinlog 9.7 does
    timeout: float = 30.0

    @property
    def command(self) -> str:
        return "COM_BINLOG_DUMP_GTID" if self.gtid else "COM_BINLOG_DUMP"

    def payload(self) -> bytes:
        name = self.file.encode()
        if not self.gtid:
            return struct.pack("<BIHI", P.COM_BINLOG_DUMP, self.position, self.flags,
                               self.server_id) + name
        data = encode_gtid_set(self.gtid_set)
        return (struct.pack("<BHII", P.COM_BINLOG_DUMP_GTID, self.flags, self.server_id,
                            len(name)) + name + struct.pack("<QI", self.position, len(data)) + data)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "setup": list(self.setup),
                               "command": self.command, "file": self.file,
                               "position": self.position, "flags": self.flags,
                               "server_id": self.server_id}
        if self.gtid:
            out["gtid_set"] = self.gtid_set
        if self.stop_after_heartbeats:
            out["stop_after_heartbeats"] = self.stop_after_heartbeats
        if self.deprecate_eof:
            out["deprecate_eof"] = True
        out["payload_hex"] = self.payload().hex()
        return out

    @classmethod
    def from_json(cls, doc: Mapping[str, Any], timeout: float = 30.0) -> DumpRequest:
        """The request a capture recorded, to send again (to `harness serve`, say)."""
        req = cls(doc["name"], doc["file"], doc["position"], doc["flags"], doc["server_id"],
                  tuple(doc["setup"]), doc["command"] == "COM_BINLOG_DUMP_GTID",
                  doc.get("gtid_set", ""), doc.get("stop_after_heartbeats", 0),
                  doc.get("deprecate_eof", False), timeout)
        if "payload_hex" in doc and req.payload().hex() != doc["payload_hex"]:
            raise ValueError(f"{req.name}: the request fields do not make the recorded payload")
        return req


def encode_gtid_set(text: str) -> bytes:
    """MySQL's binary GTID set (the untagged form COM_BINLOG_DUMP_GTID accepts)."""
    sids = [s for s in (t.strip() for t in text.split(",")) if s]
    out = [struct.pack("<Q", len(sids))]
    for sid in sids:
        uuid, *ranges = sid.split(":")
        out.append(bytes.fromhex(uuid.replace("-", "")) + struct.pack("<Q", len(ranges)))
        for r in ranges:
            lo, _, hi = r.partition("-")
            out.append(struct.pack("<qq", int(lo), int(hi or lo) + 1))
    return b"".join(out)


# -- turning the received packets into a compact record ------------------------------------

@dataclass
class _Cursor:
    """Which served file the stream is in (as the Rotate events say) and where in it the last
    event that came from it ended."""

    files: Mapping[str, bytes]
    current: str | None = None
    next_offset: int = 4

    def locate(self, ev: bytes, log_pos: int, size: int) -> int | None:
        """Offset of `ev` in the current file: at log_pos - size, else where the last file
        event ended or a few events further (events the server left out). MariaDB 11.8 writes
        log_pos 0 into the events inside a transaction, so log_pos alone cannot say."""
        data = self.files.get(self.current or "")
        if data is None:
            return None
        candidates = [log_pos - size] if log_pos >= size + 4 else []
        pos = self.next_offset
        for _ in range(_LOOKAHEAD):
            if pos + HEADER_LEN > len(data):
                break
            candidates.append(pos)
            pos += max(struct.unpack_from("<I", data, pos + 9)[0], HEADER_LEN)
        for offset in candidates:
            if offset >= 4 and data[offset:offset + size] == ev:
                self.next_offset = offset + size
                return offset
        return None


_LOOKAHEAD = 8   # file events the server may skip between two it sends (Annotate_rows: one)


def _has_crc32(ev: bytes) -> bool:
    """Whether the event ends with a CRC32 of the rest. Decided per event, not from the file:
    the server writes the events it makes up (artificial Rotate, heartbeats) with the checksum
    the client announced (mysqlbinlog announces NONE), and copies file events as they are."""
    return len(ev) > HEADER_LEN + 4 and zlib.crc32(ev[:-4]) == int.from_bytes(ev[-4:], "little")


def _event_summary(ev: bytes) -> dict[str, Any]:
    ts, code, server_id, size, log_pos, flags = struct.unpack_from("<IBIIIH", ev, 0)
    return {"type": type_name(code), "timestamp": ts, "server_id": server_id,
            "event_size": size, "log_pos": log_pos, "flags": flag_names(flags)}


def _classify_event(ev: bytes, cur: _Cursor) -> dict[str, Any]:
    code, size, log_pos = ev[4], *struct.unpack_from("<II", ev, 9)
    if code == _ROTATE:
        entry = _in_file(ev, cur, size, log_pos)
        cur.current, cur.next_offset = _rotate_name(ev), 4
        return entry
    return _in_file(ev, cur, size, log_pos)


def _rotate_name(ev: bytes) -> str:
    """The file a Rotate event names (after the 8-byte position; before a CRC32 if any)."""
    return ev[HEADER_LEN + 8:len(ev) - (4 if _has_crc32(ev) else 0)].decode(errors="replace")


def _in_file(ev: bytes, cur: _Cursor, size: int, log_pos: int) -> dict[str, Any]:
    offset = cur.locate(ev, log_pos, size)
    if offset is not None:
        return {"file": cur.current, "offset": offset, "end": offset + size, "events": 1}
    entry: dict[str, Any] = {"event_hex": ev.hex(), **_event_summary(ev)}
    if cur.current:
        entry["stream_file"] = cur.current
    data = cur.files.get(cur.current or "")
    slot = log_pos - size
    if data is not None and log_pos and slot >= 4 and data[slot + 4:slot + 5] == ev[4:5] \
            and data[slot + 9:slot + 13] == ev[9:13]:
        entry["modified_from_offset"] = slot   # the file's event here, sent with other bytes
    return entry


def classify(payload: bytes, cur: _Cursor) -> dict[str, Any]:
    """One reassembled message: an event (by file reference or bytes) or a status packet."""
    if payload[:1] == b"\x00" and len(payload) >= 1 + HEADER_LEN:
        return _classify_event(payload[1:], cur)
    return {"packet_hex": payload.hex(), "response": P.describe_response(payload)}


def append_message(messages: list[dict[str, Any]], msg: dict[str, Any]) -> None:
    """Add a message; an event that continues the previous run of file events joins it."""
    last = messages[-1] if messages else None
    if last and "events" in msg and "events" in last and last["file"] == msg["file"] \
            and last["end"] == msg["offset"]:
        last["end"] = msg["end"]
        last["events"] += 1
        return
    messages.append(msg)


def message_payloads(msg: Mapping[str, Any], files: Mapping[str, bytes]) -> Iterator[bytes]:
    """The payload(s) a message stands for (inverse of classify + append_message)."""
    if "packet_hex" in msg:
        yield bytes.fromhex(msg["packet_hex"])
    elif "event_hex" in msg:
        yield b"\x00" + bytes.fromhex(msg["event_hex"])
    else:
        data, pos = files[msg["file"]], msg["offset"]
        for _ in range(msg["events"]):
            (size,) = struct.unpack_from("<I", data, pos + 9)
            yield b"\x00" + data[pos:pos + size]
            pos += size
        if pos != msg["end"]:
            raise ValueError(f"{msg['file']}: {msg['events']} events from {msg['offset']} end at "
                             f"{pos}, not {msg['end']}")


def _framed(packets: list[list[int]], body: bytes) -> bytes:
    """`body` cut into the recorded packets, each with its header; packets past the body's
    end are left out."""
    out, pos = [], 0
    for length, seq in packets:
        if pos >= len(body) and length:
            break
        out.append(struct.pack("<I", length)[:3] + bytes([seq]) + body[pos:pos + length])
        pos += length
    if pos != len(body):
        raise ValueError(f"packets cover {pos} bytes, messages {len(body)}")
    return b"".join(out)


def rebuild_stream(capture: Mapping[str, Any], files: Mapping[str, bytes]) -> bytes:
    """The exact bytes the server sent for the dump command, packet headers included."""
    body = b"".join(p for m in capture["messages"] for p in message_payloads(m, files))
    framed = _framed(capture["packets"], body)
    if len(framed) != sum(4 + n for n, _ in capture["packets"]):
        raise ValueError("the messages end before the recorded packets do")
    return framed


def split_at_foreign_file(capture: Mapping[str, Any], files: Mapping[str, bytes]
                          ) -> tuple[bytes, list[dict[str, Any]]]:
    """(the bytes a primary serving only `files` must reproduce exactly, the messages after).

    The real server went on from the case's last file into the file its FLUSH opened, which the
    case does not hold; everything from the first event of such a file on is returned as
    messages, to be compared in kind (an artificial Rotate, events, then EOF), not in bytes.
    """
    messages = list(capture["messages"])
    cut = next((i for i, m in enumerate(messages)
                if m.get("stream_file") not in (None, *files) or _rotates_out(m, files)),
               len(messages))
    body = b"".join(p for m in messages[:cut] for p in message_payloads(m, files))
    return _framed(capture["packets"], body), messages[cut:]


def _rotates_out(msg: Mapping[str, Any], files: Mapping[str, bytes]) -> bool:
    """An artificial Rotate to a file the case does not hold. After a file closed by FLUSH the
    file's own Rotate already names the next file; a file closed by a shutdown ends with a Stop
    event, so only the server's artificial Rotate says that it goes on into another file."""
    if msg.get("type") != "ROTATE_EVENT" or "event_hex" not in msg:
        return False
    return _rotate_name(bytes.fromhex(msg["event_hex"])) not in files


def _messages(stream: Any) -> Iterator[tuple[list[P.Packet], bytes]]:
    """Reassembled messages with the packets each came in (a 0xFFFFFF packet continues)."""
    offset = 0
    parts: list[P.Packet] = []
    while True:
        pkt = P.read_packet(stream, offset)
        if pkt is None:
            if parts:
                raise P.PacketStreamError(offset, "stream ended inside a split message")
            return
        offset += 4 + pkt.length
        parts.append(pkt)
        if pkt.length == P.MAX_PAYLOAD:
            continue
        yield parts, b"".join(p.payload for p in parts)
        parts = []


@dataclass
class Capture:
    request: DumpRequest
    server_version: str
    client_flags: int
    packets: list[tuple[int, int]] = field(default_factory=list)
    messages: list[dict[str, Any]] = field(default_factory=list)
    end: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"request": self.request.to_json(), "server_version": self.server_version,
                "client_flags": f"{self.client_flags:#010x}", "end": self.end,
                "packets": [list(p) for p in self.packets], "messages": self.messages}


def _connect(host: str, port: int, user: str, password: str, request: DumpRequest) -> Any:
    """PyMySQL only reads OK packets in the setup (SET statements), so it copes with
    CLIENT_DEPRECATE_EOF, which changes how the server ends a non-blocking dump."""
    import pymysql
    extra = P.CLIENT_DEPRECATE_EOF if request.deprecate_eof else 0
    try:
        return pymysql.connect(host=host, port=port, user=user, password=password,
                               autocommit=True, connect_timeout=request.timeout,
                               read_timeout=request.timeout, client_flag=extra)
    except pymysql.MySQLError as exc:
        raise CaptureError(f"cannot log in to {host}:{port} as {user}: {exc}") from exc


def _run_setup(conn: Any, request: DumpRequest) -> None:
    import pymysql
    with conn.cursor() as cur:
        for sql in request.setup:
            try:
                cur.execute(sql)
            except pymysql.MySQLError as exc:
                raise CaptureError(f"{request.name}: the server refused {sql!r}: {exc}") from exc


def capture_dump(port: int, user: str, password: str, request: DumpRequest,
                 files: Mapping[str, bytes], host: str = "127.0.0.1") -> Capture:
    """Log in, send the setup statements and the dump, and record what comes back until EOF,
    ERR, the server's hang-up, or the requested number of heartbeats. The same request goes to
    a real server (generators, capture_case) or to `harness serve` (tests/test_primary_vs_capture)."""
    conn = _connect(host, port, user, password, request)
    try:
        _run_setup(conn, request)
        cap = Capture(request, conn.get_server_info(), conn.client_flag)
        sock = conn._sock                                    # PyMySQL has no raw-packet API
        sock.settimeout(request.timeout)
        sock.sendall(P.frame(request.payload(), 0))
        cursor = _Cursor(files)
        heartbeats = 0
        received: list[bytes] = []
        deadline = time.monotonic() + request.timeout
        for parts, payload in _messages(conn._rfile):
            cap.packets += [(p.length, p.seq) for p in parts]
            received += [struct.pack("<I", p.length)[:3] + bytes([p.seq]) + p.payload for p in parts]
            msg = classify(payload, cursor)
            append_message(cap.messages, msg)
            if "response" in msg:
                cap.end = msg["response"]
                break
            if payload[5:6] and payload[5] in _HEARTBEATS:
                heartbeats += 1
                if request.stop_after_heartbeats and heartbeats >= request.stop_after_heartbeats:
                    cap.end = f"capture hung up after {heartbeats} heartbeat(s)"
                    break
            if time.monotonic() > deadline:
                raise CaptureError(f"{request.name}: no end after {request.timeout}s")
        else:
            cap.end = "server closed the connection"
        if rebuild_stream(cap.to_json(), files) != b"".join(received):
            raise CaptureError(f"{request.name}: the record does not rebuild the bytes received")
        return cap
    finally:
        _hang_up(conn)


def _hang_up(conn: Any) -> None:
    """Close without COM_QUIT: after a blocking dump the server is still sending."""
    try:
        conn._sock.close()
    except (OSError, AttributeError):
        pass
