"""Generic operators on event bodies, with event_size, positions and CRC32 repaired, so that the
damage reaches the body decoders instead of stopping at the framing or the checksum. What a
decoder must do with a changed body depends on the field, so all of these are ANY_CLEAN."""
from __future__ import annotations

import random

from .binlog import Binlog
from .checksum import flip_random_bits
from .model import Change, Expect, operator, pick

# Values that sit on the edges parsers get wrong: zero, sign bits, all ones, the packed-integer
# markers (251 NULL, 252/253/254 for 2-, 3- and 8-byte lengths).
INTERESTING = [b"\x00", b"\xff", b"\x7f", b"\x80", b"\xfb", b"\xfc", b"\xfd", b"\xfe",
               b"\xff\xff", b"\x00\x80", b"\xff\xff\xff\xff", b"\x00\x00\x00\x80",
               b"\xff" * 8, b"\x00" * 8, b"\xfe\xff\xff\xff\xff\xff\xff\xff\xff"]


def _pick_body(b: Binlog, rng: random.Random) -> int:
    return pick(b, rng, lambda j: len(b.peek(j).body_bytes()) > 0, "event with a body")


@operator("body_bit_flip", "body")
def body_bit_flip(b: Binlog, rng: random.Random) -> Change:
    """Bits of a body flipped."""
    i = _pick_body(b, rng)
    where = flip_random_bits(b.events[i].body, rng)
    return Change(f"event {i}: body bits {where} flipped, CRC32 recomputed", Expect.ANY_CLEAN, i)


@operator("body_interesting_value", "body")
def body_interesting_value(b: Binlog, rng: random.Random) -> Change:
    """Body bytes overwritten with a boundary value (0, sign bits, all ones, packed-int markers)."""
    i = _pick_body(b, rng)
    body = b.events[i].body
    value = rng.choice(INTERESTING)
    at = rng.randrange(len(body))
    body[at:at + len(value)] = value[:len(body) - at]
    return Change(f"event {i}: body bytes at {at} set to {value.hex()}, CRC32 recomputed", Expect.ANY_CLEAN, i)


@operator("body_insert_bytes", "body")
def body_insert_bytes(b: Binlog, rng: random.Random) -> Change:
    """Boundary-value bytes inserted into a body."""
    i = _pick_body(b, rng)
    body = b.events[i].body
    at = rng.randrange(len(body) + 1)
    data = rng.choice(INTERESTING) * rng.randint(1, 4)
    body[at:at] = data
    return Change(f"event {i}: {len(data)} bytes inserted at body offset {at}, lengths repaired",
                  Expect.ANY_CLEAN, i)


@operator("body_delete_bytes", "body")
def body_delete_bytes(b: Binlog, rng: random.Random) -> Change:
    """Up to 8 body bytes deleted."""
    i = _pick_body(b, rng)
    body = b.events[i].body
    at = rng.randrange(len(body))
    n = rng.randint(1, min(8, len(body) - at))
    del body[at:at + n]
    return Change(f"event {i}: {n} bytes deleted at body offset {at}, lengths repaired", Expect.ANY_CLEAN, i)


@operator("body_truncate", "body")
def body_truncate(b: Binlog, rng: random.Random) -> Change:
    """The body cut short, event_size and CRC32 agreeing: every field may be the one cut."""
    i = _pick_body(b, rng)
    body = b.events[i].body
    keep = rng.randrange(len(body))
    del body[keep:]
    return Change(f"event {i}: body cut to {keep} bytes, lengths repaired", Expect.ANY_CLEAN, i)
