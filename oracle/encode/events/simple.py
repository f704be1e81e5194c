"""Events whose body is a few fixed fields or bytes: XID_EVENT (16), SLAVE_EVENT (7, opaque),
INCIDENT_EVENT (26), IGNORABLE_LOG_EVENT (28), ROWS_QUERY_LOG_EVENT (29), MariaDB's
ANNOTATE_ROWS_EVENT (160) and START_ENCRYPTION_EVENT (164), and unknown events skipped as
ignorable. One module for them all: each is a line or two."""
from __future__ import annotations

from typing import Any

from ...events.incident import INCIDENT_HEADER_LEN
from ..context import EncodeContext, EventHead
from ..writer import Writer, as_bytes
from .fields import fit_post_header, post_header_len, trailing


def encode_xid(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return Writer().u64(body["xid"], "xid").bytes()


def encode_data(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    """Bodies kept whole as `data`: opaque, ignorable, and unknown ignorable events."""
    return as_bytes(body["data"], "data")


def encode_incident(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    ph = fit_post_header(Writer().u16(body["incident"], "incident"),
                         post_header_len(ctx, head.type_code, INCIDENT_HEADER_LEN), "Incident")
    return ph + Writer().u8_bytes(as_bytes(body["message"], "message"), "message").raw(trailing(body)).bytes()


def encode_rows_query(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    """The length byte is written as decoded (the server truncates it for long statements)."""
    return Writer().u8(body["length"], "length").raw(as_bytes(body["rows_query"], "rows_query")).bytes()


def encode_annotate_rows(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return as_bytes(body["query"], "query")


def encode_start_encryption(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return Writer().u8(body["crypto_scheme"], "crypto_scheme").u32(body["key_version"], "key_version") \
        .raw(as_bytes(body["nonce"], "nonce")).bytes()
