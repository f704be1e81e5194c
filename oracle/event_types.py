"""Event type codes and header flags, named as MySQL's and MariaDB's sources name them."""
from __future__ import annotations

from enum import IntEnum, IntFlag


class EventType(IntEnum):
    UNKNOWN_EVENT = 0
    START_EVENT_V3 = 1
    QUERY_EVENT = 2
    STOP_EVENT = 3
    ROTATE_EVENT = 4
    INTVAR_EVENT = 5
    LOAD_EVENT = 6
    SLAVE_EVENT = 7
    CREATE_FILE_EVENT = 8
    APPEND_BLOCK_EVENT = 9
    EXEC_LOAD_EVENT = 10
    DELETE_FILE_EVENT = 11
    NEW_LOAD_EVENT = 12
    RAND_EVENT = 13
    USER_VAR_EVENT = 14
    FORMAT_DESCRIPTION_EVENT = 15
    XID_EVENT = 16
    BEGIN_LOAD_QUERY_EVENT = 17
    EXECUTE_LOAD_QUERY_EVENT = 18
    TABLE_MAP_EVENT = 19
    PRE_GA_WRITE_ROWS_EVENT = 20
    PRE_GA_UPDATE_ROWS_EVENT = 21
    PRE_GA_DELETE_ROWS_EVENT = 22
    WRITE_ROWS_EVENT_V1 = 23
    UPDATE_ROWS_EVENT_V1 = 24
    DELETE_ROWS_EVENT_V1 = 25
    INCIDENT_EVENT = 26
    HEARTBEAT_LOG_EVENT = 27
    IGNORABLE_LOG_EVENT = 28
    ROWS_QUERY_LOG_EVENT = 29
    WRITE_ROWS_EVENT = 30
    UPDATE_ROWS_EVENT = 31
    DELETE_ROWS_EVENT = 32
    GTID_LOG_EVENT = 33
    ANONYMOUS_GTID_LOG_EVENT = 34
    PREVIOUS_GTIDS_LOG_EVENT = 35
    TRANSACTION_CONTEXT_EVENT = 36
    VIEW_CHANGE_EVENT = 37
    XA_PREPARE_LOG_EVENT = 38
    PARTIAL_UPDATE_ROWS_EVENT = 39
    TRANSACTION_PAYLOAD_EVENT = 40
    HEARTBEAT_LOG_EVENT_V2 = 41
    GTID_TAGGED_LOG_EVENT = 42
    # MariaDB
    ANNOTATE_ROWS_EVENT = 160
    BINLOG_CHECKPOINT_EVENT = 161
    GTID_EVENT = 162
    GTID_LIST_EVENT = 163
    START_ENCRYPTION_EVENT = 164
    QUERY_COMPRESSED_EVENT = 165
    WRITE_ROWS_COMPRESSED_EVENT_V1 = 166
    UPDATE_ROWS_COMPRESSED_EVENT_V1 = 167
    DELETE_ROWS_COMPRESSED_EVENT_V1 = 168
    WRITE_ROWS_COMPRESSED_EVENT = 169
    UPDATE_ROWS_COMPRESSED_EVENT = 170
    DELETE_ROWS_COMPRESSED_EVENT = 171


_TYPE_NAMES = {int(t): t.name for t in EventType}  # a dict: named for every event decoded


def type_name(code: int) -> str:
    name = _TYPE_NAMES.get(code)
    return name if name is not None else f"UNKNOWN_TYPE_{code}"


class HeaderFlag(IntFlag):
    LOG_EVENT_BINLOG_IN_USE_F = 0x1
    LOG_EVENT_FORCED_ROTATE_F = 0x2
    LOG_EVENT_THREAD_SPECIFIC_F = 0x4
    LOG_EVENT_SUPPRESS_USE_F = 0x8
    LOG_EVENT_UPDATE_TABLE_MAP_VERSION_F = 0x10
    LOG_EVENT_ARTIFICIAL_F = 0x20
    LOG_EVENT_RELAY_LOG_F = 0x40
    LOG_EVENT_IGNORABLE_F = 0x80
    LOG_EVENT_NO_FILTER_F = 0x100
    LOG_EVENT_MTS_ISOLATE_F = 0x200
    LOG_EVENT_SKIP_REPLICATION_F = 0x8000  # MariaDB


_FLAG_NAMES = {int(f): f.name for f in HeaderFlag}


def flag_names(flags: int) -> list[str]:
    """Names of the set bits, in bit order; undefined bits as UNDEFINED_0x...."""
    names = []
    bit = 1
    while bit <= flags:
        if flags & bit:
            names.append(_FLAG_NAMES.get(bit, f"UNDEFINED_{bit:#06x}"))
        bit <<= 1
    return names
