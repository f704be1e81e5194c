"""INTVAR_EVENT (5), RAND_EVENT (13) and USER_VAR_EVENT (14)."""
from __future__ import annotations

import struct
from typing import Any, Callable

from ...events.session_vars import VALUE_TYPES
from ..context import EncodeContext, EventHead
from ..values import encode_decimal, float_value
from .fields import trailing
from ..writer import EncodeError, Writer, as_bytes, as_int

_TYPE_CODES = {name: code for code, (name, _) in VALUE_TYPES.items()}


def encode_intvar(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return Writer().u8(body["type"], "type").u64(body["val"], "val").bytes()


def encode_rand(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return Writer().u64(body["seed1"], "seed1").u64(body["seed2"], "seed2").bytes()


def _string(body: dict[str, Any]) -> bytes:
    return as_bytes(body["value"], "value")


def _real(body: dict[str, Any]) -> bytes:
    return struct.pack("<d", float_value(body["value"]))


def _int(body: dict[str, Any]) -> bytes:
    return Writer().sint(8, as_int(body["value"], "INT value"), "INT value").bytes()


def _decimal(body: dict[str, Any]) -> bytes:
    """precision and scale come first; the decoder keeps them as decimal_precision/_scale."""
    precision, scale = body["decimal_precision"], body["decimal_scale"]
    return bytes([precision, scale]) + encode_decimal(body["value"]["value"], precision, scale)


_VALUES: dict[str, Callable[[dict[str, Any]], bytes]] = {
    "STRING": _string, "REAL": _real, "INT": _int, "DECIMAL": _decimal,
}


def encode_user_var(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    name = as_bytes(body["name"], "name")
    w = Writer().u32(len(name), "name_len").raw(name).u8(1 if body["is_null"] else 0)
    if body["is_null"]:
        return w.raw(trailing(body)).bytes()
    kind = body["type"]
    if kind not in _VALUES:
        raise EncodeError(f"user variable type {kind} cannot carry a value")
    val = _VALUES[kind](body)
    w.u8(_TYPE_CODES[kind]).u32(body["charset"], "charset").u32(len(val)).raw(val)
    if body.get("flags") is not None:
        w.u8(body["flags"], "flags")
    return w.raw(trailing(body)).bytes()
