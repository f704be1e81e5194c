"""Packet framing of the MySQL protocol, OK/ERR/EOF packets and length-encoded values.

A packet is a 3-byte little-endian payload length, a 1-byte sequence id and the payload. A logical
payload of 2^24-1 bytes or more goes out as several packets of exactly 0xFFFFFF bytes and a last,
shorter one, which is empty when the length is a multiple of 0xFFFFFF: a reader knows a payload
has ended at the first packet shorter than 0xFFFFFF. Every function here is pure; readers never
allocate on a length they have not seen the bytes for, and stop at a caller-given maximum.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import Iterator

from .errors import BadPacket, BadSequence, PacketTooLarge, TruncatedPacket

HEADER_LEN = 4
MAX_PACKET = 0xFFFFFF  # the largest payload one packet carries
DEFAULT_MAX_PAYLOAD = 1 << 30  # the server's PACKET_MAX_SIZE / max_allowed_packet ceiling (1 GiB)

OK_HEADER, EOF_HEADER, ERR_HEADER, LOCAL_INFILE_HEADER = 0x00, 0xFE, 0xFF, 0xFB
NULL_MARKER = 0xFB  # a length-encoded NULL in a text-protocol row

# Capability flags (include/mysql_com.h) the codec and the primary use.
CLIENT_LONG_PASSWORD = 1
CLIENT_FOUND_ROWS = 1 << 1
CLIENT_LONG_FLAG = 1 << 2
CLIENT_CONNECT_WITH_DB = 1 << 3
CLIENT_NO_SCHEMA = 1 << 4
CLIENT_PROTOCOL_41 = 1 << 9
CLIENT_INTERACTIVE = 1 << 10
CLIENT_SSL = 1 << 11
CLIENT_TRANSACTIONS = 1 << 13
CLIENT_SECURE_CONNECTION = 1 << 15
CLIENT_MULTI_STATEMENTS = 1 << 16
CLIENT_MULTI_RESULTS = 1 << 17
CLIENT_PS_MULTI_RESULTS = 1 << 18
CLIENT_PLUGIN_AUTH = 1 << 19
CLIENT_CONNECT_ATTRS = 1 << 20
CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA = 1 << 21
CLIENT_SESSION_TRACK = 1 << 23
CLIENT_DEPRECATE_EOF = 1 << 24

SERVER_STATUS_AUTOCOMMIT = 0x0002

_U16 = struct.Struct("<H")


# -- framing ----------------------------------------------------------------------------------

def packet_header(length: int, seq: int) -> bytes:
    if not 0 <= length <= MAX_PACKET:
        raise ValueError(f"packet length {length} outside 0..{MAX_PACKET}")
    return length.to_bytes(3, "little") + bytes((seq & 0xFF,))


def chunk_lengths(total: int) -> list[int]:
    """The packet payload lengths that carry a logical payload of `total` bytes."""
    full, rest = divmod(total, MAX_PACKET)
    return [MAX_PACKET] * full + [rest]


def encode_packets(payload: bytes, seq: int) -> tuple[bytes, int]:
    """Frame a logical payload; returns the bytes and the sequence id of the next packet."""
    out = bytearray()
    pos = 0
    for n in chunk_lengths(len(payload)):
        out += packet_header(n, seq)
        out += payload[pos:pos + n]
        pos += n
        seq = (seq + 1) & 0xFF
    return bytes(out), seq


@dataclass(frozen=True, slots=True)
class Packet:
    """A logical packet: its first header's offset in the stream, first sequence id, payload."""
    offset: int
    seq: int
    payload: bytes
    packets: int = 1  # how many wire packets carried it


