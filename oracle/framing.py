"""Walk a binlog event by event: magic, headers, the format in force, checksums.

Framing knows nothing of event bodies except the two that change the format (Start_v3 and
Format_description). It never trusts a length it has not checked against the bytes it has.
"""
from __future__ import annotations

import struct
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterator

from . import fde as fmt
from .checksum import CHECKSUM_LEN, ChecksumAlg, event_crc32
from .errors import BadEventBody, BinlogError, BadHeader, BadMagic, ChecksumMismatch, TruncatedEvent
from .event_types import EventType
from .header import V1_HEADER_LEN, Header, parse_header
from .reader import Reader

MAGIC = b"\xfebin"
_START_V3_V1_SIZE = V1_HEADER_LEN + fmt.START_V3_HEADER_LEN  # 69; a v3 Start_v3 is 75 bytes
_U32 = struct.Struct("<I").unpack_from


@dataclass(frozen=True, slots=True)
class RawEvent:
    offset: int  # absolute, in the file (or in the enclosing payload for nested events)
    header: Header
    body_start: int  # buffer index just past the common header
    body_end: int  # buffer index of the checksum (or the event end when there is none)
    format: fmt.FormatDescription  # the format in force for this event
    checksum_alg: int | None
    checksum_stored: int | None
    checksum_verified: bool | None  # None: not checked (no checksum, or verification off)


def initial_format(buf: bytes, pos: int) -> fmt.FormatDescription:
    """Guess the header length before the first event is read: binlog v1 and v3 begin with a
    Start_v3 event, v1's being 69 bytes long (MySQL's own test)."""
    if len(buf) - pos >= V1_HEADER_LEN and buf[pos + 4] == EventType.START_EVENT_V3:
        size = _U32(buf, pos + 9)[0]
        return fmt.old_format(1 if size < 75 else 3)
    return fmt.DEFAULT_V4


def walk(buf: bytes, *, verify_checksums: bool = True, origin: int = 0,
         skip_magic: bool = False, format: fmt.FormatDescription | None = None) -> Iterator[RawEvent]:
    """Yield every event of buf. Raises a BinlogError at the first bad byte, after yielding
    everything before it. skip_magic and format serve nested event streams (Transaction_payload)."""
    end = len(buf)
    pos = 0
    if not skip_magic:
        if end < len(MAGIC):
            raise TruncatedEvent(origin, f"file is {end} bytes, shorter than the binlog magic")
        if bytes(buf[:4]) != MAGIC:
            raise BadMagic(origin, f"expected fe62696e, found {bytes(buf[:4]).hex()}")
        pos = 4
    current = format or initial_format(buf, pos)
    while pos < end:
        header = parse_header(buf, pos, current.header_length, origin)
        size = header.event_size
        if size < current.header_length:
            raise BadHeader(origin + pos, f"event_size {size} is below the header length {current.header_length}")
        if size > end - pos:
            raise TruncatedEvent(origin + pos, f"event_size {size} runs past the end ({end - pos} bytes left)")
        event_end = pos + size
        body_start = pos + current.header_length
        alg = current.checksum_alg
        if header.type_code == EventType.FORMAT_DESCRIPTION_EVENT:
            with _in_event(origin + pos):
                current, alg = _read_fde(buf, pos, body_start, event_end, origin, current)
            has_crc = alg is not None
            body_end = event_end - CHECKSUM_LEN - 1 if has_crc else event_end
        elif header.type_code == EventType.START_EVENT_V3 and pos == 4 and not skip_magic:
            with _in_event(origin + pos):
                current = _read_start_v3(buf, body_start, event_end, origin, current)
            has_crc, body_end = False, event_end
        else:
            has_crc = alg == ChecksumAlg.CRC32
            body_end = event_end - CHECKSUM_LEN if has_crc else event_end
            if body_end < body_start:
                raise BadHeader(origin + pos, f"event_size {size} leaves no room for the checksum")
        stored = _U32(buf, event_end - CHECKSUM_LEN)[0] if has_crc else None
        verified = None
        if has_crc and verify_checksums and alg == ChecksumAlg.CRC32:
            computed = event_crc32(buf[pos:event_end])
            if computed != stored:
                raise ChecksumMismatch(origin + pos, f"stored CRC32 {stored:#010x}, computed {computed:#010x}")
            verified = True
        yield RawEvent(origin + pos, header, body_start, body_end, current, alg, stored, verified)
        pos = event_end


@contextmanager
def _in_event(offset: int) -> Iterator[None]:
    """A format event's body error names the event it is in, as decode_raw's errors do."""
    try:
        yield
    except BinlogError as e:
        if e.event_offset is None:
            e.event_offset = offset
        raise


def _read_fde(buf: bytes, pos: int, body_start: int, event_end: int, origin: int,
              previous: fmt.FormatDescription) -> tuple[fmt.FormatDescription, int | None]:
    version = fmt.peek_server_version(buf, body_start, event_end, origin)
    alg: int | None = None
    body_end = event_end
    if fmt.has_checksum_descriptor(version):
        body_end = event_end - CHECKSUM_LEN - 1
        if body_end < body_start + fmt.START_V3_HEADER_LEN + 1:
            raise TruncatedEvent(origin + pos, "Format_description too short for its checksum descriptor")
        alg = buf[body_end]
        if alg not in (ChecksumAlg.OFF, ChecksumAlg.CRC32, ChecksumAlg.UNDEF):
            raise BadEventBody(origin + body_end, f"undefined checksum algorithm {alg}")
    new = fmt.read_format_description(Reader(buf, body_start, body_end, origin), alg)
    if alg == ChecksumAlg.UNDEF:
        new = _with_alg(new, None)
    return new, alg


def _with_alg(f: fmt.FormatDescription, alg: int | None) -> fmt.FormatDescription:
    return fmt.FormatDescription(f.binlog_version, f.server_version, f.create_timestamp,
                                 f.header_length, f.post_header_lengths, alg)


def _read_start_v3(buf: bytes, body_start: int, event_end: int, origin: int,
                   current: fmt.FormatDescription) -> fmt.FormatDescription:
    binlog_version, server_version, created = fmt.read_start_v3(Reader(buf, body_start, event_end, origin))
    return fmt.old_format(current.binlog_version if current.binlog_version in (1, 3) else 3,
                          server_version, created)
