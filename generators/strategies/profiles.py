"""Version profiles: what a MySQL or MariaDB server of one release line writes, as far as the
strategies need it. The Format_description post-header lengths and server versions are copied
from real binlogs of that line (the files named in `source`; tests/test_strategies.py re-reads
them and fails if they differ), and the event set, status variables and column types are what
that line's servers log."""
from __future__ import annotations

from dataclasses import dataclass

from oracle.codecs.types import ColumnType as C
from oracle.event_types import EventType as E

# Status variables every MySQL >= 5.6 server may log (log_event.cc Query_log_event::write), in the
# order it writes them (increasing code).
_STATUS_56 = ("Q_FLAGS2_CODE", "Q_SQL_MODE_CODE", "Q_CATALOG_NZ_CODE", "Q_AUTO_INCREMENT", "Q_CHARSET_CODE",
              "Q_TIME_ZONE_CODE", "Q_LC_TIME_NAMES_CODE", "Q_CHARSET_DATABASE_CODE",
              "Q_TABLE_MAP_FOR_UPDATE_CODE", "Q_MASTER_DATA_WRITTEN_CODE", "Q_INVOKER", "Q_UPDATED_DB_NAMES",
              "Q_MICROSECONDS")
_STATUS_57 = _STATUS_56 + ("Q_EXPLICIT_DEFAULTS_FOR_TIMESTAMP",)
_STATUS_80 = _STATUS_57 + ("Q_DDL_LOGGED_WITH_XID", "Q_DEFAULT_COLLATION_FOR_UTF8MB4", "Q_SQL_REQUIRE_PRIMARY_KEY",
                           "Q_DEFAULT_TABLE_ENCRYPTION")
# MariaDB (sql/log_event_server.cc Query_log_event::write) never writes Q_MASTER_DATA_WRITTEN_CODE,
# adds Q_HRNOW, Q_XID (10.6, atomic DDL) and Q_GTID_FLAGS3 (10.8, two-phase ALTER), and writes
# Q_CHARACTER_SET_COLLATIONS (11.2) out of code order, before Q_CHARSET_CODE (as 11.8 does in the corpus).
_STATUS_MARIADB_105 = ("Q_FLAGS2_CODE", "Q_SQL_MODE_CODE", "Q_CATALOG_NZ_CODE", "Q_AUTO_INCREMENT",
                       "Q_CHARSET_CODE", "Q_TIME_ZONE_CODE", "Q_LC_TIME_NAMES_CODE", "Q_CHARSET_DATABASE_CODE",
                       "Q_TABLE_MAP_FOR_UPDATE_CODE", "Q_INVOKER", "Q_HRNOW")
_STATUS_MARIADB_1011 = _STATUS_MARIADB_105 + ("Q_XID", "Q_GTID_FLAGS3")
_STATUS_MARIADB_11 = _STATUS_MARIADB_1011[:4] + ("Q_CHARACTER_SET_COLLATIONS",) + _STATUS_MARIADB_1011[4:]

# Column types a table of that line can log (the temporal types without fractional seconds are
# the pre-5.6.4 formats, still logged for tables created before an upgrade). MariaDB logs its JSON
# as a BLOB and its VECTOR as a VARCHAR (corpus/mariadb-11.8), so the 5.6 set.
_COLUMNS_56 = (C.TINY, C.SHORT, C.INT24, C.LONG, C.LONGLONG, C.FLOAT, C.DOUBLE, C.NEWDECIMAL, C.YEAR, C.DATE,
               C.TIME, C.DATETIME, C.TIMESTAMP, C.TIME2, C.DATETIME2, C.TIMESTAMP2, C.BIT, C.VARCHAR, C.STRING,
               C.ENUM, C.SET, C.BLOB, C.GEOMETRY)
_COLUMNS_57 = _COLUMNS_56 + (C.JSON,)
_COLUMNS_9 = _COLUMNS_57 + (C.VECTOR,)

_EVENTS_56 = (E.FORMAT_DESCRIPTION_EVENT, E.PREVIOUS_GTIDS_LOG_EVENT, E.QUERY_EVENT, E.TABLE_MAP_EVENT,
              E.WRITE_ROWS_EVENT, E.UPDATE_ROWS_EVENT, E.DELETE_ROWS_EVENT, E.ROWS_QUERY_LOG_EVENT, E.XID_EVENT,
              E.GTID_LOG_EVENT, E.ROTATE_EVENT, E.STOP_EVENT)
