"""TRANSACTION_PAYLOAD_EVENT (40): the TLV header (compression_type, uncompressed_size,
payload_size, end mark: the order MySQL writes), then the payload.

The payload is the inner events encoded without checksums, compressed when compression_type is
ZSTD. A server's zstd stream cannot be reproduced byte for byte (it compresses event by event
through a streaming context), so the decoder keeps the compressed bytes as `payload`; they are
written as they are whenever they still decompress to the inner events as encoded, and the
events are compressed afresh otherwise (after an edit, or for a body built from scratch)."""
from __future__ import annotations

from typing import Any

from ...compression import inflate_zstd
from ...errors import BinlogError
from ...events.transaction_payload import (NONE, OTW_PAYLOAD_COMPRESSION_TYPE_FIELD,
                                           OTW_PAYLOAD_HEADER_END_MARK, OTW_PAYLOAD_SIZE_FIELD,
                                           OTW_PAYLOAD_UNCOMPRESSED_SIZE_FIELD)
from ..compression import zstd_compress
from ..context import EncodeContext, EventHead
from ..writer import Writer, as_bytes, packed_int_bytes


def _field(w: Writer, kind: int, value: int) -> None:
    data = packed_int_bytes(value)
    w.packed_int(kind).packed_bytes(data)


def encode(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    inner = ctx.encode_nested(body["events"])
    compression = body["compression_type"]
    if compression == NONE:
        payload = inner
    else:
        payload = _kept_payload(body, inner) or zstd_compress(inner)
    w = Writer()
    _field(w, OTW_PAYLOAD_COMPRESSION_TYPE_FIELD, compression)
    if compression != NONE or "uncompressed_size" in body:
        _field(w, OTW_PAYLOAD_UNCOMPRESSED_SIZE_FIELD, len(inner))
    _field(w, OTW_PAYLOAD_SIZE_FIELD, len(payload))
    return w.packed_int(OTW_PAYLOAD_HEADER_END_MARK).raw(payload).bytes()


def _kept_payload(body: dict[str, Any], inner: bytes) -> bytes | None:
    if "payload" not in body:
        return None
    payload = as_bytes(body["payload"], "payload")
    try:
        same = inflate_zstd(payload, len(inner), 0, "Transaction_payload") == inner
    except BinlogError:
        same = False
    return payload if same else None
