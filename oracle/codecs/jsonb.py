"""MySQL's binary JSON (the JSON column type), and the text mysqlbinlog prints for it.

Format (sql-common/json_binary.cc): a document is a type byte and a value. Objects and arrays come
in a small form (2-byte counts, sizes and offsets) and a large one (4-byte): element count, byte
size, then key entries (objects: offset + 2-byte length), then value entries (type byte + offset,
or the value itself for literals, int16/uint16, and int32/uint32 in the large form), then keys and
values. Offsets count from the container's first byte (just past its type byte). Strings carry a
7-bits-per-byte length (at most 5 bytes); opaque values a MySQL column type byte, such a length
and the raw bytes.

Decoding checks exactly what MySQL's parser checks (so a document MySQL reads is read here the same
way) and also bounds the work: nesting is limited to MySQL's 100 levels, and every child, key byte
and string byte spends one unit of a budget equal to the document size. A document MySQL wrote
never points two entries at one value, so only crafted aliasing (a DAG that would print
exponentially) exhausts it. Errors are the typed BinlogErrors, at absolute offsets.

Rendering follows Json_wrapper::to_string: `{"k": v, ...}` and `[a, b]` with ", " and ": ", keys in
stored order, doubles as my_gcvt prints them (plus ".0" when neither '.' nor 'e' appears),
date/time as my_TIME_to_str with 6 fraction digits, DECIMAL as decimal2string, other opaque values
as "base64:type<N>:<base64>" with MySQL's line breaks every 76 characters. That text does not
keep an opaque value's field type and bytes (a DECIMAL's declared precision, say), nor whether an
integer is MySQL's signed or unsigned JSON integer (JSON_TYPE's INTEGER or UNSIGNED INTEGER), so
the canonical value lists them beside it ("opaque", "unsigned": see layout_entries) for the encoder.
"""
from __future__ import annotations

import base64
import math
import re
import struct
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

from ..errors import BadEventBody, LengthPastEnd, TruncatedEvent
from ..speedups import accelerator
from .decimal import decode_decimal

MAX_DEPTH = 100  # JSON_DOCUMENT_MAX_DEPTH

_C = accelerator("codecs._jsonb")
_TWIN = _C.canonical if _C is not None else None  # (buf, start, end) -> canonical dict | None

# JSONB type bytes
SMALL_OBJECT, LARGE_OBJECT, SMALL_ARRAY, LARGE_ARRAY = 0x0, 0x1, 0x2, 0x3
LITERAL, INT16, UINT16, INT32, UINT32, INT64, UINT64, DOUBLE, STRING = range(0x4, 0xD)
OPAQUE = 0xF

# MySQL column types that give an opaque value a JSON meaning (json_dom.cc Json_wrapper::type).
_MYSQL_TIMESTAMP, _MYSQL_DATE, _MYSQL_TIME, _MYSQL_DATETIME = 7, 10, 11, 12
_MYSQL_NEWDECIMAL, _MYSQL_VAR_STRING = 246, 253

_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
_SCALARS = {  # type byte -> (kind, width, unpack)
    INT16: ("int", 2, struct.Struct("<h").unpack_from),
    UINT16: ("uint", 2, _U16),
    INT32: ("int", 4, struct.Struct("<i").unpack_from),
    UINT32: ("uint", 4, _U32),
    INT64: ("int", 8, struct.Struct("<q").unpack_from),
    UINT64: ("uint", 8, struct.Struct("<Q").unpack_from),
    DOUBLE: ("double", 8, struct.Struct("<d").unpack_from),
}
_LITERALS = {0: "null", 1: "true", 2: "false"}


@dataclass(frozen=True, slots=True)
class _Shape:
    """One container form: object or array, small (2-byte) or large (4-byte) counts/offsets."""
    is_object: bool
    osz: int  # offset/size width
    counts: Callable  # unpack (element count, byte size)
    offset: Callable  # unpack one offset
    key_entry: Callable  # unpack (key offset, key length)
    inlined: frozenset[int]  # value types stored in the value entry itself


