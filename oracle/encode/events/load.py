"""LOAD DATA events, old and new: the mirror of oracle/events/load.py. Lengths (table_name_len,
db_len, num_fields, field_lens) are recomputed from the names."""
from __future__ import annotations

from typing import Any

from ...event_types import EventType as T
from ...events.load import (EXECUTE_LOAD_QUERY_EXTRA_HEADER_LEN, FILE_ID_HEADER_LEN, LOAD_HEADER_LEN,
                            _SQL_EX_STRINGS)
from ...events.query import QUERY_HEADER_LEN
from ..context import EncodeContext, EventHead
from ..writer import EncodeError, Writer, as_bytes
from .fields import counted_cstring, fit_post_header, post_header_len
from .query import write_query


def _names(body: dict[str, Any]) -> tuple[list[bytes], bytes, bytes]:
    fields = [as_bytes(f, "field name") for f in body["fields"]]
    return fields, as_bytes(body["table_name"], "table_name"), as_bytes(body["db"], "db")


def _sql_ex(w: Writer, sql_ex: dict[str, Any], old: bool) -> None:
    for name in _SQL_EX_STRINGS:
        value = as_bytes(sql_ex[name], name)
        if old:
            if len(value) != 1:
                raise EncodeError(f"old sql_ex {name} must be one byte, got {len(value)}")
            w.raw(value)
        else:
            w.u8_bytes(value, name)
    w.u8(sql_ex["opt_flags"], "opt_flags")
    if old:
        w.u8(sql_ex["empty_flags"], "empty_flags")


def _load_payload(w: Writer, body: dict[str, Any], old_sql_ex: bool) -> Writer:
    fields, table, db = _names(body)
    _sql_ex(w, body["sql_ex"], old_sql_ex)
    w.raw(bytes(len(f) for f in fields))
    for f in fields:
        counted_cstring(w, f)
    counted_cstring(w, table)
    return counted_cstring(w, db)


def _fixed(body: dict[str, Any], ctx: EncodeContext, type_code: int) -> bytes:
    fields, table, db = _names(body)
    ph = Writer().u32(body["thread_id"], "thread_id").u32(body["exec_time"], "exec_time")
    ph.u32(body["skip_lines"], "skip_lines").u8(len(table), "table_name_len").u8(len(db), "db_len")
    ph.u32(len(fields), "num_fields")
    return fit_post_header(ph, post_header_len(ctx, type_code, LOAD_HEADER_LEN), "Load")


def _encode_load_like(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    w = Writer().raw(_fixed(body, ctx, head.type_code))
    _load_payload(w, body, old_sql_ex=head.type_code == T.LOAD_EVENT)
    return w.raw(as_bytes(body["fname"], "fname")).bytes()


encode_load = _encode_load_like
encode_new_load = _encode_load_like


def encode_create_file(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    w = Writer().raw(_fixed(body, ctx, T.LOAD_EVENT))
    own_len = post_header_len(ctx, head.type_code, FILE_ID_HEADER_LEN)
    if ctx.format.binlog_version == 1:
        w.zeros(own_len)
        _load_payload(w, body, old_sql_ex=False)
        return w.raw(as_bytes(body["fname"], "fname")).bytes()
    w.raw(fit_post_header(Writer().u32(body["file_id"], "file_id"), own_len, "Create_file"))
    _load_payload(w, body, old_sql_ex=False)
    return w.cstring(as_bytes(body["fname"], "fname")).raw(as_bytes(body["block"], "block")).bytes()


def _file_id(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return fit_post_header(Writer().u32(body["file_id"], "file_id"),
                           post_header_len(ctx, head.type_code, FILE_ID_HEADER_LEN), "file_id")


def encode_append_block(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return _file_id(body, ctx, head) + as_bytes(body["block"], "block")


encode_begin_load_query = encode_append_block
encode_exec_load = _file_id
encode_delete_file = _file_id


def _execute_load_query_fields(ph: Writer, body: dict[str, Any]) -> None:
    ph.u32(body["file_id"], "file_id").u32(body["fn_pos_start"], "fn_pos_start")
    ph.u32(body["fn_pos_end"], "fn_pos_end").u8(body["dup_handling"], "dup_handling")


def encode_execute_load_query(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    return write_query(body, ctx, head, derived=_execute_load_query_fields,
                       v4_post_header_len=QUERY_HEADER_LEN + EXECUTE_LOAD_QUERY_EXTRA_HEADER_LEN)
