"""Operators on checksums: stored CRC32s, bodies changed under a kept or recomputed CRC, and the
Format_description's checksum-algorithm byte that says whether the events after it carry one.

Facts relied on: with binlog_checksum=CRC32 every event ends in the CRC32 of its other bytes (the
Format_description's computed with LOG_EVENT_BINLOG_IN_USE_F cleared, oracle/checksum.py); the
Format_description of a 5.6.1+/MariaDB 5.3+ server always ends in the algorithm byte and a CRC.
"""
from __future__ import annotations

import random
import struct

from oracle.checksum import CHECKSUM_LEN, ChecksumAlg, event_crc32
from oracle.event_types import EventType

from .binlog import Binlog, Ev
from .model import Change, Expect, NotApplicable, operator, pick

FDE = EventType.FORMAT_DESCRIPTION_EVENT
_FDE_VERSION_END = 2 + 50  # binlog_version u16, server_version char[50]


def verified(ev: Ev) -> bool:
    """Whether a reader checks this event's stored CRC (a Format_description's only when its own
    algorithm byte says CRC32)."""
    if ev.crc is None:
        return False
    return ev.type_code != FDE or ev.body_bytes()[-1] == ChecksumAlg.CRC32


def flip_random_bits(buf: bytearray, rng: random.Random, start: int = 0) -> str:
    """Flip 1..3 bits at random positions of buf[start:]; returns where, for the description."""
    where = []
    for _ in range(rng.randint(1, 3)):
        at = rng.randrange(start, len(buf))
        bit = rng.randrange(8)
        buf[at] ^= 1 << bit
        where.append(f"{at}.{bit}")
    return ",".join(where)


@operator("crc_flip_bit", "checksum", requires=verified)
def crc_flip_bit(b: Binlog, rng: random.Random) -> Change:
    """Bits of a verified CRC32 flipped: must be rejected."""
    i = pick(b, rng, lambda j: verified(b.peek(j)), "event with a verified CRC32")
    ev = b.events[i]
    crc = bytearray(ev.crc)
    where = flip_random_bits(crc, rng)
    if bytes(crc) == ev.crc:
        raise NotApplicable("bit flips cancelled out")
    ev.crc, ev.fix_crc = bytes(crc), False
    return Change(f"event {i}: CRC32 bits {where} flipped", Expect.MUST_REJECT, i)


@operator("crc_stale_after_body_change", "checksum", requires=verified)
def crc_stale_after_body_change(b: Binlog, rng: random.Random) -> Change:
    """A body byte changed and the CRC left as it was: silent acceptance is a finding."""
    i = pick(b, rng, lambda j: verified(b.peek(j)) and len(b.peek(j).body_bytes()) > 0,
             "event with a verified CRC32 and a body")
    ev = b.events[i]
    ev.fix_crc = False
    # In a Format_description, the server version (which decides whether there is a checksum
    # descriptor at all) and the algorithm byte stay: changing them changes which rule applies.
    ranges = [(0, 2), (_FDE_VERSION_END, len(ev.body) - 1)] if ev.type_code == FDE else [(0, len(ev.body))]
    ranges = [(lo, hi) for lo, hi in ranges if hi > lo]
    if not ranges:
        raise NotApplicable("no body byte to change")
    lo, hi = rng.choice(ranges)
    at = rng.randrange(lo, hi)
    ev.body[at] ^= 1 << rng.randrange(8)
    return Change(f"event {i}: body byte {at} changed, CRC32 not recomputed", Expect.MUST_REJECT, i)


def _first_fde_with_descriptor(b: Binlog) -> int:
    for i in b.indices(FDE):
        if b.peek(i).crc is not None:
            return i
    raise NotApplicable("no Format_description with a checksum descriptor")


def _covered(b: Binlog, fde: int) -> list[int]:
    """Indices of the events the Format_description at fde governs (up to the next one)."""
    out = []
    for j in range(fde + 1, len(b.events)):
        if b.peek(j).type_code == FDE:
            break
        out.append(j)
    return out


