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


class Ev:
    """One editable event. `head` and `body` are bytearrays an operator edits in place; an event
    read from a seed makes them from its seed_parts only when they are first asked for, so
    copying a seed (once per fuzz input) copies no bytes, and an event nobody asked for the
    bytes of is known to be unchanged without comparing them (issue 14)."""

    __slots__ = ("_head", "_body", "crc", "format", "original", "pos_rule", "offset", "seed_parts",
                 "fix_size", "fix_pos", "fix_crc")

    def __init__(self, head: bytearray | None, body: bytearray | None, crc: bytes | None,
                 format: FormatDescription, original: bytes, pos_rule: str = "keep", offset: int = -1,
                 seed_parts: tuple[bytes, bytes, bytes | None] | None = None, fix_size: bool = True,
                 fix_pos: bool = True, fix_crc: bool = True) -> None:
        self._head = head  # the common header (13 bytes in binlog v1, 19 or more after); None: seed_parts[0]
        self._body = body  # post-header + payload (+ the FDE's checksum-algorithm byte); None: seed_parts[1]
        self.crc = crc  # the stored 4-byte CRC trailer; None when the event carries none
        self.format = format  # the format in force for this event in the seed
        self.original = original  # the event as read from the seed, to tell which events changed
        self.pos_rule = pos_rule  # how log_pos related to the seed position: "end", "start" or "keep"
        self.offset = offset  # where the event starts in the seed (-1: unknown)
        self.seed_parts = seed_parts  # head, body, crc as in the seed
        self.fix_size = fix_size
        self.fix_pos = fix_pos
        self.fix_crc = fix_crc

    @property
    def head(self) -> bytearray:
        if self._head is None:
            self._head = bytearray(self.seed_parts[0])  # type: ignore[index]
        return self._head

    @head.setter
    def head(self, value: bytearray) -> None:
        self._head = value

    @property
    def body(self) -> bytearray:
        if self._body is None:
            self._body = bytearray(self.seed_parts[1])  # type: ignore[index]
        return self._body

    @body.setter
    def body(self, value: bytearray) -> None:
        self._body = value

    def head_bytes(self) -> bytes | bytearray:
        """The header as it is now, for reading only (makes no copy, unlike `head`)."""
        return self.seed_parts[0] if self._head is None else self._head  # type: ignore[index]

    def body_bytes(self) -> bytes | bytearray:
        return self.seed_parts[1] if self._body is None else self._body  # type: ignore[index]

    def __eq__(self, other: object) -> bool:
        """Same bytes now (made or not) and the same other fields."""
        if type(other) is not Ev:
            return NotImplemented
        return (self.head_bytes() == other.head_bytes() and self.body_bytes() == other.body_bytes()
                and all(getattr(self, f) == getattr(other, f) for f in _OTHER_FIELDS))

    __hash__ = None  # type: ignore[assignment]  # mutable, like the dataclass it was

    @property
    def type_code(self) -> int:  # head_bytes() inlined: operators ask every event for it
        return (self.seed_parts[0] if self._head is None else self._head)[4]  # type: ignore[index]

    @property
    def v4(self) -> bool:
        return len(self.seed_parts[0] if self._head is None else self._head) >= V4_HEADER_LEN  # type: ignore[index]

    def get_u32(self, at: int) -> int:
        return _U32.unpack_from(self.head_bytes(), at)[0]

    def set_u32(self, at: int, value: int) -> None:
        _U32.pack_into(self.head, at, value & 0xFFFFFFFF)

    @property
    def flags(self) -> int:
        return int.from_bytes(self.head_bytes()[FLAGS_AT:FLAGS_AT + 2], "little") if self.v4 else 0

    @flags.setter
    def flags(self, value: int) -> None:
        self.head[FLAGS_AT:FLAGS_AT + 2] = (value & 0xFFFF).to_bytes(2, "little")

    def size(self) -> int:
        return len(self.head_bytes()) + len(self.body_bytes()) + (CHECKSUM_LEN if self.crc is not None else 0)

    def post_header_len(self) -> int:
        return self.format.post_header_len(self.type_code)

    def frame(self, start: int) -> bytes:
        """The event's bytes at file offset start, with the repairs its fix_* flags allow. The
        header (and CRC) keep the repaired values: operators read them after an assemble()."""
        size = self.size()
        log_pos = None
        if self.v4 and self.fix_pos and self.pos_rule != "keep":
            log_pos = start + size if self.pos_rule == "end" else start
        head = with_framing(self.head_bytes(), event_size=size if self.fix_size else None, log_pos=log_pos)
        self._head = bytearray(head)
        body = self.body_bytes()
        if self.crc is None:
            return seal(head, body, False, None, _KEEP_CRC)
        event = seal(head, body, True, int.from_bytes(self.crc, "little"),
                     _FRESH_CRC if self.fix_crc and not self._is_original(head, body) else _KEEP_CRC)
        self.crc = event[-CHECKSUM_LEN:]
        return event

    def moved(self, start: int) -> bytes:
        """frame(start) of an event whose bytes are still the seed's (unchanged()), now at
        another offset: only log_pos, and so the CRC, can differ (the events after an inserted,
        dropped or resized one; ~7 per fuzz input)."""
        original = self.original
        if not (self.fix_pos and self.pos_rule != "keep" and self.v4):
            return original
        head = with_framing(self.head_bytes(), log_pos=start + len(original) if self.pos_rule == "end" else start)
        if head == self.head_bytes():
            return original
        self._head = bytearray(head)
        if self.crc is None:
            return seal(head, self.body_bytes(), False, None, _KEEP_CRC)
        event = seal(head, self.body_bytes(), True, int.from_bytes(self.crc, "little"),
                     _FRESH_CRC if self.fix_crc else _KEEP_CRC)
        self.crc = event[-CHECKSUM_LEN:]
        return event

    def _is_original(self, head: bytes, body: bytes | bytearray) -> bool:
        """head + body == original[:-CHECKSUM_LEN], without building either side."""
        original, n = self.original, len(head)
        return (n + len(body) == len(original) - CHECKSUM_LEN and original.startswith(head)
                and memoryview(original)[n:n + len(body)] == body)

    def unchanged(self) -> bool:
        """The event's bytes are still the seed's (sizes, positions and CRC included)."""
        parts = self.seed_parts
        return (parts is not None and (self._head is None or self._head == parts[0])
                and (self._body is None or self._body == parts[1]) and self.crc == parts[2])

    def copy(self) -> "Ev":
        # Field by field, not through __init__: copying every event of a seed is a large share of
        # building each fuzz input. Bytes not yet asked for stay the seed's (None).
        new = _new(Ev)
        head, body = self._head, self._body
        new._head = None if head is None else bytearray(head)
        new._body = None if body is None else bytearray(body)
        new.crc, new.format = self.crc, self.format
        new.original, new.pos_rule, new.offset, new.seed_parts = self.original, self.pos_rule, self.offset, self.seed_parts
        new.fix_size, new.fix_pos, new.fix_crc = self.fix_size, self.fix_pos, self.fix_crc
        return new


