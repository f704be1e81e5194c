"""Per-table row decoding plans: one value reader per column, built once from the Table_map.

`FACTORIES` maps a column's real type code to a function of the column that returns its
reader (oracle/codecs/base.py); `RowPlan.select` picks the readers for a columns-present bitmap
(cached per bitmap) and `read_image` decodes one row image with them. The hot loop touches only
locals: no per-value dict lookups or attribute chasing.
"""
from __future__ import annotations

from typing import Any, Callable

from ..errors import BinlogError, TruncatedEvent
from ..speedups import accelerator
from ..values import tagged
from . import jsonvalue
from .base import Native, ValueReader, failing, native, short, spec_of
from .decimal import check_precision, decimal_bin_size, decode_decimal
from .floats import read_double, read_float
from .integers import int_reader, read_year
from .strings import as_binary, prefixed_reader, text_reader, unsigned_be_reader, unsigned_le_reader
from .temporal import (datetime2_reader, read_date, read_datetime, read_time, read_timestamp,
                       time2_reader, timestamp2_reader)
from .types import ColumnType as T, type_name


def _decimal(col: Any) -> ValueReader:
    precision, scale = col.meta >> 8, col.meta & 0xFF
    problem = check_precision(precision, scale)
    if problem:
        return failing(problem)
    size = decimal_bin_size(precision, scale)

    def read(buf: bytes, pos: int, end: int):
        nxt = pos + size
        if nxt > end:
            raise short(pos, size, end, "NEWDECIMAL")
        return tagged("decimal", decode_decimal(bytes(buf[pos:nxt]), precision, scale, pos)), nxt
    return native(read, Native.DECIMAL, precision, scale)


def _bit(col: Any) -> ValueReader:
    nbytes = (col.meta >> 8) + (1 if col.meta & 0xFF else 0)
    if not 1 <= nbytes <= 8:
        return failing(f"BIT of {nbytes} bytes (1..8 allowed)")
    return unsigned_be_reader(nbytes, "BIT")


def _string(col: Any) -> ValueReader:
    """CHAR (and the ENUM/SET that MySQL logs as STRING): the real type decides."""
    if col.real_type in (T.ENUM, T.SET):
        return unsigned_le_reader(col.length, type_name(col.real_type))
    return text_reader(1 if col.length < 256 else 2, "STRING")


def _varchar(col: Any) -> ValueReader:
    return text_reader(1 if col.meta < 256 else 2, "VARCHAR")


def _read_null(buf: bytes, pos: int, end: int):
    return None, pos


native(_read_null, Native.NULL)


def _fixed(reader: ValueReader) -> Callable[[Any], ValueReader]:
    return lambda col: reader


def _int(width: int, name: str) -> Callable[[Any], ValueReader]:
    return lambda col: int_reader(width, bool(col.unsigned), name)


def _bytes(what: str) -> Callable[[Any], ValueReader]:
    return lambda col: prefixed_reader(col.meta, as_binary, what)


FACTORIES: dict[int, Callable[[Any], ValueReader]] = {
    T.TINY: _int(1, "TINY"), T.SHORT: _int(2, "SHORT"), T.INT24: _int(3, "INT24"),
    T.LONG: _int(4, "LONG"), T.LONGLONG: _int(8, "LONGLONG"),
    T.FLOAT: _fixed(read_float), T.DOUBLE: _fixed(read_double),
    T.NEWDECIMAL: _decimal,
    T.NULL: _fixed(_read_null),
    T.YEAR: _fixed(read_year),
    T.DATE: _fixed(read_date), T.NEWDATE: _fixed(read_date),
    T.TIME: _fixed(read_time), T.DATETIME: _fixed(read_datetime), T.TIMESTAMP: _fixed(read_timestamp),
    T.TIME2: lambda col: time2_reader(col.meta),
    T.DATETIME2: lambda col: datetime2_reader(col.meta),
    T.TIMESTAMP2: lambda col: timestamp2_reader(col.meta),
    T.BIT: _bit,
    T.VARCHAR: _varchar, T.VAR_STRING: _varchar,
    T.STRING: _string,
    T.ENUM: lambda col: unsigned_le_reader(col.meta & 0xFF, "ENUM"),
    T.SET: lambda col: unsigned_le_reader(col.meta & 0xFF, "SET"),
    T.TINY_BLOB: lambda col: text_reader(col.meta, "BLOB"),
    T.MEDIUM_BLOB: lambda col: text_reader(col.meta, "BLOB"),
    T.LONG_BLOB: lambda col: text_reader(col.meta, "BLOB"),
    T.BLOB: lambda col: text_reader(col.meta, "BLOB"),
    T.GEOMETRY: _bytes("GEOMETRY"),
    T.VECTOR: _bytes("VECTOR"),
    T.JSON: lambda col: prefixed_reader(col.meta, jsonvalue.json_value, "JSON"),
    # MariaDB's compressed columns: the stored (compressed) bytes, kept as logged.
    T.VARCHAR_COMPRESSED: lambda col: prefixed_reader(1 if col.meta < 256 else 2, as_binary, "VARCHAR_COMPRESSED"),
    T.BLOB_COMPRESSED: _bytes("BLOB_COMPRESSED"),
}


