"""LOAD DATA INFILE events, old and new.

MySQL 3.23-4.x logged LOAD DATA as a Load event (LOAD_EVENT 6; NEW_LOAD_EVENT 12 allows
multi-byte terminators), from 4.0 on with the file shipped in blocks: CREATE_FILE_EVENT (8, the
Load fields plus the first block), APPEND_BLOCK_EVENT (9), then EXEC_LOAD_EVENT (10) or
DELETE_FILE_EVENT (11). MySQL 5.0.3+ and MariaDB use BEGIN_LOAD_QUERY_EVENT (17, like Append_block)
and EXECUTE_LOAD_QUERY_EVENT (18, a Query event naming the file).

Load layout: post-header thread_id u32, exec_time u32, skip_lines u32, table_name_len u8, db_len
u8, num_fields u32 (18 bytes); then sql_ex, num_fields field-name lengths (u8 each), the field
names, table name and database (each NUL-terminated), and the file name. sql_ex is 7 single bytes
(field_term, enclosed, line_term, line_start, escaped, opt_flags, empty_flags) for LOAD_EVENT and
five u8-length strings plus opt_flags otherwise. A Create_file event puts its file_id after the Load
post-header, NUL-terminates the file name and carries the block after it; binlog v1 Create_file
events (a format no server wrote) have neither file_id nor block (MySQL's Create_file_event).
"""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..errors import BadEventBody
from ..event_types import EventType as T
from ..header import Header
from ..reader import Reader
from ..values import binary, text
from .fields import counted_cstring, post_header
from .query import QUERY_HEADER_LEN, read_query

LOAD_HEADER_LEN = 18
FILE_ID_HEADER_LEN = 4  # Create_file, Append_block, Exec_load, Delete_file, Begin_load_query
EXECUTE_LOAD_QUERY_EXTRA_HEADER_LEN = 13
DUP_HANDLING = {0: "LOAD_DUP_ERROR", 1: "LOAD_DUP_IGNORE", 2: "LOAD_DUP_REPLACE"}
_SQL_EX_STRINGS = ("field_term", "enclosed", "line_term", "line_start", "escaped")


def _load_post_header(ph: Reader) -> dict[str, Any]:
    return {"thread_id": ph.u32("thread_id"), "exec_time": ph.u32("exec_time"),
            "skip_lines": ph.u32("skip_lines"), "table_name_len": ph.u8("table_name_len"),
            "db_len": ph.u8("db_len"), "num_fields": ph.u32("num_fields")}


def _old_sql_ex(r: Reader) -> dict[str, Any]:
    """Single-byte terminators; empty_flags says which of them are empty (the byte is then
    meaningless but kept)."""
    out: dict[str, Any] = {name: text(r.bytes(1, name)) for name in _SQL_EX_STRINGS}
    out["opt_flags"] = r.u8("opt_flags")
    out["empty_flags"] = r.u8("empty_flags")
    return out


def _new_sql_ex(r: Reader) -> dict[str, Any]:
    out: dict[str, Any] = {name: text(r.u8_bytes(name)) for name in _SQL_EX_STRINGS}
    out["opt_flags"] = r.u8("opt_flags")
    out["empty_flags"] = None
    return out


def _load_payload(r: Reader, fixed: dict[str, Any], old_sql_ex: bool) -> dict[str, Any]:
    """sql_ex, field names, table and database; the caller reads the file name."""
    body = dict(fixed)
    body["sql_ex"] = _old_sql_ex(r) if old_sql_ex else _new_sql_ex(r)
    lens = r.bytes(fixed["num_fields"], "field_lens")
    body["field_lens"] = list(lens)
    body["fields"] = [text(counted_cstring(r, n, "field name")) for n in lens]
    body["table_name"] = text(counted_cstring(r, fixed["table_name_len"], "table_name"))
    body["db"] = text(counted_cstring(r, fixed["db_len"], "db"))
    return body


def _fname_to_nul_or_end(r: Reader) -> bytes:
    """The servers NUL-terminate the event in memory and take the name with strlen."""
    rest = r.rest()
    return rest.split(b"\0", 1)[0]


def _decode_load_like(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    fixed = _load_post_header(post_header(r, ctx, header.type_code, LOAD_HEADER_LEN))
    body = _load_payload(r, fixed, old_sql_ex=header.type_code == T.LOAD_EVENT)
    body["fname"] = text(_fname_to_nul_or_end(r))
    return body


decode_load = _decode_load_like
decode_new_load = _decode_load_like


def decode_create_file(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    fixed = _load_post_header(post_header(r, ctx, T.LOAD_EVENT, LOAD_HEADER_LEN))
    own = post_header(r, ctx, header.type_code, FILE_ID_HEADER_LEN)
    if ctx.format.binlog_version == 1:
        body = _load_payload(r, fixed, old_sql_ex=False)
        body.update(file_id=None, fname=text(_fname_to_nul_or_end(r)), block=None)
        return body
    file_id = own.u32("file_id")
    body = _load_payload(r, fixed, old_sql_ex=False)
    body.update(file_id=file_id, fname=text(r.cstring("fname")), block=binary(r.rest()))
    return body


def _file_id(r: Reader, ctx: DecodeContext, header: Header) -> int:
    return post_header(r, ctx, header.type_code, FILE_ID_HEADER_LEN).u32("file_id")


def decode_append_block(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {"file_id": _file_id(r, ctx, header), "block": binary(r.rest())}


decode_begin_load_query = decode_append_block


def decode_exec_load(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {"file_id": _file_id(r, ctx, header)}


decode_delete_file = decode_exec_load


def _execute_load_query_fields(ph: Reader) -> dict[str, Any]:
    return {"file_id": ph.u32("file_id"), "fn_pos_start": ph.u32("fn_pos_start"),
            "fn_pos_end": ph.u32("fn_pos_end"), "dup_handling": ph.u8("dup_handling")}


def decode_execute_load_query(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    """A Query event whose post-header goes on with the file fields; fn_pos_start..fn_pos_end
    is where the file name sits in the query. Like the servers, reject positions past the query
    and an undefined dup_handling."""
    at = r.offset
    body, query = read_query(r, ctx, header, derived=_execute_load_query_fields,
                             v4_post_header_len=QUERY_HEADER_LEN + EXECUTE_LOAD_QUERY_EXTRA_HEADER_LEN)
    if body["fn_pos_start"] > len(query) or body["fn_pos_end"] > len(query):
        raise BadEventBody(at, f"file name at {body['fn_pos_start']}..{body['fn_pos_end']} "
                               f"lies past the {len(query)}-byte query")
    if body["dup_handling"] not in DUP_HANDLING:
        raise BadEventBody(at, f"dup_handling {body['dup_handling']} is not defined")
    body["dup_handling_name"] = DUP_HANDLING[body["dup_handling"]]
    return body


__all__ = ["decode_load", "decode_new_load", "decode_create_file", "decode_append_block",
           "decode_exec_load", "decode_delete_file", "decode_begin_load_query",
           "decode_execute_load_query"]
