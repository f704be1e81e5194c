"""Decode a binlog into canonical events: framing, then the body decoder for each type code."""
from __future__ import annotations

import mmap
import os
from dataclasses import replace
from typing import Any, Iterator

from .context import DecodeContext
from .errors import BadEventBody, BinlogError, UnknownEventType
from .event_types import EventType, HeaderFlag
from .events import DECODERS
from .fde import FormatDescription
from .framing import RawEvent, walk
from .model import Event, checksum_of
from .reader import Reader
from .values import binary


def decode_bytes(buf: bytes, *, verify_checksums: bool = True) -> Iterator[Event]:
    """Yield the canonical events of a whole binlog held in buf. A BinlogError is raised at the
    first bad byte, after every event before it has been yielded."""
    ctx = new_context(verify_checksums)
    for raw in walk(buf, verify_checksums=verify_checksums):
        yield decode_raw(buf, raw, ctx)


def new_context(verify_checksums: bool = True) -> DecodeContext:
    """A fresh context for one event stream (a file, or a replication stream: oracle.wire)."""
    ctx = DecodeContext(format=None, verify_checksums=verify_checksums)  # type: ignore[arg-type]
    ctx.decode_nested = _nested_decoder(ctx)
    return ctx


def decode_file(path: str | os.PathLike[str], *, verify_checksums: bool = True) -> Iterator[Event]:
    """Like decode_bytes, over a memory-mapped file (no copy of a large log)."""
    with open(path, "rb") as f:
        if os.fstat(f.fileno()).st_size == 0:
            yield from decode_bytes(b"", verify_checksums=verify_checksums)
            return
        with mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
            yield from decode_bytes(buf, verify_checksums=verify_checksums)  # type: ignore[arg-type]


def decode_raw(buf: bytes, raw: RawEvent, ctx: DecodeContext, origin: int = 0) -> Event:
    ctx.format = raw.format
    h = raw.header
    body_reader = Reader(buf, raw.body_start, raw.body_end, origin)
    decoder = DECODERS.get(h.type_code)
    if decoder is not None:
        try:
            body = decoder(body_reader, ctx, h)
        except BinlogError as e:
            if e.event_offset is None:
                e.event_offset = raw.offset
            raise
    elif h.flags & HeaderFlag.LOG_EVENT_IGNORABLE_F:
        # The server skips unknown events flagged ignorable; so do we, keeping their bytes.
        body = {"ignored": True, "data": binary(body_reader.rest())}
    else:
        raise UnknownEventType(raw.offset, f"type code {h.type_code} is not defined")
    return Event(raw.offset, h.event_size, h.log_pos, h.type_code, h.server_id, h.timestamp,
                 h.flags, checksum_of(raw.checksum_alg, raw.checksum_stored, raw.checksum_verified), body)


def _nested_decoder(ctx: DecodeContext):
    depth = 0

    def decode_nested(payload: bytes, origin: int, position: int,
                      next_position: int | None) -> list[dict[str, Any]]:
        """Decode the event stream inside a Transaction_payload: no magic, the enclosing format,
        and no checksums (the server writes the inner events without them). Errors give
        origin + the offset in payload. Every event gets `position` and `next_position` (what
        mysqlbinlog prints for them: the end and end_log_pos of the enclosing event)."""
        nonlocal depth
        if depth:
            raise BadEventBody(origin, "a Transaction_payload inside another Transaction_payload")
        outer = ctx.format
        inner_format = FormatDescription(outer.binlog_version, outer.server_version,
                                         outer.create_timestamp, outer.header_length,
                                         outer.post_header_lengths, None)
        events = []
        depth += 1
        try:
            for raw in walk(payload, verify_checksums=False, origin=origin, skip_magic=True,
                            format=inner_format):
                event = decode_raw(payload, raw, ctx, origin)
                events.append(replace(event, position=position, next_position=next_position).to_json())
        finally:
            depth -= 1
            ctx.format = outer
        return events
    return decode_nested
