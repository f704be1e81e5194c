"""Column type codes as Table_map events carry them (MySQL's enum_field_types, plus MariaDB's
compressed-column codes), and the groups that optional metadata counts columns by."""
from __future__ import annotations

from enum import IntEnum


class ColumnType(IntEnum):
    DECIMAL = 0
    TINY = 1
    SHORT = 2
    LONG = 3
    FLOAT = 4
    DOUBLE = 5
    NULL = 6
    TIMESTAMP = 7
    LONGLONG = 8
    INT24 = 9
    DATE = 10
    TIME = 11
    DATETIME = 12
    YEAR = 13
    NEWDATE = 14
    VARCHAR = 15
    BIT = 16
    TIMESTAMP2 = 17
    DATETIME2 = 18
    TIME2 = 19
    TYPED_ARRAY = 20  # MySQL 8.0 multi-valued indexes; MariaDB reuses 20 for nothing in binlogs
    VARCHAR_COMPRESSED = 140  # MariaDB
    BLOB_COMPRESSED = 141  # MariaDB
    VECTOR = 242
    INVALID = 243
    BOOL = 244
    JSON = 245
    NEWDECIMAL = 246
    ENUM = 247
    SET = 248
    TINY_BLOB = 249
    MEDIUM_BLOB = 250
    LONG_BLOB = 251
    BLOB = 252
    VAR_STRING = 253
    STRING = 254
    GEOMETRY = 255


_TYPE_NAMES = {int(t): "MYSQL_TYPE_" + t.name for t in ColumnType}  # a dict: named per column


def type_name(code: int) -> str:
    name = _TYPE_NAMES.get(code)
    return name if name is not None else f"UNKNOWN_TYPE_{code}"


T = ColumnType

# Columns that SIGNEDNESS has a bit for (MySQL's is_numeric_type over the real type).
NUMERIC_TYPES = frozenset({T.TINY, T.SHORT, T.INT24, T.LONG, T.LONGLONG, T.NEWDECIMAL, T.FLOAT, T.DOUBLE})
# Columns that the SIGNEDNESS optional field has a bit for: the servers count YEAR too (seen with
# MySQL 9.7 and MariaDB 10.11, whose mysqlbinlog --print-table-metadata reads it so; the Debian
# mariadb-binlog 10.11 does not, and so shows the next numeric columns with the wrong sign).
SIGNEDNESS_TYPES = NUMERIC_TYPES | {T.YEAR}
# Columns that DEFAULT_CHARSET / COLUMN_CHARSET count (is_character_type over the real type).
CHARACTER_TYPES = frozenset({T.STRING, T.VAR_STRING, T.VARCHAR, T.BLOB, T.TINY_BLOB, T.MEDIUM_BLOB,
                             T.LONG_BLOB, T.VARCHAR_COMPRESSED, T.BLOB_COMPRESSED})
ENUM_SET_TYPES = frozenset({T.ENUM, T.SET})
