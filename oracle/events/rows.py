"""Rows events: Write/Update/Delete in every generation, Partial_update_rows, and MariaDB's
compressed rows events.

Layout (libbinlogevents Rows_event; MariaDB's Rows_log_event): table_id (6 bytes, or 4 when the
post-header is 6 bytes long), flags (2); v2 events (post-header 10 bytes) then carry a
variable header (2-byte length that counts itself, then extra_row_info chunks: NDB info, or
partition ids); then width (packed), the columns bitmap, a second (after-image) bitmap for
updates, and the rows until the event ends. Each row image is a null bitmap over the present
columns followed by the non-NULL values. Partial_update_rows after-images start with
value_options (packed) and, when PARTIAL_JSON_UPDATES is set, one bit per JSON column of the
table saying which hold a diff list. MariaDB's compressed events compress only the rows part.

Bitmaps fill whole bytes; servers fill the padding bits past the last column differently (and
now and then against their own habit), so the body reports them in "bitmap_padding": the
columns bitmaps' padding ("columns", "columns_after"), shifted down, and the row null bitmaps'
("null": "set" or "clear", or per image "null_padding" when the images disagree). They matter
only to a byte-exact re-encoding (oracle/encode); parser comparisons ignore them.

Pre-GA events (20-22, 5.1 betas) have the v1 layout; their update image pairs both use the one
columns bitmap they carry.
"""
from __future__ import annotations

from typing import Any

from ..codecs.plan import RowPlan, read_image, relocate
from ..compression import mariadb_uncompress
from ..context import DecodeContext
from ..errors import BadEventBody, BinlogError
from ..event_types import EventType as E
from ..header import Header
from ..reader import Reader
from ..values import binary, integer
from .table_map import TableMap, read_table_id

ROWS_HEADER_LEN_V2 = 10
NULL_PADDING = "null_padding"
PARTIAL_JSON_UPDATES = 1

WRITE, UPDATE, DELETE = "write", "update", "delete"
KIND = {
    E.PRE_GA_WRITE_ROWS_EVENT: WRITE, E.WRITE_ROWS_EVENT_V1: WRITE, E.WRITE_ROWS_EVENT: WRITE,
    E.WRITE_ROWS_COMPRESSED_EVENT_V1: WRITE, E.WRITE_ROWS_COMPRESSED_EVENT: WRITE,
    E.PRE_GA_UPDATE_ROWS_EVENT: UPDATE, E.UPDATE_ROWS_EVENT_V1: UPDATE, E.UPDATE_ROWS_EVENT: UPDATE,
    E.PARTIAL_UPDATE_ROWS_EVENT: UPDATE,
    E.UPDATE_ROWS_COMPRESSED_EVENT_V1: UPDATE, E.UPDATE_ROWS_COMPRESSED_EVENT: UPDATE,
    E.PRE_GA_DELETE_ROWS_EVENT: DELETE, E.DELETE_ROWS_EVENT_V1: DELETE, E.DELETE_ROWS_EVENT: DELETE,
    E.DELETE_ROWS_COMPRESSED_EVENT_V1: DELETE, E.DELETE_ROWS_COMPRESSED_EVENT: DELETE,
}
COMPRESSED = frozenset(range(E.WRITE_ROWS_COMPRESSED_EVENT_V1, E.DELETE_ROWS_COMPRESSED_EVENT + 1))
# Only these carry a second columns bitmap; a pre-GA update's pairs share the first one.
TWO_BITMAPS = frozenset({E.UPDATE_ROWS_EVENT_V1, E.UPDATE_ROWS_EVENT, E.PARTIAL_UPDATE_ROWS_EVENT,
                         E.UPDATE_ROWS_COMPRESSED_EVENT_V1, E.UPDATE_ROWS_COMPRESSED_EVENT})
# Update events whose PART extra info also names the source partition.
SOURCE_PARTITION = frozenset({E.UPDATE_ROWS_EVENT, E.PARTIAL_UPDATE_ROWS_EVENT})

FLAG_NAMES = {1: "STMT_END_F", 2: "NO_FOREIGN_KEY_CHECKS_F", 4: "RELAXED_UNIQUE_CHECKS_F",
              8: "COMPLETE_ROWS_F", 16: "USE_SQL_FOREIGN_KEY_F",
              0x80: "NO_CHECK_CONSTRAINT_CHECKS_F"}  # 0x80: MariaDB


def flag_names(flags: int) -> list[str]:
    return [FLAG_NAMES.get(1 << i, f"UNDEFINED_{1 << i:#06x}") for i in range(16) if flags >> i & 1]


def bitmap_text(bits: int, n: int) -> str:
    """Bit i of a little-endian bitmap as character i: '1' set, '0' clear."""
    return format(bits & ((1 << n) - 1), f"0{n}b")[::-1] if n else ""


# -- extra_row_info (v2 variable header) ----------------------------------------------------------

def _ndb(r: Reader, type_code: int, out: dict[str, Any]) -> bool:
    length = r.u8("ndb_info length")
    if length < 2:
        raise BadEventBody(r.offset - 1, f"ndb_info length {length} is below its 2-byte header")
    fmt = r.u8("ndb_info format")
    out.setdefault("ndb_info", []).append({"format": fmt, "data": binary(r.bytes(length - 2, "ndb_info"))})
    return True


def _part(r: Reader, type_code: int, out: dict[str, Any]) -> bool:
    out["partition_id"] = r.u16("partition_id")
    if type_code in SOURCE_PARTITION:
        out["source_partition_id"] = r.u16("source_partition_id")
    return True


EXTRA_ROW_INFO = {0: _ndb, 1: _part}  # enum_extra_row_info_typecode: NDB, PART


