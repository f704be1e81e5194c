"""TABLE_MAP_EVENT (19): the column types and metadata that give row images their meaning.

Layout (libbinlogevents Table_map_event): table_id (6 bytes; 4 when the post-header is 6 bytes
long, pre-5.1.4 trees), flags (2), then db and table names (packed length, bytes, NUL), the
column count (packed), one type byte per column, and, unless the event ends there (early 5.1),
the metadata block (packed length; per column 0..2 bytes as the type dictates), the null bitmap,
and optional metadata fields as TLV (type byte, packed length, value) in any order.

The parsed TableMap is kept in ctx.tables[table_id] for the rows events; `to_json` is its
canonical body. Column metadata is the integer MySQL's table_def holds (what mysqlbinlog prints
as meta=), so a STRING column's real type (ENUM, SET, long CHAR) unpacks from it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..codecs.types import CHARACTER_TYPES, SIGNEDNESS_TYPES, ColumnType as T, type_name
from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..memo import BodyMemo
from ..reader import Reader
from ..values import binary, integer, text

NAME_LEN = 64 * 3  # NAME_CHAR_LEN * the system charset's mbmaxlen


@dataclass(slots=True)
class Column:
    index: int
    type: int  # as logged
    meta: int
    nullable: bool | None  # None: the event has no null bitmap (early 5.1)
    real_type: int  # STRING's packed real type (ENUM, SET, STRING); otherwise `type`
    length: int  # STRING's maximum byte length; 0 for other types
    unsigned: bool | None = None  # None: no SIGNEDNESS field
    charset: int | None = None  # collation number, from DEFAULT_/COLUMN_CHARSET
    name: Any = None
    str_values: list[Any] | None = None  # ENUM or SET members
    geometry_type: int | None = None
    visible: bool | None = None
    vector_dimensionality: int | None = None


@dataclass(slots=True)
class TableMap:
    table_id: int
    flags: int
    schema: bytes
    table: bytes
    columns: list[Column]
    field_metadata_size: int | None
    optional_metadata: list[dict[str, Any]]
    primary_key: list[list[int]] | None = None
    null_padding: int = 0  # the null bitmap's bits past the last column, shifted down
    # Built by the rows decoder on first use and reused for every later row of the table.
    plan: Any = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict[str, Any]:
        cols = self.columns
        return {
            "table_id": integer(self.table_id),
            "flags": self.flags,
            "schema": text(self.schema),
            "table": text(self.table),
            "column_count": len(cols),
            "column_types": [c.type for c in cols],
            "column_type_names": [type_name(c.type) for c in cols],
            "field_metadata_size": self.field_metadata_size,
            "column_metadata": [c.meta for c in cols],
            "null_bitmap": None if self.field_metadata_size is None
            else "".join("1" if c.nullable else "0" for c in cols),
            "optional_metadata": self.optional_metadata,
        } | ({"null_bitmap_padding": self.null_padding} if self.null_padding else {})


# -- per-type column metadata -------------------------------------------------------------------

def _none(r: Reader) -> int:
    return 0


def _u8(r: Reader) -> int:
    return r.u8("column metadata")


def _u16_le(r: Reader) -> int:
    return r.u16("column metadata")


def _u16_be(r: Reader) -> int:
    return r.uint_be(2, "column metadata")


def _typed_array(r: Reader) -> int:
    """The element type, then that type's own metadata: kept as (type << 16) | meta."""
    elem = r.u8("typed array element type")
    return (elem << 16) | METADATA_READERS.get(elem, _none)(r)


# How many metadata bytes each type has and how they make MySQL's integer: BIT is
# (bytes << 8) | bits as two little-endian bytes; NEWDECIMAL (precision, scale) and STRING
# (real type, length) are big-endian pairs. Types absent here carry no metadata.
METADATA_READERS: dict[int, Callable[[Reader], int]] = {
    T.FLOAT: _u8, T.DOUBLE: _u8,
    T.VARCHAR: _u16_le, T.VAR_STRING: _u16_le, T.VARCHAR_COMPRESSED: _u16_le,
    T.BIT: _u16_le,
    T.NEWDECIMAL: _u16_be, T.ENUM: _u16_be, T.SET: _u16_be, T.STRING: _u16_be,
    T.TIMESTAMP2: _u8, T.DATETIME2: _u8, T.TIME2: _u8,
    T.TINY_BLOB: _u8, T.MEDIUM_BLOB: _u8, T.LONG_BLOB: _u8, T.BLOB: _u8, T.BLOB_COMPRESSED: _u8,
    T.GEOMETRY: _u8, T.JSON: _u8, T.VECTOR: _u8,
    T.TYPED_ARRAY: _typed_array,
}


def unpack_string_meta(meta: int) -> tuple[int, int]:
    """STRING's (real type, max length): CHAR above 255 bytes borrows two bits of the type byte
    (Field_string::save_field_metadata)."""
    if meta < 256:
        return T.STRING, meta
    byte0, byte1 = meta >> 8, meta & 0xFF
    if byte0 & 0x30 != 0x30:
        return byte0 | 0x30, byte1 | (((byte0 & 0x30) ^ 0x30) << 4)
    return byte0, byte1


