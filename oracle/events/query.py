"""QUERY_EVENT (2) and MariaDB's QUERY_COMPRESSED_EVENT (165).

Post-header: thread_id u32, query_exec_time u32, db_len u8, error_code u16 and, from binlog v4 on
(post-header longer than 11 bytes), status_vars_len u16. Any further post-header bytes belong to
derived events (Execute_load_query) or to newer servers. Payload: status_vars_len bytes of status
variables, the default database (db_len bytes and a NUL), and the query to the end of the body.
A compressed Query event differs only in its query, which is MariaDB-compressed.
"""
from __future__ import annotations

from typing import Any, Callable

from ..compression import mariadb_uncompress
from ..context import DecodeContext
from ..errors import BadEventBody
from ..header import Header
from ..memo import BodyMemo
from ..reader import Reader
from ..values import text
from .fields import counted_cstring, post_header
from .status_vars import read_status_vars

QUERY_HEADER_MINIMAL_LEN = 11  # binlog v1 and v3
QUERY_HEADER_LEN = 13  # binlog v4

# Reads a derived event's fields from the rest of the post-header (after status_vars_len).
DerivedPostHeader = Callable[[Reader], dict[str, Any]]


# A Query body reads only its bytes, the post-header length and the flavor's status variables,
# so it is kept by those (oracle/memo.py): `BEGIN` starts every transaction. Each event gets its
# own body and status_vars dicts.
_DECODED = BodyMemo()


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    fmt = ctx.format
    post_len = fmt.post_header_len(header.type_code) if fmt.post_header_lengths else QUERY_HEADER_LEN
    body = _DECODED.get((fmt.flavor, post_len), bytes(r.buf[r.pos:r.end]),
                        lambda: read_query(r, ctx, header)[0])
    return {**body, "status_vars": dict(body["status_vars"])}


def decode_compressed(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return read_query(r, ctx, header, compressed=True)[0]


def read_query(r: Reader, ctx: DecodeContext, header: Header, *,
               v4_post_header_len: int = QUERY_HEADER_LEN,
               derived: DerivedPostHeader | None = None,
               compressed: bool = False) -> tuple[dict[str, Any], bytes]:
    """The Query body shared by every event built on it, and the raw query bytes (derived events
    check positions against them)."""
    ph = post_header(r, ctx, header.type_code, v4_post_header_len)
    if ph.remaining() < QUERY_HEADER_MINIMAL_LEN:
        raise BadEventBody(ph.offset, f"Query post-header is {ph.remaining()} bytes, "
                                      f"below the {QUERY_HEADER_MINIMAL_LEN} every version has")
    body: dict[str, Any] = {
        "thread_id": ph.u32("thread_id"),
        "query_exec_time": ph.u32("query_exec_time"),
        "db_len": ph.u8("db_len"),
        "error_code": ph.u16("error_code"),
        "status_vars_len": None,
    }
    status_vars: dict[str, Any] = {}
    if ph.remaining():
        body["status_vars_len"] = ph.u16("status_vars_len")
        if derived is not None:
            body.update(derived(ph))
        block = r.sub(body["status_vars_len"], "status_vars")
        status_vars = read_status_vars(block, ctx.format.flavor)
    body["status_vars"] = status_vars
    body["db"] = text(counted_cstring(r, body["db_len"], "db"))
    query = mariadb_uncompress(r, "query") if compressed else r.rest()
    body["query"] = text(query)
    return body, query
