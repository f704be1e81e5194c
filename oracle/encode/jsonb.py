"""JSON column values back to MySQL's binary JSON (the inverse of oracle/codecs/jsonb.py), and
partial-update diff lists (the inverse of oracle/codecs/jsondiff.py).

The canonical value is MySQL's JSON text, which does not say everything the binary form does: a
top-level string is printed unquoted (so "1" and 1 read alike), dates, times, decimals and
other opaque values print as strings, and a document a partial update left with gaps prints
like a fresh one. The text is therefore written the way MySQL serializes a fresh document
(json_binary.cc serialize_json_value): keys sorted by length then bytes, each container small
(2-byte offsets) unless it needs the large form, integers in the narrowest of int16/int32/int64
(uint64 past int64), doubles, strings with a 7-bits-per-byte length, literals and small integers
inlined in their value entry; a number a double would print differently is a DECIMAL.

Two things the text does not say, the decoder lists beside it: opaque values (dates, times,
decimals, "base64:typeNN:" values print as strings or numbers that do not say their field type
or a DECIMAL's declared precision; "opaque": path, field type and data hex of each) and unsigned
integers (Json_uint, written in the narrowest of uint16/uint32/uint64; "unsigned": their paths).
Each listed path is written so, and a document MySQL wrote encodes to its own bytes. Without the
lists (a value built from scratch) opaque values are written as the strings they print as, which
decode to the same text only, and integers as signed.
A value the decoder kept as raw bytes ({"type": "jsonb"}) is written from them.
"""
from __future__ import annotations

import json
import re
import struct
from typing import Any, NamedTuple

from ..codecs.decimal import MAX_PRECISION, MAX_SCALE
from ..codecs.jsonb import format_double
from .values import encode_decimal
from .writer import EncodeError, as_bytes, packed_int_bytes

SMALL_OBJECT, LARGE_OBJECT, SMALL_ARRAY, LARGE_ARRAY = 0x0, 0x1, 0x2, 0x3
LITERAL, INT16, UINT16, INT32, UINT32, INT64, UINT64, DOUBLE, STRING = range(0x4, 0xD)
_LITERALS = {None: 0, True: 1, False: 2}
_OPERATIONS = {"REPLACE": 0, "INSERT": 1, "REMOVE": 2}
_SMALL_MAX = 0xFFFF
OPAQUE, NEWDECIMAL = 0xF, 246
_DECIMAL_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?")


class _Double(str):
    """A number written with a fraction or exponent: a JSON double (text kept for exactness)."""


def _decimal(text: str) -> tuple[int, bytes]:
    """A number a double would print differently ("9.00", or past uint64): a DECIMAL opaque
    value (precision, scale, binary decimal). Its declared precision is not in the text; the
    least that holds the digits is used, which prints the same."""
    whole, _, frac = text.lstrip("-").partition(".")
    precision = max(len(whole.lstrip("0")) + len(frac), 1)
    if precision > MAX_PRECISION or len(frac) > MAX_SCALE:
        return DOUBLE, struct.pack("<d", float(text))
    data = bytes([precision, len(frac)]) + encode_decimal(text, precision, len(frac))
    return _opaque(_Opaque(NEWDECIMAL, data))


class _Opaque(NamedTuple):
    """An opaque value: a MySQL field type and the bytes MySQL stores for it."""
    field_type: int
    data: bytes


def _opaque(v: _Opaque) -> tuple[int, bytes]:
    return OPAQUE, bytes([v.field_type]) + _varlen(len(v.data)) + v.data


