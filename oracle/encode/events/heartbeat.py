"""HEARTBEAT_LOG_EVENT (27) and HEARTBEAT_LOG_EVENT_V2 (41)."""
from __future__ import annotations

from typing import Any

from ...events.heartbeat import OTW_HB_HEADER_END_MARK, OTW_HB_LOG_FILENAME_FIELD, OTW_HB_LOG_POSITION_FIELD
from ..context import EncodeContext, EventHead
from ..writer import Writer, as_bytes, packed_int_bytes, as_int


def encode_v1(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    """MariaDB's sub-header carries the position when the header's log_pos is 0."""
    w = Writer()
    if body.get("log_pos") is not None:
        w.u64(body["log_pos"], "log_pos")
    return w.raw(as_bytes(body["log_ident"], "log_ident")).bytes()


def _field(w: Writer, kind: int, value: bytes) -> None:
    w.packed_int(kind).packed_bytes(value)


def encode_v2(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    """Known fields first (filename, position), unknown ones after, then the end mark."""
    w = Writer()
    if body.get("log_filename") is not None:
        _field(w, OTW_HB_LOG_FILENAME_FIELD, as_bytes(body["log_filename"], "log_filename"))
    if body.get("log_position") is not None:
        _field(w, OTW_HB_LOG_POSITION_FIELD, packed_int_bytes(as_int(body["log_position"])))
    for f in body.get("unknown_fields", []):
        _field(w, as_int(f["type"]), as_bytes(f["data"], "heartbeat field"))
    return w.packed_int(OTW_HB_HEADER_END_MARK).bytes()