def iter_packets(buf: bytes, *, origin: int = 0, max_payload: int = DEFAULT_MAX_PAYLOAD,
                 first_seq: int | None = None) -> Iterator[Packet]:
    """Reassemble the logical packets of a whole captured stream. Sequence ids must increase by
    one (mod 256) from packet to packet, starting at first_seq when given."""
    view = buf  # slices of bytes or mmap are copies: no buffer export outlives the call
    pos, end = 0, len(view)
    expected = first_seq
    while pos < end:
        start = pos
        parts: list[bytes] = []
        size = count = 0
        first = None
        while True:
            if end - pos < HEADER_LEN:
                raise TruncatedPacket(origin + pos, f"packet header needs {HEADER_LEN} bytes, {end - pos} left")
            length = int.from_bytes(view[pos:pos + 3], "little")
            seq = view[pos + 3]
            if expected is not None and seq != expected:
                raise BadSequence(origin + pos + 3, f"sequence id {seq}, expected {expected}")
            if size + length > max_payload:
                raise PacketTooLarge(origin + pos, f"payload of at least {size + length} bytes exceeds "
                                                   f"the limit of {max_payload}")
            if end - pos - HEADER_LEN < length:
                raise TruncatedPacket(origin + pos, f"packet length {length} runs past the end "
                                                    f"({end - pos - HEADER_LEN} bytes left)")
            first = seq if first is None else first
            parts.append(bytes(view[pos + HEADER_LEN:pos + HEADER_LEN + length]))
            pos += HEADER_LEN + length
            size += length
            count += 1
            expected = (seq + 1) & 0xFF
            if length < MAX_PACKET:
                break
        yield Packet(origin + start, first, parts[0] if count == 1 else b"".join(parts), count)


class PacketAssembler:
    """Incremental reassembly for bytes arriving from a socket: feed() what came in, take the
    complete logical packets. Holds at most max_payload bytes of one payload plus one header."""

    def __init__(self, max_payload: int = DEFAULT_MAX_PAYLOAD, origin: int = 0) -> None:
        self.max_payload = max_payload
        self._buf = bytearray()
        self._parts = bytearray()
        self._first_seq: int | None = None
        self._start = origin  # stream offset of the first header of the payload being built
        self._consumed = origin  # stream offset of self._buf[0]
        self._count = 0

    def feed(self, data: bytes) -> list[Packet]:
        self._buf += data
        done: list[Packet] = []
        while len(self._buf) >= HEADER_LEN:
            length = int.from_bytes(self._buf[:3], "little")
            seq = self._buf[3]
            if len(self._parts) + length > self.max_payload:
                raise PacketTooLarge(self._consumed, f"payload of at least {len(self._parts) + length} "
                                                     f"bytes exceeds the limit of {self.max_payload}")
            if len(self._buf) < HEADER_LEN + length:
                break
            if self._first_seq is None:
                self._first_seq, self._start = seq, self._consumed
            self._parts += self._buf[HEADER_LEN:HEADER_LEN + length]
            del self._buf[:HEADER_LEN + length]
            self._consumed += HEADER_LEN + length
            self._count += 1
            if length < MAX_PACKET:
                done.append(Packet(self._start, self._first_seq, bytes(self._parts), self._count))
                self._parts.clear()
                self._first_seq, self._count = None, 0
        return done

    @property
    def pending(self) -> int:
        """Bytes received that do not yet make a whole logical packet."""
        return len(self._buf) + len(self._parts)


# -- length-encoded values ----------------------------------------------------------------------

def lenenc_int(n: int) -> bytes:
    if n < 0:
        raise ValueError("length-encoded integers are unsigned")
    if n < 251:
        return bytes((n,))
    if n < 1 << 16:
        return b"\xfc" + n.to_bytes(2, "little")
    if n < 1 << 24:
        return b"\xfd" + n.to_bytes(3, "little")
    return b"\xfe" + n.to_bytes(8, "little")


def lenenc_str(s: bytes | str) -> bytes:
    b = s.encode() if isinstance(s, str) else s
    return lenenc_int(len(b)) + b


_LENENC_WIDTH = {0xFC: 2, 0xFD: 3, 0xFE: 8}


def read_lenenc_int(buf: bytes, pos: int, origin: int = 0) -> tuple[int | None, int]:
    """(value, next position); None for the NULL marker 0xFB."""
    if pos >= len(buf):
        raise TruncatedPacket(origin + pos, "length-encoded integer needs 1 byte, 0 left")
    first = buf[pos]
    if first < 0xFB:
        return first, pos + 1
    if first == NULL_MARKER:
        return None, pos + 1
    width = _LENENC_WIDTH.get(first)
    if width is None:
        raise BadPacket(origin + pos, f"0x{first:02x} does not start a length-encoded integer")
    if len(buf) - pos - 1 < width:
        raise TruncatedPacket(origin + pos, f"length-encoded integer needs {width + 1} bytes, "
                                            f"{len(buf) - pos} left")
    return int.from_bytes(buf[pos + 1:pos + 1 + width], "little"), pos + 1 + width


def read_lenenc_str(buf: bytes, pos: int, origin: int = 0) -> tuple[bytes | None, int]:
    n, pos = read_lenenc_int(buf, pos, origin)
    if n is None:
        return None, pos
    if len(buf) - pos < n:
        raise TruncatedPacket(origin + pos, f"string length {n} exceeds the {len(buf) - pos} bytes left")
    return bytes(buf[pos:pos + n]), pos + n


