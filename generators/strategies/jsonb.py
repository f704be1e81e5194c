"""JSON documents and their MySQL binary JSON (sql-common/json_binary.cc), for JSON columns.

oracle.encode does not write binary JSON from documents yet (it takes raw {"type": "jsonb"}
bytes), so the strategies carry this small writer: literals, integers, strings, arrays and
objects in the small (16-bit offset) format, keys sorted as the server sorts them (by length,
then bytes). Documents are kept small enough for the small format."""
from __future__ import annotations

import struct
from typing import Any

from hypothesis import strategies as st

SMALL_OBJECT, SMALL_ARRAY = 0x00, 0x02
LITERAL, INT16, INT32, INT64, STRING = 0x04, 0x05, 0x07, 0x09, 0x0C
NULL, TRUE, FALSE = 0x00, 0x01, 0x02


def _varlen(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _scalar(v: Any) -> tuple[int, bytes, bool]:
    """(type, bytes, inlined in the entry)."""
    if v is None or isinstance(v, bool):
        return LITERAL, struct.pack("<H", NULL if v is None else TRUE if v else FALSE), True
    if isinstance(v, int):
        if -(1 << 15) <= v < (1 << 15):
            return INT16, struct.pack("<h", v), True
        if -(1 << 31) <= v < (1 << 31):
            return INT32, struct.pack("<i", v), False
        return INT64, struct.pack("<q", v), False
    if isinstance(v, str):
        data = v.encode("utf-8")
        return STRING, _varlen(len(data)) + data, False
    kind, data = _container(v)
    return kind, data, False


def _container(v: list[Any] | dict[str, Any]) -> tuple[int, bytes]:
    is_object = isinstance(v, dict)
    keys = sorted((k.encode("utf-8") for k in v), key=lambda k: (len(k), k)) if is_object else []
    values = [v[k.decode("utf-8")] for k in keys] if is_object else list(v)
    n = len(values)
    header = 4 + (4 * n if is_object else 0) + 3 * n
    key_bytes = b"".join(keys)
    entries, tail = bytearray(), bytearray()
    offset = header + len(key_bytes)
    for value in values:
        kind, data, inline = _scalar(value)
        if inline:
            entries += struct.pack("<B", kind) + data
        else:
            entries += struct.pack("<BH", kind, offset + len(tail))
            tail += data
    key_entries = bytearray()
    at = header
    for k in keys:
        key_entries += struct.pack("<HH", at, len(k))
        at += len(k)
    body = bytes(key_entries) + bytes(entries) + key_bytes + bytes(tail)
    size = 4 + len(body)
    if size >= 1 << 16:
        raise ValueError("document too large for the small format")
    return (SMALL_OBJECT if is_object else SMALL_ARRAY), struct.pack("<HH", n, size) + body


def jsonb(document: Any) -> bytes:
    """The binary JSON of a document: a type byte, then the value."""
    kind, data, _inline = _scalar(document)
    return bytes([kind]) + data


_scalars = st.one_of(st.none(), st.booleans(), st.integers(-(1 << 63), (1 << 63) - 1),
                     st.text(max_size=12))
_documents = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)), max_leaves=10)


def json_documents() -> st.SearchStrategy:
    """A JSON column value: {"type": "jsonb", "value": hex} for the encoder, with the document
    itself kept beside it for the comparison (columns.strip_document removes it)."""
    return _documents.map(lambda d: {"type": "jsonb", "value": jsonb(d).hex(), "document": d})
