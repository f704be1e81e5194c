"""Columns and their values: for each column type a Table_map metadata strategy and, given the
metadata, a strategy of canonical values within the type's domain (what a server could log for
such a column), in the canonical JSON form the oracle decodes them to (docs/canonical-model.md).

Sizes are kept small (strings up to a few dozen bytes) so an example is a few hundred bytes."""
from __future__ import annotations

import calendar
import struct
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from hypothesis import strategies as st

from oracle.codecs.types import NUMERIC_TYPES, ColumnType as C
from oracle.values import binary, integer, tagged, text

from .jsonb import json_documents

Strategy = st.SearchStrategy


@dataclass(frozen=True)
class Column:
    type_code: int  # as the Table_map carries it (ENUM and SET travel as STRING)
    meta: int  # the canonical column_metadata
    nullable: bool
    unsigned: bool  # only meaningful for NUMERIC_TYPES (SIGNEDNESS optional metadata)
    kind: int  # the real type: ENUM / SET for STRING columns that are ones

    def values(self) -> Strategy:
        return _values_of(self)


@lru_cache(maxsize=4096)
def _values_of(col: Column) -> Strategy:
    """Built once per distinct column: hypothesis validates every new strategy object."""
    value = VALUES[col.kind](col)
    return st.one_of(st.none(), value) if col.nullable else value


# -- metadata ------------------------------------------------------------------------------------

def _string_meta(real_type: int, length: int) -> int:
    """Field_string::save_field_metadata: lengths above 255 borrow two bits of the type byte."""
    return ((real_type ^ ((length & 0x300) >> 4)) << 8) | (length & 0xFF)


