"""FLOAT and DOUBLE: IEEE-754 little-endian.

Canonical form: the exact value as a JSON number (a FLOAT widened to double, so its digits are
those of the float32 value); NaN and infinities, which JSON cannot carry, are tagged
{"type": "float"|"double", "value": "nan"|"inf"|"-inf"}."""
from __future__ import annotations

import math
import struct

from ..values import tagged
from .base import Native, ValueReader, native, short


def _float_reader(fmt: str, size: int, tag: str, kind: Native) -> ValueReader:
    unpack = struct.Struct(fmt).unpack_from
    isfinite = math.isfinite

    def read(buf: bytes, pos: int, end: int):
        if pos + size > end:
            raise short(pos, size, end, tag.upper())
        v = unpack(buf, pos)[0]
        if not isfinite(v):
            return tagged(tag, "nan" if v != v else ("inf" if v > 0 else "-inf")), pos + size
        return v, pos + size
    return native(read, kind)


read_float = _float_reader("<f", 4, "float", Native.FLOAT)
read_double = _float_reader("<d", 8, "double", Native.DOUBLE)
