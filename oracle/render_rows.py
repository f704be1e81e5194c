"""The `###` lines `mysqlbinlog -vvv` prints for row events, from canonical events alone.

A pure function of the canonical model: Table_map bodies give the column types, metadata and
nullability; rows bodies give the values. Output is bytes, since mysqlbinlog writes string
values byte for byte. The per-type rules follow MySQL's log_event_print_value (sql/log_event.cc):
integers print signed with the unsigned reading in parentheses when negative (whatever the
column's signedness), FLOAT with "%-20g", DOUBLE with "%-.20g", DATE with ':' separators,
TIMESTAMP as epoch seconds, SET and BIT as b'...' bit strings, strings quoted by
my_b_write_quoted; types it cannot print (GEOMETRY, VECTOR, ...) print "!! Don't know how to
handle column type=..." and end that event's output.

oracle/_render.c is a C twin of the per-image loop below (built by pip install, loaded through
speedups.accelerator): each style names its C printer in ColumnStyle.fast, and the C renders an
event, or one image, only when every value has the plain shape it knows, returning None
otherwise so this module renders it. This module stays the reference
(tests/test_render_speedups_identity.py).

`python -m oracle.render_rows FILE` prints them for a binlog.
"""
from __future__ import annotations

import json
import re
import struct
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from .codecs.jsondiff import nested_calls
from .codecs.types import ColumnType as T
from .events.table_map import unpack_string_meta
from .fde import version_tuple
from .speedups import accelerator

_render = accelerator("_render")

_QUOTE = {c: (b"\\x%02x" % c if c < 32 else bytes([c])) for c in range(256)}
_QUOTE.update({8: b"\\b", 12: b"\\f", 10: b"\\n", 13: b"\\r", 9: b"\\t", 92: b"\\\\", 39: b"\\'"})
_NEEDS_QUOTING = re.compile(rb"[\x00-\x1f\\']")
_CONTROL = re.compile(rb"[\x00-\x1f]")
_ROWS_KIND = {30: "write", 31: "update", 32: "delete", 39: "update",
              # v1 and MariaDB's compressed events: what mariadb-binlog prints for MariaDB logs
              23: "write", 24: "update", 25: "delete", 166: "write", 167: "update", 168: "delete",
              169: "write", 170: "update", 171: "delete"}


class StopEvent(Exception):
    """mysqlbinlog met a column it cannot print: the rest of the event is not printed."""


def quoted(s: bytes) -> bytes:
    """my_b_write_quoted: control bytes as \\xNN, \\ and ' escaped, everything else raw."""
    if _NEEDS_QUOTING.search(s) is None:  # the common case: nothing to escape
        return b"'" + s + b"'"
    return b"'" + _NEEDS_QUOTING.sub(lambda m: _QUOTE[m.group()[0]], s) + b"'"


def quoted_mariadb(s: bytes) -> bytes:
    """MariaDB's my_b_write_quoted: bytes below 0x20 as \\xNN, everything else (\\ and ' too) raw."""
    if _CONTROL.search(s) is None:
        return b"'" + s + b"'"
    return b"'" + _CONTROL.sub(lambda m: b"\\x%02x" % m.group()[0], s) + b"'"


def raw_bytes(v: Any) -> bytes:
    """The bytes behind a canonical string value (values.text / values.binary)."""
    if isinstance(v, dict):
        return bytes.fromhex(v["value"])
    return v.encode("utf-8", "surrogateescape")


def _int(v: Any) -> int:
    return int(v["value"]) if isinstance(v, dict) else v


def signed_unsigned(v: Any, width: int) -> bytes:
    """my_b_write_sint32_and_uint32 and LONGLONG's twin: '-1 (4294967295)'."""
    if type(v) is int and 0 <= v < 1 << (8 * width - 1):  # the common case: prints as it is
        return b"%d" % v
    u = _int(v) % (1 << (8 * width))
    s = u - (1 << (8 * width)) if u >> (8 * width - 1) else u
    return b"%d (%d)" % (s, u) if s < 0 else b"%d" % s


