"""What MariaDB's binlog sender (sql/sql_repl.cc send_event_to_slave, gtid_find_binlog_file) does
beyond MySQL's: events left out for a replica's @mariadb_slave_capability or dump flags, and a
start from @slave_connect_state (the start file chosen by its Gtid_list, the event groups the
replica already has skipped)."""
from __future__ import annotations

import struct
from dataclasses import dataclass

from oracle.event_types import EventType as T

from .gtid import MariadbState
from .served import ServedLogs

# @mariadb_slave_capability levels (sql/log_event.h)
CAPABILITY_ANNOTATE = 1
CAPABILITY_TOLERATE_HOLES = 2
CAPABILITY_BINLOG_CHECKPOINT = 3
CAPABILITY_GTID = 4
BINLOG_SEND_ANNOTATE_ROWS_EVENT = 0x02
FL_STANDALONE = 0x01

# Events a replica below the capability does not understand; one that tolerates holes gets none.
_NEEDS = {T.BINLOG_CHECKPOINT_EVENT: CAPABILITY_BINLOG_CHECKPOINT, T.GTID_LIST_EVENT: CAPABILITY_GTID}
# Events that belong to the group of the event before them (Log_event::is_part_of_group).
PART_OF_GROUP = frozenset({T.BEGIN_LOAD_QUERY_EVENT, T.APPEND_BLOCK_EVENT, T.INTVAR_EVENT, T.RAND_EVENT,
                           T.USER_VAR_EVENT, T.TABLE_MAP_EVENT, T.ANNOTATE_ROWS_EVENT, T.WRITE_ROWS_EVENT_V1,
                           T.UPDATE_ROWS_EVENT_V1, T.DELETE_ROWS_EVENT_V1, T.WRITE_ROWS_EVENT,
                           T.UPDATE_ROWS_EVENT, T.DELETE_ROWS_EVENT, T.WRITE_ROWS_COMPRESSED_EVENT_V1,
                           T.UPDATE_ROWS_COMPRESSED_EVENT_V1, T.DELETE_ROWS_COMPRESSED_EVENT_V1,
                           T.WRITE_ROWS_COMPRESSED_EVENT, T.UPDATE_ROWS_COMPRESSED_EVENT,
                           T.DELETE_ROWS_COMPRESSED_EVENT})
_ENDS_TRANSACTION = frozenset({T.XID_EVENT, T.XA_PREPARE_LOG_EVENT})


def left_out(type_code: int, dump_flags: int, capability: int) -> bool:
    """Events the server omits for this replica. (Below CAPABILITY_TOLERATE_HOLES the server sends
    a dummy Query of the same size instead; harness serve sends those events unchanged.)"""
    if capability < CAPABILITY_TOLERATE_HOLES:
        return False
    if type_code == T.ANNOTATE_ROWS_EVENT:
        return not dump_flags & BINLOG_SEND_ANNOTATE_ROWS_EVENT
    return capability < _NEEDS.get(type_code, 0)


def start_file(logs: ServedLogs, state: MariadbState) -> int:
    """gtid_find_binlog_file: the last file whose starting Gtid_list the replica's state covers
    (every domain at or past the list's sequence number)."""
    for i in range(len(logs.files) - 1, -1, -1):
        start = logs.gtid_lists.get(logs.files[i].name, {})
        if all(state.seq_by_domain.get(d, -1) >= seq for d, seq in start.items()):
            return i
    return 0


def _is_commit_or_rollback(event: bytes, crc: bool) -> bool:
    """Query_log_event::peek_is_commit_rollback: the statement is COMMIT or ROLLBACK."""
    if len(event) < 19 + 13:
        return False
    db_len = event[19 + 8]
    status_len = struct.unpack_from("<H", event, 19 + 11)[0]
    start = 19 + 13 + status_len + db_len + 1
    query = event[start:len(event) - (4 if crc else 0)]
    return query in (b"COMMIT", b"ROLLBACK")


@dataclass
class GroupSkipper:
    """Skip the event groups the replica's @slave_connect_state already holds: a transaction up to
    its XID, XA prepare or COMMIT/ROLLBACK query; a standalone group (FL_STANDALONE) up to and
    including its first event that is not part of a group."""
    state: MariadbState
    mode: str = ""  # "", "transaction" or "standalone"

    def skip(self, event: bytes, crc: bool) -> bool:
        type_code = event[4]
        if not self.mode and type_code == T.GTID_EVENT:
            seq, domain, flags2 = struct.unpack_from("<QIB", event, 19)
            if self.state.contains(domain, seq):
                self.mode = "standalone" if flags2 & FL_STANDALONE else "transaction"
                return True
            return False
        if self.mode == "standalone":
            if type_code not in PART_OF_GROUP:
                self.mode = ""
            return True
        if self.mode == "transaction":
            if type_code in _ENDS_TRANSACTION or (type_code == T.QUERY_EVENT and _is_commit_or_rollback(event, crc)):
                self.mode = ""
            return True
        return False
