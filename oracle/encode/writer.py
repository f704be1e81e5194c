"""A little-endian byte builder: the inverse of oracle/reader.py, plus the inverses of the
canonical value helpers in oracle/values.py (JSON value -> the bytes or int it was made from).

Encoders are trusted code fed canonical events, which may have been edited by hand, by mutation
operators or by hypothesis strategies; a value that cannot be written (negative for an unsigned
field, too wide, wrong JSON shape) raises EncodeError rather than writing something silently
different.
"""
from __future__ import annotations

from typing import Any


class EncodeError(ValueError):
    """A canonical value the encoder cannot turn back into bytes."""


# -- canonical values back to Python values ------------------------------------------------------

def as_int(v: Any, what: str = "integer") -> int:
    """values.integer's inverse: a JSON number or {"type": "int", "value": "<decimal>"}."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return v
    if isinstance(v, dict) and v.get("type") == "int":
        return int(v["value"])
    raise EncodeError(f"{what}: {v!r} is not an integer")


def as_bytes(v: Any, what: str = "string") -> bytes:
    """values.text / values.binary's inverse: a str (UTF-8) or {"type": "bytes", "value": hex}."""
    if isinstance(v, str):
        return v.encode("utf-8")
    if isinstance(v, dict) and v.get("type") == "bytes":
        return bytes.fromhex(v["value"])
    if isinstance(v, (bytes, bytearray)):
        return bytes(v)
    raise EncodeError(f"{what}: {v!r} is neither text nor tagged bytes")


def bits_from_text(bits: str) -> int:
    """rows.bitmap_text's inverse: character i is bit i."""
    return int(bits[::-1], 2) if bits else 0


def packed_int_bytes(v: int) -> bytes:
    """MySQL's length-encoded integer (net_store_length), in the shortest form, as servers write it."""
    if v < 0:
        raise EncodeError(f"packed integer {v} is negative")
    if v < 251:
        return bytes([v])
    if v < 1 << 16:
        return b"\xfc" + v.to_bytes(2, "little")
    if v < 1 << 24:
        return b"\xfd" + v.to_bytes(3, "little")
    if v < 1 << 64:
        return b"\xfe" + v.to_bytes(8, "little")
    raise EncodeError(f"packed integer {v} exceeds 64 bits")


def _unsigned(n: int, v: Any, what: str) -> int:
    v = as_int(v, what)
    if v < 0 or v >> (8 * n):
        raise EncodeError(f"{what}: {v} does not fit in {n} unsigned bytes")
    return v


class Writer:
    """Appends fields to a bytearray; `bytes()` is the result."""

    __slots__ = ("buf",)

    def __init__(self) -> None:
        self.buf = bytearray()

    def __len__(self) -> int:
        return len(self.buf)

    def bytes(self) -> bytes:
        return bytes(self.buf)

    # -- integers ----------------------------------------------------------------------------
    def uint(self, n: int, v: Any, what: str = "uint") -> "Writer":
        self.buf += _unsigned(n, v, what).to_bytes(n, "little")
        return self

    def sint(self, n: int, v: Any, what: str = "int") -> "Writer":
        """A two's-complement integer; accepts the unsigned reading too."""
        v = as_int(v, what)
        if not -(1 << (8 * n - 1)) <= v < (1 << (8 * n)):
            raise EncodeError(f"{what}: {v} does not fit in {n} bytes")
        self.buf += (v & ((1 << (8 * n)) - 1)).to_bytes(n, "little")
        return self

    def uint_be(self, n: int, v: Any, what: str = "uint") -> "Writer":
        self.buf += _unsigned(n, v, what).to_bytes(n, "big")
        return self

    def u8(self, v: Any, what: str = "u8") -> "Writer":
        return self.uint(1, v, what)

    def u16(self, v: Any, what: str = "u16") -> "Writer":
        return self.uint(2, v, what)

    def u32(self, v: Any, what: str = "u32") -> "Writer":
        return self.uint(4, v, what)

    def u64(self, v: Any, what: str = "u64") -> "Writer":
        return self.uint(8, v, what)

    def packed_int(self, v: Any, what: str = "packed integer") -> "Writer":
        self.buf += packed_int_bytes(as_int(v, what))
        return self

    # -- byte strings --------------------------------------------------------------------------
    def raw(self, b: bytes | bytearray) -> "Writer":
        self.buf += b
        return self

    def packed_bytes(self, b: bytes) -> "Writer":
        return self.packed_int(len(b)).raw(b)

    def u8_bytes(self, b: bytes, what: str = "string") -> "Writer":
        return self.u8(len(b), what + " length").raw(b)

    def cstring(self, b: bytes) -> "Writer":
        return self.raw(b).raw(b"\0")

    def zeros(self, n: int) -> "Writer":
        if n > 0:
            self.buf += bytes(n)
        return self
