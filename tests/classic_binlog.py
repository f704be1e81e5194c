"""Build small, well-formed v4 binlogs byte by byte, for edge cases no real server log contains.

Only the framing is generic (magic, FDE with the post-header lengths the servers write, CRC32);
event bodies are spelled out by the tests, so a test states the bytes it checks.
"""
from __future__ import annotations

import struct
import zlib

MAGIC = b"\xfebin"
# Post-header lengths v4 servers write (MariaDB's list, which MySQL agrees with where both define
# a type), by type code.
POST_HEADER = {1: 56, 2: 13, 4: 8, 6: 18, 8: 4, 9: 4, 10: 4, 11: 4, 12: 18, 15: 84, 17: 4, 18: 26,
               19: 8, 23: 8, 24: 8, 25: 8, 26: 2, 30: 10, 31: 10, 32: 10, 161: 4, 162: 19, 163: 4,
               165: 13, 166: 8, 167: 8, 168: 8, 169: 10, 170: 10, 171: 10}
MYSQL_VERSION = "8.0.40"
MARIADB_VERSION = "10.11.6-MariaDB-log"


def event(type_code: int, body: bytes, pos: int, *, timestamp: int = 1_700_000_000,
          server_id: int = 1, flags: int = 0, crc: bool = True) -> bytes:
    size = 19 + len(body) + (4 if crc else 0)
    head = struct.pack("<IBIIIH", timestamp, type_code, server_id, size, pos + size, flags)
    raw = head + body
    return raw + struct.pack("<I", zlib.crc32(raw)) if crc else raw


def fde_body(server_version: str, n_types: int = 171) -> bytes:
    lengths = bytes(POST_HEADER.get(code, 0) for code in range(1, n_types + 1))
    return (struct.pack("<H", 4) + server_version.encode().ljust(50, b"\0")
            + struct.pack("<I", 0) + bytes([19]) + lengths + bytes([1]))  # checksum alg CRC32


def binlog(server_version: str, *events: tuple[int, bytes]) -> bytes:
    """A binlog: magic, FDE, then (type_code, body) events, all with CRC32."""
    out = bytearray(MAGIC)
    out += event(15, fde_body(server_version), len(out))
    for type_code, body in events:
        out += event(type_code, body, len(out))
    return bytes(out)


def query_body(query: bytes, *, status: bytes = b"", db: bytes = b"test", thread_id: int = 7,
               exec_time: int = 0, error_code: int = 0, extra_post_header: bytes = b"") -> bytes:
    return (struct.pack("<IIBHH", thread_id, exec_time, len(db), error_code, len(status))
            + extra_post_header + status + db + b"\0" + query)


def user_var_body(name: bytes, type_code: int | None, value: bytes = b"", *, charset: int = 33,
                  flags: int | None = None) -> bytes:
    """type_code None: a NULL variable."""
    head = struct.pack("<I", len(name)) + name
    if type_code is None:
        return head + b"\x01"
    body = head + b"\x00" + bytes([type_code]) + struct.pack("<II", charset, len(value)) + value
    return body + (bytes([flags]) if flags is not None else b"")
