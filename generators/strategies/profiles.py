"""Version profiles: what a MySQL server of one release line writes, as far as the strategies
need it. The Format_description post-header lengths are copied from real binlogs of that line
(the files named in `source`; tests/test_strategies.py re-reads them and fails if they differ),
and the event set, status variables and column types are what that line's servers log."""
from __future__ import annotations

from dataclasses import dataclass

from oracle.codecs.types import ColumnType as C
from oracle.event_types import EventType as E

# Status variables every MySQL >= 5.6 server may log (log_event.cc Query_log_event::write).
_STATUS_56 = ("Q_FLAGS2_CODE", "Q_SQL_MODE_CODE", "Q_CATALOG_NZ_CODE", "Q_AUTO_INCREMENT", "Q_CHARSET_CODE",
              "Q_TIME_ZONE_CODE", "Q_LC_TIME_NAMES_CODE", "Q_CHARSET_DATABASE_CODE",
              "Q_TABLE_MAP_FOR_UPDATE_CODE", "Q_MASTER_DATA_WRITTEN_CODE", "Q_INVOKER", "Q_UPDATED_DB_NAMES",
              "Q_MICROSECONDS")
_STATUS_57 = _STATUS_56 + ("Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP",)
_STATUS_80 = _STATUS_57 + ("Q_DDL_LOGGED_WITH_XID", "Q_DEFAULT_COLLATION_FOR_UTF8MB4", "Q_SQL_REQUIRE_PRIMARY_KEY",
                           "Q_DEFAULT_TABLE_ENCRYPTION")

# Column types a table of that line can log (the temporal types without fractional seconds are
# the pre-5.6.4 formats, still logged for tables created before an upgrade).
_COLUMNS_56 = (C.TINY, C.SHORT, C.INT24, C.LONG, C.LONGLONG, C.FLOAT, C.DOUBLE, C.NEWDECIMAL, C.YEAR, C.DATE,
               C.TIME, C.DATETIME, C.TIMESTAMP, C.TIME2, C.DATETIME2, C.TIMESTAMP2, C.BIT, C.VARCHAR, C.STRING,
               C.ENUM, C.SET, C.BLOB, C.GEOMETRY)
_COLUMNS_57 = _COLUMNS_56 + (C.JSON,)
_COLUMNS_9 = _COLUMNS_57 + (C.VECTOR,)

_EVENTS_56 = (E.FORMAT_DESCRIPTION_EVENT, E.PREVIOUS_GTIDS_LOG_EVENT, E.QUERY_EVENT, E.TABLE_MAP_EVENT,
              E.WRITE_ROWS_EVENT, E.UPDATE_ROWS_EVENT, E.DELETE_ROWS_EVENT, E.ROWS_QUERY_LOG_EVENT, E.XID_EVENT,
              E.GTID_LOG_EVENT, E.ROTATE_EVENT, E.STOP_EVENT)
_EVENTS_57 = _EVENTS_56 + (E.ANONYMOUS_GTID_LOG_EVENT,)


@dataclass(frozen=True)
class VersionProfile:
    name: str
    server_version: str
    post_header_len: tuple[int, ...]
    source: tuple[str, ...]  # real binlogs (external-binlogs paths or corpus/...) with this FDE
    events: tuple[int, ...]
    status_vars: tuple[str, ...]
    column_types: tuple[int, ...]
    gtid_fields: str  # "none" (5.6: gtid + sid only), "logical" (5.7), "commit" (8.0+: timestamps, length)
    previous_gtids_format: str  # "untagged", or "tagged" (9.x)
    signedness_metadata: bool  # binlog_row_metadata (8.0.1+): SIGNEDNESS optional metadata

    @property
    def version_id(self) -> int:
        """The 5-digit version the server writes into GTID events (immediate_server_version)."""
        major, minor, patch = (int(x) for x in self.server_version.split("-")[0].split(".")[:3])
        return major * 10000 + minor * 100 + patch


PROFILES: dict[str, VersionProfile] = {p.name: p for p in (
    VersionProfile(
        "5.6", "5.6.24-log",
        (56, 13, 0, 8, 0, 18, 0, 4, 4, 4, 4, 18, 0, 0, 92, 0, 4, 26, 8, 0, 0, 0, 8, 8, 8, 2, 0, 0, 0,
         10, 10, 10, 25, 25, 0),
        ("blackbeam__rust_mysql_common/test-data__binlogs__binlog_transaction_with_GTID.000001",
         "go-mysql-org__go-mysql/replication__t__tcb-eval002c-bin.003320"),
        _EVENTS_56, _STATUS_56, _COLUMNS_56, "none", "untagged", False),
    VersionProfile(
        "5.7", "5.7.21-log",
        (56, 13, 0, 8, 0, 18, 0, 4, 4, 4, 4, 18, 0, 0, 95, 0, 4, 26, 8, 0, 0, 0, 8, 8, 8, 2, 0, 0, 0,
         10, 10, 10, 42, 42, 0, 18, 52, 0),
        ("shyiko__mysql-binlog-connector-java/src__test__resources__mysql-bin.checksum-crc32",
         "shyiko__mysql-binlog-connector-java/src__test__resources__mysql-bin.checksum-none"),
        _EVENTS_57, _STATUS_57, _COLUMNS_57, "logical", "untagged", False),
    VersionProfile(
        "8.0", "8.0.32",
        (0, 13, 0, 8, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 98, 0, 4, 26, 8, 0, 0, 0, 8, 8, 8, 2, 0, 0, 0,
         10, 10, 10, 42, 42, 0, 18, 52, 0, 10, 40, 0),
        ("blackbeam__rust_mysql_common/test-data__binlogs__transaction_compression.000001",
         "blackbeam__rust_mysql_common/test-data__binlogs__mysql-enum-string-set.000001"),
        _EVENTS_57, _STATUS_80, _COLUMNS_57, "commit", "untagged", True),
    VersionProfile(
        "9.x", "9.7.4-2",
        (0, 13, 0, 8, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 99, 0, 4, 26, 8, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
         10, 10, 10, 42, 42, 0, 18, 52, 0, 10, 40, 0, 0),
        ("blackbeam__rust_mysql_common/test-data__binlogs__binlog_transaction_with_GTID_TAG.000001",
         "corpus/mysql-9.7/integers--row/binlog.000001"),
        _EVENTS_57, _STATUS_80, _COLUMNS_9, "commit", "tagged", True),
)}
