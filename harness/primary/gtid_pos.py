"""MariaDB's BINLOG_GTID_POS(file, pos): the GTID position of a place in a binlog, MariaDB's
documented way for a replica or a CDC client to move from file/position to a GTID start.

As a real MariaDB 10.11 answers (tests/test_primary_gtid_pos.py compares every event boundary
of real binlogs with the server's own answer): the file's Gtid_list (the binlog state before the
file, read even when `pos` is before it, so position 4 gives the state the file starts with),
advanced by every GTID event that starts before `pos`; one GTID per domain, the domain's latest,
in domain order; NULL (None) for a position that is not an event boundary."""
from __future__ import annotations

import struct
from pathlib import Path

from oracle.event_types import EventType as T

from .gtid import MariadbState
from .mariadb import BinlogStateTracker

_MAGIC = b"\xfebin"
_HEADER = 19


def binlog_gtid_pos(path: Path, position: int) -> str | None:
    data = path.read_bytes()
    if not data.startswith(_MAGIC):
        return None
    tracker = BinlogStateTracker(start=MariadbState())
    boundary = position == len(_MAGIC)
    offset = len(_MAGIC)
    while offset + _HEADER <= len(data) and not (offset >= position and tracker.loaded):
        (size,) = struct.unpack_from("<I", data, offset + 9)
        if size < _HEADER or offset + size > len(data):
            break  # a torn or damaged event: nothing past it can be read
        type_code = data[offset + 4]
        if type_code == T.GTID_LIST_EVENT or (type_code == T.GTID_EVENT and offset < position):
            tracker.note(data[offset:offset + size])
        offset += size
        boundary = boundary or offset == position
    if not boundary:
        return None
    latest: dict[int, str] = {}
    for (domain, server), seq in tracker.state.items():  # insertion order: a domain's latest last
        latest[domain] = f"{domain}-{server}-{seq}"
    return ",".join(latest[d] for d in sorted(latest))
