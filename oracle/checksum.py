"""Event checksums. MySQL's CRC32 is the zlib/ISO-HDLC CRC-32 (tests cross-check it with crcmod);
zlib's is used here because it is about nine times faster on this hot path."""
from __future__ import annotations

import zlib
from enum import IntEnum

from .event_types import EventType, HeaderFlag

CHECKSUM_LEN = 4
_FLAGS_OFFSET = 17  # within a v4 common header


class ChecksumAlg(IntEnum):
    OFF = 0
    CRC32 = 1
    UNDEF = 255


_ALG_NAMES: dict[int | None, str] = {None: "NONE", **{int(a): a.name for a in ChecksumAlg}}


def alg_name(alg: int | None) -> str:
    """NONE: the format predates checksums (no descriptor in the FDE)."""
    name = _ALG_NAMES.get(alg)
    return name if name is not None else f"UNKNOWN_{alg}"


def event_crc32(event: bytes | memoryview) -> int:
    """CRC32 of an event without its last 4 bytes, as the server computes it: a Format_description
    event's LOG_EVENT_BINLOG_IN_USE_F flag is cleared first (the server sets it after checksumming)."""
    body = event[:-CHECKSUM_LEN]
    if event[4] == EventType.FORMAT_DESCRIPTION_EVENT and event[_FLAGS_OFFSET] & HeaderFlag.LOG_EVENT_BINLOG_IN_USE_F:
        crc = zlib.crc32(event[:_FLAGS_OFFSET])
        crc = zlib.crc32(bytes([event[_FLAGS_OFFSET] & ~HeaderFlag.LOG_EVENT_BINLOG_IN_USE_F & 0xFF]), crc)
        return zlib.crc32(body[_FLAGS_OFFSET + 1:], crc)
    return zlib.crc32(body)
