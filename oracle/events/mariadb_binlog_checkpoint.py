"""MariaDB BINLOG_CHECKPOINT_EVENT (161): the oldest binlog file still needed for crash recovery
(Binlog_checkpoint_log_event): binlog_file_len (4) in a post-header of at least 4 bytes, then the
file name, that many bytes from the end of the post-header."""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..header import Header
from ..reader import Reader
from ..values import text
from .mariadb_gtid import mariadb_post_header_len

BINLOG_CHECKPOINT_HEADER_LEN = 4


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    length = mariadb_post_header_len(ctx, header.type_code, BINLOG_CHECKPOINT_HEADER_LEN,
                                     "Binlog_checkpoint", r)
    binlog_file_len = r.u32("binlog_file_len")
    r.skip(length - BINLOG_CHECKPOINT_HEADER_LEN, "post-header")
    return {"binlog_file_len": binlog_file_len,
            "binlog_file_name": text(r.bytes(binlog_file_len, "binlog_file_name"))}
