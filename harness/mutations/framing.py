"""Operators on framing: the magic, truncation at and between every boundary, duplicated, dropped
and reordered events, Rows events without their Table_map, column counts that disagree.

Facts relied on: a binlog cut at an event boundary is a valid (still open) binlog; one cut inside
an event is not. A Rows event can only be decoded with the Table_map of its table_id in force.
"""
from __future__ import annotations

import random
from dataclasses import dataclass

from oracle.checksum import CHECKSUM_LEN
from oracle.event_types import EventType as T

from oracle.encode.writer import packed_int_bytes as encode_packed_int

from .binlog import Binlog, Ev, packed_int
from .model import Change, Expect, NotApplicable, operator, pick

ROWS = (T.PRE_GA_WRITE_ROWS_EVENT, T.PRE_GA_UPDATE_ROWS_EVENT, T.PRE_GA_DELETE_ROWS_EVENT,
        T.WRITE_ROWS_EVENT_V1, T.UPDATE_ROWS_EVENT_V1, T.DELETE_ROWS_EVENT_V1,
        T.WRITE_ROWS_EVENT, T.UPDATE_ROWS_EVENT, T.DELETE_ROWS_EVENT, T.PARTIAL_UPDATE_ROWS_EVENT)
UPDATE_ROWS = (T.PRE_GA_UPDATE_ROWS_EVENT, T.UPDATE_ROWS_EVENT_V1, T.UPDATE_ROWS_EVENT,
               T.PARTIAL_UPDATE_ROWS_EVENT)
_V2_ROWS_POST_HEADER = 10
_LONG = 3  # MYSQL_TYPE_LONG: no column metadata


@operator("magic_damaged", "framing")
def magic_damaged(b: Binlog, rng: random.Random) -> Change:
    """The magic cut short or changed: must be rejected."""
    if rng.random() < 0.5:
        cut = rng.randrange(len(b.magic))
        return Change(f"file cut to {cut} bytes of the magic", Expect.MUST_REJECT, 0,
                      post=lambda data: data[:cut])
    magic = bytearray(b.magic)
    at = rng.randrange(len(magic))
    magic[at] ^= 1 << rng.randrange(8)
    b.magic = bytes(magic)
    return Change(f"magic byte {at} changed", Expect.MUST_REJECT, 0)


def _offset(b: Binlog, i: int) -> int:
    return len(b.magic) + sum(ev.size() for ev in b.events[:i])


@operator("truncate_inside_event", "framing")
def truncate_inside_event(b: Binlog, rng: random.Random) -> Change:
    """Cut inside an event: in its header, at the header/post-header, post-header/payload and
    payload/checksum boundaries, one byte short, or anywhere."""
    i = pick(b, rng)
    ev = b.events[i]
    size = ev.size()
    ph = len(ev.head) + min(ev.post_header_len(), len(ev.body))
    cuts = {1, len(ev.head) - 1, len(ev.head), ph, size - 1, rng.randrange(1, size)}
    if ev.crc is not None:
        cuts.add(size - CHECKSUM_LEN)
    cut = rng.choice(sorted(c for c in cuts if 0 < c < size))
    end = _offset(b, i) + cut
    b.tail = b""
    return Change(f"file cut {cut} bytes into event {i} (of {size})", Expect.MUST_REJECT, i,
                  post=lambda data: data[:end])


@operator("truncate_at_boundary", "framing")
def truncate_at_boundary(b: Binlog, rng: random.Random) -> Change:
    """Drop every event from k on: what an open binlog looks like. The first k decode as before."""
    if len(b.events) < 2:
        raise NotApplicable("fewer than two events")
    k = rng.randrange(1, len(b.events))
    del b.events[k:]
    b.tail = b""
    return Change(f"file cut after event {k - 1}", Expect.MUST_ACCEPT_WITH_CHANGE, None, event_count=k)


@operator("duplicate_event", "framing")
def duplicate_event(b: Binlog, rng: random.Random) -> Change:
    """An event written twice in a row."""
    i = pick(b, rng)
    b.events.insert(i + 1, b.events[i].copy())
    return Change(f"event {i} duplicated", Expect.ANY_CLEAN, i + 1)


@operator("drop_event", "framing")
def drop_event(b: Binlog, rng: random.Random) -> Change:
    """An event left out."""
    i = pick(b, rng)
    del b.events[i]
    return Change(f"event {i} dropped", Expect.ANY_CLEAN, i)


@operator("swap_events", "framing")
def swap_events(b: Binlog, rng: random.Random) -> Change:
    """Two nearby events in the wrong order."""
    if len(b.events) < 2:
        raise NotApplicable("fewer than two events")
    i = rng.randrange(len(b.events) - 1)
    j = rng.randrange(i + 1, min(len(b.events), i + 4))
    b.events[i], b.events[j] = b.events[j], b.events[i]
    return Change(f"events {i} and {j} swapped", Expect.ANY_CLEAN, i)


# -- Table_map and Rows ------------------------------------------------------------------------