def read_extra_row_info(r: Reader, type_code: int) -> dict[str, Any]:
    start = r.offset
    length = r.u16("var_header_len")
    if length < 2:
        raise BadEventBody(start, f"var_header_len {length} is below its own 2 bytes")
    sub = r.sub(length - 2, "extra_row_info")
    out: dict[str, Any] = {"length": length}
    while sub.remaining():
        code = sub.u8("extra_row_info type")
        reader = EXTRA_ROW_INFO.get(code)
        if reader is None:
            # The server stops at a type it does not know and skips the rest of the header.
            out["unknown"] = {"type": code, "data": binary(sub.rest())}
            break
        reader(sub, type_code, out)
    return out


# -- the event -------------------------------------------------------------------------------------

def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    code = header.type_code
    kind = KIND[code]
    post_len = ctx.format.post_header_len(code)
    table_id = read_table_id(r, post_len)
    flags = r.u16("flags")
    body: dict[str, Any] = {"table_id": integer(table_id),
                            "flags": {"value": flags, "names": flag_names(flags)}}
    body["extra_data"] = read_extra_row_info(r, code) if post_len == ROWS_HEADER_LEN_V2 else None
    width_at = r.offset
    width = r.packed_int("width")
    if width == 0:
        raise BadEventBody(width_at, "width 0: a rows event names at least one column")
    nbytes = (width + 7) // 8
    cols = int.from_bytes(r.bytes(nbytes, "columns bitmap"), "little")
    cols_ai = int.from_bytes(r.bytes(nbytes, "after-image columns bitmap"), "little") \
        if code in TWO_BITMAPS else cols
    body["width"] = width
    if kind != WRITE:
        body["columns_before_image"] = bitmap_text(cols, width)
    if kind != DELETE:
        body["columns_after_image"] = bitmap_text(cols_ai, width)
    padding = body["bitmap_padding"] = {"columns": cols >> width}
    if code in TWO_BITMAPS:
        padding["columns_after"] = cols_ai >> width
    table = ctx.tables.get(table_id)
    if table is None:
        raise BadEventBody(r.offset, f"table_id {table_id} has no Table_map before it")
    if width != len(table.columns):
        raise BadEventBody(width_at, f"width {width} disagrees with the {len(table.columns)} columns "
                                     f"of the Table_map for table_id {table_id}")
    if code in COMPRESSED:
        origin = r.offset
        buf = mariadb_uncompress(r, "rows")
        pos, end = 0, len(buf)
    else:
        # One copy of the rows part: slicing bytes is cheaper than slicing an mmap per value.
        origin = r.offset
        buf = r.rest()
        pos, end = 0, len(buf)
    try:
        body["rows"] = _rows(buf, pos, end, _plan(table), kind, cols, cols_ai,
                             code == E.PARTIAL_UPDATE_ROWS_EVENT)
    except BinlogError as e:
        raise (relocate(e, origin) if origin else e) from None
    null = summarise_null_padding(_images(body["rows"], kind))
    if null:
        padding["null"] = null
    return body


def _images(rows: list[Any], kind: str) -> list[dict[str, Any]]:
    if kind != UPDATE:
        return rows
    return [image for pair in rows for image in (pair["before_image"], pair["after_image"])]


def summarise_null_padding(images: list[dict[str, Any]]) -> str | None:
    """The row null bitmaps' padding bits as one word for the event when every image that has
    any agrees: "clear" (MySQL 8.0+) or "set" (MySQL 5.x and MariaDB start each byte at 0xff);
    their per-image "null_padding" is then dropped. Otherwise each image keeps its own."""
    padded = [image for image in images if NULL_PADDING in image]
    if not padded:
        return None
    if all(image[NULL_PADDING] == 0 for image in padded):
        word = "clear"
    elif all(image[NULL_PADDING] == (1 << (-len(image["values"]) % 8)) - 1 for image in padded):
        word = "set"
    else:
        return None
    for image in padded:
        del image[NULL_PADDING]
    return word


def _plan(table: TableMap) -> RowPlan:
    if table.plan is None:
        table.plan = RowPlan(table.columns)
    return table.plan


def _rows(buf: bytes, pos: int, end: int, plan: RowPlan, kind: str, cols: int, cols_ai: int,
          partial: bool) -> list[Any]:
    rows: list[Any] = []
    append = rows.append
    first = plan.select(cols)
    if kind != UPDATE:
        if not first and pos < end:
            raise BadEventBody(pos, "rows of no columns cannot fill the rest of the event")
        while pos < end:
            image, pos = read_image(buf, pos, end, first)
            append(image)
        return rows
    second = plan.select(cols_ai)
    while pos < end:
        before, pos = read_image(buf, pos, end, first)
        if partial:
            after, pos = _partial_after_image(buf, pos, end, plan, cols_ai)
        else:
            after, pos = read_image(buf, pos, end, second)
        if not first and not second and not partial:
            raise BadEventBody(pos, "rows of no columns cannot fill the rest of the event")
        append({"before_image": before, "after_image": after})
    return rows


def _partial_after_image(buf: bytes, pos: int, end: int, plan: RowPlan,
                         cols_ai: int) -> tuple[dict[str, Any], int]:
    r = Reader(buf, pos, end)
    options = r.packed_int("value_options")
    extra: dict[str, Any] = {"value_options": integer(options)}
    readers = plan.select(cols_ai)
    if options & PARTIAL_JSON_UPDATES:
        n = len(plan.json_columns)
        partial = int.from_bytes(r.bytes((n + 7) // 8, "partial JSON bitmap"), "little")
        extra["partial_bits"] = bitmap_text(partial, n)
        readers = plan.with_partial_json(cols_ai, partial)
    image, pos = read_image(buf, r.pos, end, readers)
    return {**extra, **image}, pos