def _shape(is_object: bool, large: bool) -> _Shape:
    o = "I" if large else "H"
    inlined = (LITERAL, INT16, UINT16) + ((INT32, UINT32) if large else ())
    return _Shape(is_object, 4 if large else 2, struct.Struct("<" + o + o).unpack_from,
                  struct.Struct("<" + o).unpack_from, struct.Struct("<" + o + "H").unpack_from,
                  frozenset(inlined))


_CONTAINERS = {SMALL_OBJECT: _shape(True, False), LARGE_OBJECT: _shape(True, True),
               SMALL_ARRAY: _shape(False, False), LARGE_ARRAY: _shape(False, True)}


@dataclass(frozen=True, slots=True)
class JsonValue:
    """One JSON value, keeping the distinctions MySQL keeps.

    kind: object | array | null | true | false | int | uint | double | string | opaque |
          decimal | date | time | datetime | timestamp
    value: object -> tuple of (key bytes, JsonValue); array -> tuple of JsonValue;
           int/uint -> int; double -> float; string/opaque -> bytes;
           decimal/date/time/datetime/timestamp -> their MySQL text; literals -> None
    field_type: the MySQL column type of an opaque (and decimal/temporal) value, else 0
    raw: the stored bytes of such a value (after its length), which its text does not keep
    """
    kind: str
    value: Any = None
    field_type: int = 0
    raw: bytes = b""


NULL = JsonValue("null")


@dataclass(frozen=True, slots=True)
class _Sink:
    """What the decoder builds from what it reads: the JsonValue model, or the canonical text
    directly (one pass, no intermediate model). Both see the same checks in the same order."""
    array: Callable[[list], Any]  # the values, in order
    object: Callable[[list, list], Any]  # the keys (bytes) and the values, in stored order
    fixed: dict[int, Callable[[Any], Any]]  # type byte -> of the unpacked int/float
    literals: dict[int, Any]  # literal byte -> value
    string: Callable[[bytes], Any]
    opaque: Callable[[int, bytes], Any]  # (MySQL field type, bytes) of a value kept as bytes
    special: Callable[[str, str, int, bytes], Any]  # (kind, text, field type, bytes): decimal/date...


def decode_jsonb(data: bytes, offset: int = 0) -> JsonValue:
    """Decode one binary JSON document. `offset` is the absolute file offset of data[0], used in
    errors. An empty document is the JSON null literal, as MySQL reads it."""
    return decode_jsonb_at(data, 0, len(data), offset)


def decode_jsonb_at(buf: bytes, start: int, end: int, origin: int = 0) -> JsonValue:
    """decode_jsonb over buf[start:end] without copying it; errors are at origin + buffer index."""
    if end <= start:
        return NULL
    return _decode(buf, start, end, origin, _MODEL)[0]


def canonical_at(buf: bytes, start: int, end: int, origin: int = 0) -> dict[str, Any]:
    """to_canonical(decode_jsonb_at(...)), the text written while decoding (no model built),
    with the layout lists gathered in the same pass (the walk's `layout`). The C twin
    (oracle/codecs/_jsonb.c) answers when it is built; it hands back anything unusual (every
    error, non-UTF-8 text) to pure_canonical_at, the reference."""
    if _TWIN is not None:
        found = _TWIN(buf, start, end)
        if found is not None:
            return found
    return pure_canonical_at(buf, start, end, origin)


def pure_canonical_at(buf: bytes, start: int, end: int, origin: int = 0) -> dict[str, Any]:
    """canonical_at in Python: the reference the C twin must equal, and the one raising errors."""
    if end <= start:
        return {"type": "json", "value": "null"}
    raw, st = _decode(buf, start, end, origin, _TEXT)
    canonical = _canonical(raw)  # json, or json_bytes: both keep the layout (see _with_layout)
    if st.unfresh:
        canonical["binary"] = bytes(buf[start:end]).hex()
    elif st.layout:
        _add_layout_lists(canonical, st.layout)
    return canonical


