"""A bounds-checked little-endian cursor over a byte buffer (bytes, bytearray or mmap).

All reads check the remaining length first, so a corrupt length can never make us read past the
event or allocate more than the buffer holds. Offsets in errors are absolute: `origin` is the file
offset of buffer position 0 (non-zero only for buffers that are not the file itself, such as a
decompressed payload, where it is the enclosing event's offset).
"""
from __future__ import annotations

import struct

from .errors import LengthPastEnd, TruncatedEvent

_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
_U64 = struct.Struct("<Q").unpack_from


class Reader:
    __slots__ = ("buf", "pos", "end", "origin")

    def __init__(self, buf: bytes, pos: int = 0, end: int | None = None,
                 origin: int = 0) -> None:
        self.buf = buf
        self.pos = pos
        self.end = len(buf) if end is None else end
        self.origin = origin

    # -- bookkeeping -------------------------------------------------------------------------
    @property
    def offset(self) -> int:
        """Absolute file offset of the cursor, for error messages."""
        return self.origin + self.pos

    def remaining(self) -> int:
        return self.end - self.pos

    def need(self, n: int, what: str = "field") -> None:
        if n < 0 or self.pos + n > self.end:
            raise TruncatedEvent(self.offset, f"{what} needs {n} bytes, {self.remaining()} left")

    def sub(self, n: int, what: str = "block") -> "Reader":
        """A reader over the next n bytes; advances past them."""
        if n < 0 or self.pos + n > self.end:
            raise LengthPastEnd(self.offset, f"{what} length {n} exceeds the {self.remaining()} bytes left")
        r = Reader(self.buf, self.pos, self.pos + n, self.origin)
        self.pos += n
        return r

    def skip(self, n: int, what: str = "field") -> None:
        self.need(n, what)
        self.pos += n

    # -- fixed-width integers ------------------------------------------------------------------
    def u8(self, what: str = "u8") -> int:
        pos = self.pos  # need(1, what), inlined: called for nearly every field
        if pos + 1 > self.end:
            raise TruncatedEvent(self.origin + pos, f"{what} needs 1 bytes, {self.end - pos} left")
        self.pos = pos + 1
        return self.buf[pos]

    def u16(self, what: str = "u16") -> int:
        pos = self.pos  # need(2, what), inlined: called for nearly every field
        if pos + 2 > self.end:
            raise TruncatedEvent(self.origin + pos, f"{what} needs 2 bytes, {self.end - pos} left")
        self.pos = pos + 2
        return _U16(self.buf, pos)[0]

    def u32(self, what: str = "u32") -> int:
        pos = self.pos  # need(4, what), inlined: called for nearly every field
        if pos + 4 > self.end:
            raise TruncatedEvent(self.origin + pos, f"{what} needs 4 bytes, {self.end - pos} left")
        self.pos = pos + 4
        return _U32(self.buf, pos)[0]

    def u64(self, what: str = "u64") -> int:
        pos = self.pos  # need(8, what), inlined: called for nearly every field
        if pos + 8 > self.end:
            raise TruncatedEvent(self.origin + pos, f"{what} needs 8 bytes, {self.end - pos} left")
        self.pos = pos + 8
        return _U64(self.buf, pos)[0]

    def uint(self, n: int, what: str = "uint") -> int:
        """Unsigned little-endian integer of n bytes (n = 0..8)."""
        self.need(n, what)
        v = int.from_bytes(self.buf[self.pos:self.pos + n], "little")
        self.pos += n
        return v

    def uint_be(self, n: int, what: str = "uint") -> int:
        self.need(n, what)
        v = int.from_bytes(self.buf[self.pos:self.pos + n], "big")
        self.pos += n
        return v

    def packed_int(self, what: str = "packed integer") -> int:
        """MySQL's length-encoded integer (net_field_length): 1, 3, 4 or 9 bytes."""
        first = self.u8(what)
        if first < 251:
            return first
        if first == 252:
            return self.u16(what)
        if first == 253:
            return self.uint(3, what)
        if first == 254:
            return self.u64(what)
        # 251 is NULL in the protocol; in binlogs it never stands for a length.
        raise LengthPastEnd(self.offset - 1, f"{what}: 0xfb (NULL marker) where a length was expected")

    # -- byte strings --------------------------------------------------------------------------
    def bytes(self, n: int, what: str = "bytes") -> bytes:
        if n < 0 or self.pos + n > self.end:
            raise LengthPastEnd(self.offset, f"{what} length {n} exceeds the {self.remaining()} bytes left")
        v = bytes(self.buf[self.pos:self.pos + n])
        self.pos += n
        return v

    def rest(self) -> bytes:
        v = bytes(self.buf[self.pos:self.end])
        self.pos = self.end
        return v

    def packed_bytes(self, what: str = "string") -> bytes:
        n = self.packed_int(what + " length")
        return self.bytes(n, what)

    def u8_bytes(self, what: str = "string") -> bytes:
        """A string preceded by a 1-byte length."""
        return self.bytes(self.u8(what + " length"), what)

    def cstring(self, what: str = "string") -> bytes:
        """A NUL-terminated string; the NUL is consumed but not returned."""
        nul = self.buf.find(b"\0", self.pos, self.end)
        if nul < 0:
            raise TruncatedEvent(self.offset, f"{what} has no terminating NUL")
        v = bytes(self.buf[self.pos:nul])
        self.pos = nul + 1
        return v
