"""Operators on the common header: timestamp, type code, server id, event_size, next position, flags.

Facts relied on: servers reject an undefined type code unless LOG_EVENT_IGNORABLE_F is set, in
which case the event is skipped (MySQL Log_event::read_log_event, MariaDB likewise); nobody
checks log_pos or the meaning of flag bits when reading a file, so those only change the field
(but for a Heartbeat's log_pos, which its decoder reads: the preconditions below say which events
a promise is about).
"""
from __future__ import annotations

import random

from oracle.event_types import EventType, HeaderFlag

from .binlog import POS_AT, SIZE_AT, Binlog, Ev
from .model import Change, Expect, NotApplicable, operator, pick

T = EventType
IGNORABLE = int(HeaderFlag.LOG_EVENT_IGNORABLE_F)
DEFINED_FLAGS = [int(f) for f in HeaderFlag]
UNDEFINED_FLAGS = [1 << b for b in range(16) if (1 << b) not in DEFINED_FLAGS]
KNOWN_CODES = sorted(int(t) for t in EventType)
UNDEFINED_CODES = [c for c in range(256) if c not in KNOWN_CODES and c != 0]
MARIADB_CODES = [c for c in KNOWN_CODES if c >= 160]
MYSQL_ONLY_CODES = [c for c in KNOWN_CODES if 29 <= c < 160]
# Events whose content other events depend on: dropping or retyping them changes more than one event.
_CONTEXT_TYPES = {T.FORMAT_DESCRIPTION_EVENT, T.START_EVENT_V3, T.TABLE_MAP_EVENT}


# -- preconditions: the events each promise is about ----------------------------------------------

def log_pos_unread(ev: Ev) -> bool:
    """A v4 event whose body decoder does not read the header's log_pos. A Heartbeat v1's does:
    MySQL rejects one below 4, MariaDB reads a position from the body when it is 0. (A
    Transaction_payload's does too; the operator declares its body changed.)"""
    return ev.v4 and ev.type_code != T.HEARTBEAT_LOG_EVENT


def undefined_not_ignorable(ev: Ev) -> bool:
    """A type code no server defines, without LOG_EVENT_IGNORABLE_F: a reader must stop."""
    return ev.type_code in UNDEFINED_CODES and not ev.flags & IGNORABLE


def undefined_ignorable(ev: Ev) -> bool:
    """A type code no server defines, with LOG_EVENT_IGNORABLE_F: a reader must skip it."""
    return ev.v4 and ev.type_code in UNDEFINED_CODES and bool(ev.flags & IGNORABLE)


def defined_v4(ev: Ev) -> bool:
    """A v4 event of a defined type, on which no flag bit decides between skip and reject."""
    return ev.v4 and ev.type_code in KNOWN_CODES


def _other(rng: random.Random, current: int, choices: list[int] | range) -> int:
    options = [c for c in choices if c != current]
    return rng.choice(options)


@operator("header_timestamp", "header")
def header_timestamp(b: Binlog, rng: random.Random) -> Change:
    """Another timestamp: only the event's timestamp may change."""
    i = pick(b, rng)
    ev = b.events[i]
    value = rng.choice([0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, rng.getrandbits(32)])
    if value == ev.get_u32(0):
        value ^= 1
    ev.set_u32(0, value)
    return Change(f"event {i}: timestamp -> {value}", Expect.MUST_ACCEPT_WITH_CHANGE, i, {"timestamp"})


@operator("header_server_id", "header")
def header_server_id(b: Binlog, rng: random.Random) -> Change:
    """Another server id: only the event's server_id may change."""
    i = pick(b, rng)
    ev = b.events[i]
    value = rng.choice([0, 1, 0xFFFFFFFF, rng.getrandbits(32)])
    if value == ev.get_u32(5):
        value ^= 1
    ev.set_u32(5, value)
    # A MariaDB GTID's server id is the header's: its canonical GTID changes with it.
    changed = {"server_id", "body"} if ev.type_code == T.GTID_EVENT else {"server_id"}
    return Change(f"event {i}: server_id -> {value}", Expect.MUST_ACCEPT_WITH_CHANGE, i, changed)


@operator("header_type_undefined", "header", requires=undefined_not_ignorable)
def header_type_undefined(b: Binlog, rng: random.Random) -> Change:
    """A type code no server defines, not flagged ignorable: must be rejected."""
    i = pick(b, rng)
    ev = b.events[i]
    code = rng.choice(UNDEFINED_CODES)
    ev.head[4] = code
    if ev.v4:
        ev.flags = ev.flags & ~IGNORABLE
    return Change(f"event {i}: type code {ev.original[4]} -> undefined {code}, not ignorable",
                  Expect.MUST_REJECT, i)


@operator("header_type_undefined_ignorable", "header", requires=undefined_ignorable)
def header_type_undefined_ignorable(b: Binlog, rng: random.Random) -> Change:
    """A type code no server defines, flagged LOG_EVENT_IGNORABLE_F: skipped, not rejected."""
    i = pick(b, rng, lambda j: b.peek(j).v4 and b.peek(j).type_code not in _CONTEXT_TYPES,
             "v4 event others do not depend on")
    ev = b.events[i]
    code = rng.choice(UNDEFINED_CODES)
    ev.head[4] = code
    ev.flags = ev.flags | IGNORABLE
    return Change(f"event {i}: type code {ev.original[4]} -> undefined {code} with LOG_EVENT_IGNORABLE_F",
                  Expect.MUST_ACCEPT_WITH_CHANGE, i, {"type_code", "type", "flags", "body"})