def _add_layout_lists(canonical: dict[str, Any], layout: list[list[Any]]) -> None:
    """layout_entries from the walk's entries ([path steps innermost first, field type (None for
    an unsigned integer), bytes]), added to canonical. Like layout_entries, an opaque value of
    field type 0 has none."""
    opaque, unsigned = [], []
    for steps, field_type, data in layout:
        steps.reverse()
        if field_type is None:
            unsigned.append(steps)
        elif field_type:
            opaque.append({"path": steps, "field_type": field_type, "data": data.hex()})
    if opaque:
        canonical["opaque"] = opaque
    if unsigned:
        canonical["unsigned"] = unsigned


def _decode(buf: bytes, start: int, end: int, origin: int, sink: _Sink) -> tuple[Any, _Walk]:
    """What the sink built of the document, and the walk that says what its text does not
    (layout: opaque values and unsigned integers; unfresh: a layout not MySQL's fresh one)."""
    if type(buf) is not bytes:  # slices of an mmap or bytearray: work on one bytes copy
        buf, origin, start, end = bytes(buf[start:end]), origin + start, 0, end - start
    st = _Walk(origin, end - start, sink)
    value = _reader(buf[start], start + 1, st)(buf, start + 1, end - start - 1, 0, st)
    if 1 + st.last != end - start:
        st.unfresh = True  # bytes past the value
    return value, st


class _Walk:
    """One document's decoding state. Every child, key byte and string byte spends one unit of
    the budget (the document size), so aliased offsets cannot make the work explode. `unfresh`
    says whether the bytes are laid out other than as MySQL serializes a
    fresh document (free space an in-place partial update left); `layout` lists the values whose
    type the text does not tell, as _layout_lists reads them (each container adds its step to
    the paths of its children's entries); `last` is the byte length of
    the value a reader read last."""
    __slots__ = ("origin", "budget", "sink", "layout", "unfresh", "last")

    def __init__(self, origin: int, budget: int, sink: _Sink) -> None:
        self.origin = origin
        self.budget = budget
        self.sink = sink
        self.layout: list[list[Any]] = []
        self.unfresh = False
        self.last = 0


def _overspent(st: _Walk, pos: int) -> BadEventBody:
    return BadEventBody(st.origin + pos, "JSON entries reference more data than the document holds "
                                         "(aliased offsets)")


# Readers: (buf, pos, avail, depth, st) -> the value of one type whose bytes start at pos, with at
# most avail bytes; depth is the nesting of the container holding it. _READERS maps type bytes.

