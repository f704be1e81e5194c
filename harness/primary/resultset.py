"""Text-protocol result sets: column count, column definitions, rows, and the end marker (EOF, or
OK with the 0xFE header when the client set CLIENT_DEPRECATE_EOF)."""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

from oracle.wire.packets import (CLIENT_DEPRECATE_EOF, SERVER_STATUS_AUTOCOMMIT, EofPacket, end_of_rows, lenenc_int,
                                 lenenc_str)

MYSQL_TYPE_LONGLONG = 0x08
MYSQL_TYPE_VAR_STRING = 0xFD
_CHARSET = {MYSQL_TYPE_LONGLONG: 63, MYSQL_TYPE_VAR_STRING: 255}  # binary; utf8mb4_0900_ai_ci
_DECIMALS = {MYSQL_TYPE_LONGLONG: 0, MYSQL_TYPE_VAR_STRING: 31}  # 31: NOT_FIXED_DEC
BINARY_FLAG, NOT_NULL_FLAG = 0x80, 0x01
_COLDEF_TAIL = struct.Struct("<BHIBHBH")

Value = str | int | None


@dataclass(frozen=True)
class ColumnDef:
    """A column definition as a real server sends it for a statement whose columns are fixed
    (SHOW TABLE STATUS ...): type, character set, display length in bytes, flags, decimals."""
    type_code: int
    charset: int
    length: int
    flags: int
    decimals: int = 0


@dataclass
class ResultSet:
    columns: list[str]
    rows: list[list[Value]] = field(default_factory=list)
    definitions: list[ColumnDef] | None = None  # None: typed by the values (integer or string)

    def column_type(self, i: int) -> int:
        values = [r[i] for r in self.rows if r[i] is not None]
        return MYSQL_TYPE_LONGLONG if values and all(isinstance(v, int) for v in values) else MYSQL_TYPE_VAR_STRING


def inferred_definition(type_code: int) -> ColumnDef:
    flags = BINARY_FLAG | NOT_NULL_FLAG if type_code == MYSQL_TYPE_LONGLONG else 0
    return ColumnDef(type_code, _CHARSET[type_code], 21 if type_code == MYSQL_TYPE_LONGLONG else 1024, flags,
                     _DECIMALS[type_code])


def column_definition(name: str, d: ColumnDef) -> bytes:
    return (lenenc_str(b"def") + lenenc_str(b"") + lenenc_str(b"") + lenenc_str(b"") + lenenc_str(name)
            + lenenc_str(b"") + _COLDEF_TAIL.pack(0x0C, d.charset, d.length, d.type_code, d.flags, d.decimals, 0))


def _cell(v: Value) -> bytes:
    return b"\xfb" if v is None else lenenc_str(str(v))


def encode(rs: ResultSet, capabilities: int, status: int = SERVER_STATUS_AUTOCOMMIT) -> list[bytes]:
    """The payloads, in order; `status`: the server status flags the EOF/OK markers carry."""
    out = [lenenc_int(len(rs.columns))]
    definitions = rs.definitions or [inferred_definition(rs.column_type(i)) for i in range(len(rs.columns))]
    out += [column_definition(name, d) for name, d in zip(rs.columns, definitions)]
    if not capabilities & CLIENT_DEPRECATE_EOF:
        out.append(EofPacket(status=status).encode())
    out += [b"".join(_cell(v) for v in row) for row in rs.rows]
    out.append(end_of_rows(capabilities, status))
    return out
