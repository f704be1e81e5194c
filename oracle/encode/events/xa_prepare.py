"""XA_PREPARE_LOG_EVENT (38); the XID layout MariaDB's GTID event shares."""
from __future__ import annotations

from typing import Any

from ..context import EncodeContext, EventHead
from ..writer import Writer, as_bytes


def xid_parts(body: dict[str, Any]) -> tuple[bytes, bytes]:
    return as_bytes(body["gtrid"], "gtrid"), as_bytes(body["bqual"], "bqual")


def encode(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    gtrid, bqual = xid_parts(body)
    w = Writer().zeros(ctx.format.post_header_len(head.type_code))
    w.u8(1 if body["one_phase"] else 0).u32(body["format_id"], "formatID")
    return w.u32(len(gtrid)).u32(len(bqual)).raw(gtrid).raw(bqual).bytes()