def _container(shape: _Shape, buf: bytes, pos: int, avail: int, depth: int, st: _Walk) -> Any:
    at = st.origin + pos
    depth += 1
    if depth > MAX_DEPTH:
        raise BadEventBody(at, f"JSON document nests deeper than {MAX_DEPTH} levels")
    osz = shape.osz
    if avail < 2 * osz:
        raise TruncatedEvent(at, f"JSON container header needs {2 * osz} bytes, {avail} left")
    count, size = shape.counts(buf, pos)
    if size > avail:
        raise LengthPastEnd(at + osz, f"JSON container size {size} exceeds the {avail} bytes left")
    is_object = shape.is_object
    key_entries = count * (osz + 2) if is_object else 0
    ves = 1 + osz
    header = 2 * osz + key_entries + count * ves
    if header > size:
        raise LengthPastEnd(at, f"JSON container of {count} entries needs {header} header bytes, "
                                f"its size is {size}")
    st.budget -= count
    if st.budget < 0:
        raise _overspent(st, pos)
    inlined, read, readers = shape.inlined, shape.offset, _READERS
    values: list[Any] = []
    append = values.append
    first = pos + 2 * osz + key_entries  # buffer index of the first value entry
    data_at = data_end = -1  # where the values' data starts and ends, if laid out fresh
    layout = st.layout
    mark = len(layout)
    owners = []  # (value entry, first and end index in layout) of children that added entries
    for e in range(first, first + count * ves, ves):
        t = buf[e]
        if t in inlined:
            append(readers[t](buf, e + 1, osz, depth, st))
        else:
            off = read(buf, e + 1)[0]
            if not e - pos + ves <= off <= size:
                raise BadEventBody(st.origin + e + 1, f"JSON value offset {off} is outside {e - pos + ves}..{size}")
            append((readers.get(t) or _reader(t, pos + off, st))(buf, pos + off, size - off, depth, st))
            if off != data_end:
                if data_at >= 0:
                    st.unfresh = True
                data_at = off
            data_end = off + st.last
        if len(layout) != mark:
            owners.append((e, mark, len(layout)))
            mark = len(layout)
    keys_end = header
    if is_object:
        keys = []
        key_entry = shape.key_entry
        for e in range(pos + 2 * osz, first, osz + 2):
            key_off, key_len = key_entry(buf, e)
            if key_off < header or key_off + key_len > size:
                raise BadEventBody(st.origin + e, f"JSON key at {key_off} (+{key_len}) is outside {header}..{size}")
            st.budget -= key_len
            if st.budget < 0:
                raise _overspent(st, e)
            if key_off != keys_end:
                st.unfresh = True
            keys_end = key_off + key_len
            keys.append(buf[pos + key_off:pos + key_off + key_len])
    for e, a, b in owners:
        i = (e - first) // ves
        step = keys[i].decode("utf-8", "surrogateescape") if is_object else i
        for entry in layout[a:b]:
            entry[0].append(step)
    # Fresh: keys right after the header, values right after the keys, nothing after them, and
    # the large form only where the small one cannot hold the container (judged loosely).
    values_from, values_to = (data_at, data_end) if data_at >= 0 else (keys_end, keys_end)
    if values_from != keys_end or values_to != size or (osz == 4 and size <= 0xFFFF):
        st.unfresh = True
    st.last = size
    return st.sink.object(keys, values) if is_object else st.sink.array(values)


def _fixed(type_code: int, buf: bytes, pos: int, avail: int, depth: int, st: _Walk) -> Any:
    kind, width, unpack = _SCALARS[type_code]
    if avail < width:
        raise TruncatedEvent(st.origin + pos, f"JSON {kind} needs {width} bytes, {avail} left")
    value = unpack(buf, pos)[0]
    if kind == "uint":
        st.layout.append([[], None, b""])
    st.last = width
    return st.sink.fixed[type_code](value)


def _literal(buf: bytes, pos: int, avail: int, depth: int, st: _Walk) -> Any:
    if avail < 1:
        raise TruncatedEvent(st.origin + pos, "JSON literal needs 1 byte")
    value = st.sink.literals.get(buf[pos])
    if value is None:
        raise BadEventBody(st.origin + pos, f"JSON literal byte {buf[pos]:#04x} is not null/true/false")
    st.last = 1
    return value


def _string(buf: bytes, pos: int, avail: int, depth: int, st: _Walk) -> Any:
    length, n = (buf[pos], 1) if avail and buf[pos] < 0x80 else _varlen(buf, pos, avail, st)
    _span(pos, n + length, avail, st, "JSON string")
    st.last = n + length
    return st.sink.string(buf[pos + n:pos + n + length])


def _opaque(buf: bytes, pos: int, avail: int, depth: int, st: _Walk) -> Any:
    if avail < 1:
        raise TruncatedEvent(st.origin + pos, "JSON opaque value needs a type byte")
    length, n = (buf[pos + 1], 1) if avail > 1 and buf[pos + 1] < 0x80 else _varlen(buf, pos + 1, avail - 1, st)
    _span(pos, 1 + n + length, avail, st, "JSON opaque value")
    start = pos + 1 + n
    field_type, data = buf[pos], buf[start:start + length]
    st.layout.append([[], field_type, data])
    st.last = 1 + n + length
    special = _SPECIAL.get(field_type)
    if special is None:
        return st.sink.opaque(field_type, data)
    kind, text = special
    return st.sink.special(kind, text(data, st.origin + start), field_type, data)


def _reader(type_code: int, pos: int, st: _Walk) -> Callable[..., Any]:
    """The reader of a value of type type_code at pos."""
    read = _READERS.get(type_code)
    if read is None:
        raise BadEventBody(st.origin + pos, f"JSON type byte {type_code:#04x} is not defined")
    return read


