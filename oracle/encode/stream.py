"""Canonical events back into a binlog: the inverse of oracle/decoder.py + oracle/framing.py.

`encode_binlog(events)` takes the canonical JSON form (dicts as `Event.to_json()` emits them, or
Event objects) and returns the file's bytes. The event sizes are always recomputed from the
bodies; next positions and checksums follow `Options`. The format in force is tracked as the
reader tracks it (a Format_description changes it; a Start_v3 first event sets binlog v1/v3).
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator

from .. import fde as fmt
from ..checksum import CHECKSUM_LEN, ChecksumAlg
from ..event_types import EventType as T, HeaderFlag
from ..model import Event
from .context import EncodeContext, EventHead
from .events import ENCODERS
from .events.format_description import format_of
from .framing import MAGIC, Options, checksum_descriptor, header_bytes, seal
from .writer import EncodeError, as_bytes


def encode_binlog(events: Iterable[dict[str, Any] | Event], *, options: Options = Options(),
                  magic: bool = True) -> bytes:
    """The whole file: the magic (unless magic=False: a stream fragment) and every event."""
    out = bytearray(MAGIC if magic else b"")
    for _, data in iter_encoded(events, options=options, start=len(out)):
        out += data
    return bytes(out)


def iter_encoded(events: Iterable[dict[str, Any] | Event], *, options: Options = Options(),
                 start: int = len(MAGIC)) -> Iterator[tuple[dict[str, Any], bytes]]:
    """Each canonical event with its bytes, the first written at offset `start` (4: just after
    the magic). For callers that compare or splice event by event."""
    stream = StreamEncoder(options, start)
    for ev in events:
        ev = ev.to_json() if isinstance(ev, Event) else ev
        yield ev, stream.encode(ev)


class StreamEncoder:
    """Encodes a file's events one at a time, keeping what the stream carries between them
    (the format in force, the table maps, the position). A body the encoder refuses raises
    EncodeError and leaves the stream as it was, so a caller may skip that event."""

    def __init__(self, options: Options = Options(), start: int = len(MAGIC)) -> None:
        self.options = options
        self.position = start
        self.top_level = start == len(MAGIC)
        self.ctx = EncodeContext(format=fmt.DEFAULT_V4)
        self.ctx.encode_nested = lambda inner: _encode_nested(inner, self.ctx)
        self._first = True

    def encode(self, ev: dict[str, Any]) -> bytes:
        if self._first and self.top_level and ev["type_code"] == T.START_EVENT_V3:
            self.ctx.format = fmt.old_format(1 if ev["body"]["binlog_version"] == 1 else 3)
        self._first = False
        data = encode_event(ev, self.ctx, self.position, self.options, top_level=self.top_level)
        self.position += len(data)
        return data

    def skip(self, size: int) -> None:
        """Account for an event written by other means (size bytes)."""
        self.position += size


def encode_event(ev: dict[str, Any], ctx: EncodeContext, position: int, options: Options = Options(),
                 *, top_level: bool = True) -> bytes:
    """One event at `position` (the file offset it will have), under ctx.format, which it may
    change (Format_description, Start_v3 at offset 4)."""
    code = ev["type_code"]
    flags = ev["flags"]["value"] if isinstance(ev["flags"], dict) else ev["flags"]
    head = EventHead(code, ev["server_id"], ev["next_position"], flags)
    header_length = ctx.format.header_length
    body = _body(ev, ctx, head)
    if code == T.FORMAT_DESCRIPTION_EVENT:
        descriptor = checksum_descriptor(ev["body"]["server_version"], ev["checksum"]["algorithm"],
                                         ev["body"].get("checksum_alg", "NONE"))
        has_crc = descriptor is not None
        if has_crc:
            body += bytes([descriptor])
        ctx.format = format_of(ev["body"], descriptor)
    elif code == T.START_EVENT_V3 and position == 4 and top_level:
        has_crc = False
        b = ev["body"]
        ctx.format = fmt.old_format(ctx.format.binlog_version if ctx.format.binlog_version in (1, 3) else 3,
                                    b["server_version"], b["created"])
    else:
        has_crc = ctx.format.checksum_alg == ChecksumAlg.CRC32
    size = header_length + len(body) + (CHECKSUM_LEN if has_crc else 0)
    log_pos = head.log_pos
    if options.positions == "recompute" and log_pos:
        log_pos = position + size
    header = header_bytes(header_length, ev["timestamp"], code, ev["server_id"], size, log_pos, flags)
    stored = ev["checksum"].get("stored")
    if code == T.FORMAT_DESCRIPTION_EVENT and descriptor != ChecksumAlg.CRC32 and stored is not None:
        # Not verified by anyone: the server writes a CRC all the same; keep what was there.
        return header + body + stored.to_bytes(CHECKSUM_LEN, "little")
    return seal(header, body, has_crc, stored, options)


def _body(ev: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    encoder = ENCODERS.get(head.type_code)
    if encoder is not None:
        return encoder(ev["body"], ctx, head)
    if head.flags & HeaderFlag.LOG_EVENT_IGNORABLE_F and "data" in ev["body"]:
        return as_bytes(ev["body"]["data"], "data")
    raise EncodeError(f"no encoder for type code {head.type_code}")


def _encode_nested(events: list[dict[str, Any]], ctx: EncodeContext) -> bytes:
    """The events inside a Transaction_payload: the enclosing format without checksums, no
    magic; their log_pos is 0, as the server writes them (the decoder reports the enclosing
    event's positions instead, so the stored value is not in the body)."""
    outer = ctx.format
    ctx.format = fmt.FormatDescription(outer.binlog_version, outer.server_version, outer.create_timestamp,
                                       outer.header_length, outer.post_header_lengths, None)
    out = bytearray()
    try:
        for ev in events:
            out += encode_event({**ev, "next_position": 0}, ctx, len(out), top_level=False)
    finally:
        ctx.format = outer
    return bytes(out)
