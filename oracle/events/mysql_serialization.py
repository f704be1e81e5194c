"""MySQL 8.3+'s serialization framework (libs/mysql/serialization), the encoding of
GTID_TAGGED_LOG_EVENT and of the tags in a tagged Previous_gtids set.

A message is: varlen id (the framework's format version, 1), varlen size of the whole message
(counting from that id), varlen "last non-ignorable field id", then the fields that are present,
each as varlen field id + data. Fields are numbered 0.. in definition order; an absent field is
simply skipped, and bytes after the known fields (fields of a newer writer) are skipped by size.

Variable-length integers: the number of trailing one bits of the first byte, plus one, is the
byte count (1..9); the value is the remaining bits, little-endian. Signed integers are zigzag
encoded (sign in the lowest bit). Strings are a varlen length and the bytes.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..errors import BadEventBody, LengthPastEnd
from ..reader import Reader

SERIALIZATION_FORMAT_VERSION = 1


def varlen_unsigned(r: Reader, what: str, bits: int = 64) -> int:
    start = r.offset
    first = r.u8(what)
    n = _trailing_ones(first) + 1
    if n == 1:
        value = first >> 1
    else:
        rest = r.uint(n - 1, what)
        # 2..8 bytes: the first byte keeps 8-n value bits; 9 bytes: the 8 that follow are all.
        shift = 0 if n == 9 else 8 - n
        value = (first >> n) | (rest << shift)
    if value >> bits:
        raise BadEventBody(start, f"{what}: {value} does not fit in {bits} bits")
    return value


def varlen_signed(r: Reader, what: str, bits: int = 64) -> int:
    u = varlen_unsigned(r, what, bits)
    return ~(u >> 1) if u & 1 else u >> 1


def varlen_string(r: Reader, what: str, max_len: int = 0) -> bytes:
    """A string field; max_len > 0 is the bound the field definition gives (a longer one is an
    error, as in Primitive_type_codec<std::string>::read_bytes)."""
    start = r.offset
    n = varlen_unsigned(r, what + " length")
    if max_len and n > max_len:
        raise BadEventBody(start, f"{what}: length {n} exceeds the {max_len} allowed")
    return r.bytes(n, what)


def _trailing_ones(b: int) -> int:
    n = 0
    while b & 1:
        n += 1
        b >>= 1
    return n


@dataclass(frozen=True, slots=True)
class Field:
    """One field of a message definition: its name and how its data is read."""
    name: str
    read: Callable[[Reader, str], Any]


def decode_message(r: Reader, fields: Sequence[Field], what: str) -> dict[str, Any]:
    """The fields present in a top-level message, by name. Mirrors Serializer::decode_serializable:
    a field is absent when the read position is at the message end or the next id differs."""
    start = r.pos
    version = varlen_unsigned(r, what + " serialization format version")
    if version != SERIALIZATION_FORMAT_VERSION:
        raise BadEventBody(r.origin + start, f"{what}: serialization format version {version}, "
                                             f"expected {SERIALIZATION_FORMAT_VERSION}")
    size = varlen_unsigned(r, what + " message size")
    last_required = varlen_unsigned(r, what + " last non-ignorable field id")
    if last_required > len(fields):
        raise BadEventBody(r.offset, f"{what}: field {last_required - 1} is required but unknown "
                                     f"(only {len(fields)} fields are defined)")
    end = start + size
    out: dict[str, Any] = {}
    for field_id, field in enumerate(fields):
        if r.pos == end:
            continue
        saved = r.pos
        if varlen_unsigned(r, what + " field id") != field_id:
            r.pos = saved
            continue
        out[field.name] = field.read(r, f"{what} {field.name}")
    if end > r.pos:
        if end > r.end:
            raise LengthPastEnd(r.offset, f"{what}: message size {size} runs past the event")
        r.pos = end  # fields a newer server added: skipped, as the server skips them
    return out


def fixed_array(count: int, element: Callable[[Reader, str], int]) -> Callable[[Reader, str], bytes]:
    """A fixed-size array field (a UUID): each element encoded on its own."""
    def read(r: Reader, what: str) -> bytes:
        return bytes(element(r, what) for _ in range(count))
    return read


def unsigned(bits: int) -> Callable[[Reader, str], int]:
    return lambda r, what: varlen_unsigned(r, what, bits)


def signed(bits: int) -> Callable[[Reader, str], int]:
    return lambda r, what: varlen_signed(r, what, bits)


def string(max_len: int) -> Callable[[Reader, str], bytes]:
    return lambda r, what: varlen_string(r, what, max_len)