_READERS: dict[int, Callable[..., Any]] = {
    **{t: partial(_container, shape) for t, shape in _CONTAINERS.items()},
    **{t: partial(_fixed, t) for t in _SCALARS},
    LITERAL: _literal, STRING: _string, OPAQUE: _opaque,
}


def _varlen(buf: bytes, pos: int, avail: int, st: _Walk) -> tuple[int, int]:
    """read_variable_length: 7 bits per byte, low bits first, at most 5 bytes, < 2**32.
    Returns (value, bytes taken)."""
    if avail > 0 and buf[pos] < 0x80:
        return buf[pos], 1
    value = 0
    for i in range(min(avail, 5)):
        b = buf[pos + i]
        value |= (b & 0x7F) << (7 * i)
        if not b & 0x80:
            if value > 0xFFFFFFFF:
                break
            return value, i + 1
    raise BadEventBody(st.origin + pos, "JSON length is not a valid variable-length integer")


def _span(pos: int, need: int, avail: int, st: _Walk, what: str) -> None:
    if need > avail:
        raise LengthPastEnd(st.origin + pos, f"{what} needs {need} bytes, {avail} left")
    st.budget -= need
    if st.budget < 0:
        raise _overspent(st, pos)


# -- opaque values ------------------------------------------------------------------------------

def _decimal(data: bytes, at: int) -> str:
    """Json_decimal::convert_from_binary: precision byte, scale byte, binary decimal."""
    if len(data) < 2:
        raise TruncatedEvent(at, "JSON decimal needs precision and scale bytes")
    return decode_decimal(data[2:], data[0], data[1], at + 2)


_INT64_MIN = -(1 << 63)


def _two(v: int) -> str:
    """format_two_digits: a value outside 0..99 prints as 00."""
    return "%02d" % (v if 0 <= v < 100 else 0)


# What mysqlbinlog 9.7.4 prints where MySQL's unpacking is undefined (negating INT64_MIN) or
# takes a path its source does not show (a negative TIME whose every field is zero); observed
# with the real tool (tests/test_jsonb.py checks them against it when docker is available).
_INT64_MIN_TEXT = {"date": "0000-00-00", "datetime": "0014-10-00 00:00:00.000000",
                   "timestamp": "0014-10-00 00:00:00.000000", "time": "2047:63:63.777215"}
_NEGATIVE_ZERO_TIME = "2047:63:63.777215"


def _packed(data: bytes, at: int) -> int:
    if len(data) < 8:
        raise TruncatedEvent(at, f"JSON date/time value needs 8 bytes, got {len(data)}")
    return int.from_bytes(data[:8], "little", signed=True)


def _datetime_text(tmp: int, with_time: bool) -> str:
    """TIME_from_longlong_datetime_packed, then my_datetime_to_str(.., 6) / my_date_to_str."""
    tmp = abs(tmp)
    ymdhms, usec = tmp >> 24, tmp % (1 << 24)
    ymd, hms = ymdhms >> 17, ymdhms % (1 << 17)
    ym = ymd >> 5
    year = ym // 13
    text = f"{_two(year // 100)}{_two(year % 100)}-{_two(ym % 13)}-{_two(ymd % 32)}"
    if not with_time:
        return text
    return (f"{text} {_two(hms >> 12)}:{_two((hms >> 6) % 64)}:{_two(hms % 64)}"
            f".{usec % 1000000:06d}")


def _time_text(tmp: int) -> str:
    """TIME_from_longlong_time_packed, then my_time_to_str(.., 6)."""
    neg, tmp = tmp < 0, abs(tmp)
    hms, usec = tmp >> 24, tmp % (1 << 24)
    hour, minute, second = (hms >> 12) % 1024, (hms >> 6) % 64, hms % 64
    if neg and not (hour or minute or second or usec):
        return _NEGATIVE_ZERO_TIME
    return f"{'-' if neg else ''}{hour:02d}:{minute:02d}:{second:02d}.{usec % 1000000:06d}"


