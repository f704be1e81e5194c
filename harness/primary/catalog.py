"""SHOW DATABASES, SHOW [FULL] TABLES and SHOW TABLE STATUS, which Debezium's MySQL connector sends,
answered from the tables the served binlogs name (their Table_maps: harness/primary/tables.py).
What a binlog does not say (engine, row counts, sizes, times, the table's collation) is NULL.

The column definitions are the real servers': recorded with PyMySQL (an utf8mb4 session) from
binlog-mysql:9.7 and binlog-mariadb:10.5, 10.11 and 11.8, and checked against a live server by
tests/test_primary_catalog.py. Text columns carry the session's result character set, which
PyMySQL's sessions got as 255 (MySQL), 45 (MariaDB 10.x) and 224 (MariaDB 11.8)."""
from __future__ import annotations

from dataclasses import dataclass

from .resultset import ColumnDef, Value
from .tables import Table

VAR_STRING, STRING, BLOB, LONG, LONGLONG, TIMESTAMP, DATETIME = 253, 254, 252, 3, 8, 7, 12
BINARY = 63
# column flags (include/mysql_com.h)
NOT_NULL, UNIQUE_KEY, BLOB_FLAG, UNSIGNED, BINARY_FLAG, ENUM_FLAG = 0x01, 0x04, 0x10, 0x20, 0x80, 0x100
NO_DEFAULT, PART_KEY = 0x1000, 0x4000
NOT_FIXED_DEC = 31


@dataclass(frozen=True)
class Dialect:
    """What differs between the flavors' answers."""
    text_charset: int
    mariadb: bool
    collation_length: int = 256  # MariaDB 10.5: 128


def dialect(flavor: str, version: tuple[int, int, int]) -> Dialect:
    if flavor == "mysql":
        return Dialect(255, False)
    # Recorded: 10.5 and 10.11 (45), 11.8 (224); 10.5 sends Collation with length 128, 10.11 256.
    return Dialect(45 if version < (11, 0, 0) else 224, True, 128 if version < (10, 6, 0) else 256)


def _text(d: Dialect, length: int, flags: int) -> ColumnDef:
    return ColumnDef(VAR_STRING, d.text_charset, length, flags)


def _number(d: Dialect, mysql_flags: int = UNSIGNED) -> ColumnDef:
    return ColumnDef(LONGLONG, BINARY, 21, (UNSIGNED | NO_DEFAULT) if d.mariadb else mysql_flags)


def _time(d: Dialect, mysql_type: int, mysql_flags: int) -> ColumnDef:
    return ColumnDef(DATETIME, BINARY, 19, BINARY_FLAG | NO_DEFAULT) if d.mariadb else \
        ColumnDef(mysql_type, BINARY, 19, mysql_flags)


def _name(d: Dialect, length: int = 256) -> ColumnDef:
    return _text(d, length, (NO_DEFAULT | NOT_NULL) if d.mariadb else (NO_DEFAULT | BINARY_FLAG | NOT_NULL))


def databases_columns(d: Dialect) -> list[ColumnDef]:
    return [_name(d)]


def database_rows(tables: list[Table]) -> list[str]:
    """information_schema (which the primary answers from) and every schema a served table is in."""
    return sorted({"information_schema"} | {t.schema for t in tables})


def tables_columns(d: Dialect, full: bool) -> list[ColumnDef]:
    name = _name(d, 292 if d.mariadb else 256)
    if not full:
        return [name]
    kind = _text(d, 256, NO_DEFAULT | NOT_NULL) if d.mariadb else \
        ColumnDef(STRING, d.text_charset, 44, NO_DEFAULT | ENUM_FLAG | BINARY_FLAG | NOT_NULL)
    return [name, kind]


STATUS_NAMES = ["Name", "Engine", "Version", "Row_format", "Rows", "Avg_row_length", "Data_length",
                "Max_data_length", "Index_length", "Data_free", "Auto_increment", "Create_time", "Update_time",
                "Check_time", "Collation", "Checksum", "Create_options", "Comment"]
MARIADB_STATUS_NAMES = [*STATUS_NAMES, "Max_index_length", "Temporary"]


def _mysql_status_where(cs: int) -> list[ColumnDef]:
    """MySQL's SHOW TABLE STATUS with a WHERE clause: its columns come out of a materialized
    derived table, with other types and flags than without (recorded from 9.7)."""
    text = ColumnDef(VAR_STRING, cs, 256, NO_DEFAULT | PART_KEY | BINARY_FLAG | NOT_NULL)
    number = ColumnDef(LONGLONG, BINARY, 21, UNSIGNED | BINARY_FLAG)
    return [text, ColumnDef(VAR_STRING, cs, 256, 0, NOT_FIXED_DEC), ColumnDef(LONGLONG, BINARY, 3, BINARY_FLAG),
            ColumnDef(STRING, cs, 40, ENUM_FLAG | BINARY_FLAG), *([number] * 7),
            ColumnDef(TIMESTAMP, BINARY, 19, NO_DEFAULT | BINARY_FLAG | NOT_NULL),
            ColumnDef(DATETIME, BINARY, 19, BINARY_FLAG), ColumnDef(DATETIME, BINARY, 19, BINARY_FLAG),
            ColumnDef(VAR_STRING, cs, 256, NO_DEFAULT | PART_KEY | UNIQUE_KEY),
            ColumnDef(LONGLONG, BINARY, 21, BINARY_FLAG),
            ColumnDef(VAR_STRING, cs, 1024, 0, NOT_FIXED_DEC), ColumnDef(VAR_STRING, cs, 8192, 0, NOT_FIXED_DEC)]


def status_columns(d: Dialect, where: bool = False) -> tuple[list[str], list[ColumnDef]]:
    if where and not d.mariadb:
        return STATUS_NAMES, _mysql_status_where(d.text_charset)
    text = NO_DEFAULT if d.mariadb else 0
    defs = [_name(d), _text(d, 256, text),
            ColumnDef(LONGLONG, BINARY, 21, UNSIGNED | NO_DEFAULT) if d.mariadb else ColumnDef(LONG, BINARY, 3, 0),
            _text(d, 40, NO_DEFAULT) if d.mariadb else ColumnDef(STRING, d.text_charset, 40, ENUM_FLAG | BINARY_FLAG),
            *(_number(d) for _ in range(7)),
            _time(d, TIMESTAMP, NO_DEFAULT | BINARY_FLAG | NOT_NULL), _time(d, DATETIME, BINARY_FLAG),
            _time(d, DATETIME, BINARY_FLAG),
            _text(d, d.collation_length, NO_DEFAULT) if d.mariadb else _text(d, 256, NO_DEFAULT),
            _number(d, mysql_flags=0),
            _text(d, 8192 if d.mariadb else 1024, text),
            _text(d, 8192, NO_DEFAULT | NOT_NULL) if d.mariadb else ColumnDef(BLOB, d.text_charset, 24576, BLOB_FLAG)]
    if d.mariadb:
        return MARIADB_STATUS_NAMES, [*defs, _number(d), _text(d, 4, NO_DEFAULT)]
    return STATUS_NAMES, defs


def status_row(t: Table, d: Dialect) -> list[Value]:
    """Only the name is known; Version 10 is every server's frm/DD version; not temporary (a
    temporary table's rows are not logged in ROW format)."""
    row: list[Value] = [t.name, None, 10, None, *([None] * 7), None, None, None, None, None, "", ""]
    return [*row, None, "N"] if d.mariadb else row
