"""The least of the MySQL client/server packet layer that the capture client and the recording
proxy need: read one packet with its header, name a command byte.

Kept deliberately minimal (one reader function, no reassembly): the project's packet codec lives
in oracle/wire/, and the capture must see each packet's own header anyway (a 16 MB event arrives
as several packets, and that split is part of what is recorded).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import BinaryIO

MAX_PAYLOAD = 0xFFFFFF


class PacketStreamError(RuntimeError):
    """The stream ended inside a packet; says at which byte offset of the stream."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(f"at stream byte {offset}: {message}")
        self.offset = offset


@dataclass(frozen=True, slots=True)
class Packet:
    length: int      # the 3-byte length field (== len(payload))
    seq: int         # the 1-byte sequence id
    payload: bytes


def read_packet(stream: BinaryIO, offset: int = 0) -> Packet | None:
    """One packet from a blocking binary stream; None at a clean end of stream (EOF before any
    header byte). `offset` is where the packet starts in the stream, for the error message."""
    header = _read_exact(stream, 4)
    if not header:
        return None
    if len(header) < 4:
        raise PacketStreamError(offset, f"stream ended {4 - len(header)} byte(s) into a header")
    length = header[0] | header[1] << 8 | header[2] << 16
    payload = _read_exact(stream, length)
    if len(payload) < length:
        raise PacketStreamError(offset, f"packet declares {length} payload bytes; the stream "
                                        f"ended after {len(payload)}")
    return Packet(length, header[3], payload)


def _read_exact(stream: BinaryIO, n: int) -> bytes:
    """Up to n bytes: fewer only when the stream ends first."""
    chunks, got = [], 0
    while got < n:
        chunk = stream.read(n - got)
        if not chunk:
            break
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def frame(payload: bytes, seq: int) -> bytes:
    """A payload as one packet; a longer one must be split by the caller (the codec's job)."""
    if len(payload) > MAX_PAYLOAD:
        raise ValueError(f"a packet holds at most {MAX_PAYLOAD} bytes, not {len(payload)}")
    return struct.pack("<I", len(payload))[:3] + bytes([seq & 0xFF]) + payload


# Command bytes (mysql-server include/my_command.h; MariaDB's are the same up to 0x1f).
COMMANDS: dict[int, str] = {
    0x00: "COM_SLEEP", 0x01: "COM_QUIT", 0x02: "COM_INIT_DB", 0x03: "COM_QUERY",
    0x04: "COM_FIELD_LIST", 0x05: "COM_CREATE_DB", 0x06: "COM_DROP_DB", 0x07: "COM_REFRESH",
    0x08: "COM_SHUTDOWN", 0x09: "COM_STATISTICS", 0x0A: "COM_PROCESS_INFO", 0x0B: "COM_CONNECT",
    0x0C: "COM_PROCESS_KILL", 0x0D: "COM_DEBUG", 0x0E: "COM_PING", 0x0F: "COM_TIME",
    0x10: "COM_DELAYED_INSERT", 0x11: "COM_CHANGE_USER", 0x12: "COM_BINLOG_DUMP",
    0x13: "COM_TABLE_DUMP", 0x14: "COM_CONNECT_OUT", 0x15: "COM_REGISTER_SLAVE",
    0x16: "COM_STMT_PREPARE", 0x17: "COM_STMT_EXECUTE", 0x18: "COM_STMT_SEND_LONG_DATA",
    0x19: "COM_STMT_CLOSE", 0x1A: "COM_STMT_RESET", 0x1B: "COM_SET_OPTION",
    0x1C: "COM_STMT_FETCH", 0x1D: "COM_DAEMON", 0x1E: "COM_BINLOG_DUMP_GTID",
    0x1F: "COM_RESET_CONNECTION", 0x20: "COM_CLONE",
}
COM_QUERY, COM_BINLOG_DUMP, COM_REGISTER_SLAVE, COM_BINLOG_DUMP_GTID = 0x03, 0x12, 0x15, 0x1E

# Capability flags the proxy and the capture client look at: the protocol's own, from the
# oracle's packet codec; the two it does not name are added here.
from oracle.wire.packets import (CLIENT_CONNECT_WITH_DB, CLIENT_DEPRECATE_EOF,  # noqa: E402,F401
                                 CLIENT_PROTOCOL_41, CLIENT_SSL)

CLIENT_COMPRESS = 1 << 5
CLIENT_QUERY_ATTRIBUTES = 1 << 27

# Dump flags. Bit 1 means different things: MySQL 8.0.26+ reads it as "send
# Heartbeat_log_event_v2" (include/mysql.h USE_HEARTBEAT_EVENT_V2), MariaDB as "send
# Annotate_rows events" (BINLOG_SEND_ANNOTATE_ROWS_EVENT); in MySQL's COM_BINLOG_DUMP_GTID
# bit 2 says the GTID set follows.
BINLOG_DUMP_NON_BLOCK = 0x01
MYSQL_USE_HEARTBEAT_EVENT_V2 = 0x02
MARIADB_SEND_ANNOTATE_ROWS = 0x02
BINLOG_THROUGH_GTID = 0x04


def lenenc_int(buf: bytes, pos: int) -> tuple[int, int]:
    """(value, next position) of a length-encoded integer."""
    first = buf[pos]
    if first < 0xFB:
        return first, pos + 1
    size = {0xFC: 2, 0xFD: 3, 0xFE: 8}.get(first)
    if size is None:
        raise ValueError(f"byte {first:#x} at {pos} starts no length-encoded integer")
    return int.from_bytes(buf[pos + 1:pos + 1 + size], "little"), pos + 1 + size


def describe_response(payload: bytes) -> str:
    """First packet of a command's answer, in a few words: OK, ERR code message, EOF, or a
    result set's column count."""
    if not payload:
        return "empty"
    first = payload[0]
    if first == 0x00:
        return "OK"
    if first == 0xFF:
        code = int.from_bytes(payload[1:3], "little")
        msg = payload[9:] if payload[3:4] == b"#" else payload[3:]
        return f"ERR {code} {msg.decode(errors='replace')}"
    if first == 0xFE and len(payload) < 9:
        return "EOF"
    try:
        columns, _ = lenenc_int(payload, 0)
    except (ValueError, IndexError):
        return f"0x{first:02x}"
    return f"result set ({columns} column{'s' if columns != 1 else ''})"
