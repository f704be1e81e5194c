"""TABLE_MAP_EVENT (19): the mirror of oracle/events/table_map.py. Lengths (names, column count,
field_metadata_size) are recomputed. After encoding, the event is parsed back with the oracle's
own Table_map reader and kept in ctx.tables, so rows events are written with exactly the column
plan they will be read with."""
from __future__ import annotations

from typing import Any, Callable

from ...context import DecodeContext
from ...events import table_map as dec
from ...header import Header
from ...reader import Reader
from ..context import EncodeContext, EventHead
from ..writer import EncodeError, Writer, as_bytes, as_int, bits_from_text

MetaWriter = Callable[[Writer, int], None]


def _none(w: Writer, meta: int) -> None:
    if meta:
        raise EncodeError(f"column metadata {meta} given for a type that has none")


def _u8(w: Writer, meta: int) -> None:
    w.u8(meta, "column metadata")


def _u16_le(w: Writer, meta: int) -> None:
    w.u16(meta, "column metadata")


def _u16_be(w: Writer, meta: int) -> None:
    w.uint_be(2, meta, "column metadata")


def _typed_array(w: Writer, meta: int) -> None:
    elem = meta >> 16
    w.u8(elem, "typed array element type")
    META_WRITERS.get(elem, _none)(w, meta & 0xFFFF)


_BY_READER = {dec._none: _none, dec._u8: _u8, dec._u16_le: _u16_le, dec._u16_be: _u16_be,
              dec._typed_array: _typed_array}
# The decoder's per-type metadata table, turned into writers (so the two cannot drift).
META_WRITERS: dict[int, MetaWriter] = {t: _BY_READER[r] for t, r in dec.METADATA_READERS.items()}


# -- optional metadata ---------------------------------------------------------------------------

def _bits(w: Writer, v: list[bool]) -> None:
    for i in range(0, len(v), 8):
        chunk = v[i:i + 8]
        w.u8(sum(0x80 >> j for j, b in enumerate(chunk) if b))


def _packed_list(w: Writer, v: list[Any]) -> None:
    for x in v:
        w.packed_int(x)


def _default_charset(w: Writer, v: dict[str, Any]) -> None:
    w.packed_int(v["default"])
    for idx, cs in v["pairs"]:
        w.packed_int(idx).packed_int(cs)


def _names(w: Writer, v: list[Any]) -> None:
    for name in v:
        w.packed_bytes(as_bytes(name, "column name"))


def _str_values(w: Writer, v: list[list[Any]]) -> None:
    for members in v:
        w.packed_int(len(members))
        for m in members:
            w.packed_bytes(as_bytes(m, "member"))


def _pairs(w: Writer, v: list[list[int]]) -> None:
    for a, b in v:
        w.packed_int(a).packed_int(b)


_OPTIONAL_BY_READER = {dec._bits: _bits, dec._packed_list: _packed_list,
                       dec._default_charset: _default_charset, dec._names: _names,
                       dec._str_values: _str_values, dec._pk_with_prefix: _pairs}
OPTIONAL_WRITERS: dict[str, Callable[[Writer, Any], None]] = {
    name: _OPTIONAL_BY_READER[read] for name, read in dec.OPTIONAL_FIELDS.values()}


def _optional(w: Writer, fields: list[dict[str, Any]]) -> None:
    for f in fields:
        value = Writer()
        if f["name"] is None:
            value.raw(as_bytes(f["value"], "optional metadata"))
        elif "padding" in f:  # a bit field with bits past its columns (dec._trim_bit_fields)
            _bits(value, f["value"] + [c == "1" for c in f["padding"]])
        else:
            OPTIONAL_WRITERS[f["name"]](value, f["value"])
        w.u8(f["type"], "optional metadata type").packed_bytes(value.bytes())


# -- the event -------------------------------------------------------------------------------------

def table_id_width(post_header_len: int) -> int:
    return 4 if post_header_len == 6 else 6


def encode(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    post_len = ctx.format.post_header_len(head.type_code)
    length = post_len or 8
    width = table_id_width(post_len)
    post = Writer().uint(width, body["table_id"], "table_id")
    if length >= width + 2:
        post.u16(body["flags"], "flags")
    w = Writer().raw(post.bytes()[:length]).zeros(length - len(post))
    for name in (body["schema"], body["table"]):
        w.packed_bytes(as_bytes(name, "name")).u8(0)
    types = body["column_types"]
    w.packed_int(len(types)).raw(bytes(types))
    if body.get("field_metadata_size", 0) is not None:  # None: an early 5.1 map, without metadata
        meta = Writer()
        for t, m in zip(types, body["column_metadata"]):
            META_WRITERS.get(t, _none)(meta, as_int(m))
        w.packed_bytes(meta.bytes())
        nulls = bits_from_text(body["null_bitmap"]) | body.get("null_bitmap_padding", 0) << len(types)
        w.uint((len(types) + 7) // 8, nulls, "null bitmap")
        _optional(w, body["optional_metadata"])
    elif body.get("optional_metadata"):
        raise EncodeError("optional metadata needs the field metadata block")
    data = w.bytes()
    _remember(data, ctx, head)
    return data


def _remember(data: bytes, ctx: EncodeContext, head: EventHead) -> None:
    """The column plan the rows decoder will use: the oracle's own parse of these bytes."""
    tm = dec.parse(Reader(data), DecodeContext(format=ctx.format), Header(0, head.type_code, 0, 0, None, 0))
    ctx.tables[tm.table_id] = tm



