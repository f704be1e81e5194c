"""The common event header: 13 bytes in binlog v1, 19 bytes in v3 and v4."""
from __future__ import annotations

import struct
from dataclasses import dataclass

from .errors import TruncatedEvent

V1_HEADER_LEN = 13
V4_HEADER_LEN = 19

_V1 = struct.Struct("<IBII")
V4_HEADER = struct.Struct("<IBIIIH")  # timestamp, type_code, server_id, event_size, log_pos, flags


@dataclass(frozen=True, slots=True)
class Header:
    timestamp: int
    type_code: int
    server_id: int
    event_size: int
    log_pos: int | None  # the stored "next position"; binlog v1 has none
    flags: int


def parse_header(buf: bytes, pos: int, header_length: int, origin: int = 0) -> Header:
    """Read a common header at pos. Headers longer than 19 bytes keep their extra bytes unread,
    as the servers do."""
    if len(buf) - pos < header_length:
        raise TruncatedEvent(origin + pos, f"common header needs {header_length} bytes, "
                                           f"{len(buf) - pos} left")
    if header_length < V4_HEADER_LEN:
        ts, type_code, server_id, size = _V1.unpack_from(buf, pos)
        return Header(ts, type_code, server_id, size, None, 0)
    ts, type_code, server_id, size, log_pos, flags = V4_HEADER.unpack_from(buf, pos)
    return Header(ts, type_code, server_id, size, log_pos, flags)
