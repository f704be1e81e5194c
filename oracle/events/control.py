"""Small control events: STOP_EVENT (3) and ROTATE_EVENT (4)."""
from __future__ import annotations

from typing import Any

from ..context import DecodeContext
from ..header import Header
from ..reader import Reader
from ..values import integer, text


def decode_stop(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    return {}


def decode_rotate(r: Reader, ctx: DecodeContext, header: Header) -> dict[str, Any]:
    """Binlog v1 has no position field (post-header length 0): the next log starts at 4."""
    pos = r.u64("pos") if ctx.format.post_header_len(header.type_code) >= 8 else 4
    return {"pos": integer(pos), "new_log_ident": text(r.rest())}