_EVENTS_57 = _EVENTS_56 + (E.ANONYMOUS_GTID_LOG_EVENT,)
_EVENTS_9 = _EVENTS_57 + (E.GTID_TAGGED_LOG_EVENT,)
# MariaDB: Gtid_list and Binlog_checkpoint after the FDE, a Gtid event in place of BEGIN, v1 rows
# events, XA, and (log_bin_compress) the compressed Query and v1 rows events; no Start_encryption.
_EVENTS_MARIADB = (E.FORMAT_DESCRIPTION_EVENT, E.GTID_LIST_EVENT, E.BINLOG_CHECKPOINT_EVENT, E.GTID_EVENT,
                   E.QUERY_EVENT, E.ANNOTATE_ROWS_EVENT, E.TABLE_MAP_EVENT, E.WRITE_ROWS_EVENT_V1,
                   E.UPDATE_ROWS_EVENT_V1, E.DELETE_ROWS_EVENT_V1, E.XID_EVENT, E.XA_PREPARE_LOG_EVENT,
                   E.ROTATE_EVENT, E.STOP_EVENT, E.QUERY_COMPRESSED_EVENT, E.WRITE_ROWS_COMPRESSED_EVENT_V1,
                   E.UPDATE_ROWS_COMPRESSED_EVENT_V1, E.DELETE_ROWS_COMPRESSED_EVENT_V1)

# Collations a server can name in Q_CHARSET_CODE and friends (latin1, utf8mb3, utf8mb4, binary, ...);
# 255 (utf8mb4_0900_ai_ci) is MySQL's, 2048 and 2304 (utf8mb3/utf8mb4_uca1400_ai_ci) MariaDB 10.10+'s.
_COLLATIONS = (8, 28, 33, 45, 46, 63, 83, 192, 224, 246)
_COLLATIONS_MYSQL = _COLLATIONS + (255,)
_COLLATIONS_MARIADB_1010 = _COLLATIONS + (2048, 2304)


def _sparse(length: int, lengths: dict[int, int]) -> tuple[int, ...]:
    """Post-header lengths given as {type code: length}, the others 0."""
    return tuple(lengths.get(code, 0) for code in range(1, length + 1))


# MariaDB's FDE lists 171 types; 10.11's and 11.8's also give MySQL's 39..41 (10 bytes each).
_MARIADB_105_POST_HEADERS = {1: 56, 2: 13, 4: 8, 6: 18, 8: 4, 9: 4, 10: 4, 11: 4, 12: 18, 15: 228, 17: 4, 18: 26,
                             19: 8, 23: 8, 24: 8, 25: 8, 26: 2, 30: 10, 31: 10, 32: 10, 161: 4, 162: 19, 163: 4,
                             165: 13, 166: 8, 167: 8, 168: 8, 169: 10, 170: 10, 171: 10}
_MARIADB_1011_POST_HEADERS = {**_MARIADB_105_POST_HEADERS, 39: 10, 40: 10, 41: 10}


@dataclass(frozen=True)
class VersionProfile:
    name: str
    server_version: str
    post_header_len: tuple[int, ...]
    source: tuple[str, ...]  # real binlogs (external-binlogs paths or corpus/...) with this FDE
    events: tuple[int, ...]
    status_vars: tuple[str, ...]  # in the order the server writes them
    column_types: tuple[int, ...]
    signedness_metadata: bool  # binlog_row_metadata (MySQL 8.0.1+, MariaDB 10.5+): SIGNEDNESS
    gtid_fields: str = "none"  # MySQL: "none" (5.6: gtid + sid only), "logical" (5.7), "commit" (8.0+)
    previous_gtids_formats: tuple[str, ...] = ("untagged",)  # MySQL 8.3+ also writes "tagged" sets
    gtid_flags_extra: tuple[str, ...] = ()  # MariaDB: flags_extra bits a Gtid event may carry
    gtid_thread_id: bool = False  # MariaDB 11.x (11.8 in the corpus): every Gtid event carries the thread id
    collations: tuple[int, ...] = _COLLATIONS_MYSQL

    @property
    def flavor(self) -> str:
        """As oracle.fde tells them apart: by the server version the FDE carries."""
        return "mariadb" if "mariadb" in self.server_version.lower() else "mysql"

    @property
    def version_id(self) -> int:
        """The 5-digit version the server writes into GTID events (immediate_server_version)."""
        major, minor, patch = (int(x) for x in self.server_version.split("-")[0].split(".")[:3])
        return major * 10000 + minor * 100 + patch


