"""GTID sets a replica sends: MySQL's encoded set in COM_BINLOG_DUMP_GTID (Gtid_set::encode, the
Previous_gtids layout, so the oracle's decoder reads it) and MariaDB's @slave_connect_state."""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from oracle.context import DecodeContext
from oracle.errors import BinlogError
from oracle.event_types import EventType as T
from oracle.events import previous_gtids
from oracle.fde import DEFAULT_V4
from oracle.header import Header
from oracle.reader import Reader


class BadGtidSet(Exception):
    pass


@dataclass
class MysqlGtidSet:
    intervals: dict[tuple[str, str], list[tuple[int, int]]] = field(default_factory=dict)

    def contains(self, sid: str, tag: str, gno: int) -> bool:
        return any(s <= gno < e for s, e in self.intervals.get((sid, tag), ()))

    def covers(self, other: dict[tuple[str, str], list[tuple[int, int]]]) -> bool:
        """Every GTID of `other` is in this set."""
        for key, intervals in other.items():
            mine = sorted(self.intervals.get(key, ()))
            for start, end in intervals:
                pos = start
                for s, e in mine:
                    if s <= pos < e:
                        pos = e
                if pos < end:
                    return False
        return True


def parse_encoded(data: bytes) -> MysqlGtidSet:
    if not data:
        return MysqlGtidSet()
    ctx = DecodeContext(format=DEFAULT_V4)
    header = Header(0, T.PREVIOUS_GTIDS_LOG_EVENT, 0, 0, 0, 0)
    try:
        body = previous_gtids.decode(Reader(data), ctx, header)
    except BinlogError as e:
        raise BadGtidSet(str(e)) from e
    out = MysqlGtidSet()
    for sid in body["sids"]:
        out.intervals.setdefault((sid["uuid"], sid.get("tag", "")), []).extend(
            (_int(iv["start"]), _int(iv["end"])) for iv in sid["intervals"])
    return out


def _int(v: object) -> int:
    return int(v["value"]) if isinstance(v, dict) else int(v)  # type: ignore[index,arg-type]


_MARIADB_GTID = re.compile(r"(\d+)-(\d+)-(\d+)$")


@dataclass
class MariadbState:
    seq_by_domain: dict[int, int] = field(default_factory=dict)
    server_by_domain: dict[int, int] = field(default_factory=dict)

    def remove(self, domain: int) -> None:
        self.seq_by_domain.pop(domain, None)
        self.server_by_domain.pop(domain, None)

    def text(self, domain: int) -> str:
        """The requested GTID of a domain as the server's messages print it (%u-%u-%llu)."""
        return f"{domain}-{self.server_by_domain.get(domain, 0)}-{self.seq_by_domain[domain]}"

    def contains(self, domain: int, seq: int) -> bool:
        return seq <= self.seq_by_domain.get(domain, 0)


def parse_mariadb_state(text: str) -> MariadbState:
    state = MariadbState()
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = _MARIADB_GTID.match(part)
        if not m:
            raise BadGtidSet(f"Could not parse GTID list '{text}'")
        state.seq_by_domain[int(m[1])] = int(m[3])
        state.server_by_domain[int(m[1])] = int(m[2])
    return state
