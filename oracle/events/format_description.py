"""FORMAT_DESCRIPTION_EVENT (15) and START_EVENT_V3 (1): framing has parsed them already, since
they change how later events are read; here they are only rendered."""
from __future__ import annotations

from typing import Any

from ..checksum import alg_name
from ..context import DecodeContext
from ..fde import SERVER_VERSION_LEN, read_start_v3
from ..header import Header
from ..reader import Reader
from ..values import binary


def _version_tail(r: Reader) -> dict[str, Any]:
    """Servers fill the 50-byte server_version field with NULs after the text; other bytes there
    are kept as "server_version_tail" (from the first NUL on, trailing NULs dropped) so that the
    encoder (oracle/encode) writes the field back unchanged."""
    field = bytes(r.buf[r.pos + 2:r.pos + 2 + SERVER_VERSION_LEN])
    tail = field[field.find(b"\0"):].rstrip(b"\0") if b"\0" in field else b""
    return {"server_version_tail": binary(tail)} if tail else {}


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    f = ctx.format
    return {
        "binlog_version": f.binlog_version,
        "server_version": f.server_version,
        "created": f.create_timestamp,
        "common_header_len": f.header_length,
        "post_header_len": list(f.post_header_lengths),
        # the algorithm of the events that follow (NONE before 5.6.1, and for UNDEF); the
        # event's own descriptor byte is in its header's checksum.algorithm
        "checksum_alg": alg_name(f.checksum_alg),
    } | _version_tail(r)


def decode_start_v3(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    tail = _version_tail(r)
    binlog_version, server_version, created = read_start_v3(r)
    return {"binlog_version": binlog_version, "server_version": server_version, "created": created} | tail
