"""Operators on Query events: the status-variable block, status_vars_len and db_len.

Layout (binlog v4, post-header >= 13): thread_id u32, query_exec_time u32, db_len u8,
error_code u16, status_vars_len u16, then status_vars_len bytes of (code, value) pairs, the
database name and a NUL, and the statement to the end of the event.

Facts relied on (mysql-server statement_events.cpp, MariaDB log_event.cc): a known code whose value
runs past the end of the block makes the event invalid; an unknown code makes both servers stop
reading the block (so what they do with it is implementation-defined for us); status_vars_len or
db_len reaching past the event is invalid.
"""
from __future__ import annotations

import random
import struct
from dataclasses import dataclass

from oracle.errors import BinlogError
from oracle.event_types import EventType
from oracle.events.status_vars import STOP_CODES, TABLES, read_status_vars
from oracle.reader import Reader

from .binlog import Binlog, Ev
from .model import Change, Expect, NotApplicable, operator, pick

QUERY_TYPES = (EventType.QUERY_EVENT,)
_DB_LEN_AT, _STATUS_LEN_AT, _MIN_POST_HEADER = 8, 11, 13


def _short_string(text: bytes) -> bytes:
    return bytes([len(text)]) + text


# code -> a well-formed value. Sizes from the servers' sources; strings are length-prefixed
# (Q_CATALOG_CODE also NUL-terminated), Q_INVOKER is two of them, Q_UPDATED_DB_NAMES a count
# then NUL-terminated names, MariaDB's Q_GTID_FLAGS3 carries 8 more bytes when bit 0x04 is set,
# Q_CHARACTER_SET_COLLATIONS a count then 4 bytes per entry.
_SHARED_VALUES = {
    0: bytes(4), 1: bytes(8), 2: _short_string(b"std") + b"\0", 3: b"\1\0\1\0",
    4: b"\x21\0\x21\0\x08\0", 5: _short_string(b"SYSTEM"), 6: _short_string(b"std"),
    7: b"\0\0", 8: b"\x08\0", 9: bytes(8), 10: bytes(4),
    11: _short_string(b"root") + _short_string(b"localhost"),
}
VALUES = {
    "mysql": {**_SHARED_VALUES, 12: b"\1test\0", 13: b"\1\2\3", 16: b"\1", 17: bytes(8),
              18: b"\xff\0", 19: b"\0", 20: b"\0", 21: b"\0"},
    "mariadb": {**_SHARED_VALUES, 128: b"\1\2\3", 129: bytes(8), 130: b"\x04" + bytes(8),
                131: b"\1\x21\0\xff\0"},
}
# Prefixes of a value that are not complete values. By default every proper prefix; for
# Q_UPDATED_DB_NAMES only the empty one (how far a server reads an unterminated name varies).
_TRUNCATION_LIMIT = {12: 1}


@dataclass
class QueryLayout:
    post_header: int
    status_len: int

    @property
    def status_end(self) -> int:
        return self.post_header + self.status_len


def has_status_block(ev: Ev) -> bool:
    """A Query event whose post-header holds status_vars_len: what the Query operators' promises
    are about (an event retyped by other changes is decoded, or skipped, by other rules)."""
    return (ev.type_code in QUERY_TYPES and ev.post_header_len() >= _MIN_POST_HEADER
            and len(ev.body_bytes()) >= ev.post_header_len())


def layout(ev: Ev) -> QueryLayout:
    if not has_status_block(ev):
        raise NotApplicable("Query event without a status block")
    ph = ev.post_header_len()
    body = ev.body_bytes()
    status_len = struct.unpack_from("<H", body, _STATUS_LEN_AT)[0]
    if ph + status_len > len(body):
        raise NotApplicable("Query event already broken")
    return QueryLayout(ph, status_len)


def _pick_query(b: Binlog, rng: random.Random) -> tuple[int, Ev, QueryLayout]:
    def ok(i: int) -> bool:
        ev = b.peek(i)
        if ev.type_code not in QUERY_TYPES:
            return False
        try:
            layout(ev)
        except NotApplicable:
            return False
        return True
    i = pick(b, rng, ok, "Query event with a status block")
    return i, b.events[i], layout(b.events[i])


def _set_status_len(ev: Ev, value: int) -> None:
    struct.pack_into("<H", ev.body, _STATUS_LEN_AT, value & 0xFFFF)


def _append_status(ev: Ev, lay: QueryLayout, data: bytes) -> None:
    ev.body[lay.status_end:lay.status_end] = data
    _set_status_len(ev, lay.status_len + len(data))


def _flavor(ev: Ev) -> str:
    return ev.format.flavor


def read_to_the_end(ev: Ev, lay: QueryLayout) -> bool:
    """Whether a reader takes the status block var by var to its end, so that a var appended to
    it is read: every code defined and complete (the oracle's reader) and none at which the
    servers stop reading (Q_COMMIT_TS2, MariaDB's Q_DUMMY). Not so in a block that earlier
    mutations left with such a code or a cut value: what follows may be skipped or complete it."""
    flavor = _flavor(ev)
    try:
        read = read_status_vars(Reader(bytes(ev.body), lay.post_header, lay.status_end), flavor)
    except BinlogError:
        return False
    return not {TABLES[flavor][code].name for code in STOP_CODES[flavor]} & read.keys()


