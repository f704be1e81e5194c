"""VIEW_CHANGE_EVENT (37): a Group Replication membership change (View_change_event in
control_events.cpp): view_id (40 bytes, NUL-padded, must not be empty), seq_number (8),
cert_info_len (4), then that many certification entries: key (2-byte length) and value (4-byte
length).

The server keeps the entries in a std::map, so certification_info lists them sorted by key
(bytewise) with a repeated key's last value winning.
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..reader import Reader
from ..values import integer, text
from .transaction_context import c_string

ENCODED_VIEW_ID_MAX_LEN = 40


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    offset = r.offset
    view_id = c_string(r.bytes(ENCODED_VIEW_ID_MAX_LEN, "view_id"))
    if not view_id:
        raise BadEventBody(offset, "Invalid View_change information: empty view_id")
    seq_number = r.u64("seq_number")
    cert_info_len = r.u32("cert_info_len")
    entries: dict[bytes, bytes] = {}
    for _ in range(cert_info_len):  # every entry consumes at least 6 bytes
        key = r.bytes(r.u16("certification key length"), "certification key")
        entries[key] = r.bytes(r.u32("certification value length"), "certification value")
    return {
        "view_id": text(view_id),
        "seq_number": integer(seq_number),
        "cert_info_len": cert_info_len,
        "certification_info": [{"key": text(k), "value": text(v)} for k, v in sorted(entries.items())],
    }
