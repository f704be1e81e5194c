"""QUERY_EVENT (2) and MariaDB's QUERY_COMPRESSED_EVENT (165); the Query body shared with
Execute_load_query (load.py). Lengths (db_len, status_vars_len) are recomputed from the data."""
from __future__ import annotations

from typing import Any, Callable

from ...events.query import QUERY_HEADER_LEN, QUERY_HEADER_MINIMAL_LEN
from ..compression import mariadb_compress
from ..context import EncodeContext, EventHead
from ..writer import EncodeError, Writer, as_bytes
from .fields import counted_cstring, fit_post_header, post_header_len
from .status_vars import encode_status_vars

# Writes a derived event's fields into the post-header, after status_vars_len.
DerivedPostHeader = Callable[[Writer, dict[str, Any]], None]


def encode(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return write_query(body, ctx, head)


def encode_compressed(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return write_query(body, ctx, head, compressed=True)


def write_query(body: dict[str, Any], ctx: EncodeContext, head: EventHead, *,
                v4_post_header_len: int = QUERY_HEADER_LEN,
                derived: DerivedPostHeader | None = None, compressed: bool = False) -> bytes:
    length = post_header_len(ctx, head.type_code, v4_post_header_len)
    db = as_bytes(body["db"], "db")
    ph = Writer().u32(body["thread_id"], "thread_id").u32(body["query_exec_time"], "query_exec_time")
    ph.u8(len(db), "db_len").u16(body["error_code"], "error_code")
    status = b""
    if length > QUERY_HEADER_MINIMAL_LEN:
        status = encode_status_vars(body.get("status_vars") or {}, ctx.format.flavor)
        ph.u16(len(status), "status_vars_len")
        if derived is not None:
            derived(ph, body)
    elif body.get("status_vars"):
        raise EncodeError("status variables need a post-header with status_vars_len (binlog v4)")
    w = Writer().raw(fit_post_header(ph, length, "Query")).raw(status)
    counted_cstring(w, db)
    query = as_bytes(body["query"], "query")
    return w.raw(mariadb_compress(query) if compressed else query).bytes()