_OTHER_FIELDS = tuple(f for f in Ev.__slots__ if f not in ("_head", "_body"))


class _Events(list):
    """A copied Binlog's event list, copy on write: it holds the source's events until one is
    indexed (events[i], the way operators edit), then a copy in its place. Iterating, slicing
    and peek() give the held events for reading: whoever edits an event gets it by index.
    Copying every event of a seed was a tenth of each fuzz input's cost (issue 14). The
    source must not change while the copy is in use (a seed never does)."""

    __slots__ = ("_shared",)

    def __init__(self, source: list[Ev]) -> None:
        super().__init__(source)
        self._shared = {id(ev) for ev in source}

    def __getitem__(self, i):  # type: ignore[override]
        ev = list.__getitem__(self, i)
        if type(i) is slice or id(ev) not in self._shared:
            return ev
        ev = ev.copy()
        list.__setitem__(self, i, ev)
        return ev


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
    def event_at(data: bytes, index: int, like: "Binlog | None" = None) -> Ev | None:
        """parse(data).events[index] (None when the walk does not get that far), making only
        that one event: operators' preconditions are checked this way on every fuzz input.
        like: a parsed Binlog data was made from; where data has its bytes up to its event
        `index`, the walk starts there, in the format the events before it left in force."""
        data = bytes(data)
        if index < 0 or not data.startswith(MAGIC):
            return None
        seed = like.meta.get("data") if like is not None else None
        if seed is not None and 0 < index < len(like.events):  # type: ignore[union-attr]
            at = like.events[index].offset  # type: ignore[union-attr]
            if data[:at] == seed[:at]:
                try:
                    raw = next(walk(data[at:], verify_checksums=False, origin=at, skip_magic=True,
                                    format=like.events[index - 1].format), None)  # type: ignore[union-attr]
                except BinlogError:
                    return None
                return None if raw is None else _event(data, raw, at)
        try:
            for n, raw in enumerate(walk(data, verify_checksums=False)):
                if n == index:
                    return _event(data, raw)
        except BinlogError:
            pass
        return None

    def copy(self) -> "Binlog":
        """A copy whose events can be edited without touching self (formats and the seed's
        original bytes are immutable and shared). Its events are copied when first indexed
        (copy on write, see _Events): an operator touches one or two of a seed's ~30 events."""
        return Binlog(self.magic, _Events(self.events), self.tail, self.framing_error, {})

    def peek(self, i: int) -> Ev:
        """events[i] for reading only: not copied when it is still the seed's. Operators' pick
        predicates look at every event this way."""
        return list.__getitem__(self.events, i)

    def assemble(self) -> bytes:
        out = bytearray(self.magic)
        events = self.events
        shared = events._shared if type(events) is _Events else ()  # still the seed's: unchanged
        for n, ev in enumerate(list.__iter__(events)):
            start = len(out)
            if id(ev) in shared or ev.unchanged():
                if start == ev.offset:  # most events of a fuzz input: no framing
                    out += ev.original  # what frame() gives an unedited event in its place
                else:
                    out += events[n].moved(start)  # events[n]: a seed's event is copied first
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


def _event(data: bytes, raw: RawEvent, base: int = 0) -> Ev:
    """The editable event the framing walk found at raw (a walk over data[base:]: its body
    indices are relative to base, its offsets absolute)."""
    end = raw.offset + raw.header.event_size
    has_crc = raw.checksum_stored is not None
    body_end = end - CHECKSUM_LEN if has_crc else end
    crc = data[body_end:end] if has_crc else None
    log_pos = raw.header.log_pos
    body_start = base + raw.body_start
    return Ev(None, None, crc, raw.format, data[raw.offset:end],
              "end" if log_pos == end else "start" if log_pos == raw.offset else "keep", raw.offset,
              (data[raw.offset:body_start], data[body_start:body_end], crc))


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


