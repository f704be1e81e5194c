"""Events back into a binlog: the magic, each common header, the format in force, checksums.

The inverse of oracle/framing.py. The format in force changes at a Format_description (or a
Start_v3 at offset 4), exactly where the reader changes it, so the encoder writes each event with
the header length and checksum rule the reader will apply to it. The CRC32 is computed as the
server computes it (oracle/checksum.event_crc32: a Format_description's LOG_EVENT_BINLOG_IN_USE_F
is cleared first).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass

from .. import fde as fmt
from ..checksum import CHECKSUM_LEN, ChecksumAlg, event_crc32
from ..header import V4_HEADER_LEN
from .writer import EncodeError

MAGIC = b"\xfebin"
_V1 = struct.Struct("<IBII")
_V4 = struct.Struct("<IBIIIH")
_U32 = struct.Struct("<I")
# Offsets of the framing fields in a common header (_V4: timestamp u32, type_code u8,
# server_id u32, then these): event_size u32, log_pos u32 (binlog v4 only), flags u16.
SIZE_AT, POS_AT, FLAGS_AT = 9, 13, 17
_ALG_CODES = {"OFF": ChecksumAlg.OFF, "CRC32": ChecksumAlg.CRC32, "UNDEF": ChecksumAlg.UNDEF}


@dataclass(frozen=True, slots=True)
class Options:
    """How the framing fields are produced.

    positions: "keep" writes each event's canonical next_position; "recompute" writes the end
    offset of the event (0 stays 0, as in relay-log and nested events).
    checksums: "compute" writes the CRC32 of the bytes written; "keep" writes the canonical
    checksum.stored value (a deliberately wrong CRC survives).
    """
    positions: str = "keep"
    checksums: str = "compute"


def header_bytes(header_length: int, timestamp: int, type_code: int, server_id: int,
                 event_size: int, log_pos: int | None, flags: int) -> bytes:
    """A common header of header_length bytes: 13 in binlog v1, 19 or more after (the bytes past
    19 are written as zeros: no server defines them and the reader skips them)."""
    try:
        if header_length < V4_HEADER_LEN:
            return _V1.pack(timestamp, type_code, server_id, event_size)
        return _V4.pack(timestamp, type_code, server_id, event_size, log_pos or 0, flags) \
            + bytes(header_length - V4_HEADER_LEN)
    except struct.error as e:
        raise EncodeError(f"common header field out of range: {e}") from None


def with_framing(head: bytes, *, event_size: int | None = None, log_pos: int | None = None) -> bytes:
    """An existing common header with event_size and/or log_pos rewritten and every other byte
    kept, for events that exist as bytes rather than fields (a mutated or foreign event, whose
    bytes past 19 header_bytes would zero). Values wrap modulo 2**32, as the u32 fields hold them."""
    out = bytearray(head)
    if event_size is not None:
        _U32.pack_into(out, SIZE_AT, event_size & 0xFFFFFFFF)
    if log_pos is not None:
        if len(out) < V4_HEADER_LEN:
            raise EncodeError("a binlog v1 header has no log_pos")
        _U32.pack_into(out, POS_AT, log_pos & 0xFFFFFFFF)
    return bytes(out)


def checksum_descriptor(server_version: str, event_alg: str, body_alg: str) -> int | None:
    """The algorithm byte a Format_description ends with, or None when its server version
    predates checksums. event_alg is the event's checksum.algorithm (its own descriptor byte,
    UNDEF included); body_alg the algorithm of the events after it (the body's checksum_alg)."""
    if not fmt.has_checksum_descriptor(server_version):
        return None
    if event_alg in _ALG_CODES:
        return int(_ALG_CODES[event_alg])
    if event_alg.startswith("UNKNOWN_"):
        return int(event_alg[len("UNKNOWN_"):])
    return int(_ALG_CODES.get(body_alg, ChecksumAlg.UNDEF))


def seal(head: bytes, body: bytes, has_crc: bool, stored: int | None, options: Options) -> bytes:
    """Header + body + the CRC32 trailer when the event carries one."""
    event = head + body
    if not has_crc:
        return event
    if options.checksums == "keep" and stored is not None:
        crc = stored
    else:
        crc = event_crc32(event + bytes(CHECKSUM_LEN))
    return event + crc.to_bytes(CHECKSUM_LEN, "little")
