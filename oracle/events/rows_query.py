"""ROWS_QUERY_LOG_EVENT (29): the statement behind the row events that follow
(binlog_rows_query_log_events). A 1-byte length comes first, but it is truncated for statements
over 255 bytes, so the servers ignore it and take the statement to the end of the body; it is kept
here as written."""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..header import Header
from ..reader import Reader
from ..values import text


def decode(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {"length": r.u8("length"), "rows_query": text(r.rest())}