def _temporal(kind: str, render: Callable[[int], str]) -> Callable[[bytes, int], str]:
    """Json_datetime::from_packed: the first 8 bytes are a packed temporal longlong."""
    def text(data: bytes, at: int) -> str:
        tmp = _packed(data, at)
        return _INT64_MIN_TEXT[kind] if tmp == _INT64_MIN else render(tmp)
    return text


# MySQL field type -> (kind, its text from the opaque bytes); other field types stay opaque.
_SPECIAL = {
    _MYSQL_NEWDECIMAL: ("decimal", _decimal),
    _MYSQL_DATE: ("date", _temporal("date", lambda tmp: _datetime_text(tmp, False))),
    _MYSQL_TIME: ("time", _temporal("time", _time_text)),
    _MYSQL_DATETIME: ("datetime", _temporal("datetime", lambda tmp: _datetime_text(tmp, True))),
    _MYSQL_TIMESTAMP: ("timestamp", _temporal("timestamp", lambda tmp: _datetime_text(tmp, True))),
}


def _opaque_raw(field_type: int, data: bytes) -> bytes:
    """An opaque value's unquoted text: a VAR_STRING's bytes, else MySQL's base64 form (line
    breaks every 76 characters, as its base64_encode writes them)."""
    if field_type == _MYSQL_VAR_STRING:
        return data
    enc = base64.b64encode(data)
    lines = b"\n".join(enc[i:i + 76] for i in range(0, len(enc), 76))
    return b"base64:type%d:" % field_type + lines


_MODEL = _Sink(
    array=lambda values: JsonValue("array", tuple(values)),
    object=lambda keys, values: JsonValue("object", tuple(zip(keys, values))),
    fixed={t: partial(JsonValue, kind) for t, (kind, _, _) in _SCALARS.items()},
    literals={b: JsonValue(kind) for b, kind in _LITERALS.items()},
    string=partial(JsonValue, "string"),
    opaque=lambda field_type, data: JsonValue("opaque", data, field_type, data),
    special=JsonValue,
)


# -- text -----------------------------------------------------------------------------------------

_GCVT_WIDTH = 34  # MY_GCVT_MAX_FIELD_WIDTH = DBL_DIG + 4 + max(5, MAX_DECPT_FOR_F_FORMAT)
_MAX_DECPT_F = 15  # MAX_DECPT_FOR_F_FORMAT = DBL_DIG


