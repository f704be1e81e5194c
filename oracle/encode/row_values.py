"""Row-image values back to bytes: the inverse of oracle/codecs/plan.py's column readers, one
writer per column built from the same Table_map column (type, metadata, signedness).

A writer is `write(w: Writer, value) -> None` for a non-NULL canonical value.
"""
from __future__ import annotations

import struct
from typing import Any, Callable

from ..codecs.types import ColumnType as T
from .values import encode_decimal, float_value
from .writer import EncodeError, Writer, as_bytes, as_int

ValueWriter = Callable[[Writer, Any], None]

_FRAC_BYTES = (0, 1, 1, 2, 2, 3, 3)
_FRAC_SCALE = (0, 10000, 10000, 100, 100, 1, 1)


def _tag(v: Any, *types: str) -> str:
    if not isinstance(v, dict) or v.get("type") not in types:
        raise EncodeError(f"{v!r} is not a {'/'.join(types)} value")
    return v["value"]


def _int(width: int) -> Callable[[Any], ValueWriter]:
    """Unsigned when SIGNEDNESS says so, else signed (as the reader reads it): a value outside
    that reading's range is refused rather than wrapped."""
    def factory(col: Any) -> ValueWriter:
        if col.unsigned:
            return lambda w, v: w.uint(width, v, "unsigned integer column")
        low, high = -(1 << (8 * width - 1)), 1 << (8 * width - 1)

        def write(w: Writer, v: Any) -> None:
            if not low <= as_int(v, "integer column") < high:
                raise EncodeError(f"{v!r} is outside a signed {width}-byte column")
            w.sint(width, v, "integer column")
        return write
    return factory


def _float(fmt: str) -> Callable[[Any], ValueWriter]:
    pack = struct.Struct(fmt).pack
    return lambda col: lambda w, v: w.raw(pack(float_value(v)))


def _decimal(col: Any) -> ValueWriter:
    precision, scale = col.meta >> 8, col.meta & 0xFF
    return lambda w, v: w.raw(encode_decimal(_tag(v, "decimal"), precision, scale))


def _year(col: Any) -> ValueWriter:
    return lambda w, v: w.u8(v - 1900 if v else 0, "YEAR")


def _split_fraction(text: str, fsp: int) -> tuple[str, int]:
    """'...SS.fff' -> ('...SS', microseconds)."""
    main, _, frac = text.partition(".")
    if len(frac) > max(fsp, 0) or not (frac.isdigit() or not frac):
        raise EncodeError(f"{text!r} has a fraction of more than {fsp} digits")
    return main, int(frac.ljust(6, "0")) if frac else 0


def _date(col: Any) -> ValueWriter:
    def write(w: Writer, v: Any) -> None:
        y, m, d = (int(x) for x in _tag(v, "date").split("-"))
        w.uint(3, (y << 9) | (m << 5) | d, "DATE")
    return write


def _hms(text: str) -> tuple[int, int, int, int]:
    """'[-]H:MM:SS' -> (sign, h, m, s)."""
    sign = -1 if text.startswith("-") else 1
    h, m, s = (int(x) for x in text.lstrip("-").split(":"))
    return sign, h, m, s


def _time(col: Any) -> ValueWriter:
    def write(w: Writer, v: Any) -> None:
        sign, h, m, s = _hms(_tag(v, "time"))
        w.sint(3, sign * (h * 10000 + m * 100 + s), "TIME")
    return write


def _ymd_hms(text: str) -> tuple[int, int, int, int, int, int]:
    date, _, time = text.partition(" ")
    y, mo, d = (int(x) for x in date.split("-"))
    h, mi, s = (int(x) for x in time.split(":"))
    return y, mo, d, h, mi, s


def _datetime(col: Any) -> ValueWriter:
    def write(w: Writer, v: Any) -> None:
        y, mo, d, h, mi, s = _ymd_hms(_tag(v, "datetime"))
        w.u64((y * 10000 + mo * 100 + d) * 1000000 + h * 10000 + mi * 100 + s, "DATETIME")
    return write


def _timestamp(col: Any) -> ValueWriter:
    return lambda w, v: w.u32(int(_tag(v, "timestamp")), "TIMESTAMP")


