"""MariaDB GTID_EVENT (162), GTID_LIST_EVENT (163) and BINLOG_CHECKPOINT_EVENT (161)."""
from __future__ import annotations

from typing import Any

from ...events.mariadb_binlog_checkpoint import BINLOG_CHECKPOINT_HEADER_LEN
from ...events.mariadb_gtid import _EXTRA_FIELDS, FL_GROUP_COMMIT_ID, FL_XA, GTID_HEADER_LEN
from ..context import EncodeContext, EventHead
from ..writer import Writer, as_bytes
from .fields import post_header_len, trailing
from .xa_prepare import xid_parts


def encode_gtid(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    """Fields in order, then zeros up to the post-header length, as Gtid_log_event::write pads
    (a decoded padding byte came back as flags_extra 0, which writes the same zero)."""
    flags2 = body["flags2"]
    w = Writer().u64(body["seq_no"], "seq_no").u32(body["domain_id"], "domain_id").u8(flags2, "flags2")
    if flags2 & FL_GROUP_COMMIT_ID:
        w.u64(body["commit_id"], "commit_id")
    if flags2 & FL_XA:
        gtrid, bqual = xid_parts(body)
        w.u32(body["format_id"], "formatID").u8(len(gtrid)).u8(len(bqual)).raw(gtrid).raw(bqual)
    if "flags_extra" in body:
        flags_extra = body["flags_extra"]
        w.u8(flags_extra, "flags_extra")
        for bits, name, width in _EXTRA_FIELDS:
            if flags_extra & bits:
                w.uint(width, body[name], name)
    return w.zeros(post_header_len(ctx, head.type_code, GTID_HEADER_LEN) - len(w)).bytes()


def encode_gtid_list(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    gtids = body["list"]
    w = Writer().u32(len(gtids) | body["gl_flags"], "count")
    for g in gtids:
        w.u32(g["domain_id"], "domain_id").u32(g["server_id"], "server_id").u64(g["seq_no"], "seq_no")
    return w.raw(trailing(body)).bytes()


def encode_binlog_checkpoint(body: dict[str, Any], ctx: EncodeContext, head: EventHead) -> bytes:
    name = as_bytes(body["binlog_file_name"], "binlog_file_name")
    w = Writer().u32(len(name), "binlog_file_len")
    w.zeros(post_header_len(ctx, head.type_code, BINLOG_CHECKPOINT_HEADER_LEN) - len(w))
    return w.raw(name).bytes()
