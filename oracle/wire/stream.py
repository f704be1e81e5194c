"""Decode what a server sends after COM_BINLOG_DUMP: one event per logical packet (after the 0x00
OK byte), then EOF (non-blocking dump) or ERR. The events decode exactly as in a file; only the
position differs: the stream has no file offsets, so `position` is log_pos - event_size (the
event's place in the served file), and 0 for artificial events (log_pos 0); the events inside a
Transaction_payload get the payload's end there, as `decode FILE` gives them."""
from __future__ import annotations

import mmap
import os
from dataclasses import replace
from typing import Any, Iterator

from ..checksum import CHECKSUM_LEN, ChecksumAlg, event_crc32
from ..decoder import decode_raw, new_context
from ..event_types import EventType
from ..fde import FormatDescription
from ..framing import walk
from ..header import V4_HEADER_LEN
from .errors import BadPacket
from .packets import DEFAULT_MAX_PAYLOAD, ERR_HEADER, OK_HEADER, EofPacket, ErrPacket, is_eof, iter_packets

_ROTATE_POST_HEADER = 8


def _before_fde(event: bytes) -> FormatDescription:
    """The format for events that precede the first Format_description (the artificial Rotate).
    Their checksum follows what the client announced, which the stream does not say: a trailing
    CRC32 that matches the bytes before it is taken as the checksum."""
    lengths = [0] * EventType.ROTATE_EVENT
    lengths[EventType.ROTATE_EVENT - 1] = _ROTATE_POST_HEADER
    crc = (len(event) > V4_HEADER_LEN + CHECKSUM_LEN
           and event_crc32(event) == int.from_bytes(event[-CHECKSUM_LEN:], "little"))
    return FormatDescription(4, "", 0, V4_HEADER_LEN, tuple(lengths), ChecksumAlg.CRC32 if crc else None)


def decode_stream_bytes(buf: bytes, *, verify_checksums: bool = True,
                        max_payload: int = DEFAULT_MAX_PAYLOAD) -> Iterator[dict[str, Any]]:
    """JSON-ready records: canonical events, and {"packet": "eof"|"err", ...} for the end."""
    ctx = new_context(verify_checksums)
    current: FormatDescription | None = None
    for packet in iter_packets(buf, max_payload=max_payload):
        payload = packet.payload
        body_origin = packet.offset + 4 + 1
        if is_eof(payload):
            eof = EofPacket.parse(payload, packet.offset + 4)
            yield {"packet": "eof", "offset": packet.offset, "warnings": eof.warnings, "status": eof.status}
            continue
        if payload[:1] == bytes((ERR_HEADER,)):
            err = ErrPacket.parse(payload, packet.offset + 4)
            yield {"packet": "err", "offset": packet.offset, "code": err.code,
                   "sql_state": err.sql_state, "message": err.message}
            continue
        if payload[:1] != bytes((OK_HEADER,)):
            first = f"0x{payload[0]:02x}" if payload else "an empty payload"
            raise BadPacket(packet.offset + 4, f"{first} where an event packet (0x00), EOF or ERR belongs")
        event = payload[1:]
        fmt = current or _before_fde(event)
        for raw in walk(event, verify_checksums=verify_checksums, origin=body_origin,
                        skip_magic=True, format=fmt):
            log_pos = raw.header.log_pos or 0
            position = log_pos - raw.header.event_size if log_pos >= raw.header.event_size else 0
            ctx.position_shift = position - raw.offset  # inner events of a payload: as in the file
            decoded = decode_raw(event, raw, ctx, body_origin)
            if raw.header.type_code == EventType.FORMAT_DESCRIPTION_EVENT:
                current = raw.format
            yield replace(decoded, position=position).to_json()


def decode_stream_file(path: str | os.PathLike[str], *, verify_checksums: bool = True) -> Iterator[dict[str, Any]]:
    """Like decode_stream_bytes, over a memory-mapped capture file."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            return
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            yield from decode_stream_bytes(buf, verify_checksums=verify_checksums)  # type: ignore[arg-type]
