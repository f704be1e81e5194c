"""Length-prefixed values (CHAR, VARCHAR, BLOB/TEXT, GEOMETRY, JSON, VECTOR) and the packed
ones (ENUM, SET, BIT).

Canonical forms: character and BLOB/TEXT bytes as values.text (a JSON string when valid UTF-8,
else tagged bytes; the bytes are never transcoded, trailing spaces and zero bytes kept as
logged); GEOMETRY (SRID + WKB) and VECTOR (float32 array) as tagged bytes; ENUM the 1-based
member index (0 for the empty error value); SET and BIT the integer of their bits.
"""
from __future__ import annotations

from typing import Any, Callable

from ..values import binary, integer, text
from .base import Native, ValueReader, failing, native, past, short


def as_text(buf: bytes, start: int, end: int) -> Any:
    return text(bytes(buf[start:end]))


def as_binary(buf: bytes, start: int, end: int) -> Any:
    return binary(bytes(buf[start:end]))


def prefixed_reader(prefix: int, convert: Callable[[bytes, int, int], Any], what: str) -> ValueReader:
    """A value preceded by its length in `prefix` little-endian bytes (1..4); `convert` makes
    the canonical value of buf[start:end]."""
    if not 1 <= prefix <= 4:
        return failing(f"{what} length prefix of {prefix} bytes (1..4 allowed)")
    if prefix == 1:
        def read1(buf: bytes, pos: int, end: int):
            if pos >= end:
                raise short(pos, 1, end, what)
            start = pos + 1
            nxt = start + buf[pos]
            if nxt > end:
                raise past(pos, nxt - start, end - 1, what)
            return convert(buf, start, nxt), nxt
        return _prefixed_spec(read1, prefix, convert)

    def read(buf: bytes, pos: int, end: int):
        start = pos + prefix
        if start > end:
            raise short(pos, prefix, end, what)
        nxt = start + int.from_bytes(buf[pos:start], "little")
        if nxt > end:
            raise past(pos, nxt - start, end - prefix, what)
        return convert(buf, start, nxt), nxt
    return _prefixed_spec(read, prefix, convert)


def _prefixed_spec(reader: ValueReader, prefix: int, convert: Callable[[bytes, int, int], Any]) -> ValueReader:
    if convert is as_text:
        return native(reader, Native.TEXT, prefix)
    if convert is as_binary:
        return native(reader, Native.BINARY, prefix)
    return native(reader, Native.CONVERT, prefix, call=convert)


def text_reader(prefix: int, what: str) -> ValueReader:
    return prefixed_reader(prefix, as_text, what)


def unsigned_be_reader(nbytes: int, what: str) -> ValueReader:
    """BIT: big-endian, as Field_bit stores it."""
    def read(buf: bytes, pos: int, end: int):
        nxt = pos + nbytes
        if nxt > end:
            raise short(pos, nbytes, end, what)
        return integer(int.from_bytes(buf[pos:nxt], "big")), nxt
    return native(read, Native.UINT_BE, nbytes)


def unsigned_le_reader(nbytes: int, what: str) -> ValueReader:
    """ENUM (1-2 bytes) and SET (1-8 bytes): little-endian."""
    if not 1 <= nbytes <= 8:
        return failing(f"{what} of {nbytes} bytes (1..8 allowed)")

    def read(buf: bytes, pos: int, end: int):
        nxt = pos + nbytes
        if nxt > end:
            raise short(pos, nbytes, end, what)
        return integer(int.from_bytes(buf[pos:nxt], "little")), nxt
    return native(read, Native.UINT_LE, nbytes)
