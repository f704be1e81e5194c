"""The format in force: what a Format_description (or, before v4, a Start_v3) event says about the
events that follow it: header length, post-header length per type, checksum algorithm."""
from __future__ import annotations

import re
from dataclasses import dataclass

from .errors import BadEventBody, TruncatedEvent
from .event_types import EventType as T
from .header import V1_HEADER_LEN, V4_HEADER_LEN
from .reader import Reader

SERVER_VERSION_LEN = 50
START_V3_HEADER_LEN = 2 + SERVER_VERSION_LEN + 4
# Checksums exist from MySQL 5.6.1 and MariaDB 5.3.0 on; their FDE then ends with the
# algorithm byte and a 4-byte checksum (present even when the algorithm is OFF).
_CHECKSUM_SPLIT = {"mysql": (5, 6, 1), "mariadb": (5, 3, 0)}


@dataclass(frozen=True, slots=True)
class FormatDescription:
    binlog_version: int
    server_version: str
    create_timestamp: int
    header_length: int
    post_header_lengths: tuple[int, ...]  # index: type code - 1
    checksum_alg: int | None  # None: the format predates checksums

    @property
    def flavor(self) -> str:
        return "mariadb" if "mariadb" in self.server_version.lower() else "mysql"

    @property
    def version_tuple(self) -> tuple[int, int, int]:
        return version_tuple(self.server_version)

    def post_header_len(self, type_code: int) -> int:
        i = type_code - 1
        return self.post_header_lengths[i] if 0 <= i < len(self.post_header_lengths) else 0


def version_tuple(server_version: str) -> tuple[int, int, int]:
    m = re.match(r"(\d+)\.(\d+)\.(\d+)", server_version)
    return (int(m[1]), int(m[2]), int(m[3])) if m else (0, 0, 0)


def has_checksum_descriptor(server_version: str) -> bool:
    flavor = "mariadb" if "mariadb" in server_version.lower() else "mysql"
    return version_tuple(server_version) >= _CHECKSUM_SPLIT[flavor]


def _old_post_header_lengths(binlog_version: int) -> tuple[int, ...]:
    """What MySQL assumes for binlog v1 (3.23) and v3 (4.0), which had no FDE."""
    lengths = [0] * (T.FORMAT_DESCRIPTION_EVENT - 1)
    known = {
        T.START_EVENT_V3: START_V3_HEADER_LEN,
        T.QUERY_EVENT: 11,
        T.ROTATE_EVENT: 0 if binlog_version == 1 else 8,
        T.LOAD_EVENT: 18,
        T.CREATE_FILE_EVENT: 4,
        T.APPEND_BLOCK_EVENT: 4,
        T.EXEC_LOAD_EVENT: 4,
        T.DELETE_FILE_EVENT: 4,
        T.NEW_LOAD_EVENT: 18,
    }
    for code, length in known.items():
        lengths[code - 1] = length
    return tuple(lengths)


def old_format(binlog_version: int, server_version: str = "", create_timestamp: int = 0) -> FormatDescription:
    header = V1_HEADER_LEN if binlog_version == 1 else V4_HEADER_LEN
    default = "3.23" if binlog_version == 1 else "4.0"
    return FormatDescription(binlog_version, server_version or default, create_timestamp, header,
                             _old_post_header_lengths(binlog_version), None)


# Before the first FDE of a file (a relay log fragment, say) assume a v4 format whose
# post-header lengths are unknown; the FDE replaces it.
DEFAULT_V4 = FormatDescription(4, "", 0, V4_HEADER_LEN, (), None)


def read_start_v3(r: Reader) -> tuple[int, str, int]:
    """binlog_version, server_version, create_timestamp of a Start_v3 event body."""
    binlog_version = r.u16("binlog_version")
    server_version = r.bytes(SERVER_VERSION_LEN, "server_version")
    created = r.u32("create_timestamp")
    return binlog_version, _cstr(server_version), created


def read_format_description(r: Reader, checksum_alg: int | None) -> FormatDescription:
    """Parse an FDE body. r must end before the checksum descriptor (algorithm byte + CRC),
    which framing has already taken off and passes as checksum_alg."""
    binlog_version, server_version, created = read_start_v3(r)
    header_length = r.u8("common_header_len")
    if header_length < V4_HEADER_LEN:
        raise BadEventBody(r.offset - 1, f"common_header_len {header_length} is below {V4_HEADER_LEN}")
    post_header_lengths = tuple(r.rest())
    return FormatDescription(binlog_version, server_version, created, header_length,
                             post_header_lengths, checksum_alg)


def peek_server_version(buf: bytes, body_start: int, body_end: int, origin: int) -> str:
    if body_end - body_start < START_V3_HEADER_LEN:
        raise TruncatedEvent(origin + body_start, "Format_description body is shorter than 56 bytes")
    return _cstr(buf[body_start + 2:body_start + 2 + SERVER_VERSION_LEN])


def _cstr(b: bytes) -> str:
    return bytes(b).split(b"\0", 1)[0].decode("latin-1")
