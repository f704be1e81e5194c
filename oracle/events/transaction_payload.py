"""TRANSACTION_PAYLOAD_EVENT (40): a whole transaction's events, compressed (MySQL 8.0.20+).

The body starts with a TLV header (codecs/binary.cpp Transaction_payload::decode): fields of
net_field_length type, length and value, ended by type 0. Types: 1 payload_size, 2
compression_type (0 ZSTD, 255 NONE), 3 uncompressed_size; the value of a known field is read as a
packed integer whatever its length says, an unknown field is skipped by its length. payload_size
and compression_type are required; the payload follows the header (bytes after it are ignored,
as the server ignores them).

The events inside are decoded with the enclosing format, without checksums, and listed in
"events". Their position is the one mysqlbinlog prints for them ("# at"): the end of the
Transaction_payload event; their next_position is the payload event's own (its end_log_pos, which
mysqlbinlog also prints for each). A Transaction_payload inside another is rejected.
"""
from __future__ import annotations

from typing import Any

from ..compression import inflate_zstd
from ..context import DecodeContext
from ..errors import BadEventBody, DecompressionError, LengthPastEnd, TruncatedEvent
from ..header import Header
from ..reader import Reader
from ..values import binary, integer

OTW_PAYLOAD_HEADER_END_MARK = 0
OTW_PAYLOAD_SIZE_FIELD = 1
OTW_PAYLOAD_COMPRESSION_TYPE_FIELD = 2
OTW_PAYLOAD_UNCOMPRESSED_SIZE_FIELD = 3
_FIELD_NAMES = {
    OTW_PAYLOAD_SIZE_FIELD: "payload_size",
    OTW_PAYLOAD_COMPRESSION_TYPE_FIELD: "compression_type",
    OTW_PAYLOAD_UNCOMPRESSED_SIZE_FIELD: "uncompressed_size",
}
ZSTD, NONE = 0, 255
COMPRESSION_NAMES = {ZSTD: "ZSTD", NONE: "NONE"}


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    event_position = r.offset - ctx.format.header_length
    fields = _read_tlv_header(r)
    payload_size = fields["payload_size"]
    if payload_size > r.remaining():
        raise LengthPastEnd(r.offset, f"payload_size {payload_size} exceeds the {r.remaining()} bytes left")
    payload_offset = r.offset
    payload = r.bytes(payload_size, "payload")
    compression_type = fields["compression_type"]
    body: dict[str, Any] = {
        "payload_size": integer(payload_size),
        "compression_type": compression_type,
        "compression_name": COMPRESSION_NAMES[compression_type],
    }
    if "uncompressed_size" in fields:
        body["uncompressed_size"] = integer(fields["uncompressed_size"])
    if compression_type != NONE:
        # The compressed bytes: a server's zstd stream cannot be reproduced from the events
        # (oracle/encode writes these back while they still decompress to the same events).
        body["payload"] = binary(payload)
    data = _uncompress(payload, compression_type, fields.get("uncompressed_size"), payload_offset)
    if ctx.decode_nested is None:
        raise BadEventBody(payload_offset, "no decoder for the events inside a Transaction_payload")
    body["events"] = ctx.decode_nested(data, origin=event_position,
                                       position=event_position + ctx.position_shift + header.event_size,
                                       next_position=header.log_pos)
    return body


def _read_tlv_header(r: Reader) -> dict[str, int]:
    fields: dict[str, int] = {}
    while True:
        if not r.remaining():
            raise TruncatedEvent(r.offset, "Transaction_payload header ends without its end mark")
        field_type = r.packed_int("payload header field type")
        if field_type == OTW_PAYLOAD_HEADER_END_MARK:
            break
        length = r.packed_int("payload header field length")
        name = _FIELD_NAMES.get(field_type)
        if name is None:
            r.skip(length, f"unknown payload header field {field_type}")
            continue
        offset = r.offset
        fields[name] = r.packed_int(name)
        if name == "compression_type" and fields[name] not in COMPRESSION_NAMES:
            raise BadEventBody(offset, f"compression_type {fields[name]} is neither ZSTD (0) nor NONE (255)")
    for required in ("payload_size", "compression_type"):
        if required not in fields:
            raise BadEventBody(r.offset, f"Transaction_payload header has no {required}")
    return fields


def _uncompress(payload: bytes, compression_type: int, size: int | None, offset: int) -> bytes:
    if compression_type == NONE:
        return payload
    if size is None:
        # The server treats uncompressed_size as informational; we need it to bound the output.
        raise DecompressionError(offset, "ZSTD payload without uncompressed_size")
    return inflate_zstd(payload, size, offset, "Transaction_payload")