def bit_string(data: bytes, nbits: int) -> bytes:
    """my_b_write_bit: the last nbits bits of data, most significant first."""
    bits = format(int.from_bytes(data, "big"), "0%db" % (8 * len(data))) if data else ""
    return b"b'" + bits[len(bits) - nbits:].encode() + b"'"


def _date(text: str) -> bytes:
    """Field_newdate's printer: 'YYYY:MM:DD', the year's top digit possibly past '9'."""
    y, m, d = (int(p) for p in text.split("-"))
    if 0 <= y < 10000 and 0 <= m < 100 and 0 <= d < 100:  # the common case: plain digits
        return b"'%04d:%02d:%02d'" % (y, m, d)
    digits = []
    for _ in range(3):
        digits.append(chr(48 + y % 10))
        y //= 10
    year = chr(48 + y) + "".join(reversed(digits))
    return ("'%s:%d%d:%d%d'" % (year, m // 10, m % 10, d // 10, d % 10)).encode("latin-1", "replace")


def _old_time(text: str) -> bytes:
    """Old TIME prints its 3 bytes unsigned: a negative time comes out as a large one."""
    neg = text.startswith("-")
    h, m, s = (int(p) for p in text.lstrip("-").split(":"))
    u = (-1 if neg else 1) * (h * 10000 + m * 100 + s) % (1 << 24)
    return b"'%02d:%02d:%02d'" % (u // 10000, u % 10000 // 100, u % 100)


def _json_text(v: dict[str, Any]) -> bytes:
    """Json_wrapper::to_string(quoted=false) from the canonical (quoted) text: only a top-level
    string-like value differs, printed without its JSON quotes."""
    text = v["value"].encode("utf-8", "surrogateescape") if v["type"] == "json" else bytes.fromhex(v["value"])
    if text[:1] == b'"':
        return json.loads(text.decode("utf-8", "surrogateescape")).encode("utf-8", "surrogateescape")
    return text


def _json_sql(v: dict[str, Any]) -> bytes:
    """json_wrapper_to_string(json_type=false): scalars bare, strings quoted, containers CAST."""
    text = _json_text(v)
    first = v["value"][:1]
    if first in ("{", "["):
        return b"CAST(" + quoted(text) + b" AS JSON)"
    if first == '"':
        return quoted(text)
    return text


def json_diffs(diffs: list[dict[str, Any]], column: bytes) -> bytes:
    """print_json_diff: nested JSON_<OP>(...) calls, one per run of equal operations."""
    names = []
    for d in diffs:
        op = d["operation"]
        if op == "INSERT":
            names.append(b"JSON_ARRAY_INSERT" if raw_bytes(d["path"]).endswith(b"]") else b"JSON_INSERT")
        else:
            names.append(b"JSON_" + op.encode())
    args = [quoted(raw_bytes(d["path"])) + (b", " + _json_sql(d["value"]) if d["operation"] != "REMOVE" else b"")
            for d in diffs]
    return nested_calls(names, args, column)


# -- per type: (type string, value printer) -----------------------------------------------------

Quoter = Callable[[bytes], bytes]
Printer = Callable[[Any, int, bytes, Quoter], bytes]


# Which of oracle/_render.c's printers (C twins of the printers below) a style's values take, and
# its parameter; FAST_NONE: none, Python prints (keep the numbers in step with the C enum).
FAST_NONE, FAST_INT, FAST_FLOAT, FAST_DOUBLE, FAST_QUOTED, FAST_TEXT, FAST_QUOTED_UNSIGNED_TEXT, FAST_QUOTED_TEXT, \
    FAST_DATE, FAST_YEAR, FAST_ENUM, FAST_BIT, FAST_SET, FAST_JSON = range(14)


@dataclass(frozen=True, slots=True)
class ColumnStyle:
    typestr: bytes
    value: Printer | None  # None: mysqlbinlog cannot print this type
    fast: tuple[int, int] = (FAST_NONE, 0)  # (C printer, its parameter): what _render.c does


def _ints(name: bytes, width: int) -> Callable[[int, int], ColumnStyle]:
    return lambda t, meta: ColumnStyle(name, lambda v, m, col, q: signed_unsigned(v, width), (FAST_INT, width))


def _float(v: Any, meta: int, col: bytes, q: Quoter) -> bytes:
    return b"%-20g" % _real(v)


def _double(v: Any, meta: int, col: bytes, q: Quoter) -> bytes:
    return b"%-.20g" % _real(v)


def _real(v: Any) -> float:
    return float(v["value"]) if isinstance(v, dict) else float(v)


def _blob(t: int, meta: int) -> ColumnStyle:
    names = {1: b"TINYBLOB/TINYTEXT", 2: b"BLOB/TEXT", 3: b"MEDIUMBLOB/MEDIUMTEXT", 4: b"LONGBLOB/LONGTEXT"}
    if meta not in names:
        return ColumnStyle(b"", None)
    return ColumnStyle(names[meta], lambda v, m, col, q: q(raw_bytes(v)), (FAST_QUOTED, 0))


def _bit(t: int, meta: int) -> ColumnStyle:
    nbits = (meta >> 8) * 8 + (meta & 0xFF)
    nbytes = (nbits + 7) // 8
    return ColumnStyle(b"BIT(%d)" % nbits,
                       lambda v, m, col, q: bit_string(_int(v).to_bytes(8, "big")[8 - nbytes:] if nbytes <= 8 else b"", nbits),
                       (FAST_BIT, nbits))


def _set(meta: int) -> ColumnStyle:
    n = meta & 0xFF
    return ColumnStyle(b"SET(%d bytes)" % n,
                       lambda v, m, col, q: bit_string((_int(v) % (1 << 64)).to_bytes(8, "little")[:n], n * 8),
                       (FAST_SET, n))


def _enum(meta: int) -> ColumnStyle:
    n = meta & 0xFF
    if n not in (1, 2):
        return ColumnStyle(b"", None)
    return ColumnStyle(b"ENUM(1 byte)" if n == 1 else b"ENUM(2 bytes)", lambda v, m, col, q: b"%d" % _int(v),
                       (FAST_ENUM, 0))


def _string(t: int, meta: int) -> ColumnStyle:
    real, length = unpack_string_meta(meta)
    if real == T.ENUM:
        return _enum(meta)
    if real == T.SET:
        return _set(meta)
    if real != T.STRING:
        return ColumnStyle(b"", None)
    return ColumnStyle(b"STRING(%d)" % length, lambda v, m, col, q: q(raw_bytes(v)), (FAST_QUOTED, 0))


def _timestamp(v: Any, meta: int, col: bytes, q: Quoter) -> bytes:
    u = int(v["value"])
    return b"%d" % (u - (1 << 32) if u >> 31 else u)


def _json(v: Any, meta: int, col: bytes, q: Quoter) -> bytes:
    if v.get("type") == "json_diff":
        return json_diffs(v["value"], col)
    return q(_json_text(v))


def vector(data: bytes) -> bytes:
    """'[1.00000e+00,2.50000e+00]': each float32 with "%.5e" (no closing bracket when empty)."""
    n = len(data) // 4
    return b"[" + b",".join(b"%.5e" % x for x in struct.unpack_from(f"<{n}f", data)) + (b"]" if n else b"")


def _text(v: Any, meta: int, col: bytes, q: Quoter) -> bytes:
    return v["value"].encode()


STYLES: dict[int, Callable[[int, int], ColumnStyle]] = {
    T.LONG: _ints(b"INT", 4), T.TINY: _ints(b"TINYINT", 1), T.SHORT: _ints(b"SHORTINT", 2),
    T.INT24: _ints(b"MEDIUMINT", 3), T.LONGLONG: _ints(b"LONGINT", 8),
    T.NEWDECIMAL: lambda t, meta: ColumnStyle(b"DECIMAL(%d,%d)" % (meta >> 8, meta & 0xFF), _text, (FAST_TEXT, 0)),
    T.FLOAT: lambda t, meta: ColumnStyle(b"FLOAT", _float, (FAST_FLOAT, 0)),
    T.DOUBLE: lambda t, meta: ColumnStyle(b"DOUBLE", _double, (FAST_DOUBLE, 0)),
    T.BIT: _bit,
    T.TIMESTAMP: lambda t, meta: ColumnStyle(b"TIMESTAMP", _timestamp),
    T.TIMESTAMP2: lambda t, meta: ColumnStyle(b"TIMESTAMP(%d)" % meta, _text, (FAST_TEXT, 0)),
    T.DATETIME: lambda t, meta: ColumnStyle(b"DATETIME", _text, (FAST_TEXT, 0)),
    T.DATETIME2: lambda t, meta: ColumnStyle(b"DATETIME(%d)" % meta,
                                             lambda v, m, col, q: q(v["value"].lstrip("-").encode()),
                                             (FAST_QUOTED_UNSIGNED_TEXT, 0)),
    T.TIME: lambda t, meta: ColumnStyle(b"TIME", lambda v, m, col, q: _old_time(v["value"])),
    T.TIME2: lambda t, meta: ColumnStyle(b"TIME(%d)" % meta, lambda v, m, col, q: q(v["value"].encode()),
                                         (FAST_QUOTED_TEXT, 0)),
    # table_def reads a logged DATE as NEWDATE, so both print the same way.
    T.NEWDATE: lambda t, meta: ColumnStyle(b"DATE", lambda v, m, col, q: _date(v["value"]), (FAST_DATE, 0)),
    T.DATE: lambda t, meta: ColumnStyle(b"DATE", lambda v, m, col, q: _date(v["value"]), (FAST_DATE, 0)),
    T.YEAR: lambda t, meta: ColumnStyle(b"YEAR", lambda v, m, col, q: b"%04d" % (v if v else 1900), (FAST_YEAR, 0)),
    T.ENUM: lambda t, meta: _enum(meta),
    T.SET: lambda t, meta: _set(meta),
    T.BLOB: _blob,
    T.VARCHAR: lambda t, meta: ColumnStyle(b"VARSTRING(%d)" % meta, lambda v, m, col, q: q(raw_bytes(v)),
                                           (FAST_QUOTED, 0)),
    T.VAR_STRING: lambda t, meta: ColumnStyle(b"VARSTRING(%d)" % meta, lambda v, m, col, q: q(raw_bytes(v)),
                                              (FAST_QUOTED, 0)),
    T.STRING: _string,
    T.JSON: lambda t, meta: ColumnStyle(b"JSON", _json, (FAST_JSON, 0)),
}


# mariadb-binlog prints GEOMETRY as the bytes it holds, and quotes the old DATETIME.
MARIADB_STYLES: dict[int, Callable[[int, int], ColumnStyle]] = {
    T.GEOMETRY: lambda t, meta: ColumnStyle(b"GEOMETRY", lambda v, m, col, q: q(raw_bytes(v)), (FAST_QUOTED, 0)),
    T.DATETIME: lambda t, meta: ColumnStyle(b"DATETIME", lambda v, m, col, q: q(v["value"].encode()),
                                            (FAST_QUOTED_TEXT, 0)),
}


def column_style(type_code: int, meta: int, dimensions: int = 0, mariadb: bool = False) -> ColumnStyle:
    if mariadb and type_code in MARIADB_STYLES:
        return MARIADB_STYLES[type_code](type_code, meta)
    if type_code == T.VECTOR:  # the type string names the optional metadata's dimensionality
        return ColumnStyle(b"VECTOR(%d)" % dimensions, lambda v, m, col, q: vector(raw_bytes(v)))
    factory = STYLES.get(type_code)
    return factory(type_code, meta) if factory else ColumnStyle(b"", None)


def _printed_type(type_code: int, meta: int) -> int:
    """The type number mysqlbinlog names in its "Don't know" line (STRING resolved)."""
    return unpack_string_meta(meta)[0] if type_code == T.STRING else type_code


# -- events ---------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Table:
    schema: bytes
    name: bytes
    types: list[int]
    metas: list[int]
    nullable: list[bool]
    styles: list[ColumnStyle]
    quote: Quoter
    # columns-present string -> per present column: (index, style, "@N", "###   @N=", the rest of
    # a non-NULL line " /* ... is_null=0 */\n", the whole NULL line)
    _columns: dict[str, list[tuple[int, ColumnStyle, bytes, bytes, bytes, bytes]]] = field(default_factory=dict)
    # columns-present string -> what _render.render_image takes: per present column
    # (C printer, its parameter, "###   @N=", the rest of a non-NULL line, the whole NULL line)
    _fast: dict[str, tuple[tuple[int, int, bytes, bytes, bytes], ...]] = field(default_factory=dict)

    def columns(self, present: str) -> list[tuple[int, ColumnStyle, bytes, bytes, bytes, bytes]]:
        """The present columns and the fixed parts of their lines, worked out once per bitmap."""
        cols = self._columns.get(present)
        if cols is None:
            cols = self._columns[present] = [self._column(i) for i, bit in enumerate(present) if bit == "1"]
        return cols

    def fast_columns(self, present: str) -> tuple[tuple[int, int, bytes, bytes, bytes], ...]:
        cols = self._fast.get(present)
        if cols is None:
            cols = self._fast[present] = tuple(style.fast + (head, tail, null_line)
                                               for _, style, _, head, tail, null_line in self.columns(present))
        return cols

    def _column(self, i: int) -> tuple[int, ColumnStyle, bytes, bytes, bytes, bytes]:
        name = b"@%d" % (i + 1)
        head = b"###   " + name + b"="
        tail = b" /* %s meta=%d nullable=%d is_null=" % (self.styles[i].typestr, self.metas[i], self.nullable[i])
        return i, self.styles[i], name, head, tail + b"0 */\n", head + b"NULL" + tail + b"1 */\n"

    @classmethod
    def from_body(cls, body: dict[str, Any], mariadb: bool = False) -> "Table":
        types, metas = body["column_types"], body["column_metadata"]
        nulls = body["null_bitmap"] or "0" * len(types)
        dims = iter(next((f["value"] for f in body["optional_metadata"]
                          if f["name"] == "VECTOR_DIMENSIONALITY"), []))
        styles = [column_style(t, m, next(dims, 0) if t == T.VECTOR else 0, mariadb)
                  for t, m in zip(types, metas)]
        return cls(raw_bytes(body["schema"]), raw_bytes(body["table"]), types, metas,
                   [c == "1" for c in nulls], styles, quoted_mariadb if mariadb else quoted)


def _identifier(name: bytes) -> bytes:
    return b"`" + name.replace(b"`", b"``") + b"`"


@dataclass(frozen=True, slots=True)
class _ImageRenderer:
    """Renders the images of one rows event whose images show the same columns: the present
    columns are worked out once per event, and each image goes to _render.c's twin first."""
    table: Table
    present: str
    clause: bytes  # b"### SET\n" or b"### WHERE\n"
    key: str | None  # the row's key for this image (updates), None: the row is the image
    fast: tuple[tuple[int, int, bytes, bytes, bytes], ...] | None

    @classmethod
    def of(cls, table: Table, present: str, clause: bytes, key: str | None = None) -> "_ImageRenderer":
        return cls(table, present, clause, key, table.fast_columns(present) if _render is not None else None)

    def __call__(self, out: list[bytes], row: dict[str, Any]) -> None:
        values = (row if self.key is None else row[self.key])["values"]
        if self.fast is not None:
            lines = _render.render_image(self.clause, self.fast, values, self.table.quote is quoted_mariadb)
            if lines is not None:
                out.append(lines)
                return
        _image(out, self.table, self.table.columns(self.present), values, self.clause)


def _image(out: list[bytes], table: Table, columns: list[tuple[int, ColumnStyle, bytes, bytes, bytes, bytes]],
           values: list[Any], clause: bytes) -> None:
    """The reference renderer of one image (the C twin's fallback)."""
    out.append(clause)
    metas, quote = table.metas, table.quote
    for (i, style, name, head, tail, null_line), v in zip(columns, values, strict=True):
        printer = style.value
        if printer is None:
            t, m = table.types[i], metas[i]
            out.append(head + b"!! Don't know how to handle column type=%d meta=%d (%04x)\n"
                       % (_printed_type(t, m), m, m))
            raise StopEvent
        if v is None:
            out.append(null_line)
        else:
            out.append(head + printer(v, metas[i], name, quote) + tail)


def render_rows_event(type_code: int, body: dict[str, Any], table: Table | None) -> list[bytes]:
    """The ### lines of one rows event (MySQL v2 and partial types)."""
    kind = _ROWS_KIND[type_code]
    out: list[bytes] = []
    extra = body.get("extra_data") or {}
    if "partition_id" in extra:
        if kind == "update":
            out.append(b"### Extra row info for partitioning: source_partition: %d target_partition: %d\n"
                       % (extra.get("source_partition_id", 0), extra["partition_id"]))
        else:
            out.append(b"### Extra row info for partitioning: partition: %d\n" % extra["partition_id"])
    if table is None:
        out.append(b"### Row event for unknown table #%d" % _int(body["table_id"]))
        return out
    target = _identifier(table.schema) + b"." + _identifier(table.name)
    rows = body["rows"]
    if not rows:
        if kind == "write":
            out.append(b"### INSERT INTO `%s`.`%s` VALUES ()\n" % (table.schema, table.name))
        return out
    header = _HEADERS[kind] % target
    if kind == "update":
        before = _ImageRenderer.of(table, body["columns_before_image"], b"### WHERE\n", "before_image")
        after = _ImageRenderer.of(table, body["columns_after_image"], b"### SET\n", "after_image")
        images = (before, after)
    elif kind == "write":
        images = (_ImageRenderer.of(table, body["columns_after_image"], b"### SET\n"),)
    else:
        images = (_ImageRenderer.of(table, body["columns_before_image"], b"### WHERE\n"),)
    if _render is not None:  # the C twin renders the whole event, or hands it back
        lines = _render.render_rows(rows, header, tuple((i.key, i.clause, i.fast) for i in images),
                                    table.quote is quoted_mariadb)
        if lines is not None:
            out.append(lines)
            return out
    try:
        for row in rows:
            out.append(header)
            for image in images:
                image(out, row)
    except StopEvent:
        pass
    return out


_HEADERS = {"write": b"### INSERT INTO %s\n", "delete": b"### DELETE FROM %s\n", "update": b"### UPDATE %s\n"}


def render(events: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """The ### output of a stream of canonical events (dicts), Transaction_payload contents
    included, in order."""
    for block in _blocks(events):
        yield from block


def render_bytes(events: Iterable[dict[str, Any]]) -> Iterator[bytes]:
    """render(), joined per rows event (what `python -m oracle rows` writes: fewer, larger writes)."""
    for block in _blocks(events):
        yield b"".join(block)


def _blocks(events: Iterable[dict[str, Any]]) -> Iterator[list[bytes]]:
    state = _State()
    for e in events:
        yield from _render_one(e, state)


@dataclass(slots=True)
class _State:
    tables: dict[Any, Table] = field(default_factory=dict)
    # From the Format_description: MariaDB logs, and MySQL logs older than 5.6 (which MySQL 9.7's
    # mysqlbinlog no longer reads), print as mariadb-binlog prints them.
    mariadb: bool = False


def _render_one(e: dict[str, Any], state: _State) -> Iterator[list[bytes]]:
    code = e["type_code"]
    body = e["body"]
    if code == 15:
        version = str(body.get("server_version", ""))
        state.mariadb = "mariadb" in version.lower() or version_tuple(version) < (5, 6, 0)
    elif code == 19:
        state.tables[_int(body["table_id"])] = Table.from_body(body, state.mariadb)
    elif code in _ROWS_KIND:
        yield render_rows_event(code, body, state.tables.get(_int(body["table_id"])))
    elif code == 40:
        for inner in body.get("events") or ():
            yield from _render_one(inner, state)


def main(argv: list[str] | None = None) -> int:
    from .decoder import decode_file
    from .errors import BinlogError
    args = sys.argv[1:] if argv is None else argv
    out = sys.stdout.buffer
    try:
        for block in render_bytes(e.to_json() for e in decode_file(args[0])):
            out.write(block)
    except BinlogError as e:
        out.flush()
        print(f"error: {e.kind} at offset {e.offset}: {e.message}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
