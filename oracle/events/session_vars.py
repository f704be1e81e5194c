"""Events that carry session state for the statement after them: INTVAR_EVENT (5), RAND_EVENT (13)
and USER_VAR_EVENT (14). None has a post-header in any server version.

User_var layout: name_len u32, name, is_null u8; unless NULL: type u8 (Item_result), charset u32,
val_len u32, val, and since MySQL 5.6/MariaDB 10.0 an optional flags byte (bit 0: UNSIGNED_F).
A DECIMAL value also reports the precision and scale it was logged with (decimal_precision,
decimal_scale), which its text alone does not give.
Values are rendered losslessly: INT as the 64-bit integer its flags say, REAL as the double
itself, DECIMAL from its binary form (val starts with precision and scale), STRING as text.
"""
from __future__ import annotations

import math
import struct
from typing import Any, Callable

from ..codecs.decimal import MAX_PRECISION, MAX_SCALE, decimal_bin_size, decode_decimal
from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..reader import Reader
from ..values import integer, tagged, text
from .fields import keep_trailing

INTVAR_TYPES = {0: "INVALID_INT", 1: "LAST_INSERT_ID", 2: "INSERT_ID"}
UNSIGNED_F = 0x01
BINARY_CHARSET = 63  # my_charset_bin: what a NULL user variable is typed as
DECIMAL_RESULT = 4

_DOUBLE = struct.Struct("<d").unpack
_INT64 = struct.Struct("<q").unpack


def decode_intvar(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    """Servers print an unknown subtype as UNKNOWN rather than reject it; so does the oracle."""
    code = r.u8("type")
    return {"type": code, "type_name": INTVAR_TYPES.get(code, "UNKNOWN"), "val": integer(r.u64("val"))}


def decode_rand(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {"seed1": integer(r.u64("seed1")), "seed2": integer(r.u64("seed2"))}


# -- User_var ------------------------------------------------------------------------------------

def _eight_bytes(val: bytes, what: str, at: int) -> bytes:
    if len(val) != 8:
        raise BadEventBody(at, f"{what} user variable value is {len(val)} bytes, not 8")
    return val


def _real(val: bytes, flags: int, at: int) -> Any:
    """A finite double is a JSON number (Python prints the shortest text that reads back to the
    same double); NaN and infinities, which JSON lacks, are tagged."""
    x = _DOUBLE(_eight_bytes(val, "REAL", at))[0]
    return x if math.isfinite(x) else tagged("double", repr(x))


def _int(val: bytes, flags: int, at: int) -> Any:
    raw = _eight_bytes(val, "INT", at)
    v = int.from_bytes(raw, "little") if flags & UNSIGNED_F else _INT64(raw)[0]
    return integer(v)


def _decimal(val: bytes, flags: int, at: int) -> Any:
    """val is precision, scale, then the binary decimal. Like MySQL, reject a precision or scale
    out of range and a value shorter than its size; bytes after it are not part of the value."""
    if len(val) < 2:
        raise BadEventBody(at, "DECIMAL user variable lacks its precision and scale")
    precision, scale = val[0], val[1]
    if precision > MAX_PRECISION or scale > MAX_SCALE or scale > precision:
        raise BadEventBody(at, f"DECIMAL user variable has precision {precision}, scale {scale}")
    size = decimal_bin_size(precision, scale)
    if size > len(val) - 2:
        raise BadEventBody(at, f"DECIMAL({precision},{scale}) needs {size} bytes, {len(val) - 2} given")
    return tagged("decimal", decode_decimal(val[2:2 + size], precision, scale, at + 2))


def _string(val: bytes, flags: int, at: int) -> Any:
    return text(val)


# Item_result code -> (name, renderer). ROW_RESULT (3) is a defined type that no server accepts
# as a user variable value (MySQL's reader rejects it), so it is listed without a renderer.
_Render = Callable[[bytes, int, int], Any]
VALUE_TYPES: dict[int, tuple[str, _Render | None]] = {
    0: ("STRING", _string),
    1: ("REAL", _real),
    2: ("INT", _int),
    3: ("ROW", None),
    4: ("DECIMAL", _decimal),
}


def decode_user_var(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    at = r.offset
    name_len = r.u32("name_len")
    if name_len == 0:
        raise BadEventBody(at, "user variable name is empty")
    body: dict[str, Any] = {"name": text(r.bytes(name_len, "name"))}
    is_null = r.u8("is_null")
    body["is_null"] = bool(is_null)
    if is_null:
        body.update(type="STRING", charset=BINARY_CHARSET, flags=None, value=None)
        return keep_trailing(r, body)
    at = r.offset
    code = r.u8("type")
    name, render = VALUE_TYPES.get(code, (None, None))
    if render is None:
        raise BadEventBody(at, f"user variable type {code} ({name or 'undefined'}) cannot carry a value")
    charset = r.u32("charset")
    val_len = r.u32("val_len")
    val_at = r.offset
    val = r.bytes(val_len, "value")
    flags = r.u8("flags") if r.remaining() else None
    body.update(type=name, charset=charset, flags=flags, value=render(val, flags or 0, val_at))
    if code == DECIMAL_RESULT:
        # The value's text does not determine the declared precision, which the bytes carry;
        # kept so the encoder (oracle/encode) can write them back.
        body.update(decimal_precision=val[0], decimal_scale=val[1])
    return keep_trailing(r, body)