def _bit_meta(bits: int) -> int:
    return ((bits // 8) << 8) | (bits % 8)


def _bit_width(meta: int) -> int:
    return (meta >> 8) * 8 + (meta & 0xFF)


def _char_length(meta: int) -> int:
    return (((meta >> 4) & 0x300) ^ 0x300) + (meta & 0xFF)


FSP = st.integers(0, 6)
METADATA: dict[int, Strategy] = {
    C.FLOAT: st.just(4), C.DOUBLE: st.just(8),
    C.NEWDECIMAL: st.integers(1, 65).flatmap(lambda p: st.integers(0, min(p, 30)).map(lambda s: p << 8 | s)),
    C.TIME2: FSP, C.DATETIME2: FSP, C.TIMESTAMP2: FSP,
    C.BIT: st.integers(1, 64).map(_bit_meta),
    C.VARCHAR: st.one_of(st.integers(1, 255), st.integers(256, 1200)),
    C.STRING: st.integers(1, 1020).map(lambda n: _string_meta(C.STRING, n)),
    C.ENUM: st.sampled_from([C.ENUM << 8 | 1, C.ENUM << 8 | 2]),
    C.SET: st.integers(1, 8).map(lambda n: C.SET << 8 | n),
    C.BLOB: st.integers(1, 4), C.GEOMETRY: st.just(4), C.JSON: st.just(4),  # geometry, JSON: 4-byte lengths
    C.VECTOR: st.just(4),
}


@st.composite
def columns(draw: Callable, kinds: tuple[int, ...], signedness: bool) -> Column:
    kind = draw(st.sampled_from(kinds))
    meta = draw(METADATA.get(kind, st.just(0)))
    # YEAR is an unsigned TINY underneath: it has a SIGNEDNESS bit, always set.
    unsigned = signedness and (kind == C.YEAR or kind in NUMERIC_TYPES and draw(st.booleans()))
    type_code = C.STRING if kind in (C.ENUM, C.SET) else kind
    return Column(type_code, meta, draw(st.booleans()), unsigned, kind)


# -- values --------------------------------------------------------------------------------------

def _ints(nbytes: int) -> Callable[[Column], Strategy]:
    def values(col: Column) -> Strategy:
        bits = 8 * nbytes
        lo, hi = (0, (1 << bits) - 1) if col.unsigned else (-(1 << bits - 1), (1 << bits - 1) - 1)
        return st.one_of(st.integers(lo, hi), st.sampled_from([lo, hi, 0])).map(integer)
    return values


def _decimal(col: Column) -> Strategy:
    precision, scale = col.meta >> 8, col.meta & 0xFF
    limit = 10 ** precision - 1

    def text_of(units: int) -> str:
        digits = str(abs(units)).rjust(scale + 1, "0")
        body = f"{digits[:-scale]}.{digits[-scale:]}" if scale else digits
        return ("-" if units < 0 else "") + body
    return st.one_of(st.integers(-limit, limit), st.sampled_from([-limit, limit, 0])).map(
        lambda u: tagged("decimal", text_of(u)))


def _dates() -> Strategy:
    """A calendar date, or MySQL's zero date."""
    def day(ym: tuple[int, int]) -> Strategy:
        y, m = ym
        return st.integers(1, calendar.monthrange(max(y, 1), m)[1]).map(lambda d: f"{y:04d}-{m:02d}-{d:02d}")
    real = st.tuples(st.integers(1000, 9999), st.integers(1, 12)).flatmap(day)
    return st.one_of(real, st.just("0000-00-00"))


def _clock() -> Strategy:
    return st.tuples(st.integers(0, 23), st.integers(0, 59), st.integers(0, 59)).map(
        lambda t: f"{t[0]:02d}:{t[1]:02d}:{t[2]:02d}")


def _fraction(fsp: int) -> Strategy:
    return st.integers(0, 10 ** fsp - 1).map(lambda f: f".{f:0{fsp}d}") if fsp else st.just("")


_TIME_MAX_S = 838 * 3600 + 59 * 60 + 59


def _time_text(total_us: int, fsp: int) -> str:
    sign, total_us = ("-" if total_us < 0 else ""), abs(total_us)
    seconds, us = divmod(total_us, 10**6)
    frac = f".{us // 10 ** (6 - fsp):0{fsp}d}" if fsp else ""
    return f"{sign}{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d}{frac}"


def _time(fsp: int) -> Strategy:
    """[-]838:59:59 .. 838:59:59 in steps of the column's precision."""
    step = 10 ** (6 - fsp)
    bound = _TIME_MAX_S * 10**6 // step
    return st.integers(-bound, bound).map(lambda n: tagged("time", _time_text(n * step, fsp)))


def _datetime(fsp: int) -> Strategy:
    zero = st.just("0000-00-00 00:00:00" + (f".{0:0{fsp}d}" if fsp else ""))
    real = st.tuples(_dates().filter(lambda d: d != "0000-00-00"), _clock(), _fraction(fsp)).map(
        lambda t: f"{t[0]} {t[1]}{t[2]}")
    return st.one_of(real, zero).map(lambda v: tagged("datetime", v))


def _timestamp(fsp: int) -> Strategy:
    return st.tuples(st.integers(0, 2**31 - 1), _fraction(fsp)).map(
        lambda t: tagged("timestamp", f"{t[0]}{t[1]}"))


def _bytes_upto(n: int, cap: int = 40) -> Strategy:
    """Byte strings a column of at most n bytes holds: text (the common case) or any bytes."""
    limit = min(n, cap)
    utf8 = st.text(max_size=limit).map(lambda s: s.encode("utf-8")).filter(lambda b: len(b) <= limit)
    return st.one_of(utf8, st.binary(max_size=limit)).map(text)


def _blob(col: Column) -> Strategy:
    return _bytes_upto((1 << (8 * col.meta)) - 1, 60)


def _geometry(col: Column) -> Strategy:
    """SRID + a WKB point, as MySQL stores a POINT."""
    coord = st.floats(allow_nan=False, allow_infinity=False)
    return st.tuples(st.integers(0, 2**32 - 1), coord, coord).map(
        lambda t: binary(struct.pack("<IBIdd", t[0], 1, 1, t[1], t[2])))


def _vector(col: Column) -> Strategy:
    f32 = st.floats(width=32, allow_nan=False, allow_infinity=False)
    return st.lists(f32, min_size=1, max_size=8).map(lambda xs: binary(struct.pack(f"<{len(xs)}f", *xs)))


def _year(col: Column) -> Strategy:
    return st.one_of(st.just(0), st.integers(1901, 2155))


def _enum(col: Column) -> Strategy:
    return st.integers(1, 255 if (col.meta & 0xFF) == 1 else 65535)


def _set(col: Column) -> Strategy:
    return st.integers(0, (1 << (8 * (col.meta & 0xFF))) - 1).map(integer)


VALUES: dict[int, Callable[[Column], Strategy]] = {
    C.TINY: _ints(1), C.SHORT: _ints(2), C.INT24: _ints(3), C.LONG: _ints(4), C.LONGLONG: _ints(8),
    C.FLOAT: lambda col: st.floats(width=32, allow_nan=False, allow_infinity=False),
    C.DOUBLE: lambda col: st.floats(allow_nan=False, allow_infinity=False),
    C.NEWDECIMAL: _decimal,
    C.YEAR: _year,
    C.DATE: lambda col: _dates().map(lambda d: tagged("date", d)),
    C.TIME: lambda col: _time(0),
    C.DATETIME: lambda col: _datetime(0),
    C.TIMESTAMP: lambda col: _timestamp(0),
    C.TIME2: lambda col: _time(col.meta),
    C.DATETIME2: lambda col: _datetime(col.meta),
    C.TIMESTAMP2: lambda col: _timestamp(col.meta),
    C.BIT: lambda col: st.integers(0, (1 << _bit_width(col.meta)) - 1).map(integer),
    C.VARCHAR: lambda col: _bytes_upto(col.meta),
    C.STRING: lambda col: _bytes_upto(_char_length(col.meta)),
    C.ENUM: _enum, C.SET: _set,
    C.BLOB: _blob,
    C.GEOMETRY: _geometry,
    C.JSON: lambda col: json_documents(),
    C.VECTOR: _vector,
}


def canonical_equal(built: Any, decoded: Any) -> bool:
    """A built value and the oracle's decode of it are the same value (JSON documents are
    compared parsed: the oracle prints them in MySQL's text form, keys in storage order)."""
    if isinstance(built, dict) and built.get("type") == "jsonb":
        import json
        return (isinstance(decoded, dict) and decoded.get("type") == "json"
                and json.loads(decoded["value"]) == built["document"])
    return built == decoded


def strip_document(value: Any) -> Any:
    """The value as the encoder takes it (a JSON value's parsed document is for comparing only)."""
    if isinstance(value, dict) and value.get("type") == "jsonb":
        return {"type": "jsonb", "value": value["value"]}
    return value
