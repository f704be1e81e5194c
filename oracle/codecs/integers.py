"""TINY, SHORT, INT24, LONG, LONGLONG and YEAR.

Canonical form: the integer under the column's signedness (SIGNEDNESS optional metadata); when
the table map does not say, the signed reading (a renderer that wants mysqlbinlog's "both"
form derives the unsigned one from the width). Values beyond 2**53 are tagged (values.integer)."""
from __future__ import annotations

import struct

from ..values import integer
from .base import Native, ValueReader, native, short

_FORMATS = {1: "b", 2: "h", 4: "i", 8: "q"}


def int_reader(width: int, unsigned: bool, what: str) -> ValueReader:
    """A little-endian integer of `width` bytes (1, 2, 3, 4 or 8)."""
    if width == 3:
        def read3(buf: bytes, pos: int, end: int):
            nxt = pos + 3
            if nxt > end:
                raise short(pos, 3, end, what)
            return int.from_bytes(buf[pos:nxt], "little", signed=not unsigned), nxt
        return native(read3, Native.INT, 3, unsigned)
    fmt = _FORMATS[width]
    unpack = struct.Struct("<" + (fmt.upper() if unsigned else fmt)).unpack_from
    if width == 8:
        def read8(buf: bytes, pos: int, end: int):
            if pos + 8 > end:
                raise short(pos, 8, end, what)
            return integer(unpack(buf, pos)[0]), pos + 8
        return native(read8, Native.INT, 8, unsigned)

    def read(buf: bytes, pos: int, end: int):
        if pos + width > end:
            raise short(pos, width, end, what)
        return unpack(buf, pos)[0], pos + width
    return native(read, Native.INT, width, unsigned)


def read_year(buf: bytes, pos: int, end: int):
    """One byte, years since 1900; 0 is the zero year 0000."""
    if pos >= end:
        raise short(pos, 1, end, "YEAR")
    v = buf[pos]
    return (1900 + v if v else 0), pos + 1


native(read_year, Native.YEAR)
