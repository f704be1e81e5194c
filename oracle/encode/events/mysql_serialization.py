"""MySQL 8.3+'s serialization framework, writing side: the inverse of
oracle/events/mysql_serialization.py (varlen integers, zigzag signed, strings, messages)."""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ...events.mysql_serialization import SERIALIZATION_FORMAT_VERSION
from ..writer import EncodeError

FieldWriter = Callable[[Any], bytes]


def varlen_unsigned(v: int) -> bytes:
    """n bytes hold 7n value bits (n <= 8), the first byte's n-1 low bits set to one; 9 bytes
    are 0xff and the value in 8 bytes. The shortest form, as the server writes it."""
    if v < 0 or v >> 64:
        raise EncodeError(f"varlen integer {v} is outside 0..2**64-1")
    for n in range(1, 9):
        if v < 1 << (7 * n):
            return ((v << n) | ((1 << (n - 1)) - 1)).to_bytes(n, "little")
    return b"\xff" + v.to_bytes(8, "little")


def varlen_signed(v: int) -> bytes:
    """Zigzag: the sign in the lowest bit."""
    return varlen_unsigned((v << 1) if v >= 0 else ((~v) << 1) | 1)


def varlen_string(b: bytes) -> bytes:
    return varlen_unsigned(len(b)) + b


def fixed_array(element: FieldWriter) -> Callable[[bytes], bytes]:
    return lambda b: b"".join(element(x) for x in b)


def encode_message(values: dict[str, Any], fields: Sequence[tuple[str, FieldWriter]],
                   last_non_ignorable: int = 0) -> bytes:
    """Version, size (of the whole message, from the version on), the last non-ignorable field
    id, then each present field as its id and data, in definition order."""
    payload = bytearray(varlen_unsigned(last_non_ignorable))
    for field_id, (name, write) in enumerate(fields):
        if name in values:
            payload += varlen_unsigned(field_id) + write(values[name])
    head = varlen_unsigned(SERIALIZATION_FORMAT_VERSION)
    size = len(head) + len(payload)
    while len(head) + len(varlen_unsigned(size)) + len(payload) != size:
        size = len(head) + len(varlen_unsigned(size)) + len(payload)
    return head + varlen_unsigned(size) + payload
