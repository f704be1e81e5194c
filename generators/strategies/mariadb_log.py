"""A MariaDB binlog's events after the FDE: Gtid_list and Binlog_checkpoint, then event groups,
each opened by a Gtid event (MariaDB writes no BEGIN): a DDL statement; a transaction ([Annotate_rows],
Table_maps, v1 rows events, then Xid, or a COMMIT Query when no transactional engine took part);
an XA transaction (its rows, XA END, XA_prepare) and the group that commits or rolls it back;
and now and then another Binlog_checkpoint. With log_bin_compress the file writes its Query and
rows events in their compressed forms."""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable

from hypothesis import strategies as st

from oracle.event_types import EventType as E, HeaderFlag
from oracle.values import integer

from . import events as ev, mariadb_events as mdb
from .builder import COIN, DDL_FLAGS, Builder, file_name
from .profiles import VersionProfile

COMPRESSED = {E.QUERY_EVENT: E.QUERY_COMPRESSED_EVENT, E.WRITE_ROWS_EVENT_V1: E.WRITE_ROWS_COMPRESSED_EVENT_V1,
              E.UPDATE_ROWS_EVENT_V1: E.UPDATE_ROWS_COMPRESSED_EVENT_V1,
              E.DELETE_ROWS_EVENT_V1: E.DELETE_ROWS_COMPRESSED_EVENT_V1}
XA_ENDINGS = st.sampled_from(["XA COMMIT", "XA ROLLBACK"])
ALTER_ENDINGS = st.sampled_from([ev.COMMIT_ALTER, ev.ROLLBACK_ALTER])
ALTER_PHASE = "Q_GTID_FLAGS3"  # set by two_phase_alter, not drawn


@lru_cache(maxsize=None)
def _query(profile: VersionProfile, ddl: bool) -> st.SearchStrategy:
    """A Query body; outside DDL without the ddl_log xid (Q_XID)."""
    leave_out = (ALTER_PHASE,) if ddl else (ALTER_PHASE, "Q_XID")
    return ev.query_body(profile, tuple(n for n in profile.status_vars if n not in leave_out))


class MariadbLog(Builder):
    def __init__(self, draw: Callable, profile: VersionProfile, column_types: tuple[int, ...] | None) -> None:
        super().__init__(draw, profile, column_types)
        self.transactions = ("ddl", "row_transaction", "xa_transaction", "checkpoint") + \
            (("two_phase_alter",) if ALTER_PHASE in profile.status_vars else ())
        self.domain_id = draw(mdb.domain_ids)
        self.seq_no = draw(mdb.first_seq_nos)  # the next GTID's
        self.compress = draw(COIN)  # log_bin_compress

    def head(self) -> None:
        state = self.draw(mdb.binlog_state(self.server_id, self.domain_id, self.seq_no))
        self.add(E.GTID_LIST_EVENT, mdb.gtid_list_body(state), tick=False)
        self.add(E.BINLOG_CHECKPOINT_EVENT, {"binlog_file_name": file_name(self.file_number)}, tick=False)

    def variant(self, type_code: int) -> int:
        """Compressed when the file compresses (log_bin_compress_min_len at its least, 10 bytes:
        every Query and rows event is longer)."""
        return COMPRESSED.get(type_code, type_code) if self.compress else type_code

    def gtid(self, group: str, thread_id: int, xid: dict[str, Any] | None = None,
             alter: dict[str, Any] | None = None) -> None:
        body = {"seq_no": integer(self.seq_no), "domain_id": self.domain_id, **self.draw(mdb.gtid_flags(group)),
                **(xid or {}), **self.draw(mdb.flags_extra(self.profile, thread_id, alter))}
        self.seq_no += 1
        self.add(E.GTID_EVENT, body, flags=HeaderFlag.LOG_EVENT_SUPPRESS_USE_F)

    def query(self, body: dict[str, Any], db: str, text: str, flags: int = 0) -> None:
        self.add(self.variant(E.QUERY_EVENT), {**body, "db": db, "query": text}, flags=flags)

    def ddl(self, statement: str | None = None, phase: dict[str, Any] | None = None) -> None:
        """A DDL statement, or one phase of a two-phase ALTER (its Query says which, in
        Q_GTID_FLAGS3, and so does its Gtid event)."""
        body = self.draw(_query(self.profile, ddl=True))
        if phase:
            body["status_vars"][ALTER_PHASE] = phase  # the last the server writes
        self.gtid("ddl", body["thread_id"], alter=phase)
        db = self.draw(ev.identifiers)
        self.query(body, db, statement or self.draw(ev.ddl_statements)(db), flags=self.draw(DDL_FLAGS))

    def two_phase_alter(self) -> None:
        """binlog_alter_two_phase (10.8+): START ALTER, then the COMMIT or ROLLBACK ALTER of it
        naming its seq_no (sa_seq_no), both with the statement."""
        statement = f"ALTER TABLE `{self.draw(ev.identifiers)}` ADD COLUMN `{self.draw(ev.identifiers)}` INT"
        start = self.seq_no
        self.ddl(statement, {"gtid_flags_extra": ev.START_ALTER})
        self.ddl(statement, {"gtid_flags_extra": self.draw(ALTER_ENDINGS), "sa_seq_no": integer(start)})

    def statement(self) -> str:
        """[Annotate_rows], then the statement's Table_maps and rows events; its database."""
        db = self.draw(ev.identifiers)
        if self.draw(COIN):
            self.add(E.ANNOTATE_ROWS_EVENT, {"query": ev.row_statement(db)})
        self.rows(db)
        return db

    def row_transaction(self) -> None:
        transactional = self.draw(COIN)
        end = self.draw(_query(self.profile, ddl=False))
        self.gtid("transactional" if transactional else "non-transactional", end["thread_id"])
        db = self.statement()
        if transactional:
            self.xid += 1
            self.add(E.XID_EVENT, {"xid": self.xid})
        else:
            self.query(end, db, "COMMIT")

    def xa_transaction(self) -> None:
        """XA START ... XA END; XA PREPARE, then XA COMMIT or XA ROLLBACK, a group of its own."""
        xid = self.draw(mdb.xids)
        end = self.draw(_query(self.profile, ddl=False))
        self.gtid("xa-prepare", end["thread_id"], xid=xid)
        db = self.statement()
        self.query(end, db, f"XA END {xid['xid']}")
        self.add(E.XA_PREPARE_LOG_EVENT, {"one_phase": False, **xid})
        complete = self.draw(_query(self.profile, ddl=False))  # maybe from another session
        self.gtid("xa-complete", complete["thread_id"], xid=xid)
        self.query(complete, "", f"{self.draw(XA_ENDINGS)} {xid['xid']}")

    def checkpoint(self) -> None:
        """The oldest binlog crash recovery still needs: this file or an earlier one."""
        number = self.draw(st.integers(1, self.file_number))
        self.add(E.BINLOG_CHECKPOINT_EVENT, {"binlog_file_name": file_name(number)})
