"""A MySQL binlog's events after the FDE: Previous_gtids, then DDL statements and row
transactions, each opened by the GTID event the profile writes (tagged or not, anonymous, or none
before 5.7 without gtid_mode), a row transaction being Query BEGIN, [Rows_query], Table_maps,
rows events and Xid."""
from __future__ import annotations

from typing import Callable

from oracle.event_types import EventType as E, HeaderFlag

from . import events as ev, gtids
from .builder import COIN, DDL_FLAGS, Builder
from .profiles import VersionProfile


class MysqlLog(Builder):
    transactions = ("ddl", "row_transaction")

    def __init__(self, draw: Callable, profile: VersionProfile, column_types: tuple[int, ...] | None) -> None:
        super().__init__(draw, profile, column_types)
        self.gtids = draw(COIN)  # gtid_mode=ON (else anonymous, or nothing before 5.7)

    def head(self) -> None:
        flags = HeaderFlag.LOG_EVENT_IGNORABLE_F if self.profile.name != "5.6" else 0
        self.add(E.PREVIOUS_GTIDS_LOG_EVENT, self.draw(gtids.previous_gtids(self.profile)), flags=flags, tick=False)

    def gtid(self) -> None:
        events = self.profile.events
        if self.gtids and E.GTID_TAGGED_LOG_EVENT in events and self.draw(COIN):
            self.add(E.GTID_TAGGED_LOG_EVENT, self.draw(gtids.tagged_gtid_body(self.profile)))
        elif self.gtids:
            self.add(E.GTID_LOG_EVENT, self.draw(gtids.gtid_body(self.profile, anonymous=False)))
        elif E.ANONYMOUS_GTID_LOG_EVENT in events:
            self.add(E.ANONYMOUS_GTID_LOG_EVENT, self.draw(gtids.gtid_body(self.profile, anonymous=True)))

    def ddl(self) -> None:
        self.gtid()
        db = self.draw(ev.identifiers)
        body = {**self.draw(ev.query_body(self.profile)), "db": db, "query": self.draw(ev.ddl_statements)(db)}
        self.add(E.QUERY_EVENT, body, flags=self.draw(DDL_FLAGS))

    def row_transaction(self) -> None:
        self.gtid()
        db = self.draw(ev.identifiers)
        self.add(E.QUERY_EVENT, {**self.draw(ev.query_body(self.profile)), "db": db, "query": "BEGIN"})
        if self.draw(COIN):
            self.add(E.ROWS_QUERY_LOG_EVENT, {"length": 0, "rows_query": ev.row_statement(db)},
                     flags=HeaderFlag.LOG_EVENT_IGNORABLE_F)
        self.rows(db)
        self.xid += 1
        self.add(E.XID_EVENT, {"xid": self.xid})