@operator("query_status_var_truncated", "query", requires=has_status_block)
def status_var_truncated(b: Binlog, rng: random.Random) -> Change:
    """Append a known code whose value stops short at the end of the block: truncated strings
    (catalog, time zone, invoker) and every fixed-size value one byte or more too short. Must be
    rejected where the block before it is read to its end (read_to_the_end)."""
    i, ev, lay = _pick_query(b, rng)
    values = VALUES[_flavor(ev)]
    code = rng.choice(sorted(values))
    value = values[code]
    cut = rng.randrange(min(len(value), _TRUNCATION_LIMIT.get(code, len(value))))
    expect = Expect.MUST_REJECT if read_to_the_end(ev, lay) else Expect.ANY_CLEAN
    _append_status(ev, lay, bytes([code]) + value[:cut])
    return Change(f"event {i}: status var {code} appended with {cut} of its {len(value)} bytes", expect, i)


@operator("query_status_var_oversized", "query")
def status_var_oversized(b: Binlog, rng: random.Random) -> Change:
    """Append a known code with a value one or more bytes too long: the surplus is read as the
    next code, so the outcome is implementation-defined."""
    i, ev, lay = _pick_query(b, rng)
    values = VALUES[_flavor(ev)]
    code = rng.choice(sorted(values))
    extra = bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 3)))
    _append_status(ev, lay, bytes([code]) + values[code] + extra)
    return Change(f"event {i}: status var {code} appended with {len(extra)} surplus bytes",
                  Expect.ANY_CLEAN, i)


@operator("query_status_var_wellformed", "query")
def status_var_wellformed(b: Binlog, rng: random.Random) -> Change:
    """Append a known code with a well-formed value: a later duplicate overrides, a new code adds.
    What the canonical body shows for it is the decoder's business, so ANY_CLEAN."""
    i, ev, lay = _pick_query(b, rng)
    values = VALUES[_flavor(ev)]
    code = rng.choice(sorted(values))
    _append_status(ev, lay, bytes([code]) + values[code])
    return Change(f"event {i}: well-formed status var {code} appended", Expect.ANY_CLEAN, i)


@operator("query_status_var_unknown", "query")
def status_var_unknown(b: Binlog, rng: random.Random) -> Change:
    """A code the flavor does not define, first or last in the block."""
    i, ev, lay = _pick_query(b, rng)
    known = VALUES[_flavor(ev)]
    code = rng.choice([c for c in range(256) if c not in known])
    payload = bytes(rng.getrandbits(8) for _ in range(rng.randint(0, 8)))
    at = rng.choice([lay.post_header, lay.status_end])  # first or last
    ev.body[at:at] = bytes([code]) + payload
    _set_status_len(ev, lay.status_len + 1 + len(payload))
    where = "first" if at == lay.post_header else "last"
    return Change(f"event {i}: unknown status var {code} with {len(payload)} bytes, {where}",
                  Expect.ANY_CLEAN, i)


@operator("query_status_vars_len_past_end", "query", requires=has_status_block)
def status_vars_len_past_end(b: Binlog, rng: random.Random) -> Change:
    """status_vars_len larger than what is left of the event: must be rejected."""
    i, ev, lay = _pick_query(b, rng)
    room = len(ev.body) - lay.post_header
    if room >= 0xFFFF:
        raise NotApplicable("Query event too long for status_vars_len to overrun")
    value = rng.choice([room + 1, room + rng.randint(1, 0xFFFF - room), 0xFFFF])
    _set_status_len(ev, value)
    return Change(f"event {i}: status_vars_len {lay.status_len} -> {value} ({room} bytes left)",
                  Expect.MUST_REJECT, i)


@operator("query_status_vars_len_short", "query")
def status_vars_len_short(b: Binlog, rng: random.Random) -> Change:
    """status_vars_len cuts into the block: the tail of a value is read as the database name."""
    i, ev, lay = _pick_query(b, rng)
    if lay.status_len == 0:
        raise NotApplicable("empty status block")
    value = rng.randrange(lay.status_len)
    _set_status_len(ev, value)
    return Change(f"event {i}: status_vars_len {lay.status_len} -> {value}", Expect.ANY_CLEAN, i)


@operator("query_db_len_past_end", "query", requires=has_status_block)
def db_len_past_end(b: Binlog, rng: random.Random) -> Change:
    """db_len such that the name and its NUL cannot fit in what is left of the event."""
    i, ev, lay = _pick_query(b, rng)
    left = len(ev.body) - lay.status_end  # db, NUL and query
    if left > 255:
        raise NotApplicable("Query event too long for db_len to overrun")
    value = rng.randint(left, 255)
    ev.body[_DB_LEN_AT] = value
    return Change(f"event {i}: db_len {ev.original[len(ev.head) + _DB_LEN_AT]} -> {value} "
                  f"({left} bytes left)", Expect.MUST_REJECT, i)


@operator("query_db_len_wrong", "query")
def db_len_wrong(b: Binlog, rng: random.Random) -> Change:
    """db_len within the event but not where the NUL is."""
    i, ev, lay = _pick_query(b, rng)
    current = ev.body[_DB_LEN_AT]
    left = len(ev.body) - lay.status_end
    value = rng.choice([c for c in (0, current - 1, current + 1, rng.randrange(256))
                        if 0 <= c < min(left, 256) and c != current] or [None])
    if value is None:
        raise NotApplicable("no other db_len fits")
    ev.body[_DB_LEN_AT] = value
    return Change(f"event {i}: db_len {current} -> {value}", Expect.ANY_CLEAN, i)