def _varlen(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


class _Unsigned(int):
    """An integer stored unsigned (a Json_uint), as the decoder's "unsigned" list says."""


# Json_int and Json_uint are each written in their narrowest form (json_binary.cc). Which one an
# integer is depends on how MySQL got it (its parser makes non-negative numbers past 32 bits
# Json_uint; SQL integers are Json_int unless UNSIGNED), so only the decoder's list can say; a
# value built from scratch is a Json_int unless only uint64 holds it.
_SIGNED_FORMS = ((INT16, "<h"), (INT32, "<i"), (INT64, "<q"), (UINT64, "<Q"))
_UNSIGNED_FORMS = ((UINT16, "<H"), (UINT32, "<I"), (UINT64, "<Q"))


def _scalar(v: Any) -> tuple[int, bytes]:
    """(type byte, bytes) of a non-container value."""
    if v is None or isinstance(v, bool):
        return LITERAL, bytes([_LITERALS[v]])
    if isinstance(v, _Double):
        if format_double(float(v)) == v or not _DECIMAL_TEXT.fullmatch(v):
            return DOUBLE, struct.pack("<d", float(v))
        return _decimal(v)
    if isinstance(v, int):
        for code, fmt in (_UNSIGNED_FORMS if isinstance(v, _Unsigned) else _SIGNED_FORMS):
            try:
                return code, struct.pack(fmt, v)
            except struct.error:
                continue
        return _decimal(str(v))
    if isinstance(v, str):
        b = v.encode("utf-8", "surrogateescape")
        return STRING, _varlen(len(b)) + b
    if isinstance(v, _Opaque):
        return _opaque(v)
    raise EncodeError(f"{v!r} is not a JSON value")


class _Object(list):
    """An object's (key, value) pairs, in text order (json.loads' object_pairs_hook)."""


def _value(v: Any) -> tuple[int, bytes]:
    if isinstance(v, _Object):
        return _container(v, True)
    if isinstance(v, list):
        return _container(v, False)
    return _scalar(v)


def _container(items: list[Any], is_object: bool) -> tuple[int, bytes]:
    small = _layout(items, is_object, large=False)
    if small is not None:
        return (SMALL_OBJECT if is_object else SMALL_ARRAY), small
    return (LARGE_OBJECT if is_object else LARGE_ARRAY), _layout(items, is_object, large=True)  # type: ignore[return-value]


def _inlined(code: int, large: bool) -> bool:
    return code in (LITERAL, INT16, UINT16) or (large and code in (INT32, UINT32))


def _layout(items: list[Any], is_object: bool, large: bool) -> bytes | None:
    """One container: count, size, key entries, value entries, keys, values. None when the small
    form cannot hold it."""
    osz = 4 if large else 2
    if is_object:
        pairs = sorted(((k.encode("utf-8", "surrogateescape"), v) for k, v in items),
                       key=lambda kv: (len(kv[0]), kv[0]))
        keys, values = [k for k, _ in pairs], [v for _, v in pairs]
    else:
        keys, values = [], items
    n = len(values)
    header = 2 * osz + len(keys) * (osz + 2) + n * (1 + osz)
    key_entries, value_entries, tail = bytearray(), bytearray(), bytearray()
    pos = header
    for k in keys:
        if len(k) > 0xFFFF:
            raise EncodeError("JSON object key longer than 65535 bytes")
        key_entries += pos.to_bytes(osz, "little") + len(k).to_bytes(2, "little")
        tail += k
        pos += len(k)
    for v in values:
        code, data = _value(v)
        if _inlined(code, large):
            value_entries += bytes([code]) + data.ljust(osz, b"\0")
            continue
        if not large and pos > _SMALL_MAX:
            return None
        value_entries += bytes([code]) + pos.to_bytes(osz, "little")
        tail += data
        pos += len(data)
    if not large and pos > _SMALL_MAX:
        return None
    return n.to_bytes(osz, "little") + pos.to_bytes(osz, "little") + key_entries + value_entries + tail


def document_bytes(text: str, opaque: list[dict[str, Any]] | None = None,
                   unsigned: list[list[str | int]] | None = None) -> bytes:
    """The binary JSON of a document given as MySQL's JSON text; the values at the paths of
    `opaque` and `unsigned` (the decoder's lists) are written as those opaque values and as
    unsigned integers."""
    try:
        doc = json.loads(text, object_pairs_hook=_Object, parse_float=_Double)
    except ValueError:
        doc = text  # a top-level string, printed bare
    except RecursionError:
        raise EncodeError("JSON document nested too deeply") from None
    if opaque or unsigned:
        leaves = [_opaque_entry(e) for e in opaque or ()] + [(_path(p), UNSIGNED) for p in unsigned or ()]
        doc = _place(doc, _layout_tree(leaves))
    code, data = _value(doc)
    return bytes([code]) + data


UNSIGNED = "unsigned"  # the leaf that makes an integer a Json_uint
_Leaf = Any  # an _Opaque, or UNSIGNED
_Tree = dict[Any, Any]  # path step (key or index) -> _Tree, or the leaf that goes there


def _path(path: Any) -> list[str | int]:
    if not isinstance(path, list) or not all(isinstance(step, (str, int)) for step in path):
        raise EncodeError(f"layout path {path!r} is not a list of keys and indexes")
    return path


def _opaque_entry(entry: dict[str, Any]) -> tuple[list[str | int], _Opaque]:
    """One entry of the decoder's opaque list: its path and its value."""
    try:
        path = list(entry["path"])
        leaf = _Opaque(int(entry["field_type"]), bytes.fromhex(entry["data"]))
    except (KeyError, TypeError, ValueError) as e:
        raise EncodeError(f"{entry!r} is not an opaque list entry") from e
    if not 0 <= leaf.field_type <= 0xFF:
        raise EncodeError(f"opaque field type {leaf.field_type} is not a byte")
    return _path(path), leaf


def _layout_tree(leaves: list[tuple[list[str | int], _Leaf]]) -> _Tree | _Leaf:
    """The layout lists as nested steps, so one walk places them all (a big list stays linear)."""
    root: _Tree = {}
    for path, leaf in leaves:
        if not path:
            if len(leaves) != 1:
                raise EncodeError("a scalar document has one layout entry at most")
            return leaf
        node = root
        for step in path[:-1]:
            node = node.setdefault(step, {})
            if not isinstance(node, dict):
                raise EncodeError(f"layout path {path} runs through a scalar")
        if path[-1] in node:
            raise EncodeError(f"layout path {path} is listed twice or holds another")
        node[path[-1]] = leaf
    return root


def _place(doc: Any, tree: _Tree | _Leaf) -> Any:
    """doc (as json.loads built it) with the tree's leaves in place of what the text shows."""
    if isinstance(tree, _Opaque):
        return tree
    if tree is UNSIGNED:
        if type(doc) is not int or doc < 0:
            raise EncodeError(f"{doc!r} is listed as unsigned but is no non-negative integer")
        return _Unsigned(doc)
    if isinstance(doc, _Object):
        at = {k: i for i, (k, _) in enumerate(doc)}
        for key, sub in tree.items():
            i = _step(at.get(key) if isinstance(key, str) else None, key)
            doc[i] = (key, _place(doc[i][1], sub))
    elif isinstance(doc, list):
        for index, sub in tree.items():
            i = _step(index if type(index) is int and 0 <= index < len(doc) else None, index)
            doc[i] = _place(doc[i], sub)
    else:
        _step(None, next(iter(tree)))
    return doc


def _step(i: int | None, step: Any) -> int:
    """The position a path step names in its container; EncodeError if it names none."""
    if i is None:
        raise EncodeError(f"layout path step {step!r} is not in the document")
    return i


def _hex_text(value: Any) -> str:
    """json_bytes' text (hex of bytes that are not UTF-8); its stray bytes stay in the strings
    that the opaque list then replaces."""
    try:
        return bytes.fromhex(value).decode("utf-8", "surrogateescape")
    except (TypeError, ValueError) as e:
        raise EncodeError(f"json_bytes value {value!r} is not hex") from e


def json_value_bytes(v: Any) -> bytes:
    """A JSON column's canonical value: {"type": "json" or "json_bytes", "value": text or its
    hex, "opaque": [...], "unsigned": [...]} (the lists optional) or raw {"type": "jsonb"}."""
    if isinstance(v, dict) and v.get("type") == "jsonb":
        return bytes.fromhex(v["value"])
    if isinstance(v, dict) and v.get("type") in ("json", "json_bytes"):
        if "binary" in v:  # laid out other than fresh (an in-place partial update's free space)
            return bytes.fromhex(v["binary"])
        text = v["value"] if v["type"] == "json" else _hex_text(v["value"])
        return document_bytes(text, v.get("opaque"), v.get("unsigned"))
    raise EncodeError(f"{v!r} is not a JSON column value")


def json_diff_bytes(v: Any) -> bytes:
    """A partial JSON column's diff list: operation, packed path length and path, and for
    REPLACE/INSERT the packed length and binary JSON of the value."""
    if isinstance(v, dict) and v.get("type") == "jsonb_diff":
        return bytes.fromhex(v["value"])
    if not (isinstance(v, dict) and v.get("type") == "json_diff"):
        raise EncodeError(f"{v!r} is not a JSON diff list")
    out = bytearray()
    for d in v["value"]:
        op = _OPERATIONS.get(d["operation"])
        if op is None:
            raise EncodeError(f"JSON diff operation {d['operation']!r} is not defined")
        path = as_bytes(d["path"], "JSON diff path")
        out += bytes([op]) + packed_int_bytes(len(path)) + path
        if d["operation"] != "REMOVE":
            doc = json_value_bytes(d["value"])
            out += packed_int_bytes(len(doc)) + doc
    return bytes(out)
