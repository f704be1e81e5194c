"""What a binlog file's events share while a strategy builds them, and what every flavor writes
the same way: the Format_description first, Table_maps with the rows events of a statement, and
the end of the file (a Rotate, a Stop, or nothing while the server is still writing it). The
flavors (mysql_log.py, mariadb_log.py) add the events after the FDE and their event groups."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from hypothesis import strategies as st

from oracle.event_types import EventType as E, HeaderFlag

from . import events as ev
from .profiles import VersionProfile

TICKS = st.integers(0, 3)  # seconds between events
COIN = st.booleans()
TABLES = st.integers(1, 2)  # tables per row transaction
ENDINGS = st.sampled_from(["open", "rotate", "stop"])  # shrinks towards an open file
DDL_FLAGS = st.sampled_from([0, HeaderFlag.LOG_EVENT_SUPPRESS_USE_F])
CHECKSUMS = st.sampled_from(["CRC32", "OFF"])
FILE_NUMBERS = st.integers(1, 999_999)  # binlog.000001 ...


@lru_cache(maxsize=None)
def statements(profile: VersionProfile) -> st.SearchStrategy:
    """The rows events one table gets in a statement."""
    return st.lists(st.sampled_from(ev.rows_events(profile)), min_size=1, max_size=2)


def file_name(number: int) -> str:
    return f"binlog.{number:06d}"


class Builder:
    """The clock (timestamps never go back), server id, checksum setting, file number, next table
    id and xid, and the events built so far. Subclasses name their kinds of event group in
    `transactions` (methods drawn from to fill the file) and write the events after the FDE."""

    transactions: tuple[str, ...] = ()

    def __init__(self, draw: Callable, profile: VersionProfile, column_types: tuple[int, ...] | None) -> None:
        self.draw, self.profile = draw, profile
        self.columns = ev.table_columns(profile, column_types or profile.column_types)
        self.now = draw(ev.timestamps)
        self.server_id = draw(ev.server_ids)
        self.checksum = draw(CHECKSUMS)
        self.file_number = draw(FILE_NUMBERS)
        self.table_id = draw(st.integers(1, 2**32))
        self.xid = draw(st.integers(1, 2**40))
        self.out: list[dict[str, Any]] = []

    def add(self, type_code: int, body: dict[str, Any], flags: int = 0, tick: bool = True) -> None:
        if tick:
            self.now += self.draw(TICKS)
        self.out.append(ev.event(type_code, body, timestamp=self.now, server_id=self.server_id,
                                 checksum=self.checksum, flags=flags))

    def start(self) -> None:
        """The Format_description (in use until the file is closed), then what the flavor writes
        after it, at the same time."""
        fde = ev.format_description(self.profile, self.checksum, self.now, in_use=True)
        self.out.append({**fde, "server_id": self.server_id})
        self.head()

    def head(self) -> None:
        """The events after the FDE."""
        raise NotImplementedError

    def row_transaction(self) -> None:
        """A transaction of rows events (files built with column_types start with one)."""
        raise NotImplementedError

    def variant(self, type_code: int) -> int:
        """The type the file writes an event of type_code as (MariaDB may compress it)."""
        return type_code

    def rows(self, db: str) -> None:
        """One statement's Table_maps, then its rows events on them, the last flagged STMT_END_F."""
        tables = []
        for _ in range(self.draw(TABLES)):
            self.table_id += 1
            cols = self.draw(self.columns)
            self.add(E.TABLE_MAP_EVENT, ev.table_map_body(self.table_id, db, self.draw(ev.identifiers), cols,
                                                          self.profile.signedness_metadata))
            tables.append((self.table_id, cols))
        events = [(tid, cols, code) for tid, cols in tables for code in self.draw(statements(self.profile))]
        for i, (tid, cols, code) in enumerate(events):
            self.add(self.variant(code), self.draw(ev.rows_body(code, tid, cols, last=i == len(events) - 1)))

    def close(self) -> None:
        """Rotate, Stop, or nothing (the file is still being written, its FDE says so)."""
        end = self.draw(ENDINGS)
        if end == "rotate":
            self.add(E.ROTATE_EVENT, {"pos": 4, "new_log_ident": file_name(self.file_number + 1)})
        elif end == "stop":
            self.add(E.STOP_EVENT, {})
        if end != "open":
            self.out[0]["flags"] = 0