@operator("header_type_known", "header")
def header_type_known(b: Binlog, rng: random.Random) -> Change:
    """Another defined type code over the same body."""
    i = pick(b, rng)
    ev = b.events[i]
    code = _other(rng, ev.type_code, KNOWN_CODES)
    ev.head[4] = code
    return Change(f"event {i}: type code {ev.original[4]} -> {EventType(code).name}", Expect.ANY_CLEAN, i)


@operator("header_type_other_flavor", "header")
def header_type_other_flavor(b: Binlog, rng: random.Random) -> Change:
    """MariaDB-only codes in a MySQL file, MySQL-only codes in a MariaDB file."""
    fde = b.fde_index()
    if fde is None:
        raise NotApplicable("no Format_description to tell the flavor")
    mariadb = b.peek(fde).format.flavor == "mariadb"
    i = pick(b, rng, lambda j: j > fde)
    ev = b.events[i]
    code = rng.choice(MYSQL_ONLY_CODES if mariadb else MARIADB_CODES)
    ev.head[4] = code
    flavor = "MariaDB" if mariadb else "MySQL"
    return Change(f"event {i}: type code {ev.original[4]} -> {EventType(code).name} in a {flavor} file",
                  Expect.ANY_CLEAN, i)


def _size_variants(b: Binlog, i: int) -> dict[str, tuple[int, bool]]:
    """name -> (event_size, whether a correct parser must reject it)."""
    ev = b.events[i]
    size = ev.size()
    last = i == len(b.events) - 1 and not b.tail
    after = sum(e.size() for e in b.events[i:]) + len(b.tail)  # bytes from this event to the end
    # One byte off shifts the checksum: a verified CRC32 then fails. Without one, the event
    # swallows or loses a byte and what follows is implementation-defined.
    crc_verified = ev.crc is not None and ev.type_code != T.FORMAT_DESCRIPTION_EVENT
    return {
        "zero": (0, True),
        "below the header": (len(ev.head) - 1, True),
        "one less": (size - 1, crc_verified or last),
        "one more": (size + 1, crc_verified or last),
        "past the end": (after + 1, True),
        "huge": (0xFFFFFFFF, True),
        "2^31": (1 << 31, after < 1 << 31),
    }


@operator("header_event_size", "header")
def header_event_size(b: Binlog, rng: random.Random) -> Change:
    """event_size 0, below the header, one off either way, past the end, or huge."""
    i = pick(b, rng)
    variants = _size_variants(b, i)
    name = rng.choice(sorted(variants))
    value, reject = variants[name]
    ev = b.events[i]
    ev.fix_size = False
    ev.set_u32(SIZE_AT, value)
    return Change(f"event {i}: event_size {ev.size()} -> {value} ({name})",
                  Expect.MUST_REJECT if reject else Expect.ANY_CLEAN, i)


@operator("header_next_position", "header", requires=log_pos_unread)
def header_next_position(b: Binlog, rng: random.Random) -> Change:
    """next_position inconsistent, zero or past the end: nobody checks it, so only it changes.
    (Nobody but a Heartbeat's decoder: the precondition log_pos_unread leaves those out.)"""
    i = pick(b, rng, lambda j: b.peek(j).v4, "v4 event")
    ev = b.events[i]
    total = len(b.assemble())
    current = ev.get_u32(POS_AT)
    value = _other(rng, current, [0, current + 1, max(current - 1, 0), total + 1, 0xFFFFFFFF,
                                  rng.getrandbits(32)])
    ev.fix_pos = False
    ev.set_u32(POS_AT, value)
    # The events inside a Transaction_payload take the enclosing event's end position, as
    # mysqlbinlog shows them, so its canonical body changes with it.
    changed = {"next_position", "body"} if ev.type_code == T.TRANSACTION_PAYLOAD_EVENT else {"next_position"}
    return Change(f"event {i}: next_position {current} -> {value}", Expect.MUST_ACCEPT_WITH_CHANGE, i, changed)


@operator("header_flags_defined", "header", requires=defined_v4)
def header_flags_defined(b: Binlog, rng: random.Random) -> Change:
    """Toggle one defined flag bit. LOG_EVENT_IGNORABLE_F is only toggled on defined types, where
    it changes nothing; on an undefined type it decides between skip and reject."""
    i = pick(b, rng, lambda j: defined_v4(b.peek(j)), "v4 event of a defined type")
    ev = b.events[i]
    bit = rng.choice(DEFINED_FLAGS)
    ev.flags = ev.flags ^ bit
    return Change(f"event {i}: toggle {HeaderFlag(bit).name}", Expect.MUST_ACCEPT_WITH_CHANGE, i, {"flags"})


@operator("header_flags_undefined", "header")
def header_flags_undefined(b: Binlog, rng: random.Random) -> Change:
    """Flag bits no server defines: only the flags change."""
    i = pick(b, rng, lambda j: b.peek(j).v4, "v4 event")
    ev = b.events[i]
    bits = rng.sample(UNDEFINED_FLAGS, rng.randint(1, len(UNDEFINED_FLAGS)))
    value = ev.flags
    for bit in bits:
        value |= bit
    if value == ev.flags:
        raise NotApplicable("undefined flag bits already set")
    ev.flags = value
    return Change(f"event {i}: set undefined flag bits {value & sum(bits):#06x}",
                  Expect.MUST_ACCEPT_WITH_CHANGE, i, {"flags"})
