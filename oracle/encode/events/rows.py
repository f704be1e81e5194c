"""Rows events (every generation, Partial_update_rows, MariaDB compressed): the mirror of
oracle/events/rows.py. The column plan is the TableMap the Table_map encoder left in
ctx.tables; width and var_header_len are recomputed.

Bitmap padding: the canonical bitmaps (columns, and each row image's null bitmap) have one
character per column, but the bytes have whole-byte padding that servers fill differently
(MySQL 5.x and MariaDB set the row null-bitmap padding, MySQL 8+ clears it). The decoder reports
it in body["bitmap_padding"] = {"columns": int, "columns_after": int (the padding bits, shifted
down), "null": "set" | "clear"}; a row image's own "null_padding" (int) overrides "null". What
is absent (a body built from scratch) is written as the server of the format in force was seen
to write it."""
from __future__ import annotations

from typing import Any

from ...event_types import EventType as E
from ...events.rows import (COMPRESSED, DELETE, KIND, PARTIAL_JSON_UPDATES, ROWS_HEADER_LEN_V2,
                            SOURCE_PARTITION, TWO_BITMAPS, UPDATE, WRITE)
from ...fde import FormatDescription
from ..compression import mariadb_compress
from ..context import EncodeContext, EventHead
from ..row_values import ValueWriter, build_writer, prefixed, write_image as row_image
from ..writer import EncodeError, Writer, as_bytes, as_int, bits_from_text
from .table_map import table_id_width

_MARIADB_CLEARS_COLUMNS_PADDING = (10, 11, 0)


def _extra_row_info(extra: dict[str, Any], type_code: int) -> bytes:
    w = Writer()
    for ndb in extra.get("ndb_info", []):
        data = as_bytes(ndb["data"], "ndb_info")
        w.u8(0).u8(len(data) + 2, "ndb_info length").u8(ndb["format"]).raw(data)
    if "partition_id" in extra:
        w.u8(1).u16(extra["partition_id"], "partition_id")
        if type_code in SOURCE_PARTITION:
            w.u16(extra["source_partition_id"], "source_partition_id")
    if "unknown" in extra:
        w.u8(extra["unknown"]["type"]).raw(as_bytes(extra["unknown"]["data"], "extra_row_info"))
    return Writer().u16(len(w) + 2, "var_header_len").raw(w.bytes()).bytes()


def _bitmap(bits: int, width: int, padding: int | None, fmt: FormatDescription) -> bytes:
    """A columns bitmap. Its padding bits (past `width`) are not in the canonical bitmap text:
    `padding` gives them when the body carries them (bitmap_padding); otherwise the choice the
    servers were seen to make (over every real log in the tests) is written: MariaDB 10.11+
    (seen: 10.11, 11.8) clears them; MySQL and older MariaDB (seen: 10.5) set them when every
    column is present (bitmap_set_all) and clear them otherwise. Real logs break the rule now and
    then (about 2% of events), which is why the decoder should report them."""
    nbytes = (width + 7) // 8
    if padding is None:
        all_present = bits == (1 << width) - 1
        clears = fmt.flavor == "mariadb" and fmt.version_tuple >= _MARIADB_CLEARS_COLUMNS_PADDING
        padding = (1 << (8 * nbytes - width)) - 1 if all_present and not clears else 0
    return (bits | padding << width).to_bytes(nbytes, "little")


def default_null_padding(fmt: FormatDescription) -> int | None:
    """Row null-bitmap padding as the servers write it: MySQL 8.0+ clears it (seen: 8.0.17 to
    9.7); MySQL 5.x and MariaDB leave it set (pack_row starts each byte at 0xff). None: set."""
    return 0 if fmt.flavor == "mysql" and fmt.version_tuple >= (8, 0, 0) else None


_NULL_PADDING_WORDS = {"set": None, "clear": 0}


def _null_padding(word: Any, fmt: FormatDescription) -> int | None:
    """The row null-bitmap padding for write_image: None sets every padding bit."""
    if word is None:
        return default_null_padding(fmt)
    if word not in _NULL_PADDING_WORDS:
        raise EncodeError(f'bitmap_padding "null" is {word!r}, not "set" or "clear"')
    return _NULL_PADDING_WORDS[word]


class _Plan:
    """Writers for one table's columns, cached on the TableMap like the decoder's RowPlan."""

    def __init__(self, columns: list[Any]) -> None:
        self.writers = [build_writer(c) for c in columns]
        self.json_columns = [c.index for c in columns if c.type == 245]
        self.diff_writers = {c.index: prefixed(c.meta, _diff_bytes) for c in columns if c.type == 245}

    def select(self, present: int, partial: int = 0) -> list[ValueWriter]:
        out = []
        for i, wr in enumerate(self.writers):
            if present >> i & 1:
                if partial and i in self.diff_writers and partial >> self.json_columns.index(i) & 1:
                    wr = self.diff_writers[i]
                out.append(wr)
        return out


def _diff_bytes(v: Any) -> bytes:
    from ..jsonb import json_diff_bytes
    return json_diff_bytes(v)


def encode(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    code = head.type_code
    kind = KIND[code]
    post_len = ctx.format.post_header_len(code)
    table_id = as_int(body["table_id"], "table_id")
    flags = body["flags"]["value"] if isinstance(body["flags"], dict) else body["flags"]
    w = Writer().uint(table_id_width(post_len), table_id, "table_id").u16(flags, "flags")
    if post_len == ROWS_HEADER_LEN_V2:
        w.raw(_extra_row_info(body.get("extra_data") or {}, code))
    width = body["width"]
    cols = bits_from_text(body["columns_before_image" if kind != WRITE else "columns_after_image"])
    cols_ai = bits_from_text(body["columns_after_image"]) if kind != DELETE else cols
    padding = body.get("bitmap_padding") or {}
    fmt = ctx.format
    w.packed_int(width, "width").raw(_bitmap(cols, width, padding.get("columns"), fmt))
    if code in TWO_BITMAPS:
        w.raw(_bitmap(cols_ai, width, padding.get("columns_after"), fmt))
    table = ctx.tables.get(table_id)
    if table is None:
        raise EncodeError(f"table_id {table_id} has no Table_map before it")
    plan = getattr(table, "encode_plan", None)
    if plan is None:
        plan = _Plan(table.columns)
    rows = _rows(body["rows"], plan, kind, cols, cols_ai, code == E.PARTIAL_UPDATE_ROWS_EVENT,
                 _null_padding(padding.get("null"), fmt))
    return w.raw(mariadb_compress(rows) if code in COMPRESSED else rows).bytes()


def _rows(rows: list[Any], plan: _Plan, kind: str, cols: int, cols_ai: int, partial: bool,
          null_padding: int | None) -> bytes:
    w = Writer()

    def write_image(w: Writer, image: dict[str, Any], writers: list[ValueWriter]) -> None:
        row_image(w, image, writers, null_padding)

    first = plan.select(cols)
    if kind != UPDATE:
        for image in rows:
            write_image(w, image, first)
        return w.bytes()
    second = plan.select(cols_ai)
    for pair in rows:
        write_image(w, pair["before_image"], first)
        after = pair["after_image"]
        if partial:
            options = as_int(after["value_options"], "value_options")
            w.packed_int(options)
            writers = second
            if options & PARTIAL_JSON_UPDATES:
                bits = bits_from_text(after["partial_bits"])
                w.uint((len(plan.json_columns) + 7) // 8, bits, "partial JSON bitmap")
                writers = plan.select(cols_ai, bits)
            write_image(w, after, writers)
        else:
            write_image(w, after, second)
    return w.bytes()