def read_cstring(buf: bytes, pos: int, origin: int = 0) -> tuple[bytes, int]:
    nul = buf.find(b"\0", pos)
    if nul < 0:
        raise TruncatedPacket(origin + pos, "string has no terminating NUL")
    return bytes(buf[pos:nul]), nul + 1


def _u16(buf: bytes, pos: int, origin: int, what: str) -> int:
    if len(buf) - pos < 2:
        raise TruncatedPacket(origin + pos, f"{what} needs 2 bytes, {len(buf) - pos} left")
    return _U16.unpack_from(buf, pos)[0]


# -- OK / ERR / EOF -----------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class OkPacket:
    affected_rows: int = 0
    last_insert_id: int = 0
    status: int = SERVER_STATUS_AUTOCOMMIT
    warnings: int = 0
    info: bytes = b""

    def encode(self, header: int = OK_HEADER) -> bytes:
        """header=0xFE is the OK that ends a result set under CLIENT_DEPRECATE_EOF."""
        return (bytes((header,)) + lenenc_int(self.affected_rows) + lenenc_int(self.last_insert_id)
                + _U16.pack(self.status) + _U16.pack(self.warnings) + self.info)

    @classmethod
    def parse(cls, payload: bytes, origin: int = 0) -> "OkPacket":
        if not payload or payload[0] not in (OK_HEADER, EOF_HEADER):
            raise BadPacket(origin, "an OK packet starts with 0x00 (or 0xfe)")
        affected, pos = read_lenenc_int(payload, 1, origin)
        last_id, pos = read_lenenc_int(payload, pos, origin)
        if affected is None or last_id is None:
            raise BadPacket(origin + 1, "NULL where an OK packet has a count")
        status = _u16(payload, pos, origin, "status flags")
        warnings = _u16(payload, pos + 2, origin, "warnings")
        return cls(affected, last_id, status, warnings, bytes(payload[pos + 4:]))


@dataclass(frozen=True, slots=True)
class ErrPacket:
    code: int
    message: str
    sql_state: str = "HY000"

    def encode(self) -> bytes:
        return (bytes((ERR_HEADER,)) + _U16.pack(self.code) + b"#" + self.sql_state.encode()[:5].ljust(5, b"0")
                + self.message.encode("utf-8", "replace"))

    @classmethod
    def parse(cls, payload: bytes, origin: int = 0) -> "ErrPacket":
        if not payload or payload[0] != ERR_HEADER:
            raise BadPacket(origin, "an ERR packet starts with 0xff")
        code = _u16(payload, 1, origin, "error code")
        rest = bytes(payload[3:])
        state = "HY000"
        if rest[:1] == b"#":
            if len(rest) < 6:
                raise TruncatedPacket(origin + 3, "SQL state needs 6 bytes")
            state, rest = rest[1:6].decode("latin-1"), rest[6:]
        return cls(code, rest.decode("utf-8", "replace"), state)


@dataclass(frozen=True, slots=True)
class EofPacket:
    warnings: int = 0
    status: int = SERVER_STATUS_AUTOCOMMIT

    def encode(self) -> bytes:
        return bytes((EOF_HEADER,)) + _U16.pack(self.warnings) + _U16.pack(self.status)

    @classmethod
    def parse(cls, payload: bytes, origin: int = 0) -> "EofPacket":
        if not is_eof(payload):
            raise BadPacket(origin, "an EOF packet is 0xfe and under 9 bytes")
        if len(payload) == 1:  # protocol 4.0's bare EOF
            return cls(0, 0)
        return cls(_u16(payload, 1, origin, "warnings"), _u16(payload, 3, origin, "status flags"))


def is_eof(payload: bytes) -> bool:
    """0xFE starts both an EOF (or its OK replacement) and a length-encoded 8-byte integer; only
    a payload under 9 bytes is the end marker."""
    return bool(payload) and payload[0] == EOF_HEADER and len(payload) < 9


def end_of_rows(capabilities: int, status: int = SERVER_STATUS_AUTOCOMMIT) -> bytes:
    """What ends a result set: EOF, or an OK with the 0xFE header under CLIENT_DEPRECATE_EOF."""
    if capabilities & CLIENT_DEPRECATE_EOF:
        return OkPacket(status=status).encode(EOF_HEADER)
    return EofPacket(status=status).encode()