# -- optional metadata ---------------------------------------------------------------------------

def _bits(r: Reader) -> list[bool]:
    return [bool(b & m) for b in r.rest() for m in (0x80, 0x40, 0x20, 0x10, 8, 4, 2, 1)]


def _packed_list(r: Reader) -> list[int]:
    out = []
    while r.remaining():
        out.append(r.packed_int("optional metadata value"))
    return out


def _default_charset(r: Reader) -> dict[str, Any]:
    default = r.packed_int("default charset")
    pairs = []
    while r.remaining():
        pairs.append([r.packed_int("charset column index"), r.packed_int("charset")])
    return {"default": default, "pairs": pairs}


def _names(r: Reader) -> list[Any]:
    out = []
    while r.remaining():
        out.append(text(r.packed_bytes("column name")))
    return out


def _str_values(r: Reader) -> list[list[Any]]:
    out = []
    while r.remaining():
        count = r.packed_int("member count")
        members = []
        for _ in range(count):  # each member consumes at least one byte, so count is bounded
            members.append(text(r.packed_bytes("member")))
        out.append(members)
    return out


def _pk_with_prefix(r: Reader) -> list[list[int]]:
    out = []
    while r.remaining():
        out.append([r.packed_int("key column index"), r.packed_int("key prefix length")])
    return out


OPTIONAL_FIELDS: dict[int, tuple[str, Callable[[Reader], Any]]] = {
    1: ("SIGNEDNESS", _bits),
    2: ("DEFAULT_CHARSET", _default_charset),
    3: ("COLUMN_CHARSET", _packed_list),
    4: ("COLUMN_NAME", _names),
    5: ("SET_STR_VALUE", _str_values),
    6: ("ENUM_STR_VALUE", _str_values),
    7: ("GEOMETRY_TYPE", _packed_list),
    8: ("SIMPLE_PRIMARY_KEY", _packed_list),
    9: ("PRIMARY_KEY_WITH_PREFIX", _pk_with_prefix),
    10: ("ENUM_AND_SET_DEFAULT_CHARSET", _default_charset),
    11: ("ENUM_AND_SET_COLUMN_CHARSET", _packed_list),
    12: ("COLUMN_VISIBILITY", _bits),
    13: ("VECTOR_DIMENSIONALITY", _packed_list),
}


def _charsets(value: Any, count: int) -> list[int | None]:
    """DEFAULT_CHARSET's (default, [index, charset] pairs) or COLUMN_CHARSET's list, per column."""
    if isinstance(value, list):
        return (value + [None] * count)[:count]
    out: list[int | None] = [value["default"]] * count
    for idx, cs in value["pairs"]:
        if 0 <= idx < count:
            out[idx] = cs
    return out


def _assign(cols: list[Column], values: list[Any], attr: str) -> None:
    for c, v in zip(cols, values):
        setattr(c, attr, v)


def _of_type(*types: int) -> Callable[[list[Column]], list[Column]]:
    return lambda cols: [c for c in cols if c.real_type in types]


def _all(cols: list[Column]) -> list[Column]:
    return cols


def _numeric(cols: list[Column]) -> list[Column]:
    return [c for c in cols if c.real_type in SIGNEDNESS_TYPES]


def _character(cols: list[Column]) -> list[Column]:
    return [c for c in cols if c.real_type in CHARACTER_TYPES]


_enum_set = _of_type(T.ENUM, T.SET)

def _per_column(values: list[Any], count: int) -> list[Any]:
    return values  # already one value per described column


# Optional field name -> (the columns it describes, in column order; the Column attribute it
# sets; how its value spreads over those columns).
_SPREAD: dict[str, tuple[Callable[[list[Column]], list[Column]], str, Callable[[Any, int], list[Any]]]] = {
    "SIGNEDNESS": (_numeric, "unsigned", _per_column),
    "DEFAULT_CHARSET": (_character, "charset", _charsets),
    "COLUMN_CHARSET": (_character, "charset", _charsets),
    "ENUM_AND_SET_DEFAULT_CHARSET": (_enum_set, "charset", _charsets),
    "ENUM_AND_SET_COLUMN_CHARSET": (_enum_set, "charset", _charsets),
    "COLUMN_NAME": (_all, "name", _per_column),
    "SET_STR_VALUE": (_of_type(T.SET), "str_values", _per_column),
    "ENUM_STR_VALUE": (_of_type(T.ENUM), "str_values", _per_column),
    "GEOMETRY_TYPE": (_of_type(T.GEOMETRY), "geometry_type", _per_column),
    "VECTOR_DIMENSIONALITY": (_of_type(T.VECTOR), "vector_dimensionality", _per_column),
    "COLUMN_VISIBILITY": (_all, "visible", _per_column),
}
# Table-level fields: name -> the primary key as [column index, prefix length] pairs.
_PRIMARY_KEY: dict[str, Callable[[Any], list[list[int]]]] = {
    "SIMPLE_PRIMARY_KEY": lambda v: [[i, 0] for i in v],
    "PRIMARY_KEY_WITH_PREFIX": lambda v: v,
}