def _frac(w: Writer, usec: int, fsp: int) -> None:
    if _FRAC_BYTES[fsp]:
        w.uint_be(_FRAC_BYTES[fsp], usec // _FRAC_SCALE[fsp], "fraction")


def _fsp(col: Any, what: str) -> int:
    if col.meta > 6:
        raise EncodeError(f"{what} fractional precision {col.meta} exceeds 6")
    return col.meta


def _timestamp2(col: Any) -> ValueWriter:
    fsp = _fsp(col, "TIMESTAMP2")

    def write(w: Writer, v: Any) -> None:
        sec, usec = _split_fraction(_tag(v, "timestamp"), fsp)
        w.uint_be(4, int(sec), "TIMESTAMP2")
        _frac(w, usec, fsp)
    return write


def _datetime2(col: Any) -> ValueWriter:
    fsp = _fsp(col, "DATETIME2")

    def write(w: Writer, v: Any) -> None:
        text = _tag(v, "datetime")
        sign = -1 if text.startswith("-") else 1
        main, usec = _split_fraction(text.lstrip("-"), fsp)
        y, mo, d, h, mi, s = _ymd_hms(main)
        packed = sign * ((((((y * 13 + mo) << 5) | d) << 17 | (h << 12) | (mi << 6) | s) << 24) + usec)
        w.uint_be(5, (packed >> 24) + 0x8000000000, "DATETIME2")
        _frac(w, packed & 0xFFFFFF, fsp)
    return write


def _trunc_div(a: int, b: int) -> int:
    """C's integer division (towards zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def _time2(col: Any) -> ValueWriter:
    """my_time_packed_to_binary: with 1-2 fraction bytes a negative time stores the integer part
    floored and the fraction as C's remainder (the reader adds the second back)."""
    fsp = _fsp(col, "TIME2")
    fbytes = _FRAC_BYTES[fsp]

    def write(w: Writer, v: Any) -> None:
        text = _tag(v, "time")
        sign = -1 if text.startswith("-") else 1
        main, usec = _split_fraction(text.lstrip("-"), fsp)
        _, h, m, s = _hms(main)
        packed = sign * ((((h << 12) | (m << 6) | s) << 24) + usec)
        if fbytes == 3:
            w.uint_be(6, packed + 0x800000000000, "TIME2")
            return
        w.uint_be(3, (packed >> 24) + 0x800000, "TIME2")
        if fbytes:
            rem = packed - _trunc_div(packed, 1 << 24) * (1 << 24)
            w.uint_be(fbytes, _trunc_div(rem, _FRAC_SCALE[fsp]) & ((1 << (8 * fbytes)) - 1), "fraction")
    return write


def _bit(col: Any) -> ValueWriter:
    nbytes = (col.meta >> 8) + (1 if col.meta & 0xFF else 0)
    return lambda w, v: w.uint_be(nbytes, v, "BIT")


def _unsigned_le(nbytes: int) -> ValueWriter:
    return lambda w, v: w.uint(nbytes, v, "ENUM/SET")


def prefixed(prefix: int, convert: Callable[[Any], bytes] = as_bytes) -> ValueWriter:
    def write(w: Writer, v: Any) -> None:
        data = convert(v)
        w.uint(prefix, len(data), "length prefix").raw(data)
    return write


def _string(col: Any) -> ValueWriter:
    if col.real_type in (T.ENUM, T.SET):
        return _unsigned_le(col.length)
    return prefixed(1 if col.length < 256 else 2)


def _json(col: Any) -> ValueWriter:
    from .jsonb import json_value_bytes
    return prefixed(col.meta, json_value_bytes)


FACTORIES: dict[int, Callable[[Any], ValueWriter]] = {
    T.TINY: _int(1), T.SHORT: _int(2), T.INT24: _int(3), T.LONG: _int(4), T.LONGLONG: _int(8),
    T.FLOAT: _float("<f"), T.DOUBLE: _float("<d"),
    T.NEWDECIMAL: _decimal,
    T.NULL: lambda col: lambda w, v: None,
    T.YEAR: _year,
    T.DATE: _date, T.NEWDATE: _date,
    T.TIME: _time, T.DATETIME: _datetime, T.TIMESTAMP: _timestamp,
    T.TIME2: _time2, T.DATETIME2: _datetime2, T.TIMESTAMP2: _timestamp2,
    T.BIT: _bit,
    T.VARCHAR: lambda col: prefixed(1 if col.meta < 256 else 2),
    T.VAR_STRING: lambda col: prefixed(1 if col.meta < 256 else 2),
    T.STRING: _string,
    T.ENUM: lambda col: _unsigned_le(col.meta & 0xFF),
    T.SET: lambda col: _unsigned_le(col.meta & 0xFF),
    T.TINY_BLOB: lambda col: prefixed(col.meta), T.MEDIUM_BLOB: lambda col: prefixed(col.meta),
    T.LONG_BLOB: lambda col: prefixed(col.meta), T.BLOB: lambda col: prefixed(col.meta),
    T.GEOMETRY: lambda col: prefixed(col.meta), T.VECTOR: lambda col: prefixed(col.meta),
    T.JSON: _json,
    T.VARCHAR_COMPRESSED: lambda col: prefixed(1 if col.meta < 256 else 2),
    T.BLOB_COMPRESSED: lambda col: prefixed(col.meta),
}


def build_writer(col: Any) -> ValueWriter:
    factory = FACTORIES.get(col.real_type)
    if factory is None:
        def refuse(w: Writer, v: Any) -> None:
            raise EncodeError(f"column {col.index + 1} has type {col.real_type}, which row images cannot hold")
        return refuse
    return factory(col)


def write_image(w: Writer, image: dict[str, Any], writers: list[ValueWriter],
                padding: int | None = None) -> None:
    """The null bitmap over the present columns, then each non-NULL value. The bitmap is
    rebuilt from the values (a NULL value sets its bit); its padding bits are the image's
    "null_padding", else `padding`, else set (pack_row in MySQL 5.x and MariaDB starts each
    byte at 0xff)."""
    values = image["values"]
    n = len(values)
    if n != len(writers):
        raise EncodeError(f"row image has {n} values for {len(writers)} present columns")
    nbytes = (n + 7) // 8
    pad = image.get("null_padding", padding)
    if pad is None:
        pad = (1 << (8 * nbytes - n)) - 1
    nulls = sum(1 << i for i, v in enumerate(values) if v is None) | (as_int(pad, "null_padding") << n)
    w.uint(nbytes, nulls, "row null bitmap")
    for i, (write, v) in enumerate(zip(writers, values)):
        if v is not None:
            try:
                write(w, v)
            except EncodeError:
                raise
            except (ValueError, TypeError, KeyError, AttributeError) as e:  # malformed value text
                raise EncodeError(f"row value {i + 1} {v!r}: {e}") from None
