"""A binlog as a list of editable events, and the repairs that keep it well-formed around a mutation.

Operators edit events in place (header fields, body bytes, whole events inserted, dropped or moved)
and `Binlog.assemble` puts the file back together, repairing what the operator did not mean to
break: each event's event_size, the next-position field of every event (wherever it pointed at
its own end or start in the seed), and the CRC32 of every event whose bytes changed. The repairs
are written with the encoder's framing primitives (oracle/encode/framing.py), so there is one
definition of how an event is framed. An operator that means to break one of these turns its
repair off for that event (fix_size, fix_pos, fix_crc).
Events are located with the oracle's framing walk (checksums not verified), so a seed that is
itself broken keeps its unframable rest as an opaque tail.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

from oracle.checksum import CHECKSUM_LEN
from oracle.encode.framing import FLAGS_AT, POS_AT, SIZE_AT, Options, seal, with_framing
from oracle.errors import BinlogError
from oracle.event_types import EventType
from oracle.fde import FormatDescription
from oracle.framing import MAGIC, RawEvent, walk
from oracle.header import V4_HEADER_LEN

_U32 = struct.Struct("<I")
_new = object.__new__
_KEEP_CRC, _FRESH_CRC = Options(checksums="keep"), Options(checksums="compute")

__all__ = ["FLAGS_AT", "POS_AT", "SIZE_AT", "Binlog", "Ev", "packed_int"]


@dataclass(slots=True)
class Ev:
    head: bytearray  # the common header (13 bytes in binlog v1, 19 or more after)
    body: bytearray  # post-header + payload (+ the Format_description's checksum-algorithm byte)
    crc: bytes | None  # the stored 4-byte CRC trailer; None when the event carries none
    format: FormatDescription  # the format in force for this event in the seed
    original: bytes  # the event as read from the seed, to tell which events changed
    pos_rule: str = "keep"  # how log_pos related to the seed position: "end", "start" or "keep"
    offset: int = -1  # where the event starts in the seed (-1: unknown)
    seed_parts: tuple[bytes, bytes, bytes | None] | None = None  # head, body, crc as in the seed
    fix_size: bool = True
    fix_pos: bool = True
    fix_crc: bool = True

    @property
    def type_code(self) -> int:
        return self.head[4]

    @property
    def v4(self) -> bool:
        return len(self.head) >= V4_HEADER_LEN

    def get_u32(self, at: int) -> int:
        return _U32.unpack_from(self.head, at)[0]

    def set_u32(self, at: int, value: int) -> None:
        _U32.pack_into(self.head, at, value & 0xFFFFFFFF)

    @property
    def flags(self) -> int:
        return int.from_bytes(self.head[FLAGS_AT:FLAGS_AT + 2], "little") if self.v4 else 0

    @flags.setter
    def flags(self, value: int) -> None:
        self.head[FLAGS_AT:FLAGS_AT + 2] = (value & 0xFFFF).to_bytes(2, "little")

    def size(self) -> int:
        return len(self.head) + len(self.body) + (CHECKSUM_LEN if self.crc is not None else 0)

    def post_header_len(self) -> int:
        return self.format.post_header_len(self.type_code)

    def frame(self, start: int) -> bytes:
        """The event's bytes at file offset start, with the repairs its fix_* flags allow. The
        header (and CRC) keep the repaired values: operators read them after an assemble()."""
        size = self.size()
        log_pos = None
        if self.v4 and self.fix_pos and self.pos_rule != "keep":
            log_pos = start + size if self.pos_rule == "end" else start
        self.head[:] = with_framing(self.head, event_size=size if self.fix_size else None, log_pos=log_pos)
        head, body = bytes(self.head), bytes(self.body)
        if self.crc is None:
            return seal(head, body, False, None, _KEEP_CRC)
        fresh = self.fix_crc and head + body != self.original[:-CHECKSUM_LEN]
        event = seal(head, body, True, int.from_bytes(self.crc, "little"), _FRESH_CRC if fresh else _KEEP_CRC)
        self.crc = event[-CHECKSUM_LEN:]
        return event

    def unchanged(self) -> bool:
        """The event's bytes are still the seed's (sizes, positions and CRC included)."""
        parts = self.seed_parts
        return (parts is not None and self.head == parts[0] and self.body == parts[1]
                and self.crc == parts[2])

    def copy(self) -> "Ev":
        # Field by field, not through __init__: copying every event of a seed is a large share of
        # building each fuzz input.
        new = _new(Ev)
        new.head, new.body, new.crc, new.format = bytearray(self.head), bytearray(self.body), self.crc, self.format
        new.original, new.pos_rule, new.offset, new.seed_parts = self.original, self.pos_rule, self.offset, self.seed_parts
        new.fix_size, new.fix_pos, new.fix_crc = self.fix_size, self.fix_pos, self.fix_crc
        return new


@dataclass
class Binlog:
    magic: bytes
    events: list[Ev]
    tail: bytes = b""  # bytes after the last event that framed (a broken seed's rest)
    framing_error: str | None = None  # why the walk stopped early, for broken seeds
    meta: dict = field(default_factory=dict)  # "data": the bytes parsed, when parsed from bytes

    @classmethod
    def parse(cls, data: bytes, max_events: int | None = None) -> "Binlog":
        """data as events; with max_events, only the first ones (the tail is then the rest)."""
        data = bytes(data)
        if not data.startswith(MAGIC):
            raise ValueError("not a binlog: no magic")
        events: list[Ev] = []
        end_of_last, error = len(MAGIC), None
        try:
            for raw in walk(data, verify_checksums=False):
                events.append(_event(data, raw))
                end_of_last = raw.offset + raw.header.event_size
                if len(events) == max_events:
                    break
        except BinlogError as e:
            error = str(e)
        return cls(MAGIC, events, data[end_of_last:], error, {"data": data})

    @staticmethod
    def event_at(data: bytes, index: int) -> Ev | None:
        """parse(data).events[index] (None when the walk does not get that far), making only
        that one event: operators' preconditions are checked this way on every fuzz input."""
        data = bytes(data)
        if index < 0 or not data.startswith(MAGIC):
            return None
        try:
            for n, raw in enumerate(walk(data, verify_checksums=False)):
                if n == index:
                    return _event(data, raw)
        except BinlogError:
            pass
        return None

    def copy(self) -> "Binlog":
        """A copy whose events can be edited without touching self (formats and the seed's
        original bytes are immutable and shared)."""
        copy = Ev.copy
        return Binlog(self.magic, [copy(ev) for ev in self.events], self.tail, self.framing_error, {})

    def assemble(self) -> bytes:
        out = bytearray(self.magic)
        for ev in self.events:
            start = len(out)
            if start == ev.offset and ev.unchanged():  # most events of a fuzz input: no framing
                out += ev.original  # what frame() gives an unedited event in its place
            else:
                out += ev.frame(start)
        out += self.tail
        return bytes(out)

    # -- finding things ----------------------------------------------------------------------
    def indices(self, *type_codes: int) -> list[int]:
        return [i for i, ev in enumerate(self.events) if ev.type_code in type_codes]

    def fde_index(self) -> int | None:
        found = self.indices(EventType.FORMAT_DESCRIPTION_EVENT)
        return found[0] if found else None

    def has_crc32(self) -> bool:
        return any(ev.crc is not None and ev.type_code != EventType.FORMAT_DESCRIPTION_EVENT
                   for ev in self.events)