def format_double(x: float) -> str:
    """my_gcvt(x, MY_GCVT_ARG_DOUBLE, 34) as Json_wrapper prints it, ".0" appended when the
    result has neither '.' nor 'e' (so 1.0 stays distinguishable from 1). Python's repr gives the
    same shortest round-trip digits as dtoa; only their placement differs."""
    if not math.isfinite(x):
        return "0.0"  # dtoa's overflow result; MySQL never stores these
    minus = "-" if math.copysign(1.0, x) < 0 else ""
    mantissa, _, exp = repr(abs(x)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    ds = digits.rstrip("0") or "0"
    n = len(ds)
    # the point sits after `decpt` digits of ds
    decpt = len(whole) - (len(whole) + len(fraction) - len(digits)) + int(exp or 0) if ds != "0" else 1
    width = _GCVT_WIDTH - (1 if x < 0 else 0)
    f_len = n - decpt + 2 if decpt <= 0 else (n + 1 if decpt < n else decpt)
    if f_len <= width and decpt >= 1 - _MAX_DECPT_F and (decpt <= _MAX_DECPT_F or n > decpt):
        if decpt <= 0:
            text = "0." + "0" * -decpt + ds
        elif decpt < n:
            text = ds[:decpt] + "." + ds[decpt:]
        else:
            text = ds + "0" * (decpt - n)
    else:
        text = ds[0] + ("." + ds[1:] if n > 1 else "") + "e" + str(decpt - 1)
    text = minus + text
    return text if ("." in text or "e" in text) else text + ".0"


_ESCAPES = {0x22: b'\\"', 0x5C: b"\\\\", 0x08: b"\\b", 0x0C: b"\\f", 0x0A: b"\\n", 0x0D: b"\\r",
            0x09: b"\\t"}
_JSON_ESCAPE = {bytes([c]): _ESCAPES.get(c, b"\\u%04x" % c) for c in list(range(0x20)) + [0x22, 0x5C]}
_NEEDS_ESCAPE = re.compile(rb'["\\\x00-\x1f]')


def quote_json_string(s: bytes) -> bytes:
    """double_quote(): JSON string quoting as MySQL does it (bytes >= 0x80 pass through)."""
    if _NEEDS_ESCAPE.search(s) is None:
        return b'"' + s + b'"'
    return b'"' + _NEEDS_ESCAPE.sub(lambda m: _JSON_ESCAPE[m.group()], s) + b'"'


# Json_wrapper::to_string of each scalar kind, unquoted.
_RAW_TEXT = {
    "null": lambda v: b"null",
    "true": lambda v: b"true",
    "false": lambda v: b"false",
    "int": lambda v: str(v.value).encode(),
    "uint": lambda v: str(v.value).encode(),
    "double": lambda v: format_double(v.value).encode(),
    "decimal": lambda v: v.value.encode(),
    "string": lambda v: v.value,
    "date": lambda v: v.value.encode(),
    "time": lambda v: v.value.encode(),
    "datetime": lambda v: v.value.encode(),
    "timestamp": lambda v: v.value.encode(),
    "opaque": lambda v: _opaque_raw(v.field_type, v.value),
}
# Kinds printed as JSON strings (double-quoted) when json_quoted is on.
STRING_LIKE = frozenset(("string", "date", "time", "datetime", "timestamp", "opaque"))


def _write(v: JsonValue, out: list[bytes], quoted: bool) -> None:
    kind = v.kind
    if kind == "object":
        out.append(b"{")
        for i, (key, member) in enumerate(v.value):
            if i:
                out.append(b", ")
            out.append(quote_json_string(key))
            out.append(b": ")
            _write(member, out, True)
        out.append(b"}")
    elif kind == "array":
        out.append(b"[")
        for i, item in enumerate(v.value):
            if i:
                out.append(b", ")
            _write(item, out, True)
        out.append(b"]")
    elif quoted and kind in STRING_LIKE:
        out.append(quote_json_string(_RAW_TEXT[kind](v)))
    else:
        out.append(_RAW_TEXT[kind](v))


def to_json_bytes(value: JsonValue, quoted: bool = False) -> bytes:
    """Json_wrapper::to_string(json_quoted=quoted) as bytes. mysqlbinlog uses quoted=False: a
    top-level string (or date, or opaque) is printed bare; inside containers all are quoted."""
    out: list[bytes] = []
    _write(value, out, quoted)
    return b"".join(out)


def to_json_text(value: JsonValue, quoted: bool = False) -> str:
    """to_json_bytes as str (MySQL JSON strings are utf8mb4; stray bytes surrogate-escaped)."""
    return to_json_bytes(value, quoted).decode("utf-8", "surrogateescape")


# my_b_write_quoted (mysqlbinlog's default quote table): \b \f \n \r \t \\ \' escaped, other
# bytes below 0x20 as \xNN, everything else (UTF-8 included) raw.
_SQL_ESCAPE = {bytes([c]): b"\\x%02x" % c for c in range(0x20)}
_SQL_ESCAPE.update({b"\b": b"\\b", b"\f": b"\\f", b"\n": b"\\n", b"\r": b"\\r", b"\t": b"\\t",
                    b"\\": b"\\\\", b"'": b"\\'"})
_SQL_NEEDS = re.compile(rb"[\\'\x00-\x1f]")


def sql_quote(s: bytes) -> bytes:
    """my_b_write_quoted: how mysqlbinlog prints a string value, quotes included."""
    return b"'" + _SQL_NEEDS.sub(lambda m: _SQL_ESCAPE[m.group()], s) + b"'"


def mysqlbinlog_bytes(value: JsonValue) -> bytes:
    """Exactly what `mysqlbinlog -vvv` prints after `@N=` for a (full) JSON column value."""
    return sql_quote(to_json_bytes(value, False))


def mysqlbinlog_text(value: JsonValue) -> str:
    return mysqlbinlog_bytes(value).decode("utf-8", "surrogateescape")


def to_canonical(value: JsonValue) -> dict[str, Any]:
    """The canonical model's form: {"type": "json", "value": <JSON text>}. The text is the quoted
    form (a top-level string keeps its quotes, as SELECT shows it), so the JSON string "1" and the
    number 1 stay distinct; inside containers it is identical to mysqlbinlog's. A document whose
    text is not UTF-8 (a corrupt one, or 5.7's opaque VAR_STRING of binary bytes) is
    {"type": "json_bytes", "value": <hex of the text>}.
    A document holding opaque values or unsigned integers also has "opaque" / "unsigned": see
    layout_entries."""
    return _with_layout(_canonical(to_json_bytes(value, True)), value)


def layout_entries(value: JsonValue) -> dict[str, list[Any]]:
    """What the text loses, so the encoder can write the document back byte for byte, each list
    in document order and only when not empty. "opaque": every opaque scalar as {"path": [key |
    index, ...], "field_type": <MySQL type byte>, "data": <hex>} (a date's field type, a
    DECIMAL's declared precision, the bytes of base64:typeNN); "unsigned": the path of every
    integer stored unsigned (a Json_uint: JSON_TYPE says UNSIGNED INTEGER). [] is the path of
    the document itself."""
    out: dict[str, list[Any]] = {"opaque": [], "unsigned": []}
    _collect(value, [], out)
    return {name: entries for name, entries in out.items() if entries}


def _collect(v: JsonValue, path: list[str | int], out: dict[str, list[Any]]) -> None:
    if v.kind == "object":
        for key, member in v.value:
            _collect(member, path + [key.decode("utf-8", "surrogateescape")], out)
    elif v.kind == "array":
        for i, item in enumerate(v.value):
            _collect(item, path + [i], out)
    elif v.field_type:
        out["opaque"].append({"path": path, "field_type": v.field_type, "data": v.raw.hex()})
    elif v.kind == "uint":
        out["unsigned"].append(path)


def _with_layout(canonical: dict[str, Any], value: JsonValue) -> dict[str, Any]:
    """canonical with the document's layout lists, when it has any. json_bytes has them too: MySQL
    5.7 stores a binary string cast to JSON as an opaque VAR_STRING, which prints as its raw,
    non-UTF-8 bytes, so a real server's document can be json_bytes."""
    return {**canonical, **layout_entries(value)}


def _canonical(raw: bytes) -> dict[str, Any]:
    try:
        return {"type": "json", "value": raw.decode("utf-8")}
    except UnicodeDecodeError:
        return {"type": "json_bytes", "value": raw.hex()}


# -- the canonical text, written while decoding ----------------------------------------------------

def _text_object(keys: list[bytes], values: list[bytes]) -> bytes:
    """{"k": v, ...}; one search over all keys finds whether any needs escaping."""
    if _NEEDS_ESCAPE.search(b"".join(keys)) is None:
        members = [b'"%s": %s' % kv for kv in zip(keys, values)]
    else:
        members = [quote_json_string(k) + b": " + v for k, v in zip(keys, values)]
    return b"{" + b", ".join(members) + b"}"


def _text_special(kind: str, text: str, field_type: int, data: bytes) -> bytes:
    raw = text.encode()
    return quote_json_string(raw) if kind in STRING_LIKE else raw


_TEXT = _Sink(
    array=lambda values: b"[" + b", ".join(values) + b"]",
    object=_text_object,
    fixed={t: (lambda v: format_double(v).encode()) if t == DOUBLE else b"%d".__mod__ for t in _SCALARS},
    literals={b: kind.encode() for b, kind in _LITERALS.items()},
    string=quote_json_string,
    opaque=lambda field_type, data: quote_json_string(_opaque_raw(field_type, data)),
    special=_text_special,
)