def _apply_optional(tm: TableMap) -> None:
    """Spread the optional fields over the columns they describe: each field lists only the
    columns of its kind, in column order."""
    for f in tm.optional_metadata:
        name, v = f["name"], f["value"]
        if name in _SPREAD:
            select, attr, spread = _SPREAD[name]
            described = select(tm.columns)
            _assign(described, spread(v, len(described)), attr)
        elif name in _PRIMARY_KEY:
            tm.primary_key = _PRIMARY_KEY[name](v)


def _trim_bit_fields(tm: TableMap) -> None:
    """Bit fields are padded to whole bytes: keep one bit per column they describe. Padding that
    is not the servers' (a set bit, or more bytes than the columns need) is kept as "padding",
    the dropped bits as a 0/1 string, so that the encoder writes the field back unchanged."""
    counts = {"SIGNEDNESS": sum(c.real_type in SIGNEDNESS_TYPES for c in tm.columns),
              "COLUMN_VISIBILITY": len(tm.columns)}
    for f in tm.optional_metadata:
        if f["name"] in counts:
            n = counts[f["name"]]
            bits, f["value"] = f["value"], f["value"][:n]
            if any(bits[n:]) or len(bits) > (n + 7) // 8 * 8:
                f["padding"] = "".join("1" if b else "0" for b in bits[n:])


def _read_optional(r: Reader) -> list[dict[str, Any]]:
    fields = []
    while r.remaining():
        code = r.u8("optional metadata type")
        length = r.packed_int("optional metadata length")
        sub = r.sub(length, "optional metadata field")
        known = OPTIONAL_FIELDS.get(code)
        if known is None:
            # MySQL's own parser has no rule for unknown codes; keep the bytes, skip the field.
            fields.append({"type": code, "name": None, "value": binary(sub.rest())})
            continue
        fields.append({"type": code, "name": known[0], "value": known[1](sub)})
    return fields


# -- the event -------------------------------------------------------------------------------------

def read_table_id(r: Reader, post_header_len: int) -> int:
    """6 bytes, or 4 when the post-header is 6 bytes long (a pre-5.1.4 master)."""
    return r.uint(4 if post_header_len == 6 else 6, "table_id")


def parse(r: Reader, ctx: DecodeContext, header: Header) -> TableMap:
    post_len = ctx.format.post_header_len(header.type_code)
    post = r.sub(min(post_len, r.remaining()) if post_len else 8, "post-header")
    table_id = read_table_id(post, post_len)
    flags = post.u16("flags") if post.remaining() >= 2 else 0
    schema = _name(r, "database name")
    table = _name(r, "table name")
    colcnt = r.packed_int("column count")
    types = r.bytes(colcnt, "column types")
    if not r.remaining():
        # Early 5.1 masters end the event here: no metadata, no null bitmap.
        cols = [Column(i, t, 0, None, t, 0) for i, t in enumerate(types)]
        return TableMap(table_id, flags, schema, table, cols, None, [])
    meta_size = r.packed_int("field metadata size")
    if meta_size > colcnt * 4:
        raise BadEventBody(r.offset, f"field metadata size {meta_size} exceeds 4 bytes for each of {colcnt} columns")
    meta_r = r.sub(meta_size, "field metadata")
    metas = [METADATA_READERS.get(t, _none)(meta_r) for t in types]
    if meta_r.remaining():
        raise BadEventBody(meta_r.offset, f"{meta_r.remaining()} bytes of field metadata left over by the column types")
    nulls = int.from_bytes(r.bytes((colcnt + 7) // 8, "null bitmap"), "little")
    cols = []
    for i, (t, m) in enumerate(zip(types, metas)):
        real, length = unpack_string_meta(m) if t == T.STRING else (t, 0)
        cols.append(Column(i, t, m, bool(nulls >> i & 1), real, length))
    tm = TableMap(table_id, flags, schema, table, cols, meta_size, _read_optional(r),
                  null_padding=nulls >> colcnt)
    _trim_bit_fields(tm)
    _apply_optional(tm)
    return tm


def _name(r: Reader, what: str) -> bytes:
    n = r.packed_int(what + " length")
    if n > NAME_LEN:
        raise BadEventBody(r.offset, f"{what} length {n} exceeds {NAME_LEN}")
    v = r.bytes(n, what)
    r.skip(1, what + " terminator")
    return v


# parse() reads only the body and the post-header length, so the TableMaps (and the row plans
# the rows decoder hangs on them) are kept by those (oracle/memo.py). Nothing changes a TableMap
# after parse() but that plan, which depends only on its columns.
_PARSED = BodyMemo()


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    tm = _PARSED.get(ctx.format.post_header_len(header.type_code), bytes(r.buf[r.pos:r.end]),
                     lambda: parse(r, ctx, header))
    ctx.tables[tm.table_id] = tm
    return tm.to_json()