def _event(data: bytes, raw: RawEvent) -> Ev:
    """The editable event the framing walk found at raw."""
    end = raw.offset + raw.header.event_size
    has_crc = raw.checksum_stored is not None
    body_end = end - CHECKSUM_LEN if has_crc else end
    ev = Ev(bytearray(data[raw.offset:raw.body_start]), bytearray(data[raw.body_start:body_end]),
            data[body_end:end] if has_crc else None, raw.format, data[raw.offset:end])
    log_pos = raw.header.log_pos
    ev.pos_rule = "end" if log_pos == end else "start" if log_pos == raw.offset else "keep"
    ev.offset = raw.offset
    ev.seed_parts = (bytes(ev.head), bytes(ev.body), ev.crc)
    return ev


def packed_int(buf: bytes | bytearray, pos: int) -> tuple[int, int]:
    """MySQL's length-encoded integer at pos: (value, position after it). Raises IndexError or
    ValueError on bytes that do not hold one; callers treat that as "not applicable"."""
    first = buf[pos]
    if first < 251:
        return first, pos + 1
    width = {252: 2, 253: 3, 254: 8}.get(first)
    if width is None or pos + 1 + width > len(buf):
        raise ValueError("not a packed integer")
    return int.from_bytes(buf[pos + 1:pos + 1 + width], "little"), pos + 1 + width