@operator("fde_checksum_alg", "checksum")
def fde_checksum_alg(b: Binlog, rng: random.Random) -> Change:
    """The algorithm byte set to OFF, CRC32, an undefined value or 255 (UNDEF), CRC repaired.
    Declaring CRC32 over events that carry none must be rejected; the rest is implementation-defined
    (OFF over events that have CRCs leaves 4 extra bytes in each body)."""
    i = _first_fde_with_descriptor(b)
    ev = b.events[i]
    current = ev.body[-1]
    value = rng.choice([v for v in (0, 1, rng.randint(2, 254), 255) if v != current])
    ev.body[-1] = value
    after = _covered(b, i)
    must_reject = (value == ChecksumAlg.CRC32 and after
                   and all(b.peek(j).crc is None for j in after) and not _tails_are_crcs(b, after))
    return Change(f"event {i}: Format_description checksum_alg {current} -> {value}",
                  Expect.MUST_REJECT if must_reject else Expect.ANY_CLEAN, i)


def _tails_are_crcs(b: Binlog, indices: list[int]) -> bool:
    """Whether each of these events, as it will be written, happens to end in its own CRC32: an
    input that was already mutated (an OFF file whose bodies kept their CRCs) is then valid CRC32."""
    b.assemble()  # settles sizes and positions in the headers
    for j in indices:
        ev = b.peek(j)
        head = ev.head_bytes()
        event = bytes(head) + ev.body_bytes() + (ev.crc or b"")
        if len(event) < len(head) + CHECKSUM_LEN or event_crc32(event) != struct.unpack("<I", event[-4:])[0]:
            return False
    return True


def _redeclare(b: Binlog, alg: int, *, strip: bool, need_crcs: bool) -> tuple[int, list[int]]:
    """Set the first Format_description's algorithm byte to alg and, if strip, drop the CRC of
    every event it governs. need_crcs: the seed must have CRCs there for this to mean anything."""
    i = _first_fde_with_descriptor(b)
    after = _covered(b, i)
    if not after or (need_crcs and not any(b.peek(j).crc is not None for j in after)):
        raise NotApplicable("no events with a CRC32 after the Format_description")
    b.events[i].body[-1] = alg
    if strip:
        for j in after:
            b.events[j].crc = None
    return i, after


@operator("crc_present_declared_absent", "checksum")
def crc_present_declared_absent(b: Binlog, rng: random.Random) -> Change:
    """checksum_alg OFF while the events keep their CRC32 (4 extra bytes in each body)."""
    i, after = _redeclare(b, ChecksumAlg.OFF, strip=False, need_crcs=True)
    return Change(f"event {i}: checksum_alg CRC32 -> OFF, the {len(after)} events after keep their CRC32",
                  Expect.ANY_CLEAN, i)


@operator("crc_declared_absent_present", "checksum")
def crc_declared_absent_present(b: Binlog, rng: random.Random) -> Change:
    """CRC32 declared, but the events after the Format_description carry none (stripped from a
    CRC32 file, or never there in an OFF file)."""
    i, after = _redeclare(b, ChecksumAlg.CRC32, strip=True, need_crcs=False)
    expect = Expect.ANY_CLEAN if _tails_are_crcs(b, after) else Expect.MUST_REJECT
    return Change(f"event {i}: checksum_alg CRC32 but the {len(after)} events after carry no CRC",
                  expect, i)


@operator("crc_strip_consistently", "checksum")
def crc_strip_consistently(b: Binlog, rng: random.Random) -> Change:
    """A CRC32 file rewritten as an OFF one: valid, but every position moves."""
    i, after = _redeclare(b, ChecksumAlg.OFF, strip=True, need_crcs=True)
    return Change(f"event {i}: checksum_alg -> OFF and the CRC32 of the {len(after)} events after removed",
                  Expect.ANY_CLEAN, i)