_MYSQL = (
    VersionProfile(
        "5.6", "5.6.24-log",
        (56, 13, 0, 8, 0, 18, 0, 4, 4, 4, 4, 18, 0, 0, 92, 0, 4, 26, 8, 0, 0, 0, 8, 8, 8, 2, 0, 0, 0,
         10, 10, 10, 25, 25, 0),
        ("blackbeam__rust_mysql_common/test-data__binlogs__binlog_transaction_with_GTID.000001",
         "go-mysql-org__go-mysql/replication__t__tcb-eval002c-bin.003320"),
        _EVENTS_56, _STATUS_56, _COLUMNS_56, False, gtid_fields="none"),
    VersionProfile(
        "5.7", "5.7.21-log",
        (56, 13, 0, 8, 0, 18, 0, 4, 4, 4, 4, 18, 0, 0, 95, 0, 4, 26, 8, 0, 0, 0, 8, 8, 8, 2, 0, 0, 0,
         10, 10, 10, 42, 42, 0, 18, 52, 0),
        ("shyiko__mysql-binlog-connector-java/src__test__resources__mysql-bin.checksum-crc32",
         "shyiko__mysql-binlog-connector-java/src__test__resources__mysql-bin.checksum-none"),
        _EVENTS_57, _STATUS_57, _COLUMNS_57, False, gtid_fields="logical"),
    VersionProfile(
        "8.0", "8.0.32",
        (0, 13, 0, 8, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 98, 0, 4, 26, 8, 0, 0, 0, 8, 8, 8, 2, 0, 0, 0,
         10, 10, 10, 42, 42, 0, 18, 52, 0, 10, 40, 0),
        ("blackbeam__rust_mysql_common/test-data__binlogs__transaction_compression.000001",
         "blackbeam__rust_mysql_common/test-data__binlogs__mysql-enum-string-set.000001"),
        _EVENTS_57, _STATUS_80, _COLUMNS_57, True, gtid_fields="commit"),
    VersionProfile(
        "9.x", "9.7.4-2",
        (0, 13, 0, 8, 0, 0, 0, 0, 4, 0, 4, 0, 0, 0, 99, 0, 4, 26, 8, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0,
         10, 10, 10, 42, 42, 0, 18, 52, 0, 10, 40, 0, 0),
        ("blackbeam__rust_mysql_common/test-data__binlogs__binlog_transaction_with_GTID_TAG.000001",
         "corpus/mysql-9.7/integers--row/binlog.000001"),
        _EVENTS_9, _STATUS_80, _COLUMNS_9, True, gtid_fields="commit",
        previous_gtids_formats=("untagged", "tagged")),
)

_MARIADB = (
    VersionProfile(
        "mariadb-10.5", "10.5.23-MariaDB-0+deb11u1-log", _sparse(171, _MARIADB_105_POST_HEADERS),
        ("blackbeam__rust_mysql_common/test-data__binlogs__mariadb-bin.000001",
         "corpus/mariadb-10.5/ddl_dml_basic--row/binlog.000001"),
        _EVENTS_MARIADB, _STATUS_MARIADB_105, _COLUMNS_56, True, collations=_COLLATIONS),
    VersionProfile(
        "mariadb-10.11", "10.11.18-MariaDB-0+deb12u1-log", _sparse(171, _MARIADB_1011_POST_HEADERS),
        ("corpus/mariadb-10.11/ddl_dml_basic--row/binlog.000001",
         "corpus/mariadb-10.11/xa--row/binlog.000001"),
        _EVENTS_MARIADB, _STATUS_MARIADB_1011, _COLUMNS_56, True,
        gtid_flags_extra=("FL_EXTRA_MULTI_ENGINE_E1",), collations=_COLLATIONS_MARIADB_1010),
    VersionProfile(
        "mariadb-11.x", "11.8.6-MariaDB-0+deb13u1 from Debian-log", _sparse(171, _MARIADB_1011_POST_HEADERS),
        ("mariadb-operator__mariadb-poc/mariadb-binlog__binlogs__domain_id_0__mariadb-repl-bin.000001",
         "corpus/mariadb-11.8/ddl_dml_basic--row/binlog.000001"),
        _EVENTS_MARIADB, _STATUS_MARIADB_11, _COLUMNS_56, True,
        gtid_flags_extra=("FL_EXTRA_MULTI_ENGINE_E1",), gtid_thread_id=True, collations=_COLLATIONS_MARIADB_1010),
)

PROFILES: dict[str, VersionProfile] = {p.name: p for p in _MYSQL + _MARIADB}