def _table_id(ev: Ev) -> bytes:
    """table_id is 4 bytes when the post-header is 6 (MySQL 5.1.0-5.1.15), else 6."""
    return bytes(ev.body_bytes()[:4 if ev.post_header_len() == 6 else 6])


@operator("rows_without_table_map", "framing")
def rows_without_table_map(b: Binlog, rng: random.Random) -> Change:
    """Drop a Table_map that Rows events follow. Must be rejected unless the same table_id was
    mapped earlier in the file (the Rows may then decode against that older map) or is mapped
    again before its Rows (a Table_map written twice, by an earlier mutation)."""
    def ok(i: int) -> bool:
        return (b.peek(i).type_code == T.TABLE_MAP_EVENT and i + 1 < len(b.events)
                and b.peek(i + 1).type_code in ROWS + (T.TABLE_MAP_EVENT,))
    i = pick(b, rng, ok, "Table_map followed by Rows")
    table_id = _table_id(b.peek(i))
    mapped_before = any(b.peek(j).type_code == T.TABLE_MAP_EVENT and _table_id(b.peek(j)) == table_id
                        for j in range(i))
    rows_follow = False
    for ev in b.events[i + 1:]:
        if ev.type_code not in ROWS + (T.TABLE_MAP_EVENT,):
            break
        if _table_id(ev) == table_id:  # its Rows, or a Table_map that maps it again
            rows_follow = ev.type_code in ROWS
            break
    del b.events[i]
    must_reject = rows_follow and not mapped_before
    return Change(f"Table_map event {i} (table_id {int.from_bytes(table_id, 'little')}) dropped",
                  Expect.MUST_REJECT if must_reject else Expect.ANY_CLEAN, i)


@dataclass
class TableMapLayout:
    count: int
    count_at: int  # body index of the packed column_count
    types_at: int
    bitmap_end: int  # body index just past the null bitmap


def table_map_layout(ev: Ev) -> TableMapLayout:
    body, pos = ev.body, ev.post_header_len()
    try:
        for _ in range(2):  # database and table: u8 length, name, NUL
            pos += 1 + body[pos] + 1
        count_at = pos
        count, pos = packed_int(body, pos)
        types_at = pos
        pos += count
        meta_len, pos = packed_int(body, pos)
        bitmap_end = pos + meta_len + (count + 7) // 8
    except (IndexError, ValueError):
        raise NotApplicable("Table_map does not parse") from None
    if bitmap_end > len(body):
        raise NotApplicable("Table_map does not parse")
    return TableMapLayout(count, count_at, types_at, bitmap_end)


@operator("table_map_extra_column", "framing")
def table_map_extra_column(b: Binlog, rng: random.Random) -> Change:
    """The Table_map gains a column (an INT, no metadata, nullable) its Rows do not carry."""
    i = pick(b, rng, lambda j: b.peek(j).type_code == T.TABLE_MAP_EVENT, "Table_map")
    ev = b.events[i]
    lay = table_map_layout(ev)
    n = lay.count + 1
    if (n + 7) // 8 > (lay.count + 7) // 8:
        ev.body[lay.bitmap_end:lay.bitmap_end] = b"\xff"
    ev.body[lay.types_at + lay.count:lay.types_at + lay.count] = bytes([_LONG])
    ev.body[lay.count_at:lay.types_at] = encode_packed_int(n)
    return Change(f"event {i}: Table_map column_count {lay.count} -> {n}", Expect.ANY_CLEAN, i)


def _rows_width_at(ev: Ev) -> int:
    pos = ev.post_header_len()
    if ev.post_header_len() == _V2_ROWS_POST_HEADER:
        extra = int.from_bytes(ev.body[pos - 2:pos], "little")
        pos += max(extra - 2, 0)
    if pos >= len(ev.body):
        raise NotApplicable("Rows event does not parse")
    return pos


@operator("rows_width_mismatch", "framing")
def rows_width_mismatch(b: Binlog, rng: random.Random) -> Change:
    """A Rows event's column count one more or less than its Table_map's, bitmaps resized."""
    i = pick(b, rng, lambda j: b.peek(j).type_code in ROWS, "Rows event")
    ev = b.events[i]
    at = _rows_width_at(ev)
    try:
        width, after = packed_int(ev.body, at)
    except (IndexError, ValueError):
        raise NotApplicable("Rows event does not parse") from None
    new = width + rng.choice([-1, 1]) if width else 1
    grow = (new + 7) // 8 - (width + 7) // 8
    bitmaps = 2 if ev.type_code in UPDATE_ROWS else 1
    old_len = (width + 7) // 8
    parts, pos = [], after
    for _ in range(bitmaps):
        bitmap = ev.body[pos:pos + old_len]
        pos += old_len
        parts.append(bitmap + b"\xff" * grow if grow > 0 else bitmap[:len(bitmap) + grow])
    ev.body[at:pos] = encode_packed_int(new) + b"".join(parts)
    return Change(f"event {i}: Rows width {width} -> {new}", Expect.ANY_CLEAN, i)