_C = accelerator("codecs._rowimage")


class Readers(list):
    """The readers of one image's columns, with their specs compiled for the C loop
    (`native`, None without it): built once per columns-present bitmap."""

    __slots__ = ("native",)

    def __init__(self, readers: list[ValueReader]) -> None:
        super().__init__(readers)
        self.native = _C.compile([spec_of(rd) for rd in readers]) if _C is not None else None


def build_reader(col: Any) -> ValueReader:
    factory = FACTORIES.get(col.real_type)
    if factory is None:
        return failing(f"column {col.index + 1} has type {type_name(col.real_type)}, which row images cannot hold")
    return factory(col)


class RowPlan:
    """The readers of one table, and which of its columns are JSON (for partial updates)."""

    __slots__ = ("readers", "json_columns", "_selected", "_partial", "_diff_reader")

    def __init__(self, columns: list[Any]) -> None:
        self.readers = [build_reader(c) for c in columns]
        self.json_columns = [c.index for c in columns if c.type == T.JSON]
        self._diff_reader = {c.index: prefixed_reader(c.meta, jsonvalue.json_diffs, "JSON diff")
                             for c in columns if c.type == T.JSON}
        self._selected: dict[int, Readers] = {}
        self._partial: dict[tuple[int, int], Readers] = {}

    def select(self, present: int) -> Readers:
        """The readers of the columns whose bit is set in `present`, in column order."""
        readers = self._selected.get(present)
        if readers is None:
            readers = Readers([rd for i, rd in enumerate(self.readers) if present >> i & 1])
            self._selected[present] = readers
        return readers

    def with_partial_json(self, present: int, partial: int) -> Readers:
        """Readers for a Partial_update_rows after-image: the JSON columns whose partial bit is
        set hold a diff list rather than a document (bit k is the table's k-th JSON column).
        Cached per (present, partial), as select is per present: the C specs compile once."""
        got = self._partial.get((present, partial))
        if got is not None:
            return got
        readers = []
        for i, rd in enumerate(self.readers):
            if present >> i & 1:
                if i in self._diff_reader and partial >> self.json_columns.index(i) & 1:
                    rd = self._diff_reader[i]
                readers.append(rd)
        got = self._partial[(present, partial)] = Readers(readers)
        return got


def read_image(buf: bytes, pos: int, end: int, readers: list[ValueReader]) -> tuple[dict[str, Any], int]:
    """One row image (see read_image_pure): the compiled loop when `readers` came from RowPlan
    with it built, which hands back None on anything unusual (a short value, an out-of-range
    DECIMAL group...); then the Python loop decodes the image and raises the precise error."""
    compiled = getattr(readers, "native", None)
    if compiled is not None:
        got = _C.read_image(buf, pos, end, compiled)
        if got is not None:
            return got
    return read_image_pure(buf, pos, end, readers)


def read_image_pure(buf: bytes, pos: int, end: int, readers: list[ValueReader]) -> tuple[dict[str, Any], int]:
    """One row image: the null bitmap over the present columns, then each non-NULL value.
    Returns the canonical image and the position after it. The bitmap's padding bits, when it
    has any, are kept as "null_padding" (shifted down) for the rows decoder to summarise."""
    n = len(readers)
    nb = (n + 7) >> 3
    if pos + nb > end:
        raise TruncatedEvent(pos, f"row null bitmap needs {nb} bytes, {end - pos} left")
    nulls = int.from_bytes(buf[pos:pos + nb], "little")
    pos += nb
    values: list[Any] = []
    append = values.append
    bit = 1
    for rd in readers:
        if nulls & bit:
            append(None)
        else:
            v, pos = rd(buf, pos, end)
            append(v)
        bit <<= 1
    image: dict[str, Any] = {"null_bitmap": format(nulls & ((1 << n) - 1), f"0{n}b")[::-1] if n else "",
             "values": values}
    if n & 7:  # the bitmap's last byte has padding bits; oracle/events/rows.py summarises them
        image["null_padding"] = nulls >> n
    return image, pos


def relocate(e: BinlogError, origin: int) -> BinlogError:
    """The same error with its buffer index turned into a file offset."""
    moved = type(e)(e.offset + origin, e.message)
    moved.event_offset = e.event_offset
    return moved

