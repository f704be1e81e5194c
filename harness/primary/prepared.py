"""Prepared statements (COM_STMT_PREPARE / EXECUTE / CLOSE / RESET), for clients that look up
columns with one: @vlasky/zongji and the other mysql2-based ZongJi forks send
`SELECT ... FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA=? AND TABLE_NAME=?`
(docs/replication-clients.md). A statement is answered like COM_QUERY, with the bound values
written into the text as literals, and its rows sent in the binary protocol (mysql-server
sql/protocol_classic.cc: the 0x00 row header, a NULL bitmap offset by 2, then the values)."""
from __future__ import annotations

import struct
from dataclasses import dataclass, field

from oracle.wire.packets import (CLIENT_DEPRECATE_EOF, EofPacket, ErrPacket, OkPacket, end_of_rows, lenenc_int,
                                 lenenc_str, read_lenenc_str)
from oracle.wire.errors import PacketError

from . import queries
from .resultset import MYSQL_TYPE_LONGLONG, MYSQL_TYPE_VAR_STRING, ResultSet, column_definition, inferred_definition
from .sqltext import outside_quotes

ER_UNKNOWN_STMT_HANDLER = 1243
ER_MALFORMED_PACKET = 1835

# Bound parameter types -> (size in bytes, struct format) for fixed-size ones; the rest are
# length-encoded strings (the string, decimal, temporal and blob types clients bind names with).
_FIXED = {0x01: (1, "<b"), 0x02: (2, "<h"), 0x03: (4, "<i"), 0x08: (8, "<q"), 0x04: (4, "<f"), 0x05: (8, "<d")}
_UNSIGNED = 0x8000


@dataclass
class Statement:
    sql: str
    params: int
    types: list[int] = field(default_factory=list)  # as last bound (new_params_bound may be 0 later)


@dataclass
class Statements:
    """One session's prepared statements."""

    by_id: dict[int, Statement] = field(default_factory=dict)
    next_id: int = 1


def _placeholders(sql: str) -> list[int]:
    """Offsets of the `?` outside quotes."""
    return [i for i, c in outside_quotes(sql) if c == "?"]


def _literal(value: str | int | float | None) -> str:
    if value is None:
        return "NULL"
    if isinstance(value, (int, float)):
        return repr(value)
    return "'" + value.replace("\\", "\\\\").replace("'", "''") + "'"


def _bind(sql: str, values: list[str | int | float | None]) -> str:
    parts, last = [], 0
    for offset, value in zip(_placeholders(sql), values):
        parts += [sql[last:offset], _literal(value)]
        last = offset + 1
    return "".join(parts) + sql[last:]


def _definitions(names: list[str], types: list[int], capabilities: int) -> list[bytes]:
    out = [column_definition(n, inferred_definition(t)) for n, t in zip(names, types)]
    if out and not capabilities & CLIENT_DEPRECATE_EOF:
        out.append(EofPacket().encode())
    return out


def prepare(session: queries.QuerySession, statements: Statements, sql: str, capabilities: int) -> list[bytes]:
    """The prepare reply: its OK (id, column and parameter counts), then the definitions."""
    n_params = len(_placeholders(sql))
    probe = queries.answer(session, _bind(sql, [""] * n_params))
    if isinstance(probe, ErrPacket):
        return [probe.encode()]
    columns = probe.columns if isinstance(probe, ResultSet) else []
    stmt_id = statements.next_id
    statements.next_id += 1
    statements.by_id[stmt_id] = Statement(sql, n_params)
    ok = b"\x00" + struct.pack("<IHHBH", stmt_id, len(columns), n_params, 0, 0)
    return [ok, *_definitions(["?"] * n_params, [MYSQL_TYPE_VAR_STRING] * n_params, capabilities),
            *_definitions(columns, [MYSQL_TYPE_VAR_STRING] * len(columns), capabilities)]


def _values(payload: bytes, stmt: Statement) -> list[str | int | float | None]:
    """The bound values of a COM_STMT_EXECUTE (after stmt_id, flags, iteration count)."""
    pos = 10
    if not stmt.params:
        return []
    nulls = payload[pos:pos + (stmt.params + 7) // 8]
    pos += len(nulls)
    if pos >= len(payload):
        raise PacketError(pos, "no new_params_bound flag")
    if payload[pos] == 1:
        stmt.types = [struct.unpack_from("<H", payload, pos + 1 + 2 * i)[0] for i in range(stmt.params)]
        pos += 1 + 2 * stmt.params
    else:
        pos += 1
    if len(stmt.types) != stmt.params:
        raise PacketError(pos, "parameters bound without their types")
    values: list[str | int | float | None] = []
    for i, t in enumerate(stmt.types):
        if nulls[i // 8] >> (i % 8) & 1:
            values.append(None)
        elif t & 0xFF in _FIXED:
            size, fmt = _FIXED[t & 0xFF]
            fmt = fmt.upper() if t & _UNSIGNED and fmt[-1] not in "fd" else fmt
            values.append(struct.unpack_from(fmt, payload, pos)[0])
            pos += size
        else:
            raw, pos = read_lenenc_str(payload, pos)
            values.append(None if raw is None else raw.decode("utf-8", "replace"))
    return values


def _binary_row(row: list, types: list[int]) -> bytes:
    bitmap = bytearray((len(row) + 7 + 2) // 8)
    cells = []
    for i, (v, t) in enumerate(zip(row, types)):
        if v is None:
            bitmap[(i + 2) // 8] |= 1 << ((i + 2) % 8)
        elif t == MYSQL_TYPE_LONGLONG:
            cells.append(struct.pack("<q", v))
        else:
            cells.append(lenenc_str(str(v)))
    return b"\x00" + bytes(bitmap) + b"".join(cells)


def execute(session: queries.QuerySession, statements: Statements, payload: bytes, capabilities: int) -> list[bytes]:
    if len(payload) < 10:
        return [ErrPacket(ER_MALFORMED_PACKET, "Malformed communication packet.").encode()]
    stmt = statements.by_id.get(struct.unpack_from("<I", payload, 1)[0])
    if stmt is None:
        return [ErrPacket(ER_UNKNOWN_STMT_HANDLER, "Unknown prepared statement handler given to "
                          "mysqld_stmt_execute", "HY000").encode()]
    try:
        values = _values(payload, stmt)
    except (PacketError, struct.error, IndexError):
        return [ErrPacket(ER_MALFORMED_PACKET, "Malformed communication packet.").encode()]
    reply = queries.answer(session, _bind(stmt.sql, values))
    if not isinstance(reply, ResultSet):
        return [reply.encode()]
    types = [reply.column_type(i) for i in range(len(reply.columns))]
    return [lenenc_int(len(reply.columns)), *_definitions(reply.columns, types, capabilities),
            *(_binary_row(r, types) for r in reply.rows), end_of_rows(capabilities)]


def close(statements: Statements, payload: bytes) -> None:
    """COM_STMT_CLOSE: no reply, even for an unknown id."""
    if len(payload) >= 5:
        statements.by_id.pop(struct.unpack_from("<I", payload, 1)[0], None)


def reset(statements: Statements, payload: bytes) -> bytes:
    known = len(payload) >= 5 and struct.unpack_from("<I", payload, 1)[0] in statements.by_id
    return OkPacket().encode() if known else ErrPacket(
        ER_UNKNOWN_STMT_HANDLER, "Unknown prepared statement handler given to mysqld_stmt_reset", "HY000").encode()
